//! The example tools of `assets/tools/`, built into the binary so that `opsdesk --demo` serves
//! them from its throw-away data dir (the demo then shows what a vault tool does, in the
//! console, over MCP and with `opsdesk --demo tools run`).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// (tool folder, file name, contents, mode).
const FILES: &[(&str, &str, &str, u32)] = &[
    (
        "thread_summary",
        "tool.toml",
        include_str!("../../assets/tools/thread_summary/tool.toml"),
        0o600,
    ),
    (
        "thread_summary",
        "run.py",
        include_str!("../../assets/tools/thread_summary/run.py"),
        0o700,
    ),
    (
        "follow_up",
        "tool.toml",
        include_str!("../../assets/tools/follow_up/tool.toml"),
        0o600,
    ),
    (
        "follow_up",
        "run.py",
        include_str!("../../assets/tools/follow_up/run.py"),
        0o700,
    ),
];

/// Write the examples into `dir` (a tools folder), unless it already exists: a kept demo data
/// dir keeps whatever the operator changed there.
pub fn install(dir: &Path) -> std::io::Result<()> {
    if dir.exists() {
        return Ok(());
    }
    for (tool, name, text, mode) in FILES {
        let folder = dir.join(tool);
        std::fs::create_dir_all(&folder)?;
        // Private modes: the vault refuses folders and programs others can write, and the
        // engine tightens anything looser under its data dir (which would drop the exec bit).
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700))?;
        let file = folder.join(name);
        std::fs::write(&file, text)?;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(*mode))?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_installed_examples_load_as_tools() {
        let d = tempfile::tempdir().unwrap();
        let tools = d.path().join("tools");
        install(&tools).unwrap();
        let v = super::super::Vault::open(tools.clone(), &Default::default());
        let names: Vec<String> = v.tools().iter().map(|m| m.name.clone()).collect();
        assert_eq!(names, vec!["follow_up", "thread_summary"]);
        assert!(v.broken().is_empty(), "{:?}", v.broken());
        // A second install leaves the folder alone.
        std::fs::remove_file(tools.join("follow_up/run.py")).unwrap();
        install(&tools).unwrap();
        assert!(!tools.join("follow_up/run.py").exists());
    }
}
