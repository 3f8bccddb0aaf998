//! Pictures of the console for the README and the book (issue 33), drawn by the real drawing
//! code: each pane's demo state is rendered with ratatui's `TestBackend` (fixed clock, fixed
//! data) and turned into an SVG. The test fails when a committed picture differs from what
//! the code draws now, so the pictures never go stale; `OPSDESK_BLESS=1` rewrites them.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use opsdesk::brief::{BriefInputs, build};
use opsdesk::config::Config;
use opsdesk::domain::{
    AuditEvent, AuditOutcome, AuditRecord, BriefKind, Channel, Draft, DraftEvent, DraftEventKind,
    DraftStatus, InboxRecord, Outbound, Party, Verdict,
};
use opsdesk::engine::EngineEvent;
use opsdesk::engine::providers::view;
use opsdesk::engine::runner::SourceHealth;
use opsdesk::tui::app::{Anchor, App, ChainStatus, Msg};
use opsdesk::tui::draw;
use opsdesk::tui::keymap::Keymap;
use opsdesk::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use unicode_width::UnicodeWidthStr;

/// The console's clock in every picture (a Tuesday morning).
const NOW: OffsetDateTime = datetime!(2026-03-03 09:40 UTC);
/// About the size of a terminal a newcomer has open.
const SIZE: (u16, u16) = (120, 32);

// ---------------------------------------------------------------------------------------------
// The demo state: what `opsdesk --demo` shows after a few minutes, with fixed ids and times.

struct Mail {
    seq: u64,
    channel: Channel,
    profile: &'static str,
    from: (&'static str, &'static str),
    subject: &'static str,
    minutes_ago: i64,
    text: &'static str,
}

const INBOX: &[Mail] = &[
    Mail {
        seq: 1,
        channel: Channel::Email,
        profile: "work",
        from: ("Contoso CI", "ci-noreply@contoso.com"),
        subject: "[opsdesk-api] Build #4812 failed on main",
        minutes_ago: 95,
        text: "Build #4812 failed on main.\n\nFailing step: integration tests (3 failed).",
    },
    Mail {
        seq: 2,
        channel: Channel::Email,
        profile: "work",
        from: ("Elena Petrova", "elena.petrova@fabrikam-supplies.example"),
        subject: "Contract renewal FY26 – please confirm by Friday",
        minutes_ago: 80,
        text: "Hi Alex,\n\nour FY26 renewal quote is attached. Could you confirm the seat count by Friday 6 March so we can keep the current price?\n\nBest regards,\nElena Petrova\nFabrikam Supplies",
    },
    Mail {
        seq: 3,
        channel: Channel::Teams,
        profile: "work",
        from: ("Sam Rivera", "sam.rivera@contoso.com"),
        subject: "Can you review the on-call rota before noon?",
        minutes_ago: 64,
        text: "Can you review the on-call rota before noon? Two swaps this week.",
    },
    Mail {
        seq: 4,
        channel: Channel::Email,
        profile: "clinic",
        from: ("Riverside Lab Services", "results@riversideclinic.org"),
        subject: "Lab results ready for review",
        minutes_ago: 51,
        text: "New lab results are ready in the portal for review by the care team.",
    },
    Mail {
        seq: 5,
        channel: Channel::Calendar,
        profile: "work",
        from: ("Mei Chen", "mei.chen@contoso.com"),
        subject: "Q3 planning review",
        minutes_ago: 40,
        text: "Q3 planning review with the leads. Agenda in the invite.",
    },
    Mail {
        seq: 6,
        channel: Channel::Email,
        profile: "work",
        from: ("Jordan Lee", "jordan.lee@contoso.com"),
        subject: "Agenda for our 1:1 on Thursday",
        minutes_ago: 28,
        text: "Hi Alex,\n\nfor Thursday: the hiring plan, the Fabrikam renewal and your conference talk. Let me know if you want to add anything.\n\nJordan",
    },
    Mail {
        seq: 7,
        channel: Channel::Teams,
        profile: "clinic",
        from: ("Nurse Station 2", "nursestation2@riversideclinic.org"),
        subject: "Room 4 is free from 14:00",
        minutes_ago: 17,
        text: "Room 4 is free from 14:00 if you want to move the afternoon list.",
    },
    Mail {
        seq: 8,
        channel: Channel::Email,
        profile: "work",
        from: ("Contoso HR", "hr-noreply@contoso.com"),
        subject: "Benefits enrollment closes March 31",
        minutes_ago: 9,
        text: "Benefits enrollment closes March 31. Review your choices in the HR portal.",
    },
];

