//! The configuration reference (`docs/book/src/reference/config.md`), generated from the
//! schema: the JSON Schema `schemars` derives from the config structs (their doc comments are
//! the descriptions) walked into Markdown, with every default taken from `Config::default()`
//! serialised, so nothing in the reference is typed twice.
//!
//! `tests/config_reference.rs` fails when the committed file differs from [`generate`]'s
//! output; `OPSDESK_BLESS=1 cargo test --test config_reference` rewrites it.

use serde_json::{Map, Value};

use super::Config;

/// Where the reference lives, relative to the repository root.
pub const REFERENCE_PATH: &str = "docs/book/src/reference/config.md";

/// The command that rewrites the committed reference.
pub const REGENERATE: &str = "OPSDESK_BLESS=1 cargo test --test config_reference";

/// The generated reference and what the schema lacks to make it complete.
#[derive(Debug, Clone)]
pub struct Reference {
    /// The Markdown page.
    pub markdown: String,
    /// Keys with no description or no example (each names the key path): a doc comment or
    /// a `#[schemars(example = …)]` is missing next to the field.
    pub gaps: Vec<String>,
}

/// The JSON Schema of the whole configuration file.
pub fn schema() -> Value {
    serde_json::to_value(schemars::schema_for!(Config)).unwrap_or(Value::Null)
}

/// The reference page for the current schema and defaults.
pub fn generate() -> Reference {
    let schema = schema();
    let defaults = serde_json::to_value(Config::default()).unwrap_or(Value::Null);
    let mut w = Writer {
        defs: schema
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        defaults,
        out: String::new(),
        gaps: Vec::new(),
    };
    w.out.push_str(HEADER);
    let root = w.resolve(&schema).0;
    w.table(&[], &root, Place::Top, None);
    // Headings and paragraphs each add their own blank lines; keep one between blocks.
    let mut markdown = w.out;
    while markdown.contains("\n\n\n") {
        markdown = markdown.replace("\n\n\n", "\n\n");
    }
    Reference {
        markdown,
        gaps: w.gaps,
    }
}

const HEADER: &str = "\
# Configuration reference

<!-- Generated from the config schema (src/config/): do not edit by hand.
     Regenerate with: OPSDESK_BLESS=1 cargo test --test config_reference -->

opsdesk reads one TOML file: `~/.config/opsdesk/config.toml`, or the file named by
`--config` / `OPSDESK_CONFIG`. It runs without one, and a file names only what it changes:
every key below is optional unless it says *required*. An unknown key, a wrong type or a
reference to a profile or provider that does not exist is an error that names the file, the
key path and what is allowed. Secrets never go in the file: keys such as `auth_env` and
`token_env` hold the NAME of an environment variable. `opsdesk config check` checks a file,
and `opsdesk config show` prints the effective configuration, defaults included.

This page is generated from the schema in `src/config/`; each default is the built-in value,
and each example shows how a key is written (its value is an illustration, not the default).
Sections and keys are in alphabetical order.
";

/// Where a table sits: at the top, inside a fixed path, or inside a map entry / array element
/// (whose keys have no instance in `Config::default()`, so their defaults come from the
/// type's own `Default`, which the schema carries).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Top,
    Fixed,
    Entry,
}

struct Writer {
    defs: Map<String, Value>,
    defaults: Value,
    out: String,
    gaps: Vec<String>,
}

/// A schema with `$ref`s and `null` alternatives taken off.
struct Resolved {
    schema: Value,
    optional: bool,
}

impl Writer {
    /// Follows `$ref` and unwraps `anyOf: [X, null]` / `type: [T, "null"]`; the description
    /// of the outer schema wins over the referenced one's.
    fn resolve(&self, schema: &Value) -> (Value, bool) {
        let r = self.resolve_inner(schema, 0);
        (r.schema, r.optional)
    }

