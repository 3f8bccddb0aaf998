//! The keymap: TOML with built-in defaults (`assets/keymap.toml`). The `?` help is generated
//! from the same entries, so what the help says is what the keys do.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;

pub(crate) const DEFAULT_KEYMAP: &str = include_str!("../../assets/keymap.toml");

/// Where a binding applies. A pane's section is consulted before `Global`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    Global,
    Inbox,
    Brief,
    Drafts,
    Providers,
    Audit,
    Deals,
    /// A message's details with attachments (`Enter` on an inbox item); consulted on its own,
    /// not before `Global`.
    Details,
}

impl Section {
    pub const ALL: [Section; 8] = [
        Section::Global,
        Section::Inbox,
        Section::Brief,
        Section::Drafts,
        Section::Providers,
        Section::Audit,
        Section::Deals,
        Section::Details,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Section::Global => "global",
            Section::Inbox => "inbox",
            Section::Brief => "brief",
            Section::Drafts => "drafts",
            Section::Providers => "providers",
            Section::Audit => "audit",
            Section::Deals => "deals",
            Section::Details => "details",
        }
    }
}

macro_rules! acts {
    ($($v:ident = $n:literal),* $(,)?) => {
        /// Everything a key can do.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Act { $($v),* }
        impl Act {
            pub fn from_name(s: &str) -> Option<Act> {
                match s { $($n => Some(Act::$v),)* _ => None }
            }
            pub fn name(self) -> &'static str {
                match self { $(Act::$v => $n),* }
            }
        }
    };
}

acts! {
    Quit = "quit", NextPane = "next_pane", PrevPane = "prev_pane",
    PaneInbox = "pane_inbox", PaneBrief = "pane_brief", PaneDrafts = "pane_drafts",
    PaneProviders = "pane_providers", PaneAudit = "pane_audit", PaneDeals = "pane_deals",
    Down = "down", Up = "up", PageDown = "page_down", PageUp = "page_up",
    Top = "top", Bottom = "bottom", Filter = "filter", ClearFilter = "clear_filter",
    Command = "command", Help = "help", Health = "health", Mouse = "mouse",
    Details = "details", Refresh = "refresh", Messages = "messages",
    DraftReply = "draft_reply", AskReply = "ask_reply", MarkRead = "mark_read",
    MarkAllRead = "mark_all_read",
    Regenerate = "regenerate",
    Approve = "approve", Reject = "reject", Edit = "edit", ShowAll = "show_all",
    Requeue = "requeue", SortAge = "sort_age", Mark = "mark",
    ToggleEnabled = "toggle_enabled", SetDefault = "set_default",
    CycleOutcome = "cycle_outcome", Verify = "verify",
    RunTriage = "run_triage", TriageAll = "triage_all", RunDeadlines = "run_deadlines",
    CancelJobs = "cancel_jobs", Classify = "classify", AssignProfile = "assign_profile",
    NextAttachment = "next_attachment", OpenAttachment = "open_attachment",
    SaveAttachment = "save_attachment",
}

/// What a binding is for, to group the `?` help the way people look for keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Purpose {
    Move,
    Panes,
    Act,
    Filter,
    App,
}

impl Purpose {
    pub const ALL: [Purpose; 5] = [
        Purpose::Move,
        Purpose::Panes,
        Purpose::Act,
        Purpose::Filter,
        Purpose::App,
    ];
    pub fn title(self) -> &'static str {
        match self {
            Purpose::Move => "Move",
            Purpose::Panes => "Panes",
            Purpose::Act => "Act",
            Purpose::Filter => "Filter",
            Purpose::App => "App",
        }
    }
}

impl Act {
    pub fn purpose(self) -> Purpose {
        match self {
            Act::Down
            | Act::Up
            | Act::PageDown
            | Act::PageUp
            | Act::Top
            | Act::Bottom
            | Act::NextAttachment => Purpose::Move,
            Act::NextPane
            | Act::PrevPane
            | Act::PaneInbox
            | Act::PaneBrief
            | Act::PaneDrafts
            | Act::PaneProviders
            | Act::PaneAudit
            | Act::PaneDeals => Purpose::Panes,
            Act::Filter | Act::ClearFilter | Act::CycleOutcome | Act::ShowAll | Act::SortAge => {
                Purpose::Filter
            }
            Act::Quit
            | Act::Command
            | Act::Help
            | Act::Health
            | Act::Mouse
            | Act::Refresh
            | Act::Messages
            | Act::Verify => Purpose::App,
            Act::Details
            | Act::DraftReply
            | Act::AskReply
            | Act::MarkRead
            | Act::MarkAllRead
            | Act::Regenerate
            | Act::Approve
            | Act::Reject
            | Act::Edit
            | Act::Requeue
            | Act::Mark
            | Act::ToggleEnabled
            | Act::SetDefault
            | Act::RunTriage
            | Act::TriageAll
            | Act::RunDeadlines
            | Act::CancelJobs
            | Act::Classify
            | Act::AssignProfile
            | Act::OpenAttachment
            | Act::SaveAttachment => Purpose::Act,
        }
    }
}