fn record(m: &Mail) -> InboxRecord {
    let at = NOW - Duration::minutes(m.minutes_ago);
    let mut meta = std::collections::BTreeMap::new();
    if m.channel == Channel::Calendar {
        // Today at 11:00 for an hour: the brief's meetings.
        meta.insert("start".into(), "2026-03-03T11:00:00Z".into());
        meta.insert("end".into(), "2026-03-03T12:00:00Z".into());
        meta.insert("location".into(), "Teams".into());
    }
    InboxRecord {
        seq: m.seq,
        id: format!("demo:run1:0:{}", m.seq),
        received_at: at,
        profile: m.profile.into(),
        channel: m.channel,
        thread_id: None,
        from: Party::new(m.from.0, m.from.1),
        to: vec![],
        subject: Some(m.subject.into()),
        ts: at,
        text: m.text.into(),
        preview: m.subject.into(),
        meta,
        untrusted: true,
        attachments: Vec::new(),
    }
}

fn draft(id: &str, status: DraftStatus, outbound: Outbound, minutes_ago: i64) -> Draft {
    let at = NOW - Duration::minutes(minutes_ago);
    Draft {
        id: id.into(),
        profile: "work".into(),
        digest: opsdesk::domain::content_digest("work", &outbound),
        outbound,
        verdict: Verdict::Queue {
            reason: "reply_email is draft_only".into(),
        },
        provider: Some("openai".into()),
        status,
        created_by: "mcp:copilot-cli".parse().unwrap(),
        created_at: at,
        updated_at: at,
        approved_digest: None,
        decided_by: None,
        reason: None,
        remote_id: None,
        edits: 0,
        requeued_from: None,
        requeued_as: None,
    }
}

fn reply(message_id: &str, to: &str, subject: &str, body: &str) -> Outbound {
    Outbound::ReplyEmail {
        message_id: message_id.into(),
        to: vec![to.into()],
        subject: subject.into(),
        body: body.into(),
        attachments: Vec::new(),
        body_html: None,
    }
}

fn drafts() -> Vec<Draft> {
    vec![
        draft(
            "d-3f9a21c07e",
            DraftStatus::Pending,
            reply(
                "demo:run1:0:2",
                "elena.petrova@fabrikam-supplies.example",
                "Re: Contract renewal FY26 – please confirm by Friday",
                "Hi Elena,\n\nthanks for the quote. We will keep 40 seats for FY26; I will confirm in writing by Thursday.\n\nBest,\nAlex",
            ),
            70,
        ),
        draft(
            "d-81c4e0b2d5",
            DraftStatus::Pending,
            Outbound::PostChat {
                chat_id: "19:oncall@thread.v2".into(),
                body: "Looks good to me; I'll take the Saturday swap.".into(),
            },
            55,
        ),
        draft(
            "d-5be0a7719c",
            DraftStatus::Pending,
            reply(
                "demo:run1:0:6",
                "jordan.lee@contoso.com",
                "Re: Agenda for our 1:1 on Thursday",
                "Thanks Jordan, that covers it. Could we also spend five minutes on the Q3 review?",
            ),
            20,
        ),
        draft(
            "d-0c2d9e4411",
            DraftStatus::Rejected,
            reply(
                "demo:run1:0:1",
                "ci-noreply@contoso.com",
                "Re: [opsdesk-api] Build #4812 failed on main",
                "Noted.",
            ),
            90,
        ),
    ]
}