    fn resolve_inner(&self, schema: &Value, depth: u32) -> Resolved {
        let mut optional = false;
        let mut s = schema.clone();
        if depth > 16 {
            return Resolved {
                schema: s,
                optional,
            };
        }
        if let Some(alts) = s.get("anyOf").and_then(Value::as_array).cloned() {
            let non_null: Vec<&Value> = alts
                .iter()
                .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            if non_null.len() == 1 && alts.len() == 2 {
                optional = true;
                let mut inner = self.resolve_inner(non_null[0], depth + 1).schema;
                carry(&s, &mut inner);
                s = inner;
            }
        }
        if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
            let name = reference.trim_start_matches("#/$defs/");
            if let Some(def) = self.defs.get(name) {
                let mut inner = self.resolve_inner(def, depth + 1);
                carry(&s, &mut inner.schema);
                optional |= inner.optional;
                s = inner.schema;
            }
        }
        if let Some(types) = s.get("type").and_then(Value::as_array).cloned() {
            let non_null: Vec<Value> = types
                .into_iter()
                .filter(|t| t.as_str() != Some("null"))
                .collect();
            if non_null.len() == 1 {
                optional = true;
                s["type"] = non_null[0].clone();
            }
        }
        Resolved {
            schema: s,
            optional,
        }
    }

    /// Whether a (resolved) schema is a table with named keys.
    fn is_struct(s: &Value) -> bool {
        s.get("properties").is_some()
    }

    /// The resolved schema of a map's values or an array's items, when they are tables.
    fn nested_struct(&self, s: &Value) -> Option<(Value, bool)> {
        let ty = s.get("type").and_then(Value::as_str)?;
        let inner = match ty {
            "object" => s.get("additionalProperties")?,
            "array" => s.get("items")?,
            _ => return None,
        };
        if !inner.is_object() {
            return None;
        }
        let (r, _) = self.resolve(inner);
        Self::is_struct(&r).then_some((r, ty == "array"))
    }

    /// Writes one table: its heading and text, its plain keys, then its sub-tables.
    fn table(&mut self, path: &[String], s: &Value, place: Place, heading: Option<String>) {
        if let Some(h) = heading {
            self.out.push_str(&format!("\n## `{h}`\n\n"));
            if let Some(d) = s.get("description").and_then(Value::as_str) {
                self.out.push_str(&markdown_text(d));
                self.out.push_str("\n\n");
            } else {
                self.gaps
                    .push(format!("{}: no description", path.join(".")));
            }
            if place == Place::Entry && !path.iter().any(|p| p == "<name>" || p == "[]") {
                self.out
                    .push_str("The whole table is optional: absent, none of its keys apply.\n\n");
            }
        }
        let props = s
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut subtables = Vec::new();
        for (key, raw) in &props {
            let mut p = path.to_vec();
            p.push(key.clone());
            let (r, optional) = self.resolve(raw);
            if Self::is_struct(&r) {
                subtables.push((p, r, optional, false, false));
            } else if let Some((inner, is_array)) = self.nested_struct(&r) {
                let mut r = r.clone();
                // The entry's own description goes under the entry's heading; the map's
                // description (on the field) is the one shown.
                if r.get("description").is_none() {
                    carry(&inner, &mut r);
                }
                subtables.push((p, r, optional, true, is_array));
            } else {
                self.key(
                    &p,
                    raw,
                    &r,
                    optional,
                    required.contains(&key.as_str()),
                    place,
                );
            }
        }
        for (p, r, optional, is_collection, is_array) in subtables {
            if !is_collection {
                let heading = format!("[{}]", display_path(&p));
                // An optional table absent from the defaults has no built-in values to look
                // up: its keys' defaults are the type's own, as for a map entry.
                let inner_place = if place == Place::Entry
                    || (optional && lookup(&self.defaults, &p).is_none())
                {
                    Place::Entry
                } else {
                    Place::Fixed
                };
                self.table(&p, &r, inner_place, Some(heading));
                continue;
            }
            let Some((inner, _)) = self.nested_struct(&r) else {
                continue;
            };
            let mut entry_path = p.clone();
            let heading = if is_array {
                entry_path.push("[]".into());
                format!("[[{}]]", display_path(&p))
            } else {
                entry_path.push("<name>".into());
                format!("[{}.<name>]", display_path(&p))
            };
            self.out.push_str(&format!("\n## `{heading}`\n\n"));
            match r.get("description").and_then(Value::as_str) {
                Some(d) => {
                    self.out.push_str(&markdown_text(d));
                    self.out.push_str("\n\n");
                }
                None => self.gaps.push(format!("{}: no description", p.join("."))),
            }
            if let Some(d) = inner.get("description").and_then(Value::as_str)
                && Some(d) != r.get("description").and_then(Value::as_str)
            {
                self.out.push_str(&markdown_text(d));
                self.out.push_str("\n\n");
            }
            if place != Place::Entry
                && let Some(built_in) = lookup(&self.defaults, &p)
                && built_in.as_object().is_some_and(|m| !m.is_empty())
            {
                self.out.push_str("Built in:\n\n```toml\n");
                self.out.push_str(&toml_tables(&p, built_in));
                self.out.push_str("```\n\n");
            }
            self.table(&entry_path, &inner, Place::Entry, None);
        }
    }

    /// Writes one key: heading, type, default, example and description.
    fn key(
        &mut self,
        path: &[String],
        raw: &Value,
        r: &Value,
        optional: bool,
        required: bool,
        place: Place,
    ) {
        let name = path.last().cloned().unwrap_or_default();
        self.out
            .push_str(&format!("\n### `{}`\n\n", display_path(path)));
        let ty = type_name(self, r);
        let default = if place == Place::Entry {
            raw.get("default").or_else(|| r.get("default")).cloned()
        } else {
            lookup(&self.defaults, path).cloned()
        }
        // An `Option` serialised without `skip_serializing_if` is `null`: unset.
        .filter(|v| !v.is_null());
        let default_text = match (&default, required) {
            // A key of a table that has a built-in value: the table may be left out, but a
            // file that writes it must give this key.
            (Some(v), true) => format!("`{}` (required when the table is written)", toml_value(v)),
            (None, true) => "*required*".to_owned(),
            (Some(v), false) => format!("`{}`", toml_value(v)),
            (None, false) if optional => "unset".to_owned(),
            (None, false) => match r.get("type").and_then(Value::as_str) {
                Some("array") => "`[]`".to_owned(),
                Some("object") => "`{}`".to_owned(),
                _ => "unset".to_owned(),
            },
        };
        let example = raw
            .get("examples")
            .or_else(|| r.get("examples"))
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .cloned()
            .or_else(|| default.clone().filter(|d| !is_empty_value(d)));
        self.out
            .push_str(&format!("- Type: {ty}\n- Default: {default_text}\n"));
        match example {
            Some(e) => self.out.push_str(&format!(
                "- Example: `{} = {}`\n",
                toml_key(&name),
                toml_value(&e)
            )),
            None => self.gaps.push(format!("{}: no example", path.join("."))),
        }
        self.out.push('\n');
        match raw
            .get("description")
            .or_else(|| r.get("description"))
            .and_then(Value::as_str)
        {
            Some(d) => {
                self.out.push_str(&markdown_text(d));
                self.out.push_str("\n\n");
            }
            None => self
                .gaps
                .push(format!("{}: no description", path.join("."))),
        }
        let values = enum_values(self, r);
        if values.iter().any(|(_, d)| d.is_some()) {
            for (v, d) in values {
                let d = d
                    .map(|d| format!(": {}", markdown_text(&d)))
                    .unwrap_or_default();
                self.out.push_str(&format!("- `{}`{d}\n", toml_value(&v)));
            }
            self.out.push('\n');
        }
    }
}

