//! Strict reading of a model's answer: one JSON object of the job's schema, nothing else (a
//! Markdown code fence around it is the one wrapping tolerated, because instruction-tuned
//! models add it even when told not to). Every rejection says what was wrong, briefly and
//! without quoting the answer (it may carry PHI or hostile text into the audit trail).

use serde::de::DeserializeOwned;

/// Longest answer read at all; a longer one is rejected without parsing.
pub const MAX_ANSWER_BYTES: usize = 16 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("the model's answer was empty")]
    Empty,
    #[error("the model's answer is too long ({0} bytes, at most {MAX_ANSWER_BYTES})")]
    TooLong(usize),
    #[error("the model's answer is not JSON: {0}")]
    NotJson(String),
    #[error("the model's answer does not fit the schema: {0}")]
    Schema(String),
    #[error("the model's answer contains a phrase the hard bans forbid (rule {0})")]
    Banned(String),
}

/// Parse `text` as exactly one `T`.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, AnswerError> {
    if text.len() > MAX_ANSWER_BYTES {
        return Err(AnswerError::TooLong(text.len()));
    }
    let body = unfence(text.trim());
    if body.is_empty() {
        return Err(AnswerError::Empty);
    }
    if !body.starts_with('{') {
        return Err(AnswerError::NotJson(
            "expected one JSON object, got text".into(),
        ));
    }
    let value: serde_json::Value = serde_json::from_str(body).map_err(|e| {
        AnswerError::NotJson(format!(
            "line {} column {}: {}",
            e.line(),
            e.column(),
            kind(&e)
        ))
    })?;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        AnswerError::Schema(if path == "." {
            inner
        } else {
            format!("at `{path}`: {inner}")
        })
    })
}

fn kind(e: &serde_json::Error) -> &'static str {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => "it ends early",
        Category::Syntax => "syntax error",
        Category::Data => "wrong data",
        Category::Io => "unreadable",
    }
}

/// The JSON inside a Markdown code fence, or the text itself.
fn unfence(s: &str) -> &str {
    let Some(rest) = s.strip_prefix("```") else {
        return s;
    };
    let rest = rest.strip_prefix("json").unwrap_or(rest);
    match rest.trim_end().strip_suffix("```") {
        Some(inner) => inner.trim(),
        None => s,
    }
}

/// A text field from a model: one line, no control characters, bounded, not empty.
pub fn one_line_field(name: &str, s: &str, max_chars: usize) -> Result<String, AnswerError> {
    let t = crate::sanitize::one_line(s, max_chars);
    if t.trim().is_empty() {
        return Err(AnswerError::Schema(format!("`{name}` is empty")));
    }
    if s.chars().count() > max_chars {
        return Err(AnswerError::Schema(format!(
            "`{name}` is longer than {max_chars} characters"
        )));
    }
    Ok(t)
}

/// Hard bans on a model's output.
pub fn check_bans(config: &crate::config::Config, text: &str) -> Result<(), AnswerError> {
    match crate::governance::bans::check_text(config, text) {
        Some(crate::domain::Verdict::Block { rule, .. }) => Err(AnswerError::Banned(rule)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct T {
        a: u32,
    }

    #[test]
    fn one_object_parses_also_inside_a_code_fence() {
        assert_eq!(parse::<T>(r#" {"a": 1} "#).unwrap(), T { a: 1 });
        assert_eq!(parse::<T>("```json\n{\"a\": 2}\n```").unwrap(), T { a: 2 });
    }

    #[test]
    fn prose_garbage_and_wrong_shapes_are_clear_errors() {
        assert_eq!(parse::<T>("  "), Err(AnswerError::Empty));
        assert!(matches!(
            parse::<T>("Sure! Here is"),
            Err(AnswerError::NotJson(_))
        ));
        assert!(matches!(
            parse::<T>("{\"a\": 1"),
            Err(AnswerError::NotJson(_))
        ));
        assert!(matches!(
            parse::<T>("{\"a\": 1} trailing"),
            Err(AnswerError::NotJson(_))
        ));
        let e = parse::<T>(r#"{"a": "x"}"#).unwrap_err();
        assert!(e.to_string().contains("`a`"), "{e}");
        assert!(matches!(
            parse::<T>(r#"{"a": 1, "b": 2}"#),
            Err(AnswerError::Schema(_))
        ));
        let long = format!(
            "{{\"a\": 1, \"pad\": \"{}\"}}",
            "x".repeat(MAX_ANSWER_BYTES)
        );
        assert!(matches!(parse::<T>(&long), Err(AnswerError::TooLong(_))));
    }
}
