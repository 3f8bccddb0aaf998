//! Inbox: the list (virtualized: only visible rows are built) and a preview of the selection.

use std::collections::VecDeque;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use time::{OffsetDateTime, UtcOffset};

use super::{block, fit, header, row, sub_block};
use crate::assistant::JobKind;
use crate::domain::{Action, Channel, InboxRecord};
use crate::store::inbox::Filter;
use crate::tui::app::App;
use crate::tui::draw::inbox_split_heights;
use crate::tui::layout::follow;
use crate::tui::msg::{Anchor, Effect, JobTarget, Level, Req};
use crate::tui::overlay::{InputKind, Overlay};
use crate::tui::text::{fmt_time, zone_name};

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let v = &app.inbox;
    let (list_h, _) = inbox_split_heights(area.height);
    let [list_area, preview_area] =
        Layout::vertical([Constraint::Length(list_h), Constraint::Min(0)]).areas(area);

    // With a filter, what is shown out of the whole inbox; "+" while more pages may match.
    let mut title = if v.filter_text.is_empty() {
        format!(" Inbox · {} items · {} unread ", v.last_seq, v.unread())
    } else {
        let more = if v.at_top && v.at_bottom { "" } else { "+" };
        format!(
            " Inbox · {}{more} of {} · filter: {} ",
            v.rows.len(),
            v.last_seq,
            v.filter_text
        )
    };
    title.push_str(&format!("· times {} ", zone_name(app.tz)));
    if let Some(e) = &v.filter_error {
        title.push_str(&format!("· typing: {e} "));
    }
    if v.new_above > 0 {
        let g = app.keymap.key_for(
            crate::tui::keymap::Section::Inbox,
            crate::tui::keymap::Act::Top,
        );
        title.push_str(&format!("· {} new ↑ ({g}) ", v.new_above));
    }
    if v.loading {
        title.push_str("· loading… ");
    }
    let inner_h = list_h.saturating_sub(2) as usize;
    let width = list_area.width.saturating_sub(4) as usize;
    // The sender gets a share of what the fixed columns leave, between 14 and 30.
    let from_w = (width.saturating_sub(2 + 12 + 9 + 9) / 3).clamp(14, 30);
    let mut lines = Vec::with_capacity(inner_h);
    if inner_h > 0 {
        lines.push(header(
            t,
            fit(
                &format!(
                    "  {:<11} {:<8} {:<8} {:<from_w$} SUBJECT / PREVIEW",
                    "TIME", "CHANNEL", "PROFILE", "FROM"
                ),
                width,
            ),
        ));
    }
    let rows_h = inner_h.saturating_sub(1);
    // The header takes one line, so the window shows rows_h rows starting at offset, shifted
    // just enough to keep the selection visible.
    let offset = follow(v.sel, v.offset, rows_h);
    for (i, r) in v.rows.iter().enumerate().skip(offset).take(rows_h) {
        let unread = r.seq > v.cursor;
        let time = fmt_time(r.ts, app.tz);
        let time = time.get(5..).unwrap_or(&time);
        let text = format!(
            "{} {:<11} {} {} {} {}{}",
            if unread { "●" } else { " " },
            time,
            fit(r.channel.as_str(), 8),
            fit(&r.profile, 8),
            fit(&r.from, from_w),
            r.triage_tag(),
            r.subject
        );
        let style = if unread { t.unread } else { t.text };
        lines.push(row(t, i == v.sel, fit(&text, width), style));
    }
    if v.rows.is_empty() && inner_h > 1 {
        let msg = if v.loading || !v.loaded_once {
            "loading…"
        } else if v.filter_text.is_empty() {
            "No messages yet. Sources deliver here (the demo source, or files dropped in the spool folder)."
        } else {
            "Nothing matches. / changes the filter, Esc clears it."
        };
        lines.push(Line::from(Span::styled(format!("  {msg}"), t.muted)));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), list_area);

    if preview_area.height == 0 {
        return;
    }
    let Some(r) = v.selected() else {
        f.render_widget(
            Paragraph::new("").block(sub_block(t, " Preview ".into())),
            preview_area,
        );
        return;
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled("From: ", t.muted),
            Span::styled(r.from.clone(), t.text),
            Span::styled(
                format!(
                    "   {} · {} · {} {}",
                    r.channel,
                    r.profile,
                    fmt_time(r.ts, app.tz),
                    zone_name(app.tz)
                ),
                t.muted,
            ),
        ]),
        Line::from(vec![
            Span::styled("Subject: ", t.muted),
            Span::styled(r.subject.clone(), t.text),
        ]),
    ];
    if let Some(tr) = &r.triage {
        lines.push(Line::from(vec![
            Span::styled("Triage: ", t.muted),
            Span::styled(
                format!(
                    "{} · {} · by {} — {}",
                    tr.category.as_str(),
                    tr.urgency.as_str(),
                    format!("{:?}", tr.by).to_lowercase(),
                    crate::sanitize::for_terminal(&tr.reason)
                ),
                t.text,
            ),
        ]));
    }
    lines.push(Line::from(""));
    lines.extend(
        r.text
            .lines()
            .map(|l| Line::from(Span::styled(crate::sanitize::for_terminal(l), t.text))),
    );
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(
                t,
                format!(" Preview #{} (untrusted content) ", r.seq),
            )),
        preview_area,
    );
}