/// Copies the description and examples of an outer schema (a field) onto the resolved one.
fn carry(from: &Value, to: &mut Value) {
    for k in ["description", "examples", "default"] {
        if let Some(v) = from.get(k)
            && let Some(obj) = to.as_object_mut()
        {
            obj.insert(k.to_owned(), v.clone());
        }
    }
}

/// The allowed values of an enum schema, with each one's description where it has one.
fn enum_values(w: &Writer, s: &Value) -> Vec<(Value, Option<String>)> {
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        return values.iter().map(|v| (v.clone(), None)).collect();
    }
    if let Some(alts) = s.get("oneOf").and_then(Value::as_array) {
        return alts
            .iter()
            .filter_map(|a| {
                let (a, _) = w.resolve(a);
                let c = a.get("const")?.clone();
                let d = a
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                Some((c, d))
            })
            .collect();
    }
    Vec::new()
}

/// A short type name: `string`, `list of integer`, `one of "a", "b"`, `table of string → …`.
fn type_name(w: &Writer, s: &Value) -> String {
    let values = enum_values(w, s);
    if !values.is_empty() {
        let names: Vec<String> = values
            .iter()
            .map(|(v, _)| format!("`{}`", toml_value(v)))
            .collect();
        return format!("one of {}", names.join(", "));
    }
    match s.get("type").and_then(Value::as_str) {
        Some("array") => {
            let item = s
                .get("items")
                .map(|i| type_name(w, &w.resolve(i).0))
                .unwrap_or_else(|| "any".into());
            format!("list of {item}")
        }
        Some("object") => {
            let value = s
                .get("additionalProperties")
                .filter(|v| v.is_object())
                .map(|v| type_name(w, &w.resolve(v).0))
                .unwrap_or_else(|| "any".into());
            format!("table of name → {value}")
        }
        Some("integer") => "integer".into(),
        Some("number") => "number".into(),
        Some("boolean") => "boolean".into(),
        Some("string") => "string".into(),
        _ => "any".into(),
    }
}