fn audit_records() -> Vec<AuditRecord> {
    let rows: [(&str, &str, AuditOutcome, &str); 12] = [
        ("inbox.append", "source:demo", AuditOutcome::Ok, "email#1"),
        ("inbox.append", "source:demo", AuditOutcome::Ok, "email#2"),
        (
            "mcp.tool.inbox_pull",
            "mcp:copilot-cli",
            AuditOutcome::Ok,
            "work",
        ),
        ("llm.call", "mcp:copilot-cli", AuditOutcome::Ok, "openai"),
        (
            "draft.reply",
            "mcp:copilot-cli",
            AuditOutcome::Ok,
            "d-3f9a21c07e",
        ),
        ("inbox.append", "source:demo", AuditOutcome::Ok, "chat#3"),
        (
            "draft.post_chat",
            "mcp:copilot-cli",
            AuditOutcome::Ok,
            "d-81c4e0b2d5",
        ),
        (
            "mcp.tool.mail_send",
            "mcp:claude-code",
            AuditOutcome::Blocked,
            "work",
        ),
        (
            "draft.approve",
            "mcp:claude-code",
            AuditOutcome::Blocked,
            "d-3f9a21c07e",
        ),
        ("draft.reject", "console", AuditOutcome::Ok, "d-0c2d9e4411"),
        (
            "draft.reply",
            "mcp:copilot-cli",
            AuditOutcome::Ok,
            "d-5be0a7719c",
        ),
        ("inbox.append", "source:demo", AuditOutcome::Ok, "email#8"),
    ];
    rows.into_iter()
        .enumerate()
        .map(|(i, (event, actor, outcome, target))| {
            let seq = i as u64 + 1;
            let mut ev = AuditEvent::new(event, actor, outcome).target(target);
            ev = ev.entity("work");
            if outcome == AuditOutcome::Blocked {
                ev = ev.reason("sending is the operator's: MCP clients may only draft");
            }
            AuditRecord {
                seq,
                ts: NOW - Duration::minutes(96 - 8 * i as i64),
                event: ev,
                // Fixed stand-ins: the pictures show the chain's shape, not real hashes.
                prev: format!("{:064x}", seq - 1),
                hash: format!("{seq:064x}"),
            }
        })
        .collect()
}

fn deals() -> Vec<opsdesk::domain::Deal> {
    let deal = |id: &str, name: &str, stage: &str, dates: serde_json::Value, links| {
        serde_json::from_value(serde_json::json!({
            "id": id, "profile": "work", "name": name,
            "counterparties": ["elena.petrova@fabrikam-supplies.example"], "stage": stage,
            "key_dates": dates, "notes": "Renewal of the FY26 supply contract; price held if confirmed by Friday.",
            "keywords": ["fabrikam", "renewal"], "links": links, "proposal": null,
            "stage_changed_at": "2026-03-02T16:20:00Z", "created_by": "cli",
            "created_at": "2026-02-20T09:00:00Z", "updated_at": "2026-03-02T16:20:00Z"
        }))
        .unwrap()
    };
    vec![
        deal(
            "dl-fab0000001",
            "Fabrikam FY26 renewal",
            "negotiation",
            serde_json::json!([{"label": "confirm seats", "date": "2026-03-06"},
                               {"label": "signature", "date": "2026-03-20"}]),
            serde_json::json!([{"message_id": "demo:run1:0:2", "seq": 2, "profile": "work",
                "thread_id": null, "rule": "participant",
                "reason": "participant elena.petrova@fabrikam-supplies.example is a counterparty"}]),
        ),
        deal(
            "dl-nw00000002",
            "Northwind analytics pilot",
            "diligence",
            serde_json::json!([{"label": "security review", "date": "2026-03-12"}]),
            serde_json::json!([]),
        ),
        deal(
            "dl-lk00000003",
            "Lakeside office lease",
            "lost",
            serde_json::json!([]),
            serde_json::json!([]),
        ),
    ]
}

