//! Colour themes with semantic roles. Built-in themes are the files in `themes/`, embedded at
//! build time; a user theme is `<config dir>/themes/<name>.toml` or a path to a `.toml` file.
//!
//! With `NO_COLOR` set (any non-empty value, per no-color.org) every role becomes a modifier
//! only (bold, reversed, dim), so the selection and the unread / failing marks stay visible.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

pub const BUILT_IN: [(&str, &str); 3] = [
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
];

/// Every role a theme file must define.
const ROLES: [&str; 14] = [
    "text",
    "muted",
    "accent",
    "title",
    "border",
    "border_focus",
    "selection_fg",
    "selection_bg",
    "unread",
    "ok",
    "warn",
    "error",
    "status_fg",
    "status_bg",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: String,
    roles: BTreeMap<String, String>,
}

/// Resolved styles, one per role.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    pub no_color: bool,
    pub text: Style,
    pub muted: Style,
    pub accent: Style,
    pub title: Style,
    pub border: Style,
    pub border_focus: Style,
    pub selection: Style,
    pub unread: Style,
    pub ok: Style,
    pub warn: Style,
    pub error: Style,
    pub status: Style,
}

impl Theme {
    /// A built-in theme by name (`dark`, `light`, `high-contrast`).
    pub fn built_in(name: &str, no_color: bool) -> Option<Theme> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        // The built-in files are covered by tests, so they always parse.
        Theme::parse(text, no_color).ok()
    }

    /// Resolve `name`: a built-in, then `<config_dir>/themes/<name>.toml`, then a path.
    pub fn load(name: &str, config_dir: Option<&Path>, no_color: bool) -> Result<Theme> {
        if let Some(t) = Theme::built_in(name, no_color) {
            return Ok(t);
        }
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(dir) = config_dir {
            candidates.push(dir.join("themes").join(format!("{name}.toml")));
        }
        if name.ends_with(".toml") {
            candidates.push(PathBuf::from(name));
        }
        for path in &candidates {
            if path.is_file() {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read theme {}", path.display()))?;
                return Theme::parse(&text, no_color)
                    .with_context(|| format!("theme {}", path.display()));
            }
        }
        let built: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
        bail!(
            "unknown theme `{name}`: built-in themes are {}; a custom theme goes in {}",
            built.join(", "),
            config_dir
                .map(|d| d.join("themes/<name>.toml").display().to_string())
                .unwrap_or_else(|| "themes/<name>.toml".into())
        )
    }

    pub fn parse(text: &str, no_color: bool) -> Result<Theme> {
        let file: ThemeFile = toml::from_str(text)?;
        let mut colors = BTreeMap::new();
        for role in ROLES {
            let v = file
                .roles
                .get(role)
                .with_context(|| format!("role `{role}` is missing"))?;
            let c = Color::from_str(v)
                .map_err(|_| anyhow::anyhow!("role `{role}`: `{v}` is not a colour"))?;
            colors.insert(role, c);
        }
        if let Some(extra) = file.roles.keys().find(|k| !ROLES.contains(&k.as_str())) {
            bail!("unknown role `{extra}`; roles are {}", ROLES.join(", "));
        }
        if no_color {
            return Ok(Theme::monochrome(&file.name));
        }
        let fg = |r: &str| Style::default().fg(colors[r]);
        Ok(Theme {
            name: file.name,
            no_color: false,
            text: fg("text"),
            muted: fg("muted"),
            accent: fg("accent"),
            title: fg("title").add_modifier(Modifier::BOLD),
            border: fg("border"),
            border_focus: fg("border_focus"),
            selection: Style::default()
                .fg(colors["selection_fg"])
                .bg(colors["selection_bg"])
                .add_modifier(Modifier::BOLD),
            unread: fg("unread").add_modifier(Modifier::BOLD),
            ok: fg("ok"),
            warn: fg("warn").add_modifier(Modifier::BOLD),
            error: fg("error").add_modifier(Modifier::BOLD),
            status: Style::default()
                .fg(colors["status_fg"])
                .bg(colors["status_bg"]),
        })
    }

    /// Modifiers only, for `NO_COLOR`.
    pub fn monochrome(name: &str) -> Theme {
        let plain = Style::default();
        Theme {
            name: name.to_string(),
            no_color: true,
            text: plain,
            muted: plain.add_modifier(Modifier::DIM),
            accent: plain,
            title: plain.add_modifier(Modifier::BOLD),
            border: plain,
            border_focus: plain.add_modifier(Modifier::BOLD),
            selection: plain.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            unread: plain.add_modifier(Modifier::BOLD),
            ok: plain,
            warn: plain.add_modifier(Modifier::BOLD),
            error: plain.add_modifier(Modifier::BOLD | Modifier::REVERSED),
            status: plain.add_modifier(Modifier::REVERSED),
        }
    }
}

/// Whether `NO_COLOR` asks for no colour (set and non-empty).
pub fn no_color_from_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_parse() {
        for (name, _) in BUILT_IN {
            let t = Theme::built_in(name, false).unwrap();
            assert_eq!(t.name, name);
            assert!(t.selection.bg.is_some());
        }
    }

    #[test]
    fn no_color_has_no_colours_but_keeps_the_selection_visible() {
        let t = Theme::built_in("dark", true).unwrap();
        assert!(t.selection.fg.is_none() && t.selection.bg.is_none());
        assert!(t.selection.add_modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn a_missing_role_is_named() {
        let err = Theme::parse("name = \"x\"\n[roles]\ntext = \"red\"\n", false).unwrap_err();
        assert!(format!("{err:#}").contains("muted"));
    }
}