/// Records asked for per inbox page.
pub const PAGE: usize = 200;
/// Most inbox rows held in memory at once; scrolling further pages in and drops the far end.
pub const WINDOW_CAP: usize = 3 * PAGE;
/// Characters of a message's text kept for the preview.
pub const PREVIEW_CHARS: usize = 4000;
/// What the inbox list keeps of a record: enough for the row and the preview, bounded.
#[derive(Debug, Clone, PartialEq)]
pub struct InboxRow {
    pub seq: u64,
    pub id: String,
    pub channel: Channel,
    pub profile: String,
    pub from: String,
    pub subject: String,
    /// The message's own time (sent / posted / starts): what every surface shows.
    pub ts: OffsetDateTime,
    /// When opsdesk took it in.
    pub received_at: OffsetDateTime,
    pub text: String,
    /// The item's triage, when it has one (filled in by the data thread).
    pub triage: Option<crate::assistant::store::TriageRecord>,
    /// The attachments, listed in the details; opened or saved only on the operator's key.
    pub attachments: Vec<AttachmentRow>,
    /// Whether its profile was unclear (`unassigned`, placed by a `[classification]` rule,
    /// or assigned by the operator before): only such items may be assigned, so `P` refuses
    /// the others before asking. The engine checks again.
    pub profile_unclear: bool,
}

impl InboxRow {
    /// `[decision!] ` before the subject: the category, `!` for high urgency; empty untriaged.
    pub fn triage_tag(&self) -> String {
        match &self.triage {
            Some(t) => format!(
                "[{}{}] ",
                t.category.as_str(),
                if t.urgency == crate::assistant::triage::Urgency::High {
                    "!"
                } else {
                    ""
                }
            ),
            None => String::new(),
        }
    }
}

impl From<&InboxRecord> for InboxRow {
    fn from(r: &InboxRecord) -> Self {
        use crate::sanitize::one_line;
        let subject = r
            .subject
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .unwrap_or(&r.preview);
        // Inbound text was sanitized at ingestion; it is escaped again here because it is about
        // to reach a terminal (principle 4, docs/ARCHITECTURE.md: inbound content is untrusted).
        let text: String = r.text.chars().take(PREVIEW_CHARS).collect();
        InboxRow {
            seq: r.seq,
            id: one_line(&r.id, 200),
            channel: r.channel,
            profile: one_line(&r.profile, 64),
            from: one_line(r.from.label(), 80),
            subject: one_line(subject, 200),
            ts: r.ts,
            received_at: r.received_at,
            text: crate::sanitize::clean_text(&text, PREVIEW_CHARS),
            triage: None,
            attachments: r.attachments.iter().map(AttachmentRow::from).collect(),
            profile_unclear: r.profile == crate::domain::UNASSIGNED
                || r.meta.contains_key(crate::domain::META_PROFILE_RULE)
                || r.meta.contains_key(crate::domain::META_PROFILE_ASSIGNED),
        }
    }
}

/// One attachment of an inbox row: its line for the details, and what opening or saving it
/// needs.
#[derive(Debug, Clone, PartialEq)]
pub struct AttachmentRow {
    /// `Attachment::summary`, escaped for the terminal.
    pub line: String,
    /// The neutralized name (`sanitize::safe_file_name`), the name a saved copy gets.
    pub name: String,
    /// The stored bytes' hash; `None` when there are no bytes to open (too large, a link…).
    pub sha256: Option<String>,
    /// `executable`, `script`, `macro`: opening it asks first.
    pub risk: Option<String>,
}