/// A key path as written in TOML, with `<name>` for map entries and `[]` dropped.
fn display_path(path: &[String]) -> String {
    path.iter()
        .filter(|s| s.as_str() != "[]")
        .map(|s| {
            if s == "<name>" {
                s.clone()
            } else {
                toml_key(s)
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn lookup<'a>(root: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(root, |v, k| v.get(k.as_str()))
}

fn is_empty_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

/// A key, bare when TOML allows it, else quoted.
fn toml_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_owned()
    } else {
        toml_string(k)
    }
}

fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON value as an inline TOML value.
fn toml_value(v: &Value) -> String {
    match v {
        Value::Null => "unset".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if n.is_f64() {
                let f = n.as_f64().unwrap_or(0.0);
                if f.fract() == 0.0 {
                    format!("{f:.1}")
                } else {
                    f.to_string()
                }
            } else {
                n.to_string()
            }
        }
        Value::String(s) => toml_string(s),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(toml_value).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(o) if o.is_empty() => "{}".into(),
        Value::Object(o) => format!(
            "{{ {} }}",
            o.iter()
                .map(|(k, v)| format!("{} = {}", toml_key(k), toml_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Built-in map entries as TOML tables (`[llm.providers.local]` …), one key a line.
fn toml_tables(path: &[String], entries: &Value) -> String {
    let mut out = String::new();
    let prefix = display_path(path);
    for (name, entry) in entries.as_object().into_iter().flatten() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("[{prefix}.{}]\n", toml_key(name)));
        if let Some(fields) = entry.as_object() {
            let (plain, tables): (Vec<_>, Vec<_>) =
                fields.iter().partition(|(_, v)| !v.is_object());
            for (k, v) in plain {
                out.push_str(&format!("{} = {}\n", toml_key(k), toml_value(v)));
            }
            for (k, v) in tables {
                out.push_str(&format!("{} = {}\n", toml_key(k), toml_value(v)));
            }
        }
    }
    out
}

/// A doc comment as Markdown: `<` outside code spans escaped (mdBook would take `<name>` for
/// an HTML tag and drop it).
fn markdown_text(d: &str) -> String {
    d.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                part.to_owned()
            } else {
                part.replace('<', "&lt;")
            }
        })
        .collect::<Vec<_>>()
        .join("`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_values_render_as_inline_toml() {
        let v = serde_json::json!({"a b": [1, "x\"y"], "c": 0.5, "d": 2.0});
        assert_eq!(
            toml_value(&v),
            r#"{ "a b" = [1, "x\"y"], c = 0.5, d = 2.0 }"#
        );
    }

    #[test]
    fn markdown_text_escapes_tags_outside_code_only() {
        assert_eq!(
            markdown_text("see <data dir> and `<name>`"),
            "see &lt;data dir> and `<name>`"
        );
    }

    #[test]
    fn every_default_in_the_reference_is_the_built_in_one() {
        let md = generate().markdown;
        // Spot checks against values read from `Config::default()` at run time.
        let c = Config::default();
        assert!(md.contains(&format!(
            "### `server.max_sessions`\n\n- Type: integer\n- Default: `{}`",
            c.server.max_sessions
        )));
        assert!(md.contains(&format!("- Default: `\"{}\"`", c.server.bind)));
    }
}
