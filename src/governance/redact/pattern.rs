//! A detector's regular expression, searched so that the fast engines do the scanning.
//!
//! Why: the detectors use Unicode word boundaries (`\b`), which the lazy DFA cannot decide past
//! a non-ASCII byte; on any text with an accent, a curly quote or a dash the whole search fell
//! back to the PikeVM (a few MB/s per detector, ~100 detectors per text). Each pattern is
//! therefore also compiled *relaxed* — its Unicode word assertions removed, which only widens
//! what it matches — and searched in two steps: the relaxed regex (DFA only) finds each place
//! where a match could start, and the exact regex is tried anchored there. Every exact match
//! starts where a relaxed one does, so trying those places in order finds the same leftmost
//! match, with the same captures, as an unanchored exact search: the results are identical,
//! only the scanning is fast.

use std::ops::Range;

use aho_corasick::{AhoCorasick, MatchKind as AcKind};
use regex_automata::meta::{self, Regex as Meta};
use regex_automata::util::captures::Captures;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Capture, Hir, HirKind, Look, Repetition};

/// One compiled detector pattern (see the module comment).
pub(super) struct Pattern {
    exact: Meta,
    /// `None` when the pattern has no Unicode word assertion: the exact regex scans fast itself.
    relaxed: Option<Meta>,
    /// The pattern opens with `\b`: a place without a word boundary is skipped before the
    /// exact regex is tried (why: the relaxed roster matches "lee" inside "fleet" everywhere).
    opens_with_boundary: bool,
    /// The lines a match can lie in, when the pattern says so (see [`Gate`]).
    gate: Option<Gate>,
}

/// Where a roster's pattern can match. Why: a roster's case-insensitive alternation of every
/// form of hundreds of names is the costliest regex there is (its lazy DFA is rebuilt text
/// after text), and most lines hold none of its words. Every form is made of the roster's
/// words separated by blanks and punctuation, and never spans a line: a match lies in a line
/// holding one of those words, in any case, not glued to other letters. Only those lines are
/// searched; what is found there is what a search of the whole text finds.
pub(super) struct Gate {
    words: AhoCorasick,
}

impl Gate {
    pub(super) fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Gate, String> {
        let mut folded: Vec<String> = words
            .into_iter()
            .filter(|w| !w.is_empty())
            .map(fold_case)
            .collect();
        folded.sort();
        folded.dedup();
        let words = AhoCorasick::builder()
            .match_kind(AcKind::Standard)
            .build(&folded)
            .map_err(|e| e.to_string())?;
        Ok(Gate { words })
    }

    /// The lines of `text` (byte ranges without their newline) holding one of the words,
    /// in order.
    fn lines(&self, text: &str) -> Vec<Range<usize>> {
        let folded = fold_case(text);
        let mut out: Vec<Range<usize>> = Vec::new();
        for m in self.words.find_overlapping_iter(&folded) {
            if out.last().is_some_and(|l| m.start() < l.end) {
                continue;
            }
            if !edge_free(text, m.start(), m.end()) {
                continue;
            }
            let from = text[..m.start()].rfind('\n').map_or(0, |i| i + 1);
            let to = text[m.end()..]
                .find('\n')
                .map_or(text.len(), |i| m.end() + i);
            out.push(from..to);
        }
        out
    }
}

/// `s` in lower case where that keeps every character's length in bytes (so offsets into the
/// folded copy are offsets into `s`): what a case-insensitive search sees as equal, but for a
/// few letters whose case pairs differ in length (the Kelvin sign, the long s).
fn fold_case(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                return c.to_ascii_lowercase();
            }
            // Greek's final sigma is a case form of sigma too.
            if c == 'ς' {
                return 'σ';
            }
            let mut l = c.to_lowercase();
            match (l.next(), l.next()) {
                (Some(x), None) if x.len_utf8() == c.len_utf8() => x,
                _ => c,
            }
        })
        .collect()
}

/// Whether `text[start..end]` is not glued to a word character on either side where its own
/// edge is one (a word ending in a dot, "St.", may be followed by anything).
fn edge_free(text: &str, start: usize, end: usize) -> bool {
    let word =
        |c: Option<char>| c.is_some_and(|c| regex_syntax::try_is_word_character(c).unwrap_or(true));
    let inner = &text[start..end];
    let glued_before = word(inner.chars().next()) && word(text[..start].chars().next_back());
    let glued_after = word(inner.chars().next_back()) && word(text[end..].chars().next());
    !glued_before && !glued_after
}

/// A match: the whole of it and its value (the group named `v`, else the whole).
#[derive(Debug, Clone, Copy)]
pub(super) struct Hit {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) v_start: usize,
    pub(super) v_end: usize,
}

