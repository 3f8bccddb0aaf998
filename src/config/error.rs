//! Configuration errors: each problem names the file, the key path, what went wrong and what
//! is allowed. Messages never contain a secret value: problems about secrets name the key
//! only, and type errors say what kind of value was found, not the value.

use std::fmt;
use std::path::{Path, PathBuf};

/// What kind of problem a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The file could not be read (permissions, not UTF-8, too large, a directory …).
    Io,
    /// An explicitly given config file does not exist.
    NotFound,
    /// The file is not valid TOML.
    Syntax,
    /// The file holds a secret (by key name or by the look of a value).
    Secret,
    /// A key the schema does not have.
    UnknownKey,
    /// A required key is absent.
    MissingKey,
    /// A value of the wrong TOML type.
    WrongType,
    /// A value of the right type that is not allowed.
    InvalidValue,
    /// A name that refers to a profile or provider that does not exist.
    UnknownReference,
    /// A setting that governance does not permit (e.g. autonomous sending).
    Forbidden,
    /// A profile lookup by name failed ([`crate::config::Config::profile`]).
    UnknownProfile,
}

/// A 1-based position in the config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl Location {
    /// The position of byte `offset` in `text` (clamped to the text).
    pub(crate) fn of_offset(text: &str, offset: usize) -> Location {
        let offset = offset.min(text.len());
        let before = &text.as_bytes()[..offset];
        let line_start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        // Count characters, not bytes, so the column matches what an editor shows.
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        Location { line, column }
    }
}

/// One thing wrong with a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// The key path (`profiles.clinic.never_mix_with[0]`); `None` for whole-file problems.
    pub key: Option<String>,
    /// A complete sentence: what is wrong and what is allowed.
    pub message: String,
    /// Where in the file, when known.
    pub location: Option<Location>,
}

/// Why a configuration could not be used. Holds every problem found at the stage that
/// failed (syntax → secrets → schema → semantics), so `opsdesk config check` can list them
/// all at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    origin: Option<PathBuf>,
    problems: Vec<Problem>,
}

impl ConfigError {
    pub(crate) fn new(origin: Option<&Path>, problems: Vec<Problem>) -> ConfigError {
        ConfigError {
            origin: origin.map(Path::to_path_buf),
            problems,
        }
    }

    pub(crate) fn single(
        origin: Option<&Path>,
        kind: ProblemKind,
        key: Option<String>,
        message: String,
    ) -> ConfigError {
        ConfigError::new(
            origin,
            vec![Problem {
                kind,
                key,
                message,
                location: None,
            }],
        )
    }

    /// Invalid values found by a check outside the config floor (the MCP scope lists, judged
    /// against the tool table): each is (key path, message), without a file position.
    pub fn invalid_values(origin: Option<&Path>, problems: Vec<(String, String)>) -> ConfigError {
        ConfigError::new(
            origin,
            problems
                .into_iter()
                .map(|(key, message)| Problem {
                    kind: ProblemKind::InvalidValue,
                    key: Some(key),
                    message,
                    location: None,
                })
                .collect(),
        )
    }

    /// The file the problems are in (`None` for a configuration built in code).
    pub fn origin(&self) -> Option<&Path> {
        self.origin.as_deref()
    }

    /// Every problem found (at least one).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The kind of the first problem.
    pub fn kind(&self) -> Option<ProblemKind> {
        self.problems.first().map(|p| p.kind)
    }

    /// The key path of the first problem that has one.
    pub fn key(&self) -> Option<&str> {
        self.problems.iter().find_map(|p| p.key.as_deref())
    }
}

impl fmt::Display for ConfigError {
    /// One line per problem, compiler style: `file:line:column: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            match (&self.origin, p.location) {
                (Some(o), Some(l)) => write!(f, "{}:{}:{}: ", o.display(), l.line, l.column)?,
                (Some(o), None) => write!(f, "{}: ", o.display())?,
                (None, Some(l)) => write!(f, "config:{}:{}: ", l.line, l.column)?,
                (None, None) => {}
            }
            f.write_str(&p.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// One step of a key path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// A key path inside the file, rendered the way a TOML user writes it:
/// `profiles.clinic.never_mix_with[0]`, with keys quoted when they are not bare keys.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct KeyPath(pub(crate) Vec<Seg>);

impl KeyPath {
    pub(crate) fn root() -> KeyPath {
        KeyPath(Vec::new())
    }

    /// `self.key`.
    pub(crate) fn key(&self, key: &str) -> KeyPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(key.to_owned()));
        KeyPath(segs)
    }

    /// `self[index]`.
    pub(crate) fn index(&self, index: usize) -> KeyPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Index(index));
        KeyPath(segs)
    }

    /// Shorthand for a path of plain keys: `KeyPath::of(&["llm", "default"])`.
    pub(crate) fn of(keys: &[&str]) -> KeyPath {
        KeyPath(keys.iter().map(|k| Seg::Key((*k).to_owned())).collect())
    }

    /// The keys only (indices dropped), for context lookups.
    pub(crate) fn keys(&self) -> Vec<&str> {
        self.0
            .iter()
            .filter_map(|s| match s {
                Seg::Key(k) => Some(k.as_str()),
                Seg::Index(_) => None,
            })
            .collect()
    }

    pub(crate) fn last_key(&self) -> Option<&str> {
        self.keys().last().copied()
    }
}

/// Whether `key` can be written without quotes in TOML.
pub(crate) fn is_bare_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// `key` as it would be written in TOML, with control characters escaped so a hostile key
/// cannot reach a terminal raw.
pub(crate) fn render_key(key: &str) -> String {
    if is_bare_key(key) {
        key.to_owned()
    } else {
        format!("\"{}\"", key.escape_debug())
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(top level)");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(&render_key(k))?;
                }
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_paths_render_like_toml() {
        let p = KeyPath::of(&["profiles", "clinic", "never_mix_with"]).index(0);
        assert_eq!(p.to_string(), "profiles.clinic.never_mix_with[0]");
        let q = KeyPath::of(&["profiles", "my profile"]);
        assert_eq!(q.to_string(), "profiles.\"my profile\"");
        assert_eq!(KeyPath::root().to_string(), "(top level)");
    }

    #[test]
    fn locations_are_one_based_and_count_characters() {
        let text = "a = 1\nbé = 2\n";
        assert_eq!(
            Location::of_offset(text, 0),
            Location { line: 1, column: 1 }
        );
        let off = text.find("= 2").unwrap_or(0);
        assert_eq!(
            Location::of_offset(text, off),
            Location { line: 2, column: 4 }
        );
        assert_eq!(Location::of_offset(text, 10_000).line, 3);
    }

    #[test]
    fn display_is_compiler_style() {
        let e = ConfigError::new(
            Some(Path::new("/etc/o.toml")),
            vec![Problem {
                kind: ProblemKind::UnknownKey,
                key: Some("x".into()),
                message: "unknown key `x`".into(),
                location: Some(Location { line: 3, column: 1 }),
            }],
        );
        assert_eq!(e.to_string(), "/etc/o.toml:3:1: unknown key `x`");
    }
}
