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

pub(crate) const BUILT_IN: [(&str, &str); 3] = [
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

/// How many colours the terminal shows. Theme files are written in 24-bit colour; on a
/// terminal without it each colour becomes the nearest of the 256 (or 16) it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorDepth {
    #[default]
    TrueColor,
    Ansi256,
    Ansi16,
}

impl ColorDepth {
    /// From `COLORTERM` (`truecolor` / `24bit`) and `TERM` (`*-256color`), as terminals
    /// announce it; anything else gets the 16 colours every terminal has.
    pub fn detect(colorterm: Option<&str>, term: Option<&str>) -> ColorDepth {
        let ct = colorterm.unwrap_or("").to_ascii_lowercase();
        let term = term.unwrap_or("").to_ascii_lowercase();
        if ct == "truecolor" || ct == "24bit" || term.contains("direct") {
            ColorDepth::TrueColor
        } else if term.contains("256") {
            ColorDepth::Ansi256
        } else {
            ColorDepth::Ansi16
        }
    }

    pub fn from_env() -> ColorDepth {
        let get = |k| std::env::var(k).ok();
        ColorDepth::detect(get("COLORTERM").as_deref(), get("TERM").as_deref())
    }
}

/// Whether the terminal's background is light, from `COLORFGBG` (`fg;bg`, set by rxvt,
/// Konsole, iTerm2 and others). `None` when the terminal does not say.
pub(crate) fn background_is_light(colorfgbg: Option<&str>) -> Option<bool> {
    let bg: u8 = colorfgbg?.rsplit(';').next()?.trim().parse().ok()?;
    Some(matches!(bg, 7 | 9..=15))
}

/// The theme to use when none was named: `light` on a terminal that says its background is
/// light, else `dark`.
pub(crate) fn default_name() -> &'static str {
    match background_is_light(std::env::var("COLORFGBG").ok().as_deref()) {
        Some(true) => "light",
        _ => "dark",
    }
}

/// The nearest xterm-256 palette index of an RGB colour (the 6×6×6 cube or the grey ramp).
pub(crate) fn rgb_to_256(r: u8, g: u8, b: u8) -> u8 {
    let level = |v: u8| -> u8 {
        if v < 48 {
            0
        } else if v < 115 {
            1
        } else {
            ((v as u16 - 35) / 40) as u8
        }
    };
    let steps = [0u8, 95, 135, 175, 215, 255];
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = 16 + 36 * ri + 6 * gi + bi;
    let cube_rgb = (steps[ri as usize], steps[gi as usize], steps[bi as usize]);
    let avg = (r as u16 + g as u16 + b as u16) / 3;
    let grey_i = if avg > 238 {
        23
    } else {
        (avg.saturating_sub(3) / 10) as u8
    };
    let grey = 8 + 10 * grey_i;
    let d = |a: (u8, u8, u8)| {
        let sq = |x: u8, y: u8| (x as i32 - y as i32).pow(2);
        sq(a.0, r) + sq(a.1, g) + sq(a.2, b)
    };
    if d((grey, grey, grey)) < d(cube_rgb) {
        232 + grey_i
    } else {
        cube
    }
}

/// The nearest of the 16 ANSI colours (xterm's default palette).
pub(crate) fn rgb_to_16(r: u8, g: u8, b: u8) -> Color {
    const PALETTE: [(Color, (u8, u8, u8)); 16] = [
        (Color::Black, (0, 0, 0)),
        (Color::Red, (205, 0, 0)),
        (Color::Green, (0, 205, 0)),
        (Color::Yellow, (205, 205, 0)),
        (Color::Blue, (0, 0, 238)),
        (Color::Magenta, (205, 0, 205)),
        (Color::Cyan, (0, 205, 205)),
        (Color::Gray, (229, 229, 229)),
        (Color::DarkGray, (127, 127, 127)),
        (Color::LightRed, (255, 0, 0)),
        (Color::LightGreen, (0, 255, 0)),
        (Color::LightYellow, (255, 255, 0)),
        (Color::LightBlue, (92, 92, 255)),
        (Color::LightMagenta, (255, 0, 255)),
        (Color::LightCyan, (0, 255, 255)),
        (Color::White, (255, 255, 255)),
    ];
    let d = |p: (u8, u8, u8)| {
        let sq = |x: u8, y: u8| (x as i32 - y as i32).pow(2);
        sq(p.0, r) + sq(p.1, g) + sq(p.2, b)
    };
    PALETTE
        .iter()
        .min_by_key(|(_, p)| d(*p))
        .map(|(c, _)| *c)
        .unwrap_or(Color::Reset)
}