impl From<&crate::domain::Attachment> for AttachmentRow {
    fn from(a: &crate::domain::Attachment) -> Self {
        AttachmentRow {
            line: crate::sanitize::for_terminal(&a.summary()),
            name: crate::sanitize::safe_file_name(&a.name),
            sha256: a
                .sha256
                .clone()
                .filter(|_| a.status == crate::domain::AttachmentStatus::Stored),
            risk: a.risk.clone(),
        }
    }
}
#[derive(Debug, Clone, Default)]
pub struct InboxView {
    /// The window of rows in memory, newest first.
    pub rows: VecDeque<InboxRow>,
    /// The window starts at the newest matching record.
    pub at_top: bool,
    /// The window ends at the oldest matching record.
    pub at_bottom: bool,
    pub sel: usize,
    pub offset: usize,
    /// Highest seq in the inbox.
    pub last_seq: u64,
    /// The console consumer's cursor: records above it are unread.
    pub cursor: u64,
    pub filter: Filter,
    pub filter_text: String,
    /// Why the text being typed is not a valid filter yet (the last valid one applies).
    pub filter_error: Option<String>,
    /// Bumped when the filter or the window is reset, so late pages are dropped.
    pub generation: u64,
    pub loading: bool,
    pub loaded_once: bool,
    /// Rows that arrived above the selection and were not gone to yet: the title says
    /// "N new ↑" and `g` goes to them. The selection itself stays on the record the operator
    /// was looking at, so a key pressed next never acts on a message they did not see.
    pub new_above: usize,
    /// Set by a reload: the seq to select again when the fresh top page arrives, and the
    /// newest seq shown before it (rows newer than that count as new).
    pub keep: Option<(u64, u64)>,
    /// The operator asked for a reload (`Ctrl-r`): say when its page is in.
    pub reload_asked: bool,
}

impl InboxView {
    pub fn selected(&self) -> Option<&InboxRow> {
        self.rows.get(self.sel)
    }
    pub fn unread(&self) -> u64 {
        self.last_seq.saturating_sub(self.cursor)
    }
    /// Moving up onto the new rows is seeing them: fewer remain above the selection.
    pub fn seen_up_to_sel(&mut self) {
        self.new_above = self.new_above.min(self.sel);
    }
}
/// `category [urgency] [reason…]` as typed in the classify box (urgency `normal` when left
/// out).
pub fn parse_classify(
    text: &str,
) -> Result<
    (
        crate::assistant::triage::Category,
        crate::assistant::triage::Urgency,
        Option<String>,
    ),
    String,
> {
    use crate::assistant::triage::{Category, Urgency};
    let mut words = text.split_whitespace().peekable();
    let category: Category = words
        .next()
        .ok_or("type a category: needs_reply, decision, meeting, deadline, fyi or bulk")?
        .parse()?;
    let urgency = match words.peek().map(|w| w.parse::<Urgency>()) {
        Some(Ok(u)) => {
            words.next();
            u
        }
        _ => Urgency::Normal,
    };
    let reason = words.collect::<Vec<_>>().join(" ");
    Ok((category, urgency, (!reason.is_empty()).then_some(reason)))
}

