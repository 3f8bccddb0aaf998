//! The house keeps its floors: a module may use only modules on lower floors (data flows
//! sources → inbox → engine → surfaces; surfaces → Action → engine). This test reads `src/`
//! the way rust-analyzer's tidy tests read theirs and fails on any `crate::…` path in product
//! code (test modules excluded) that points up a floor or sideways, naming file and line.
//!
//! A new top-level module must be given a floor here, on purpose, before the test passes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Lowest floor first. Modules on one floor may not use each other either (that is how
/// circles start); only the floors below.
const FLOORS: &[&[&str]] = &[
    // ground: text, file-system and HTTP-client helpers that know no opsdesk type, and the
    // process's memory (allocator, giving pages back)
    &["sanitize", "paths", "clock", "net", "memory"],
    // the shared serde types
    &["domain"],
    // the configuration schema and its validation
    &["config"],
    // stores, governance rules, date understanding, HTML mail
    &["store", "governance", "timeexpr", "html_mail"],
    // the HTTP port's plumbing (listener, connection cap, Origin, rate limits, bearer tokens)
    &["http"],
    // model calls and the brief
    &["llm", "brief"],
    // the assistant's jobs and the sources (pollers)
    &["assistant", "sources"],
    // the engine: the only door to the stores
    &["engine"],
    // the tool vault: a producer of actions that runs beside the engine
    &["vault"],
    // headless watch mode (its formatting is also doctor's)
    &["watch"],
    // installation checks, read through the engine
    &["doctor"],
    // surfaces
    &["tui", "mcp"],
    // the Copilot webhook, mounted on the MCP server's port
    &["copilot"],
    // the command line: wires every surface
    &["cli"],
];

/// Uses that go up on purpose, each with its reason. The executor port: the engine declares
/// the trait outbound actions run through, and the Graph source implements it.
const ALLOWED: &[(&str, &str, &str)] = &[(
    "src/sources/graph/outbound.rs",
    "engine",
    "the outbound executor port: the engine owns the trait, Graph implements it",
)];

/// Files that are not a module's product code (the crate roots wire everything together).
const ROOTS: &[&str] = &["src/lib.rs", "src/main.rs"];