/// A key with its modifiers, normalized so that `G` and `shift-g` are the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

impl Key {
    pub fn from_event(ev: &KeyEvent) -> Key {
        let mut mods = ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        let code = match ev.code {
            // Terminals report shift-tab as BackTab, sometimes with SHIFT set as well.
            KeyCode::BackTab => KeyCode::BackTab,
            KeyCode::Char(c) if mods.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(c.to_ascii_lowercase())
            }
            other => other,
        };
        if matches!(code, KeyCode::Char(_)) && mods.is_empty() {
            mods = KeyModifiers::NONE;
        }
        Key { code, mods }
    }

    pub fn parse(s: &str) -> Result<Key> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s;
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-") {
                mods |= KeyModifiers::CONTROL;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-") {
                mods |= KeyModifiers::ALT;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest {
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" | "shift-tab" => KeyCode::BackTab,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            "delete" => KeyCode::Delete,
            f if f.len() > 1 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                KeyCode::F(f[1..].parse().unwrap_or(1))
            }
            c if c.chars().count() == 1 => {
                let ch = c.chars().next().unwrap_or(' ');
                KeyCode::Char(if mods.contains(KeyModifiers::CONTROL) {
                    ch.to_ascii_lowercase()
                } else {
                    ch
                })
            }
            _ => bail!("unknown key `{s}`"),
        };
        Ok(Key { code, mods })
    }

    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            s.push_str("Ctrl-");
        }
        if self.mods.contains(KeyModifiers::ALT) {
            s.push_str("Alt-");
        }
        match self.code {
            KeyCode::Char(' ') => s.push_str("Space"),
            KeyCode::Char(c) => s.push(c),
            KeyCode::BackTab => s.push_str("Shift-Tab"),
            KeyCode::PageUp => s.push_str("PgUp"),
            KeyCode::PageDown => s.push_str("PgDn"),
            KeyCode::F(n) => s.push_str(&format!("F{n}")),
            other => s.push_str(&format!("{other:?}")),
        }
        s
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    keys: Vec<String>,
    #[serde(default)]
    help: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub section: Section,
    pub act: Act,
    pub keys: Vec<Key>,
    pub help: String,
}

#[derive(Debug, Clone)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

impl Keymap {
    pub fn defaults() -> Keymap {
        // The embedded file is covered by a test, so it always parses.
        let mut k = Keymap {
            bindings: Vec::new(),
        };
        let _ = k.merge(DEFAULT_KEYMAP, true);
        // The TOML parser hands entries over sorted by name; the help lists them in the
        // order the file gives them (grouped the way people look for keys).
        let order = file_order(DEFAULT_KEYMAP);
        k.bindings.sort_by_key(|b| {
            order
                .iter()
                .position(|(sec, act)| *sec == b.section.name() && *act == b.act.name())
                .unwrap_or(usize::MAX)
        });
        k
    }

    /// The defaults with the user's file (if any) merged over them.
    pub fn load(path: Option<&Path>) -> Result<Keymap> {
        let mut k = Keymap::defaults();
        if let Some(p) = path {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read keymap {}", p.display()))?;
            k.merge(&text, false)
                .with_context(|| format!("keymap {}", p.display()))?;
        }
        Ok(k)
    }