impl App {
    pub(in crate::tui) fn inbox_req(&self, anchor: Anchor) -> Req {
        Req::Inbox {
            generation: self.inbox.generation,
            filter: self.inbox.filter.clone(),
            anchor,
        }
    }
    pub(in crate::tui) fn on_inbox_page(
        &mut self,
        generation: u64,
        anchor: Anchor,
        rows: Vec<InboxRow>,
        last_seq: u64,
        fx: &mut Vec<Effect>,
    ) {
        let h = self.inbox_list_height();
        let inbox = &mut self.inbox;
        if generation != inbox.generation {
            return; // a page for a filter or window that no longer applies
        }
        inbox.loading = false;
        inbox.loaded_once = true;
        inbox.last_seq = inbox.last_seq.max(last_seq);
        let full = rows.len() >= PAGE;
        let mut reloaded = None;
        match anchor {
            Anchor::Top => {
                inbox.rows = rows.into();
                inbox.at_top = true;
                inbox.at_bottom = !full;
                inbox.sel = 0;
                inbox.offset = 0;
                inbox.new_above = 0;
                // A reload keeps the selection on its record; what came in above it is new.
                if let Some((seq, front)) = inbox.keep.take()
                    && let Some(i) = inbox.rows.iter().position(|r| r.seq == seq)
                {
                    inbox.sel = i;
                    inbox.new_above = inbox.rows.iter().take(i).filter(|r| r.seq > front).count();
                }
                if std::mem::take(&mut inbox.reload_asked) {
                    reloaded = Some(inbox.new_above);
                }
            }
            Anchor::Bottom => {
                // Pages are asked oldest-first from the bottom; the data task returns them
                // newest first like every page.
                inbox.rows = rows.into();
                inbox.at_bottom = true;
                inbox.at_top = !full;
                inbox.sel = inbox.rows.len().saturating_sub(1);
                inbox.new_above = 0;
            }
            Anchor::Before(_) => {
                inbox.at_bottom = !full;
                inbox.rows.extend(rows);
                let excess = inbox.rows.len().saturating_sub(WINDOW_CAP);
                if excess > 0 {
                    inbox.rows.drain(..excess);
                    inbox.sel = inbox.sel.saturating_sub(excess);
                    inbox.offset = inbox.offset.saturating_sub(excess);
                    inbox.at_top = false;
                }
            }
            Anchor::After(_) => {
                inbox.at_top = !full;
                let n = rows.len();
                for r in rows.into_iter().rev() {
                    inbox.rows.push_front(r);
                }
                inbox.sel += n;
                inbox.offset += n;
                if inbox.rows.len() > WINDOW_CAP {
                    inbox.rows.truncate(WINDOW_CAP);
                    inbox.at_bottom = false;
                }
            }
        }
        inbox.sel = inbox.sel.min(inbox.rows.len().saturating_sub(1));
        inbox.offset = follow(inbox.sel, inbox.offset, h);
        if let Some(new) = reloaded {
            let more = if new > 0 {
                format!(" · {new} new above the selection")
            } else {
                String::new()
            };
            self.say(Level::Info, format!("reloaded from disk{more}"));
        }
        self.maybe_page(fx);
    }
    /// Ask for the next page when the selection nears either end of the window.
    pub(in crate::tui) fn maybe_page(&mut self, fx: &mut Vec<Effect>) {
        let margin = self.inbox_list_height() + 10;
        let inbox = &self.inbox;
        if inbox.loading || inbox.rows.is_empty() {
            return;
        }
        let anchor = if !inbox.at_bottom && inbox.sel + margin >= inbox.rows.len() {
            inbox.rows.back().map(|r| Anchor::Before(r.seq))
        } else if !inbox.at_top && inbox.sel < margin {
            inbox.rows.front().map(|r| Anchor::After(r.seq))
        } else {
            None
        };
        if let Some(a) = anchor {
            self.inbox.loading = true;
            fx.push(Effect::Req(self.inbox_req(a)));
        }
    }
}

/// The `$EDITOR` template for a hand-written reply: room to write on top, then the message
/// quoted the usual way. Lines starting with `#` are instructions and are removed.
pub fn quote_reply(r: &InboxRow, tz: UtcOffset) -> String {
    let mut t = String::from("\n\n");
    t.push_str(
        "# Write your reply above. Lines starting with # are removed; the quote below is kept\n\
         # (delete it if you do not want it). Save and quit to queue the draft for approval;\n\
         # leave the text unchanged to draft nothing.\n",
    );
    t.push_str(&format!("On {}, {} wrote:\n", fmt_time(r.ts, tz), r.from));
    for line in r.text.lines() {
        if line.is_empty() {
            t.push_str(">\n");
        } else {
            t.push_str(&format!("> {line}\n"));
        }
    }
    t
}

/// The `$EDITOR` text for a reply that was written before and not drafted: the text as the
/// operator left it, below a note. Saved unchanged, it drafts nothing and stays kept.
pub fn kept_reply_template(kept: &str) -> String {
    format!(
        "# Your earlier reply to this message was NOT drafted (see the message log, L): change\n\
         # what was refused and save to try again. Lines starting with # are removed; leave\n\
         # the text unchanged to draft nothing (it stays kept).\n{kept}\n"
    )
}

