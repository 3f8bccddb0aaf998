//! The user guide (`docs/book`, an mdBook) and the README: every relative link and image
//! resolves to a file, every `#anchor` to a heading of its target, every page is in
//! `SUMMARY.md`, the console's screenshots exist, and `mdbook build` succeeds when mdbook is
//! on PATH (on CI, `CI_REQUIRE_PEERS=1`, it must be: `.ci/deps/book.sh` installs it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book_src() -> PathBuf {
    root().join("docs/book/src")
}

/// Every `.md` file under `dir`, recursively.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The lines of a Markdown text outside fenced code blocks, with their line numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") {
            fence = Some("```");
            continue;
        }
        if t.starts_with("~~~") {
            fence = Some("~~~");
            continue;
        }
        out.push((i + 1, line));
    }
    out
}

/// A line with its inline code spans blanked out (links inside them are not links).
fn without_code_spans(line: &str) -> String {
    line.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                " ".repeat(part.len())
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `[text](target)` and `![alt](target)` targets of one line (titles after a space dropped).
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(pos) = line[i..].find("](") {
        let start = i + pos + 2;
        let mut depth = 0;
        let mut end = start;
        while end < bytes.len() {
            match bytes[end] {
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                _ => {}
            }
            end += 1;
        }
        let target = line[start..end.min(line.len())].trim();
        let target = target.split_whitespace().next().unwrap_or("");
        let target = target.trim_start_matches('<').trim_end_matches('>');
        if !target.is_empty() {
            out.push(target.to_string());
        }
        i = end.min(line.len());
    }
    out
}

/// mdBook's (and GitHub's) heading id: alphanumerics, `_` and `-` kept (lower-cased),
/// whitespace made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The text a heading renders to: links reduced to their text, code spans to their content.
fn heading_text(raw: &str) -> String {
    let mut s = raw.trim().trim_end_matches('#').trim().to_string();
    // [text](target) → text
    while let (Some(a), Some(b)) = (s.find('['), s.find("](")) {
        if b < a {
            break;
        }
        let Some(close) = s[b..].find(')') else { break };
        let text = s[a + 1..b].to_string();
        s.replace_range(a..b + close + 1, &text);
    }
    s.replace('`', "")
}

/// The ids of every heading of a Markdown file, with mdBook's `-1`, `-2` for repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 || !t[hashes..].starts_with(' ') {
            continue;
        }
        let id = slug(&heading_text(&t[hashes..]));
        let n = seen.entry(id.clone()).or_insert(0);
        let unique = if *n == 0 {
            id.clone()
        } else {
            format!("{id}-{n}")
        };
        *n += 1;
        out.insert(unique);
    }
    out
}

/// `a/b/../c` → `a/c`, without touching the filesystem.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Every broken relative link, image or anchor of `file`, one message each.
fn broken_links(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let shown = file
        .strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut problems = Vec::new();
    for (n, line) in prose_lines(&text) {
        for target in link_targets(line) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.to_path_buf()
            } else {
                normalize(&file.parent().unwrap().join(path))
            };
            if !resolved.is_file() {
                problems.push(format!(
                    "{shown}:{n}: `{target}` does not resolve to a file ({})",
                    resolved.display()
                ));
                continue;
            }
            if let Some(anchor) = anchor {
                if resolved.extension().is_none_or(|x| x != "md") {
                    problems.push(format!(
                        "{shown}:{n}: `{target}`: an anchor into a file that is not Markdown"
                    ));
                    continue;
                }
                let ids = anchors(&std::fs::read_to_string(&resolved).unwrap());
                if !ids.contains(anchor) {
                    problems.push(format!(
                        "{shown}:{n}: `{target}`: no heading with the id `{anchor}` in {}",
                        resolved.display()
                    ));
                }
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_image_and_anchor_resolves() {
    let mut files = markdown_files(&book_src());
    files.push(root().join("README.md"));
    let problems: Vec<String> = files.iter().flat_map(|f| broken_links(f)).collect();
    assert!(
        problems.is_empty(),
        "broken links in the guide or the README:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn every_page_is_in_the_summary() {
    let src = book_src();
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<PathBuf> = prose_lines(&summary)
        .into_iter()
        .flat_map(|(_, l)| link_targets(l))
        .map(|t| normalize(&src.join(t.split('#').next().unwrap_or(""))))
        .collect();
    let missing: Vec<String> = markdown_files(&src)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "SUMMARY.md"))
        .filter(|p| !listed.contains(p))
        .map(|p| p.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "pages not in docs/book/src/SUMMARY.md (mdBook would not build them): {}",
        missing.join(", ")
    );
}

/// The console's pictures are generated from the real console by another test; the guide
/// references each pane's picture, and each must be there.
#[test]
fn the_console_screenshots_are_referenced_and_exist() {
    let src = book_src();
    let console = std::fs::read_to_string(src.join("console.md")).unwrap();
    let mut missing = Vec::new();
    for pane in ["inbox", "brief", "drafts", "providers", "audit", "deals"] {
        let rel = format!("screenshots/{pane}.svg");
        assert!(
            console.contains(&format!("]({rel})")),
            "console.md does not show {rel}"
        );
        if !src.join(&rel).is_file() {
            missing.push(format!("docs/book/src/{rel}"));
        }
    }
    assert!(
        missing.is_empty(),
        "screenshots missing (they are rendered from the demo console by the screenshot test): {}",
        missing.join(", ")
    );
}

#[test]
fn the_book_builds_with_mdbook() {
    let found = Command::new("mdbook").arg("--version").output().is_ok();
    if !found {
        let required = std::env::var_os("CI_REQUIRE_PEERS").is_some_and(|v| v == "1");
        assert!(
            !required,
            "mdbook is not on PATH: run `bash .ci/deps/book.sh` (it installs .ci/tools/bin/mdbook)"
        );
        eprintln!(
            "\n*** SKIPPED the mdbook build: mdbook is not on PATH; run `bash .ci/deps/book.sh` and put .ci/tools/bin on PATH (CI does, and fails without it) ***\n"
        );
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let run = Command::new("mdbook")
        .arg("build")
        .arg(root().join("docs/book"))
        .arg("--dest-dir")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "mdbook build docs/book failed:\n{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    // mdBook warns (and still succeeds) on e.g. an unclosed HTML tag: a bare `<name>` in
    // prose, which the page would silently drop.
    let stderr = String::from_utf8_lossy(&run.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("WARN")).collect();
    assert!(
        warnings.is_empty(),
        "mdbook build docs/book warned:\n{}",
        stderr
    );
    assert!(out.path().join("index.html").is_file());
    assert!(out.path().join("reference/config.html").is_file());
}

#[test]
fn the_link_checker_finds_what_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.md"), "# Title\n\n## A `code` head\n").unwrap();
    let a = dir.path().join("a.md");
    std::fs::write(
        &a,
        "[ok](b.md#a-code-head) [bad](b.md#nope) [gone](c.md) ![img](x.svg)\n\
         `[not a link](nowhere.md)`\n```\n[in code](nowhere.md)\n```\n[web](https://example.com)\n",
    )
    .unwrap();
    let problems = broken_links(&a);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].contains("nope"), "{problems:?}");
    assert!(problems[1].contains("c.md"), "{problems:?}");
    assert!(problems[2].contains("x.svg"), "{problems:?}");
    assert_eq!(
        slug(&heading_text("`[server.clients.<name>]`")),
        "serverclientsname"
    );
}
