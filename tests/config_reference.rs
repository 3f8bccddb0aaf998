//! The configuration reference in the book is generated from the config schema
//! (`opsdesk::config::reference`); this test fails when the committed page and the schema
//! disagree, and `OPSDESK_BLESS=1` rewrites the page.

use std::path::Path;

use opsdesk::config::reference::{REFERENCE_PATH, REGENERATE, generate};

#[test]
fn every_key_has_a_description_and_an_example() {
    let gaps = generate().gaps;
    assert!(
        gaps.is_empty(),
        "the config schema lacks documentation (add a doc comment or #[schemars(example = …)] next to the field):\n  {}",
        gaps.join("\n  ")
    );
}

#[test]
fn the_committed_reference_matches_the_schema() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(REFERENCE_PATH);
    let generated = generate().markdown;
    if std::env::var_os("OPSDESK_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the reference");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        // The first differing line, so the failure says what changed.
        let line = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || committed.lines().count().min(generated.lines().count()) + 1,
                |i| i + 1,
            );
        panic!(
            "{REFERENCE_PATH} is out of date with the config schema (first difference at line {line});\nregenerate it with: {REGENERATE}"
        );
    }
}

#[test]
fn the_reference_names_every_section_and_the_built_in_defaults() {
    let md = generate().markdown;
    let defaults = serde_json::to_value(opsdesk::config::Config::default()).unwrap();
    for section in defaults.as_object().unwrap().keys() {
        assert!(
            md.contains(&format!("`{section}.")) || md.contains(&format!("[{section}.")),
            "section {section} is missing from the reference"
        );
    }
    let c = opsdesk::config::Config::default();
    assert!(md.contains(&format!(
        "### `server.bind`\n\n- Type: string\n- Default: `\"{}\"`",
        c.server.bind
    )));
    assert!(md.contains(&format!(
        "### `vault.max_limits.memory_mb`\n\n- Type: integer\n- Default: `{}`",
        c.vault.max_limits.memory_mb
    )));
}