/// The reply body from the edited template: instruction lines removed, trimmed. `None` when
/// nothing was written above the quote.
pub fn reply_from_template(template: &str, edited: &str) -> Option<String> {
    let strip = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string()
    };
    let (before, after) = (strip(template), strip(edited));
    (!after.is_empty() && after != before).then_some(after)
}

/// `text channel:NAME profile:NAME` (also `c:` / `p:`).
pub fn parse_inbox_filter(s: &str, profiles: &[String]) -> Result<Filter, String> {
    let mut f = Filter::default();
    let mut text = Vec::new();
    for tok in s.split_whitespace() {
        if let Some(c) = tok
            .strip_prefix("channel:")
            .or_else(|| tok.strip_prefix("c:"))
        {
            f.channel = Some(c.parse::<Channel>()?);
        } else if let Some(p) = tok
            .strip_prefix("profile:")
            .or_else(|| tok.strip_prefix("p:"))
        {
            if !profiles.iter().any(|x| x == p) {
                return Err(format!(
                    "unknown profile `{p}`; profiles: {}",
                    profiles.join(", ")
                ));
            }
            f.profile = Some(p.to_string());
        } else {
            text.push(tok);
        }
    }
    if !text.is_empty() {
        let text = text.join(" ");
        // Said while typing (`-dra`, `ab*`), not sent to be refused.
        crate::domain::SearchQuery::parse(&text).map_err(|e| e.0)?;
        f.text = Some(text);
    }
    Ok(f)
}

impl App {
    /// Run `job` on the selected inbox message in the background.
    pub(in crate::tui) fn job_on_selected(&mut self, job: JobKind, fx: &mut Vec<Effect>) {
        let Some(r) = self.inbox.selected() else {
            self.say(Level::Info, "select a message first");
            return;
        };
        let seq = r.seq;
        match self.llm_precheck(job, &r.profile.clone()) {
            Err(why) => {
                self.say(Level::Error, format!("{job} of #{seq} not started: {why}"));
                return;
            }
            Ok(Some(note)) => self.say(Level::Warn, format!("{job} of #{seq} started… {note}")),
            Ok(None) => self.say(Level::Info, format!("{job} of #{seq} started…")),
        }
        fx.push(Effect::Req(Req::Job {
            job,
            target: JobTarget::Seqs(vec![seq]),
        }));
    }
    /// `R`: write a reply by hand in `$EDITOR`, starting from a quoted reply template.
    pub(in crate::tui) fn write_reply(&mut self, fx: &mut Vec<Effect>) {
        let Some(r) = self.inbox.selected() else {
            return;
        };
        if r.channel == Channel::Calendar {
            self.say(Level::Warn, "calendar items cannot be replied to");
            return;
        }
        let template = match self.kept_replies.get(&r.id) {
            Some(kept) => kept_reply_template(kept),
            None => quote_reply(r, self.tz),
        };
        fx.push(Effect::Compose {
            message_id: r.id.clone(),
            to: r.from.clone(),
            template,
        });
    }
    /// Ask the assistant (job `draft`) for a reply to the selected message; the draft is
    /// queued pending, as actor `assistant:draft`, and shows in Drafts.
    pub(in crate::tui) fn ask_reply(&mut self, fx: &mut Vec<Effect>) {
        if self
            .inbox
            .selected()
            .is_some_and(|r| r.channel == Channel::Calendar)
        {
            self.say(Level::Warn, "calendar items cannot be replied to");
            return;
        }
        self.job_on_selected(JobKind::Draft, fx);
    }
    pub(in crate::tui) fn mark_read(&mut self, fx: &mut Vec<Effect>) {
        if let Some(r) = self.inbox.selected() {
            let seq = r.seq;
            fx.push(Effect::Req(Req::Submit {
                action: Action::MarkRead {
                    consumer: "console".into(),
                    seq,
                },
                label: format!("marked read up to #{seq}"),
            }));
        }
    }
    pub(in crate::tui) fn mark_all_read(&mut self, fx: &mut Vec<Effect>) {
        let seq = self.inbox.last_seq;
        fx.push(Effect::Req(Req::Submit {
            action: Action::MarkRead {
                consumer: "console".into(),
                seq,
            },
            label: "marked everything read".into(),
        }));
    }