impl Pattern {
    /// Compile `pat` (`regex` crate syntax, as `regex::RegexBuilder` would with these
    /// settings). The error is a one-line reason without the pattern (a site pattern may hold
    /// an identifier).
    pub(super) fn new(
        pat: &str,
        case_insensitive: bool,
        size_limit: usize,
    ) -> Result<Pattern, String> {
        let hir = regex_syntax::ParserBuilder::new()
            .utf8(true)
            .case_insensitive(case_insensitive)
            .build()
            .parse(pat)
            .map_err(|e| last_line(&e.to_string()))?;
        let config = meta::Config::new()
            .match_kind(MatchKind::LeftmostFirst)
            .utf8_empty(true)
            .nfa_size_limit(Some(size_limit))
            .hybrid_cache_capacity(2 << 20);
        let build = |h: &Hir| {
            meta::Builder::new()
                .configure(config.clone())
                .build_from_hir(h)
                .map_err(|e| last_line(&e.to_string()))
        };
        let exact = build(&hir)?;
        let relaxed = if has_unicode_word(&hir) {
            // A roster's alternation is large: a bigger cache keeps its lazy DFA from thrashing.
            let big = meta::Builder::new()
                .configure(config.clone().hybrid_cache_capacity(16 << 20))
                .build_from_hir(&relax(&hir))
                .map_err(|e| last_line(&e.to_string()))?;
            Some(big)
        } else {
            None
        };
        let opens_with_boundary = match hir.kind() {
            HirKind::Concat(v) => {
                matches!(
                    v.first().map(Hir::kind),
                    Some(HirKind::Look(Look::WordUnicode))
                )
            }
            _ => false,
        } && regex_syntax::try_is_word_character('a').is_ok();
        Ok(Pattern {
            exact,
            relaxed,
            opens_with_boundary,
            gate: None,
        })
    }

    /// This pattern, searched only in the lines `gate` names (see [`Gate`]).
    pub(super) fn gated(mut self, gate: Gate) -> Pattern {
        self.gate = Some(gate);
        self
    }

    /// The parts of `text` to search, in order: the whole of it, or the lines the gate names.
    pub(super) fn windows(&self, text: &str) -> Vec<Range<usize>> {
        match &self.gate {
            None => std::iter::once(0..text.len()).collect(),
            Some(g) => g.lines(text),
        }
    }

    /// Captures to reuse across the searches of one text.
    pub(super) fn captures(&self) -> Captures {
        self.exact.create_captures()
    }

    /// The leftmost match starting at or after byte `pos` of `text` (what
    /// `regex::Regex::captures_at(text, pos)` returns).
    pub(super) fn next(&self, text: &str, pos: usize, caps: &mut Captures) -> Option<Hit> {
        self.next_before(text, pos, text.len(), caps)
    }

    /// As [`Pattern::next`], for a match that ends by byte `len` (a window of the text; what
    /// lies around it still decides the word boundaries at its edges).
    pub(super) fn next_before(
        &self,
        text: &str,
        pos: usize,
        len: usize,
        caps: &mut Captures,
    ) -> Option<Hit> {
        if pos > len {
            return None;
        }
        match &self.relaxed {
            None => self
                .exact
                .search_captures(&Input::new(text).span(pos..len), caps),
            Some(relaxed) => {
                let mut p = pos;
                loop {
                    let m = relaxed.search(&Input::new(text).span(p..len))?;
                    let at = m.start();
                    if !self.opens_with_boundary || word_boundary_at(text, at) {
                        self.exact.search_captures(
                            &Input::new(text).span(at..len).anchored(Anchored::Yes),
                            caps,
                        );
                        if caps.is_match() {
                            break;
                        }
                    }
                    p = at + 1;
                    while p < len && !text.is_char_boundary(p) {
                        p += 1;
                    }
                    if p > len {
                        return None;
                    }
                }
            }
        }
        let whole = caps.get_match()?;
        let v = caps.get_group_by_name("v").unwrap_or(whole.span());
        Some(Hit {
            start: whole.start(),
            end: whole.end(),
            v_start: v.start,
            v_end: v.end,
        })
    }

    /// Every non-overlapping match, left to right (`regex::Regex::find_iter`).
    pub(super) fn find_iter(&self, text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut caps = self.captures();
        for w in self.windows(text) {
            let mut pos = w.start;
            while let Some(h) = self.next_before(text, pos, w.end, &mut caps) {
                out.push((h.start, h.end));
                pos = if h.end > h.start { h.end } else { h.end + 1 };
                while pos < w.end && !text.is_char_boundary(pos) {
                    pos += 1;
                }
            }
        }
        out
    }
}

/// Whether a Unicode word boundary (`\b`, as the regex crate decides it) lies at byte `at`.
fn word_boundary_at(text: &str, at: usize) -> bool {
    let word = |c: Option<char>| {
        c.is_some_and(|c| regex_syntax::try_is_word_character(c).unwrap_or(false))
    };
    match (text.get(..at), text.get(at..)) {
        (Some(before), Some(after)) => {
            word(before.chars().next_back()) != word(after.chars().next())
        }
        // Not on a character boundary: let the exact regex decide.
        _ => true,
    }
}