#[test]
fn no_module_uses_one_on_its_own_floor_or_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let floors = floor_map();
    let mut unplaced = Vec::new();
    let mut violations = Vec::new();
    for file in rust_files(&src) {
        let rel = relative(&file);
        // `#[cfg(test)] mod tests;` files are test code, like inline test modules.
        if ROOTS.contains(&rel.as_str()) || rel.ends_with("/tests.rs") {
            continue;
        }
        let module = top_module(&rel);
        let Some(&own) = floors.get(module.as_str()) else {
            unplaced.push(format!(
                "{rel}: module `{module}` has no floor in tests/layering.rs"
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("read source");
        for (line, used) in crate_uses(&text) {
            if used == module || !floors.contains_key(used.as_str()) {
                // Items of the crate root (`crate::release_memory`) are not modules.
                continue;
            }
            let theirs = floors[used.as_str()];
            if theirs < own {
                continue;
            }
            if ALLOWED
                .iter()
                .any(|(f, m, _)| *f == rel.as_str() && *m == used.as_str())
            {
                continue;
            }
            let how = if theirs == own {
                "beside it"
            } else {
                "above it"
            };
            violations.push(format!(
                "{rel}:{line}: `{module}` (floor {own}) uses `{used}` (floor {theirs}, {how})"
            ));
        }
    }
    assert!(
        unplaced.is_empty(),
        "unplaced modules:\n{}",
        unplaced.join("\n")
    );
    assert!(
        violations.is_empty(),
        "{} use(s) break the floors (docs/ARCHITECTURE.md, \"Modules\"): move the shared item down a floor, or pass it in from above\n{}",
        violations.len(),
        violations.join("\n")
    );
}

#[test]
fn every_floor_names_an_existing_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for floor in FLOORS {
        for m in *floor {
            let exists = src.join(m).is_dir() || src.join(format!("{m}.rs")).is_file();
            assert!(
                exists,
                "tests/layering.rs places `{m}`, which src/ does not have"
            );
        }
    }
}

#[test]
fn the_reader_finds_uses_in_code_and_skips_comments_strings_and_tests() {
    let text = r#"
//! Docs name crate::cli freely.
use crate::domain::Action;
use crate::{config::Config, store::{inbox, audit}};
/* crate::tui in a block comment */
fn f() -> &'static str { let c = '{'; "crate::mcp in a string" }
pub(crate) fn g() { crate::engine::Engine::open(); }
#[cfg(test)]
mod tests {
    use crate::cli::x;
    fn h() { let s = "}"; }
}
fn after() { crate::vault::call() }
"#;
    let uses: Vec<(usize, String)> = crate_uses(text);
    let names: Vec<&str> = uses.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(names, ["domain", "config", "store", "engine", "vault"]);
    assert_eq!(uses[3].0, 7, "line numbers are the file's");
}

#[test]
fn a_planted_upward_use_is_reported() {
    // The checker itself, on a file that puts the store above the console: it must complain.
    let floors = floor_map();
    let planted = "use crate::tui::app::App;\n";
    let bad: Vec<_> = crate_uses(planted)
        .into_iter()
        .filter(|(_, m)| floors[m.as_str()] >= floors["store"])
        .collect();
    assert_eq!(bad, [(1, "tui".to_string())]);
}

fn floor_map() -> BTreeMap<&'static str, usize> {
    let mut map = BTreeMap::new();
    for (i, floor) in FLOORS.iter().enumerate() {
        for m in *floor {
            assert!(map.insert(*m, i).is_none(), "`{m}` is on two floors");
        }
    }
    map
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read src dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn relative(file: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    file.strip_prefix(root)
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/")
}

/// `src/engine/query.rs` → `engine`, `src/brief.rs` → `brief`.
fn top_module(rel: &str) -> String {
    let first = rel
        .trim_start_matches("src/")
        .split('/')
        .next()
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

/// The top-level modules a file's product code names through `crate::`, with line numbers:
/// comments, string and char literals and `#[cfg(test)]` items are left out. A test file
/// (`mod tests;` under `#[cfg(test)]`) is its own file; the caller skips `tests.rs` files.
fn crate_uses(text: &str) -> Vec<(usize, String)> {
    let code = code_only(text);
    let code = without_test_items(&code);
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let line_of = |i: usize| code[..i].bytes().filter(|b| *b == b'\n').count() + 1;
    let mut i = 0;
    while let Some(off) = code[i..].find("crate::") {
        let at = i + off;
        i = at + "crate::".len();
        // `crate` must be a whole word (not `mycrate::`).
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        if bytes.get(i) == Some(&b'{') {
            // `crate::{a::x, b, c::{d, e}}`: the names at depth one.
            let mut depth = 0usize;
            let mut j = i;
            let mut expect_name = true;
            while j < bytes.len() {
                match bytes[j] {
                    b'{' => {
                        depth += 1;
                        expect_name = depth == 1;
                    }
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b',' if depth == 1 => expect_name = true,
                    c if expect_name && depth == 1 && (c.is_ascii_alphabetic() || c == b'_') => {
                        let end = ident_end(bytes, j);
                        out.push((line_of(j), code[j..end].to_string()));
                        expect_name = false;
                        j = end;
                        continue;
                    }
                    _ => {}
                }
                j += 1;
            }
            i = j;
        } else {
            let end = ident_end(bytes, i);
            if end > i {
                out.push((line_of(at), code[i..end].to_string()));
            }
        }
    }
    out
}

fn ident_end(bytes: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
        j += 1;
    }
    j
}

/// The text with comments and the contents of string and char literals blanked out (newlines
/// kept, so line numbers hold).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"') | Some('#')) && !prev_is_ident(&chars, i) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            i = j + 1;
            while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
            out.push('"');
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() {
                match chars[i] {
                    '\\' => {
                        out.push(' ');
                        if let Some(&n) = chars.get(i + 1) {
                            out.push(blank(n));
                        }
                        i += 2;
                    }
                    '"' => {
                        i += 1;
                        break;
                    }
                    ch => {
                        out.push(blank(ch));
                        i += 1;
                    }
                }
            }
            out.push('"');
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{1F600}') or a lifetime ('a): only the former
            // closes within a few characters.
            let close = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(k) => {
                    out.push_str(&" ".repeat(k - i + 1));
                    i = k + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev_is_ident(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// `code` with every `#[cfg(test)]` item blanked: the attribute, and the item up to its
/// balanced closing brace or its `;`.
fn without_test_items(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let text: String = out.iter().collect();
    let mut search = 0;
    while let Some(off) = text[search..].find("#[cfg(test)]") {
        let start_byte = search + off;
        let start = text[..start_byte].chars().count();
        let mut i = start;
        let mut depth = 0usize;
        let mut opened = false;
        while i < out.len() {
            match out[i] {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if opened && depth == 0 {
                        break;
                    }
                }
                ';' if !opened => break,
                _ => {}
            }
            i += 1;
        }
        let end = (i + 1).min(out.len());
        for c in &mut out[start..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        search = start_byte + "#[cfg(test)]".len();
    }
    out.into_iter().collect()
}