    fn merge(&mut self, text: &str, defaults: bool) -> Result<()> {
        // Read as plain TOML first, then each entry on its own: a mistake names its section
        // and entry and shows the form expected, not serde's "expected struct Entry".
        let file: BTreeMap<String, toml::Value> = toml::from_str(text)?;
        for (sec_name, entries) in file {
            let section = Section::ALL.into_iter().find(|s| s.name() == sec_name);
            let toml::Value::Table(entries) = entries else {
                bail!(
                    "`{sec_name}` is outside a section: put each entry under [global] or a pane's section, e.g.\n[global]\n{}",
                    entry_example(&sec_name, &entries)
                );
            };
            let Some(section) = section else {
                // `quit = { keys = [...] }` above every header parses as a table named `quit`.
                if Act::from_name(&sec_name).is_some() {
                    bail!(
                        "`{sec_name}` is outside a section: put each entry under [global] or a pane's section, e.g.\n[global]\n{}",
                        entry_example(&sec_name, &toml::Value::Table(entries))
                    );
                }
                let names: Vec<&str> = Section::ALL.iter().map(|s| s.name()).collect();
                bail!(
                    "unknown section [{sec_name}]; sections: {}",
                    names.join(", ")
                );
            };
            for (act_name, value) in entries {
                let act = Act::from_name(&act_name)
                    .with_context(|| format!("[{sec_name}] unknown action `{act_name}`"))?;
                let entry: Entry = match &value {
                    toml::Value::Table(_) => value.clone().try_into().map_err(|e| {
                        anyhow::anyhow!(
                            "[{sec_name}] {act_name}: {}; write it as {}",
                            e.message().trim(),
                            entry_example(&act_name, &value)
                        )
                    })?,
                    other => bail!(
                        "[{sec_name}] {act_name} = {other} is not a keymap entry; write it as {}",
                        entry_example(&act_name, other)
                    ),
                };
                let keys = entry
                    .keys
                    .iter()
                    .map(|k| Key::parse(k))
                    .collect::<Result<Vec<_>>>()
                    .with_context(|| format!("[{sec_name}] {act_name}"))?;
                match self
                    .bindings
                    .iter_mut()
                    .find(|b| b.section == section && b.act == act)
                {
                    Some(b) => {
                        b.keys = keys;
                        if let Some(h) = entry.help {
                            b.help = h;
                        }
                    }
                    None if defaults => self.bindings.push(Binding {
                        section,
                        act,
                        keys,
                        help: entry.help.unwrap_or_else(|| act_name.clone()),
                    }),
                    None => bail!(
                        "[{sec_name}] `{act_name}` is not an action of this section (see the built-in keymap)"
                    ),
                }
            }
        }
        Ok(())
    }

    /// The action for a key in a pane: the pane's own bindings first, then the global ones.
    pub fn lookup(&self, section: Section, ev: &KeyEvent) -> Option<Act> {
        let key = Key::from_event(ev);
        let find = |sec: Section| {
            self.bindings
                .iter()
                .find(|b| b.section == sec && b.keys.contains(&key))
                .map(|b| b.act)
        };
        find(section).or_else(|| find(Section::Global))
    }

    /// The action for a key in `section` alone (the message details, where unbound keys
    /// scroll or close rather than reach the panes).
    pub fn lookup_in(&self, section: Section, ev: &KeyEvent) -> Option<Act> {
        let key = Key::from_event(ev);
        self.bindings
            .iter()
            .find(|b| b.section == section && b.keys.contains(&key))
            .map(|b| b.act)
    }

    /// The first key bound to `act` in `section` (or global), for hints.
    pub fn key_for(&self, section: Section, act: Act) -> String {
        self.bindings
            .iter()
            .find(|b| b.act == act && (b.section == section || b.section == Section::Global))
            .and_then(|b| b.keys.first())
            .map(Key::label)
            .unwrap_or_else(|| "?".into())
    }

    /// The `?` help for `pane`: its own keys first (by purpose), then the keys that work
    /// everywhere grouped by purpose, then the other panes' keys. Each group is
    /// (title, [(keys, description)]), bindings in file order.
    pub fn help_for(&self, pane: Section) -> Vec<(String, Vec<(String, String)>)> {
        let entry = |b: &Binding| {
            let keys: Vec<String> = b.keys.iter().map(Key::label).collect();
            (keys.join(" "), b.help.clone())
        };
        let mut out = Vec::new();
        let title = |s: Section| {
            let n = s.name();
            let mut c = n.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        };
        for purpose in Purpose::ALL {
            let own: Vec<_> = self
                .bindings
                .iter()
                .filter(|b| b.section == pane && b.act.purpose() == purpose)
                .map(entry)
                .collect();
            if !own.is_empty() {
                out.push((
                    format!("{} pane · {}", title(pane), purpose.title().to_lowercase()),
                    own,
                ));
            }
        }
        for purpose in Purpose::ALL {
            let global: Vec<_> = self
                .bindings
                .iter()
                .filter(|b| b.section == Section::Global && b.act.purpose() == purpose)
                .map(entry)
                .collect();
            if !global.is_empty() {
                out.push((format!("{} (everywhere)", purpose.title()), global));
            }
        }
        for sec in Section::ALL {
            if sec == Section::Global || sec == pane {
                continue;
            }
            let rest: Vec<_> = self
                .bindings
                .iter()
                .filter(|b| b.section == sec)
                .map(entry)
                .collect();
            if !rest.is_empty() {
                let head = match sec {
                    Section::Details => "Message details (Enter on a message)".to_string(),
                    _ => format!("{} pane", title(sec)),
                };
                out.push((head, rest));
            }
        }
        out
    }
}

