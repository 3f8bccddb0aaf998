//! JSON Schema checks of a vault tool's arguments (before the tool is started) and of its
//! output (before any command it carries is submitted), with the `jsonschema` crate.
//!
//! Schemas are compiled once, when the manifest is loaded, so a schema that is not valid JSON
//! Schema makes the manifest broken (named by `tools check` / `doctor`) instead of failing
//! every call. The crate is built without its resolvers: a `$ref` to a file or a URL is a
//! manifest error, never a read of the disk or the network at load time.
//!
//! Violation messages never quote the checked value (`masked`): arguments and output may carry
//! message content, and the message goes to the audit trail and the client.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

/// At most this many violations are reported per check (the first ones, in schema order).
const MAX_VIOLATIONS: usize = 5;

/// A compiled schema; `Debug` names no internals (the vault compares manifests by `Debug`,
/// and the schema text beside it already says what it is).
#[derive(Clone)]
pub struct Compiled(Arc<jsonschema::Validator>);

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Compiled")
    }
}

/// One place where a value does not match its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// JSON Pointer to the offending value (`/` for the whole object).
    pub path: String,
    /// What is wrong, without the value itself.
    pub error: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at `{}`: {}", self.path, self.error)
    }
}

/// `at `/a`: …; at `/b`: …` — the violations in one line.
pub fn describe(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(Violation::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

fn pointer(p: &str) -> String {
    if p.is_empty() { "/".into() } else { p.into() }
}

impl Compiled {
    /// Compile `schema` (from manifest field `field`); the error names where in the schema it
    /// is wrong.
    pub fn new(field: &str, schema: &Map<String, Value>) -> Result<Compiled, String> {
        let schema = Value::Object(schema.clone());
        jsonschema::validator_for(&schema)
            .map(|v| Compiled(Arc::new(v)))
            .map_err(|e| {
                let at = pointer(e.instance_path().as_str());
                format!(
                    "{field} is not a valid JSON Schema (at `{at}`): {}",
                    crate::sanitize::one_line(&e.to_string(), 200)
                )
            })
    }

    /// `Ok` when `value` matches, else the first violations.
    pub fn check(&self, value: &Value) -> Result<(), Vec<Violation>> {
        let v: Vec<Violation> = self
            .0
            .iter_errors(value)
            .take(MAX_VIOLATIONS)
            .map(|e| Violation {
                path: pointer(e.instance_path().as_str()),
                error: crate::sanitize::one_line(&e.masked().to_string(), 200),
            })
            .collect();
        if v.is_empty() { Ok(()) } else { Err(v) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn compiled(v: Value) -> Result<Compiled, String> {
        Compiled::new("input_schema", v.as_object().unwrap())
    }

    #[test]
    fn a_violation_names_the_path_and_not_the_value() {
        let c = compiled(json!({
            "type": "object",
            "required": ["id"],
            "properties": {"id": {"type": "string"}, "n": {"type": "integer", "maximum": 3}}
        }))
        .unwrap();
        assert!(c.check(&json!({"id": "a", "n": 2})).is_ok());
        let v = c
            .check(&json!({"id": "Margaret Okafor", "n": 9}))
            .unwrap_err();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].path, "/n");
        let v = c.check(&json!({"id": 7})).unwrap_err();
        assert_eq!(v[0].path, "/id");
        assert!(!v[0].error.contains('7'), "{:?}", v[0]);
        let v = c.check(&json!({})).unwrap_err();
        assert_eq!(v[0].path, "/");
        assert!(v[0].error.contains("id"), "{:?}", v[0]);
        assert!(describe(&v).starts_with("at `/`: "));
    }

    #[test]
    fn an_invalid_schema_is_refused_with_where() {
        let e = compiled(json!({"type": "object", "properties": {"a": {"type": 42}}})).unwrap_err();
        assert!(
            e.starts_with("input_schema is not a valid JSON Schema"),
            "{e}"
        );
        assert!(e.contains("/properties/a/type"), "{e}");
    }

    #[test]
    fn a_reference_outside_the_schema_is_refused_not_fetched() {
        for r in ["https://example.com/s.json", "file:///etc/passwd"] {
            let e =
                compiled(json!({"type": "object", "properties": {"a": {"$ref": r}}})).unwrap_err();
            assert!(e.contains("not a valid JSON Schema"), "{e}");
        }
        // A reference inside the schema is fine.
        let c = compiled(json!({
            "type": "object",
            "$defs": {"id": {"type": "string"}},
            "properties": {"a": {"$ref": "#/$defs/id"}}
        }))
        .unwrap();
        assert_eq!(c.check(&json!({"a": 1})).unwrap_err()[0].path, "/a");
    }
}