/// The console as the demo leaves it: every pane loaded, one source, one MCP client.
fn demo_app() -> App {
    let theme = Theme::built_in("dark", false).unwrap();
    let mut app = App::new(
        theme,
        Keymap::defaults(),
        vec!["clinic".into(), "work".into()],
        SIZE,
    );
    app.now = NOW;
    app.data_dir = Some("/home/alex/.local/share/opsdesk".into());
    let _ = app.start();
    let records: Vec<InboxRecord> = INBOX.iter().rev().map(record).collect();
    app.update(Msg::InboxPage {
        generation: 0,
        anchor: Anchor::Top,
        rows: records.iter().map(Into::into).collect(),
        last_seq: 8,
    });
    app.update(Msg::Cursor {
        cursor: 4,
        last_seq: 8,
    });
    app.update(Msg::Drafts(drafts()));
    let config = Config::demo();
    app.update(Msg::Providers(Ok(view(&config, &config.llm))));
    app.update(Msg::AuditTail(audit_records()));
    app.update(Msg::Chain(ChainStatus {
        ok: true,
        text: "intact through record 12".into(),
        records: 12,
        at: Some(NOW - Duration::minutes(2)),
    }));
    app.update(Msg::Deals(Ok(deals())));
    app.update(Msg::Engine(EngineEvent::SourceHealth(Arc::new(
        SourceHealth {
            name: "demo".into(),
            ok: true,
            failures: 0,
            last_error: None,
            last_ok: Some(NOW - Duration::minutes(1)),
            items: 8,
        },
    ))));
    app.status.mcp_url = Some("http://127.0.0.1:48080/mcp".into());
    app.status.clients = vec!["copilot-cli".into()];
    // The brief as the engine builds it from the same records and drafts.
    let inputs = BriefInputs {
        records,
        drafts: drafts(),
        unread_after: 4,
        deals: deals(),
        ..Default::default()
    };
    for profile in ["clinic", "work"] {
        let brief = |kind| {
            Ok(Box::new(build(
                &inputs,
                kind,
                profile,
                NOW,
                time::UtcOffset::UTC,
            )))
        };
        app.update(Msg::Brief {
            profile: profile.into(),
            morning: brief(BriefKind::Morning),
            eod: brief(BriefKind::EndOfDay),
        });
    }
    app
}

fn key(app: &mut App, c: char) {
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )));
}

// ---------------------------------------------------------------------------------------------
// A ratatui buffer as SVG: one `<text>` per row, one `<tspan>` per run of cells in the same
// style, each placed at its cell so the grid holds whatever monospace font the viewer has.

const CELL_W: f32 = 9.0;
const CELL_H: f32 = 18.0;
const PAD: f32 = 12.0;
/// A dark terminal's background and default foreground.
const TERM_BG: &str = "#1c1c1c";
const TERM_FG: &str = "#d0d0d0";