/// `name = { keys = [...] }` with the keys the mistaken value seems to mean (a key or a list
/// of keys, bare or as `keys = …`), else an example key.
fn entry_example(name: &str, value: &toml::Value) -> String {
    let strings = |v: &toml::Value| -> Vec<String> {
        match v {
            toml::Value::String(s) => vec![s.clone()],
            toml::Value::Array(a) => a
                .iter()
                .filter_map(|k| k.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut keys = match value {
        toml::Value::Table(t) => t.get("keys").or_else(|| t.get("key")).map(strings),
        v => Some(strings(v)),
    }
    .unwrap_or_default();
    if keys.is_empty() {
        keys.push("Q".into());
    }
    let keys: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
    format!("{name} = {{ keys = [{}] }}", keys.join(", "))
}

/// `(section, action)` of every entry, in the order the file writes them (a line-level
/// scan: `[section]` headers and `name = …` lines; the parser has already checked the file).
fn file_order(text: &str) -> Vec<(&str, &str)> {
    let mut section = "";
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.trim();
        } else if let Some((name, _)) = line.split_once('=') {
            out.push((section, name.trim()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn defaults_parse_and_pane_keys_win() {
        let k = Keymap::load(None).unwrap();
        assert!(k.bindings.len() > 20);
        let r = ev(KeyCode::Char('r'), KeyModifiers::NONE);
        assert_eq!(k.lookup(Section::Drafts, &r), Some(Act::Reject));
        assert_eq!(k.lookup(Section::Brief, &r), Some(Act::Regenerate));
        assert_eq!(k.lookup(Section::Inbox, &r), None);
        let g = ev(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(k.lookup(Section::Inbox, &g), Some(Act::Bottom));
        let cc = ev(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(k.lookup(Section::Audit, &cc), Some(Act::Quit));
        let bt = ev(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(k.lookup(Section::Audit, &bt), Some(Act::PrevPane));
    }

    #[test]
    fn bindings_keep_the_order_of_the_keymap_file() {
        let k = Keymap::defaults();
        let global: Vec<&str> = k
            .bindings
            .iter()
            .filter(|b| b.section == Section::Global)
            .map(|b| b.act.name())
            .collect();
        assert_eq!(
            &global[..9],
            [
                "quit",
                "next_pane",
                "prev_pane",
                "pane_inbox",
                "pane_brief",
                "pane_drafts",
                "pane_providers",
                "pane_audit",
                "pane_deals"
            ]
        );
        let moves: Vec<&str> = global
            .iter()
            .copied()
            .filter(|a| Act::from_name(a).is_some_and(|a| a.purpose() == Purpose::Move))
            .collect();
        assert_eq!(
            moves,
            ["down", "up", "page_down", "page_up", "top", "bottom"]
        );
    }

    #[test]
    fn user_file_overrides_keys_and_rejects_unknown_actions() {
        let mut k = Keymap::defaults();
        k.merge("[drafts]\napprove = { keys = [\"y\"] }\n", false)
            .unwrap();
        let y = ev(KeyCode::Char('y'), KeyModifiers::NONE);
        assert_eq!(k.lookup(Section::Drafts, &y), Some(Act::Approve));
        assert!(
            k.merge("[drafts]\nlaunch = { keys = [\"x\"] }\n", false)
                .is_err()
        );
    }

    #[test]
    fn a_wrong_entry_is_named_with_the_form_expected() {
        let err = |text: &str| {
            let mut k = Keymap::defaults();
            format!("{:#}", k.merge(text, false).unwrap_err())
        };
        let e = err("[global]\nquit = \"Q\"\n");
        assert!(
            e.contains("[global] quit") && e.contains(r#"quit = { keys = ["Q"] }"#),
            "{e}"
        );
        assert!(!e.contains("struct Entry"), "{e}");
        let e = err("[global]\nquit = { keys = \"Q\" }\n");
        assert!(
            e.contains("[global] quit") && e.contains(r#"quit = { keys = ["Q"] }"#),
            "{e}"
        );
        let e = err("[inbox]\ndraft_reply = { key = [\"r\"] }\n");
        assert!(
            e.contains("[inbox] draft_reply") && e.contains("unknown field `key`"),
            "{e}"
        );
        assert!(e.contains(r#"draft_reply = { keys = ["r"] }"#), "{e}");
        let e = err("quit = { keys = [\"Q\"] }\n");
        assert!(
            e.contains("outside a section") && e.contains("[global]"),
            "{e}"
        );
    }
}
