//! What a search for inbox text means, on every surface (`inbox_search`, `opsdesk inbox list
//! --grep`, the console's filter): words, not substrings.
//!
//! - `budget review`: records with both words, or words they begin (`quar` finds "quarterly";
//!   words of one or two letters only themselves), in any form the stemmer folds together
//!   ("reviews", "reviewed"), in the sender, subject, body or attachments;
//! - `"budget review"`: the phrase, its words exact; `"budget rev"*` ends with a prefix;
//! - `budg*`: any word starting so (at least three letters before the `*`);
//! - `-draft`, `-"out of office"`: without the word or phrase (with at least one word to find);
//! - `from:contoso`, `subject:"q3 plan"`: in the sender (name and address) or the subject only.
//!
//! Letters and digits make words; anything else separates them, so `alice@contoso.com` is the
//! phrase `alice contoso com` and `INC-1234` the phrase `inc 1234`. Case and diacritics do not
//! matter (`Nguyễn` finds `nguyen`).

use std::fmt;

/// Where a term must occur.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchField {
    /// Sender, subject, body or attachments.
    Any,
    /// The sender's name or address.
    From,
    Subject,
}

/// One term of a search: a word or phrase (its words, in order), maybe a prefix, maybe negated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchTerm {
    pub words: Vec<String>,
    /// The last word is a prefix (`budg*`).
    pub prefix: bool,
    pub negated: bool,
    pub field: SearchField,
}

/// A parsed search: every positive term must match, no negated one may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    pub terms: Vec<SearchTerm>,
}

/// The order of a search's answers.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum SearchOrder {
    /// Newest first (pages with `before`).
    #[default]
    Newest,
    /// Best match first: how well the words match (more in the subject and sender than deep
    /// in a body, rare words more than common ones), halved for every 30 days a match is
    /// older than the newest, among the newest 1,000 matches.
    Relevance,
}

/// Why search text cannot be searched for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchError(pub String);

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SearchError {}

/// How long a word may be (longer runs are cut): a search for a 10,000-letter "word" is
/// not a word anyone wrote.
const MAX_WORD_CHARS: usize = 64;
/// How many terms one search may have.
const MAX_TERMS: usize = 32;
/// Letters a prefix needs before its `*`: `a*` would match half the inbox.
pub const MIN_PREFIX_CHARS: usize = 3;

impl SearchQuery {
    pub fn parse(text: &str) -> Result<SearchQuery, SearchError> {
        let mut terms = Vec::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            let (negated, r) = match rest.strip_prefix('-') {
                Some(r) if !r.is_empty() && !r.starts_with(char::is_whitespace) => (true, r),
                _ => (false, rest),
            };
            let (field, r) = field_prefix(r);
            let quoted = r.starts_with('"');
            let (raw, star, r) = if let Some(q) = r.strip_prefix('"') {
                // An unclosed quote runs to the end: what the user typed so far, as a phrase.
                let end = q.find('"').unwrap_or(q.len());
                let after = q.get(end + 1..).unwrap_or("");
                match after.strip_prefix('*') {
                    Some(after) => (&q[..end], true, after),
                    None => (&q[..end], false, after),
                }
            } else {
                let end = r.find(char::is_whitespace).unwrap_or(r.len());
                match r[..end].strip_suffix('*') {
                    Some(word) => (word, true, &r[end..]),
                    None => (&r[..end], false, &r[end..]),
                }
            };
            rest = r.trim_start();
            let words = words_of(raw);
            if words.is_empty() {
                continue;
            }
            let short = words
                .last()
                .is_some_and(|w| w.chars().count() < MIN_PREFIX_CHARS);
            // A word typed bare finds the words it begins (`quar` finds "quarterly", as a filter
            // typed key by key must); in quotes it is exact.
            let prefix = star || (!quoted && !short);
            if star && short {
                return Err(SearchError(format!(
                    "`{}*` is too short a prefix: give at least {MIN_PREFIX_CHARS} letters before the `*`",
                    words.last().map(String::as_str).unwrap_or("")
                )));
            }
            terms.push(SearchTerm {
                words,
                prefix,
                negated,
                field,
            });
            if terms.len() > MAX_TERMS {
                return Err(SearchError(format!(
                    "a search may have at most {MAX_TERMS} words or phrases"
                )));
            }
        }
        if !terms.iter().any(|t| !t.negated) {
            return Err(SearchError(
                "nothing to search for: give at least one word (letters or digits) that is not excluded with `-`"
                    .into(),
            ));
        }
        Ok(SearchQuery { terms })
    }
}

fn field_prefix(s: &str) -> (SearchField, &str) {
    for (name, field) in [
        ("from:", SearchField::From),
        ("subject:", SearchField::Subject),
    ] {
        if s.len() > name.len() && s[..name.len()].eq_ignore_ascii_case(name) {
            return (field, &s[name.len()..]);
        }
    }
    (SearchField::Any, s)
}

/// The words of `s` as the index splits text: runs of letters and digits, lower case.
pub fn words_of(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.chars()
                .take(MAX_WORD_CHARS)
                .collect::<String>()
                .to_lowercase()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(words: &[&str]) -> SearchTerm {
        SearchTerm {
            words: words.iter().map(|w| w.to_string()).collect(),
            prefix: false,
            negated: false,
            field: SearchField::Any,
        }
    }

    fn bare(words: &[&str]) -> SearchTerm {
        SearchTerm {
            prefix: true,
            ..term(words)
        }
    }

    #[test]
    fn words_phrases_prefixes_exclusions_and_fields() {
        let q = SearchQuery::parse(
            r#"Budget "Q3 plan" revi* -draft from:alice@contoso.com subject:"go live" q3"#,
        )
        .unwrap();
        assert_eq!(
            q.terms,
            vec![
                bare(&["budget"]),
                term(&["q3", "plan"]),
                bare(&["revi"]),
                SearchTerm {
                    negated: true,
                    ..bare(&["draft"])
                },
                SearchTerm {
                    field: SearchField::From,
                    ..bare(&["alice", "contoso", "com"])
                },
                SearchTerm {
                    field: SearchField::Subject,
                    ..term(&["go", "live"])
                },
                // Too short to begin words: only itself.
                term(&["q3"]),
            ]
        );
    }

    #[test]
    fn punctuation_separates_words_and_an_open_quote_runs_to_the_end() {
        assert_eq!(
            SearchQuery::parse("INC-1234").unwrap().terms,
            vec![bare(&["inc", "1234"])]
        );
        assert_eq!(
            SearchQuery::parse("\"q3 pla\"*").unwrap().terms,
            vec![SearchTerm {
                prefix: true,
                ..term(&["q3", "pla"])
            }]
        );
        assert_eq!(
            SearchQuery::parse("\"out of off").unwrap().terms,
            vec![term(&["out", "of", "off"])]
        );
    }

    #[test]
    fn a_search_needs_something_to_find() {
        for bad in ["", "   ", "@@@", "-draft", "-\"a b\"", "a*", "ab*"] {
            let e = SearchQuery::parse(bad).unwrap_err();
            assert!(!e.0.is_empty(), "{bad}");
        }
        // A lone dash is no exclusion; a word after it is found.
        assert_eq!(
            SearchQuery::parse("- budget").unwrap().terms,
            vec![bare(&["budget"])]
        );
    }

    #[test]
    fn long_and_many_words_are_bounded() {
        let w = "x".repeat(1000);
        assert_eq!(SearchQuery::parse(&w).unwrap().terms[0].words[0].len(), 64);
        let many = (0..40)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(SearchQuery::parse(&many).is_err());
    }
}