/// `#rrggbb` of a ratatui colour (the xterm palette for named and indexed ones); `None` for
/// the terminal's default.
fn hex(c: Color) -> Option<String> {
    const ANSI: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    let (r, g, b) = match c {
        Color::Reset => return None,
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) if i < 16 => ANSI[i as usize],
        Color::Indexed(i) if i >= 232 => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
        Color::Indexed(i) => {
            let i = i - 16;
            let level = |n: u8| if n == 0 { 0 } else { 55 + 40 * n };
            (level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        named => {
            let order = [
                Color::Black,
                Color::Red,
                Color::Green,
                Color::Yellow,
                Color::Blue,
                Color::Magenta,
                Color::Cyan,
                Color::Gray,
                Color::DarkGray,
                Color::LightRed,
                Color::LightGreen,
                Color::LightYellow,
                Color::LightBlue,
                Color::LightMagenta,
                Color::LightCyan,
                Color::White,
            ];
            ANSI[order.iter().position(|x| *x == named).unwrap_or(7)]
        }
    };
    Some(format!("#{r:02x}{g:02x}{b:02x}"))
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0; the console never draws them.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// What a cell looks like: foreground, background (`None`: the terminal's), bold, dim,
/// italic, underlined. Reversed video is resolved into the colours here.
#[derive(Clone, PartialEq)]
struct Look {
    fg: String,
    bg: Option<String>,
    bold: bool,
    dim: bool,
    italic: bool,
    underline: bool,
}

fn look(cell: &ratatui::buffer::Cell) -> Look {
    let m = cell.modifier;
    let (mut fg, mut bg) = (hex(cell.fg), hex(cell.bg));
    if m.contains(Modifier::REVERSED) {
        (fg, bg) = (
            Some(bg.unwrap_or_else(|| TERM_BG.into())),
            Some(fg.unwrap_or_else(|| TERM_FG.into())),
        );
    }
    Look {
        fg: fg.unwrap_or_else(|| TERM_FG.into()),
        bg,
        bold: m.contains(Modifier::BOLD),
        dim: m.contains(Modifier::DIM),
        italic: m.contains(Modifier::ITALIC),
        underline: m.contains(Modifier::UNDERLINED),
    }
}

fn svg(buf: &Buffer, title: &str) -> String {
    let area = buf.area;
    let (w, h) = (
        PAD * 2.0 + CELL_W * area.width as f32,
        PAD * 2.0 + CELL_H * area.height as f32,
    );
    let mut s = String::new();
    writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" role="img" aria-label="{}">"#,
        xml_escape(title)
    )
    .unwrap();
    writeln!(s, "<title>{}</title>", xml_escape(title)).unwrap();
    writeln!(
        s,
        r#"<style>text {{ font-family: "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 15px; white-space: pre; }}</style>"#
    )
    .unwrap();
    writeln!(
        s,
        r#"<rect width="100%" height="100%" rx="6" fill="{TERM_BG}"/>"#
    )
    .unwrap();
    for y in 0..area.height {
        // Each row's cells as runs of one look: (first column, columns, text, look).
        let mut runs: Vec<(u16, u16, String, Look)> = Vec::new();
        let mut x = 0;
        while x < area.width {
            let cell = &buf[(area.x + x, area.y + y)];
            let l = look(cell);
            let sym = cell.symbol();
            // A wide character covers the cells after it (a terminal does not draw them).
            let cols = (sym.width() as u16).clamp(1, area.width - x);
            match runs.last_mut() {
                Some((_, n, text, prev)) if *prev == l => {
                    *n += cols;
                    text.push_str(sym);
                }
                _ => runs.push((x, cols, sym.to_string(), l)),
            }
            x += cols;
        }
        let top = PAD + CELL_H * y as f32;
        for (x0, n, _, l) in &runs {
            if let Some(bg) = &l.bg {
                writeln!(
                    s,
                    r#"<rect x="{:.1}" y="{top:.1}" width="{:.1}" height="{CELL_H:.1}" fill="{bg}"/>"#,
                    PAD + CELL_W * *x0 as f32,
                    CELL_W * *n as f32
                )
                .unwrap();
            }
        }
        let mut spans = String::new();
        for (x0, n, text, l) in &runs {
            if text.trim().is_empty() && !l.underline {
                continue;
            }
            write!(
                spans,
                r#"<tspan x="{:.1}" textLength="{:.1}" lengthAdjust="spacingAndGlyphs" fill="{}""#,
                PAD + CELL_W * *x0 as f32,
                CELL_W * *n as f32,
                l.fg
            )
            .unwrap();
            if l.bold {
                spans.push_str(r#" font-weight="bold""#);
            }
            if l.dim {
                spans.push_str(r#" fill-opacity="0.6""#);
            }
            if l.italic {
                spans.push_str(r#" font-style="italic""#);
            }
            if l.underline {
                spans.push_str(r#" text-decoration="underline""#);
            }
            write!(spans, ">{}</tspan>", xml_escape(text)).unwrap();
        }
        if !spans.is_empty() {
            // The baseline sits about four fifths down the cell.
            writeln!(
                s,
                r#"<text y="{:.1}" xml:space="preserve">{spans}</text>"#,
                top + CELL_H * 0.78
            )
            .unwrap();
        }
    }
    s.push_str("</svg>\n");
    s
}

fn screenshot(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    t.draw(|f| draw(app, f)).unwrap();
    svg(
        t.backend().buffer(),
        &format!("opsdesk console: {} pane", app.pane.title()),
    )
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/book/src/screenshots")
}

/// Each pane's picture: compared with the committed file, or written with `OPSDESK_BLESS=1`.
#[test]
fn screenshots_of_every_pane_match_the_console() {
    let bless = std::env::var("OPSDESK_BLESS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, key_char) in [
        ("inbox", '1'),
        ("brief", '2'),
        ("drafts", '3'),
        ("providers", '4'),
        ("audit", '5'),
        ("deals", '6'),
    ] {
        let mut app = demo_app();
        key(&mut app, key_char);
        if name == "brief" {
            // The entity with something to say: work.
            key(&mut app, 'j');
        }
        if name == "drafts" {
            // The pane asked for the selected draft's life: answer it as the store would.
            let d = app.drafts.selected().unwrap().clone();
            app.update(Msg::DraftHistory {
                id: d.id.clone(),
                events: Ok(vec![DraftEvent {
                    ts: d.created_at,
                    draft_id: d.id.clone(),
                    actor: d.created_by.clone(),
                    kind: DraftEventKind::Created {
                        profile: d.profile.clone(),
                        outbound: d.outbound.clone(),
                        digest: d.digest.clone(),
                        verdict: d.verdict.clone(),
                        provider: d.provider.clone(),
                    },
                    audit: None,
                }]),
            });
        }
        assert_eq!(app.pane.title().to_lowercase(), name);
        let picture = screenshot(&app);
        let path = dir().join(format!("{name}.svg"));
        if bless {
            std::fs::create_dir_all(dir()).unwrap();
            std::fs::write(&path, &picture).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(committed) if committed == picture => {}
            Ok(_) => stale.push(format!(
                "{} differs from what the console draws",
                path.display()
            )),
            Err(e) => stale.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "screenshots are stale (rerun with OPSDESK_BLESS=1 and commit them):\n{}",
        stale.join("\n")
    );
}

/// The renderer itself: colours, bold, escaping, wide characters and the background.
#[test]
fn the_svg_renderer_keeps_styles_and_escapes_text() {
    use ratatui::layout::Rect;
    use ratatui::style::Style;
    let mut buf = Buffer::empty(Rect::new(0, 0, 12, 2));
    buf.set_string(
        0,
        0,
        "<a&b>",
        Style::default()
            .fg(Color::Rgb(0x5f, 0xaf, 0xff))
            .add_modifier(Modifier::BOLD),
    );
    buf.set_string(
        6,
        0,
        "ok",
        Style::default().fg(Color::Black).bg(Color::Indexed(75)),
    );
    buf.set_string(0, 1, "日本", Style::default());
    let out = svg(&buf, "t\"1\"");
    assert!(out.contains(r#"aria-label="t&quot;1&quot;""#), "{out}");
    assert!(
        out.contains(r##"fill="#5fafff" font-weight="bold">&lt;a&amp;b&gt;</tspan>"##),
        "{out}"
    );
    // Indexed 75 is (95, 175, 255) in the xterm cube; the run's background is a rect.
    assert!(
        out.contains(r##"x="66.0" y="12.0" width="18.0" height="18.0" fill="#5fafff""##),
        "{out}"
    );
    assert!(out.contains(r##"fill="#000000">ok</tspan>"##), "{out}");
    // Two wide characters fill four cells: what follows is not pushed right.
    assert!(out.contains(r#"x="12.0" textLength="108.0""#), "{out}");
    assert!(out.contains(">日本        </tspan>"), "{out}");
    assert!(out.contains(&format!(r#"fill="{TERM_BG}""#)), "{out}");
    assert!(!out.contains("<a&b>"), "{out}");
}