fn fit_color(c: Color, depth: ColorDepth) -> Color {
    match (c, depth) {
        (Color::Rgb(r, g, b), ColorDepth::Ansi256) => Color::Indexed(rgb_to_256(r, g, b)),
        (Color::Rgb(r, g, b), ColorDepth::Ansi16) => rgb_to_16(r, g, b),
        (other, _) => other,
    }
}

fn fit_style(s: Style, depth: ColorDepth) -> Style {
    Style {
        fg: s.fg.map(|c| fit_color(c, depth)),
        bg: s.bg.map(|c| fit_color(c, depth)),
        ..s
    }
}

/// Resolved styles, one per role.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    pub no_color: bool,
    /// The colours it was fitted to.
    pub depth: ColorDepth,
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
            depth: ColorDepth::TrueColor,
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

    /// The theme with every colour the nearest one the terminal has.
    pub fn fit_to(mut self, depth: ColorDepth) -> Theme {
        for s in [
            &mut self.text,
            &mut self.muted,
            &mut self.accent,
            &mut self.title,
            &mut self.border,
            &mut self.border_focus,
            &mut self.selection,
            &mut self.unread,
            &mut self.ok,
            &mut self.warn,
            &mut self.error,
            &mut self.status,
        ] {
            *s = fit_style(*s, depth);
        }
        self.depth = depth;
        self
    }

    /// Modifiers only, for `NO_COLOR`.
    pub fn monochrome(name: &str) -> Theme {
        let plain = Style::default();
        Theme {
            name: name.to_string(),
            no_color: true,
            depth: ColorDepth::TrueColor,
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
pub(crate) fn no_color_from_env() -> bool {
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
    fn colours_fit_the_terminal() {
        assert_eq!(
            ColorDepth::detect(Some("truecolor"), Some("xterm")),
            ColorDepth::TrueColor
        );
        assert_eq!(
            ColorDepth::detect(None, Some("xterm-256color")),
            ColorDepth::Ansi256
        );
        assert_eq!(ColorDepth::detect(None, Some("linux")), ColorDepth::Ansi16);
        assert_eq!(rgb_to_256(0, 0, 0), 16);
        assert_eq!(rgb_to_256(255, 255, 255), 231);
        assert_eq!(rgb_to_256(0x87, 0x5f, 0x00), 94);
        assert_eq!(rgb_to_256(0x6c, 0x6c, 0x6c), 242);
        assert_eq!(rgb_to_16(0xaf, 0, 0), Color::Red);
        let t = Theme::built_in("light", false)
            .unwrap()
            .fit_to(ColorDepth::Ansi16);
        for s in [t.text, t.selection, t.status, t.error] {
            for c in [s.fg, s.bg].into_iter().flatten() {
                assert!(!matches!(c, Color::Rgb(..) | Color::Indexed(_)), "{c:?}");
            }
        }
    }

    #[test]
    fn a_light_background_is_recognised() {
        assert_eq!(background_is_light(Some("0;15")), Some(true));
        assert_eq!(background_is_light(Some("15;0")), Some(false));
        assert_eq!(background_is_light(Some("12;default;7")), Some(true));
        assert_eq!(background_is_light(None), None);
    }

    #[test]
    fn a_missing_role_is_named() {
        let err = Theme::parse("name = \"x\"\n[roles]\ntext = \"red\"\n", false).unwrap_err();
        assert!(format!("{err:#}").contains("muted"));
    }
}