    /// `c`: the operator's own triage of the selected message, typed in a box.
    pub(in crate::tui) fn classify(&mut self) {
        let Some(r) = self.inbox.selected() else {
            self.say(Level::Info, "select a message first");
            return;
        };
        let seq = r.seq;
        let buf = r
            .triage
            .as_ref()
            .map(|t| format!("{} {}", t.category.as_str(), t.urgency.as_str()))
            .unwrap_or_default();
        self.overlay = Some(Overlay::Input {
            kind: InputKind::Classify { seq },
            title: format!(
                "Classify #{seq}: category (needs_reply decision meeting deadline fyi bulk) [high|normal|low] [reason] · Enter sets · Esc cancels"
            ),
            buf,
        });
    }

    /// `P`: give an item of unclear profile its profile (asks which).
    pub(in crate::tui) fn assign_profile(&mut self) {
        let Some(r) = self.inbox.selected() else {
            self.say(Level::Info, "select a message first");
            return;
        };
        let (seq, now) = (r.seq, r.profile.clone());
        // Refuse here rather than after the operator picked a profile.
        if !r.profile_unclear {
            self.say(
                Level::Warn,
                format!(
                    "#{seq} came with profile `{now}` from its source; only items whose profile was unclear (`unassigned`, or placed by a [classification] rule) can be assigned"
                ),
            );
            return;
        }
        self.overlay = Some(Overlay::Input {
            kind: InputKind::AssignProfile { seq },
            title: format!(
                "Assign #{seq} (now {now}) to profile: {} · Enter assigns · Esc cancels",
                self.profiles.join(" ")
            ),
            buf: String::new(),
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use time::macros::datetime;

    use super::*;
    use crate::domain::Party;
    use crate::engine::EngineEvent;
    use crate::tui::app::{Msg, Pane};
    use crate::tui::keymap::Keymap;
    use crate::tui::theme::Theme;

    fn record(seq: u64) -> InboxRecord {
        InboxRecord {
            seq,
            id: format!("msg-{seq}"),
            received_at: datetime!(2026-03-02 09:00 UTC),
            profile: "work".into(),
            channel: Channel::Email,
            thread_id: None,
            from: Party::new("Ana", "ana@example.org"),
            to: vec![],
            subject: Some(format!("subject {seq}")),
            ts: datetime!(2026-03-02 09:00 UTC),
            text: format!("message {seq}"),
            preview: format!("subject {seq}"),
            meta: Default::default(),
            untrusted: true,
            attachments: Vec::new(),
        }
    }

    fn app(seqs: &[u64]) -> App {
        let mut a = App::new(
            Theme::built_in("dark", true).unwrap(),
            Keymap::defaults(),
            vec!["work".into()],
            (100, 30),
        );
        let _ = a.start();
        let rows = seqs.iter().map(|s| InboxRow::from(&record(*s))).collect();
        a.update(Msg::InboxPage {
            generation: 0,
            anchor: Anchor::Top,
            rows,
            last_seq: seqs.iter().copied().max().unwrap_or(0),
        });
        a
    }

    fn key(a: &mut App, code: KeyCode, mods: KeyModifiers) -> Vec<Effect> {
        a.update(Msg::Key(KeyEvent::new(code, mods)))
    }

    fn arrive(a: &mut App, seq: u64) {
        a.update(Msg::Engine(EngineEvent::InboxAppended(Arc::new(record(
            seq,
        )))));
    }

    fn screen(a: &App) -> String {
        let mut t =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(a.size.0, a.size.1)).unwrap();
        t.draw(|f| crate::tui::draw(a, f)).unwrap();
        t.backend().to_string()
    }

    #[test]
    fn a_new_message_does_not_take_the_selection_from_the_top_row() {
        let mut a = app(&[3, 2, 1]);
        key(&mut a, KeyCode::Char('g'), KeyModifiers::NONE);
        assert_eq!(a.inbox.selected().unwrap().seq, 3);
        arrive(&mut a, 4);
        arrive(&mut a, 5);
        // The operator still looks at #3: a key pressed now acts on #3, not on #5.
        assert_eq!(a.inbox.selected().unwrap().seq, 3);
        assert_eq!(a.inbox.new_above, 2);
        assert!(screen(&a).contains("2 new ↑ (g)"), "{}", screen(&a));
        key(&mut a, KeyCode::Char('c'), KeyModifiers::NONE);
        assert!(
            matches!(
                a.overlay,
                Some(Overlay::Input {
                    kind: InputKind::Classify { seq: 3 },
                    ..
                })
            ),
            "{:?}",
            a.overlay
        );
        key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
        // Moving up onto a new row is seeing it; `g` goes to the newest.
        key(&mut a, KeyCode::Char('k'), KeyModifiers::NONE);
        assert_eq!(a.inbox.selected().unwrap().seq, 4);
        assert_eq!(a.inbox.new_above, 1);
        key(&mut a, KeyCode::Char('g'), KeyModifiers::NONE);
        assert_eq!(a.inbox.selected().unwrap().seq, 5);
        assert_eq!(a.inbox.new_above, 0);
        assert!(!screen(&a).contains("new ↑"));
    }

    #[test]
    fn a_reload_keeps_the_selected_message_and_counts_what_came_in_above() {
        let mut a = app(&[4, 3, 2, 1]);
        key(&mut a, KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(a.inbox.selected().unwrap().seq, 3);
        // Ctrl-r (or a lagging event bus) reloads the newest page from disk.
        key(&mut a, KeyCode::Char('r'), KeyModifiers::CONTROL);
        let generation = a.inbox.generation;
        let rows = [6, 5, 4, 3, 2, 1]
            .iter()
            .map(|s| InboxRow::from(&record(*s)))
            .collect();
        a.update(Msg::InboxPage {
            generation,
            anchor: Anchor::Top,
            rows,
            last_seq: 6,
        });
        assert_eq!(a.inbox.selected().unwrap().seq, 3);
        assert_eq!(a.inbox.new_above, 2);
    }

    #[test]
    fn a_new_draft_above_keeps_the_selected_draft() {
        use crate::domain::{Draft, DraftStatus, Outbound, Verdict};
        let draft = |id: &str, minutes: i64| {
            let outbound = Outbound::SendEmail {
                to: vec!["jon@example.org".into()],
                cc: Vec::new(),
                subject: "Update".into(),
                body: "Body".into(),
                attachments: Vec::new(),
                body_html: None,
            };
            let at = datetime!(2026-03-02 09:00 UTC) + time::Duration::minutes(minutes);
            Draft {
                id: id.into(),
                profile: "work".into(),
                digest: crate::domain::content_digest("work", &outbound),
                outbound,
                verdict: Verdict::Queue {
                    reason: "draft_only".into(),
                },
                provider: None,
                status: DraftStatus::Pending,
                created_by: "mcp:demo-assistant".parse().unwrap(),
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
        };
        let mut a = app(&[1]);
        a.update(Msg::Drafts(vec![draft("d-old", 0), draft("d-mid", 5)]));
        key(&mut a, KeyCode::Char('3'), KeyModifiers::NONE);
        assert_eq!(a.pane, Pane::Drafts);
        key(&mut a, KeyCode::Char('s'), KeyModifiers::NONE); // newest first
        assert_eq!(a.drafts.selected().unwrap().id, "d-mid");
        a.update(Msg::Engine(EngineEvent::DraftChanged(Arc::new(draft(
            "d-new", 9,
        )))));
        assert_eq!(a.drafts.selected().unwrap().id, "d-mid");
        assert_eq!(a.drafts.new_above, 1);
        assert!(screen(&a).contains("1 new ↑ (g)"), "{}", screen(&a));
        key(&mut a, KeyCode::Char('g'), KeyModifiers::NONE);
        assert_eq!(a.drafts.selected().unwrap().id, "d-new");
        assert_eq!(a.drafts.new_above, 0);
    }

    fn compose_template(fx: &[Effect]) -> String {
        match fx {
            [Effect::Compose { template, .. }] => template.clone(),
            _ => panic!("{fx:?}"),
        }
    }

    #[test]
    fn a_blocked_reply_keeps_the_text_the_operator_wrote() {
        use crate::domain::Outcome;
        let mut a = app(&[3, 2, 1]);
        let shift = KeyModifiers::SHIFT;
        let template = compose_template(&key(&mut a, KeyCode::Char('R'), shift));
        let written = format!("Agreed, the freeze holds.\n{template}");
        let body = reply_from_template(&template, &written).unwrap();
        let submitted = |result| Msg::Submitted {
            label: "reply to Ana drafted".into(),
            action: Action::DraftReply {
                message_id: "msg-3".into(),
                body: body.clone(),
                attachments: Vec::new(),
                body_html: None,
            },
            result,
        };
        a.update(submitted(Ok(Outcome::Blocked {
            rule: "audience.internal_thread".into(),
            reason: "the text quotes an internal thread".into(),
            remedy: "remove the quoted internal text".into(),
        })));
        let (_, said) = a.message.clone().unwrap();
        assert!(
            said.contains("blocked by audience.internal_thread"),
            "{said}"
        );
        assert!(said.contains("your text is kept: R"), "{said}");
        // `R` again opens what was written, not a fresh template.
        key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
        let again = compose_template(&key(&mut a, KeyCode::Char('R'), shift));
        assert!(again.contains("Agreed, the freeze holds."), "{again}");
        assert!(again.contains("NOT drafted"), "{again}");
        // Saved unchanged it drafts nothing (and stays kept); edited, it is the new body.
        assert_eq!(reply_from_template(&again, &again), None);
        let fixed = again.replace("> message 3", "");
        let new_body = reply_from_template(&again, &fixed).unwrap();
        assert!(
            new_body.starts_with("Agreed, the freeze holds."),
            "{new_body}"
        );
        assert!(!new_body.contains('#'), "{new_body}");
        // A failure keeps it too, and says so in words.
        a.update(submitted(Err("cannot write the drafts log".into())));
        let (_, said) = a.message.clone().unwrap();
        assert!(
            said.starts_with("reply not drafted: cannot write") && said.contains("kept"),
            "{said}"
        );
        // Once drafted, the next `R` starts from the quoted message again.
        a.update(submitted(Ok(Outcome::Queued {
            draft_id: "d-1".into(),
            digest: "x".into(),
            verdict: crate::domain::Verdict::Queue {
                reason: "draft_only".into(),
            },
        })));
        assert!(a.kept_replies.is_empty());
        let fresh = compose_template(&key(&mut a, KeyCode::Char('R'), shift));
        assert_eq!(fresh, template);
    }

    #[test]
    fn ctrl_r_says_it_reloads_and_when_it_is_done() {
        let mut a = app(&[2, 1]);
        key(&mut a, KeyCode::Char('r'), KeyModifiers::CONTROL);
        assert!(
            a.message.as_ref().unwrap().1.contains("reloading"),
            "{:?}",
            a.message
        );
        let generation = a.inbox.generation;
        a.update(Msg::InboxPage {
            generation,
            anchor: Anchor::Top,
            rows: [3, 2, 1]
                .iter()
                .map(|s| InboxRow::from(&record(*s)))
                .collect(),
            last_seq: 3,
        });
        let said = &a.message.as_ref().unwrap().1;
        assert_eq!(said, "reloaded from disk · 1 new above the selection");
    }

    #[test]
    fn making_a_disabled_provider_the_default_says_to_enable_it_first() {
        use crate::engine::providers::{ProviderOverlay, apply, view};
        let config = crate::config::Config::demo();
        let ov = ProviderOverlay {
            enabled: [("azure".to_string(), false)].into(),
            ..Default::default()
        };
        let mut a = app(&[1]);
        a.update(Msg::Providers(Ok(view(&config, &apply(&config.llm, &ov)))));
        key(&mut a, KeyCode::Char('4'), KeyModifiers::NONE);
        let names: Vec<String> = a
            .providers
            .view
            .as_ref()
            .unwrap()
            .providers
            .iter()
            .map(|p| p.name.clone())
            .collect();
        let i = names.iter().position(|n| n == "azure").unwrap();
        a.providers.sel = i;
        let fx = key(&mut a, KeyCode::Char('d'), KeyModifiers::NONE);
        assert!(fx.is_empty(), "{fx:?}");
        assert_eq!(
            a.message.as_ref().unwrap().1,
            "cannot make azure the default: it is disabled (toggle it on first: Space)"
        );
        // Refused by the engine all the same (another process disabled it meanwhile).
        a.update(Msg::Submitted {
            label: "default provider is now azure".into(),
            action: Action::SetDefaultProvider {
                name: "azure".into(),
            },
            result: Err("provider `azure` is disabled".into()),
        });
        assert_eq!(
            a.message.as_ref().unwrap().1,
            "cannot make azure the default: it is disabled (toggle it on first)"
        );
    }
}