fn last_line(s: &str) -> String {
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid pattern")
        .trim()
        .to_string()
}

fn unicode_word(l: Look) -> bool {
    matches!(
        l,
        Look::WordUnicode
            | Look::WordUnicodeNegate
            | Look::WordStartUnicode
            | Look::WordEndUnicode
            | Look::WordStartHalfUnicode
            | Look::WordEndHalfUnicode
    )
}

fn has_unicode_word(h: &Hir) -> bool {
    h.properties().look_set().iter().any(unicode_word)
}

/// `h` without its Unicode word assertions (and without capture groups, which the relaxed
/// search does not read): it matches wherever `h` does, and more.
fn relax(h: &Hir) -> Hir {
    match h.kind() {
        HirKind::Look(l) if unicode_word(*l) => Hir::empty(),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => h.clone(),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            min: r.min,
            max: r.max,
            greedy: r.greedy,
            sub: Box::new(relax(&r.sub)),
        }),
        HirKind::Capture(Capture { sub, .. }) => relax(sub),
        HirKind::Concat(v) => Hir::concat(v.iter().map(relax).collect()),
        HirKind::Alternation(v) => Hir::alternation(v.iter().map(relax).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-step search gives what `regex` gives, on texts with accents and glued words.
    #[test]
    fn same_matches_as_the_regex_crate() {
        let pats = [
            r"\b(?P<v>[A-ZÀ-Þ][a-zà-ÿ]+)\s+(?P<w>[A-ZÀ-Þ][a-zà-ÿ]+)\b",
            r"(?i)\b(?:mrn|chart)\b\s*:?\s*(?P<v>\d{4,})\b",
            r"\b\d{3}-\d{2}-\d{4}\b",
            r"(?m)^\s*(?P<v>\w+)\b",
            r"(?i)\b(?:lee|ann(?:[ \t]+lee)?|zoë)\b",
        ];
        let texts = [
            "Seen: José Ibáñez, MRN: 00482913 — Élodie Durand\nÉcole Martin 123-45-6789",
            "ébc123-45-6789 chart 1234567 x123-45-6789",
            "naïve Zoë Łukasiewicz; CHART: 99887766é",
            "fleet ANN LEE, Ann lee; zoëlee ZOË annlee",
        ];
        for p in pats {
            let ours = Pattern::new(p, false, 10 << 20).unwrap();
            let theirs = regex::Regex::new(p).unwrap();
            for t in texts {
                for pos in 0..=t.len() {
                    if !t.is_char_boundary(pos) {
                        continue;
                    }
                    let a = ours.next(t, pos, &mut ours.captures());
                    let b = theirs.captures_at(t, pos);
                    let a = a.map(|h| (h.start, h.end, h.v_start, h.v_end));
                    let b = b.map(|c| {
                        let w = c.get(0).unwrap();
                        let v = c.name("v").unwrap_or(w);
                        (w.start(), w.end(), v.start(), v.end())
                    });
                    assert_eq!(a, b, "{p} on {t:?} from {pos}");
                }
            }
        }
    }

    /// A gated pattern finds exactly what the same pattern finds searching the whole text: in
    /// any case, with accents, a final sigma, words ending in a dot, and words glued to others.
    #[test]
    fn a_gate_finds_what_the_whole_text_search_finds() {
        let words = [
            "Ann",
            "Lee",
            "Zoë",
            "Σωκράτης",
            "St.",
            "Clair",
            "O'Brien",
            "Li",
        ];
        let pat = r"(?i)\b(?:ann[ \t]+lee|lee,[ \t]*ann|zoë|σωκράτης|st\.[ \t]*clair|o'brien|li|(?-i:Lee|LEE))\b";
        let texts = [
            "fleet ANN LEE, Ann lee; zoëlee ZOË annlee\nLEE, ann was here\nnothing here",
            "ΣΩΚΡΆΤΗΣ called; σωκράτης too. Mr ST. CLAIR and st.clair\n\nO'BRIEN o'briens",
            "Li: li\nlimit Lily li\nann\tlee Lee lee leeward",
            "no roster words at all\nnor here",
            "",
        ];
        let whole = Pattern::new(pat, false, 10 << 20).unwrap();
        let gated = Pattern::new(pat, false, 10 << 20)
            .unwrap()
            .gated(Gate::new(words).unwrap());
        for t in texts {
            assert_eq!(gated.find_iter(t), whole.find_iter(t), "{t:?}");
        }
        assert_eq!(
            gated.windows("no roster words at all\nnor here"),
            Vec::<Range<usize>>::new()
        );
        let t = "a\nfleet\nx ANN y\nz";
        assert_eq!(gated.windows(t), vec![8..15]);
    }

    #[test]
    fn errors_do_not_echo_the_pattern() {
        let e = Pattern::new("(unclosed 4471-2290", false, 1 << 20)
            .err()
            .unwrap();
        assert!(!e.contains("4471"), "{e}");
    }
}
