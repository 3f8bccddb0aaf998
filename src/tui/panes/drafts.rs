//! Drafts: the approval queue and the selected draft in full.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use time::UtcOffset;

use super::{block, fit, header, row, sub_block};
use crate::domain::{Action, Draft, DraftEvent, DraftEventKind, DraftStatus, Outbound, Verdict};
use crate::tui::app::{App, Pane};
use crate::tui::keymap::Act;
use crate::tui::layout::{drafts_split, follow};
use crate::tui::msg::{Effect, Level, Req};
use crate::tui::overlay::{InputKind, Overlay};
use crate::tui::text::{age_text, fmt_time, zone_name};

/// Column widths for a list `width` characters wide: the id always shows; recipients and
/// the author share what is left; the verdict column only where there is room.
struct Cols {
    recipients: usize,
    by: usize,
    verdict: bool,
}

fn columns(width: usize) -> Cols {
    // STATUS 9, AGE 5, ID 12, PROFILE 8, KIND 11, each with a separating space.
    let fixed = 10 + 6 + 13 + 9 + 12;
    let verdict = width >= 120;
    let rest = width.saturating_sub(fixed + if verdict { 7 } else { 0 } + 2);
    let recipients = (rest * 3 / 5).clamp(10, 60);
    let by = rest.saturating_sub(recipients).clamp(8, 30);
    Cols {
        recipients,
        by,
        verdict,
    }
}

/// Counts a person reads at a glance: what waits for them, what is on its way, what went.
fn counts(all: &[crate::domain::Draft]) -> String {
    let n = |s: DraftStatus| all.iter().filter(|d| d.status == s).count();
    let mut parts = vec![format!("{} to approve", n(DraftStatus::Pending))];
    for (s, word) in [
        (DraftStatus::Approved, "approved, not sent yet"),
        (DraftStatus::Failed, "failed to send"),
        (DraftStatus::Executed, "sent"),
        (DraftStatus::Rejected, "rejected"),
        (DraftStatus::Expired, "expired"),
    ] {
        if n(s) > 0 {
            parts.push(format!("{} {word}", n(s)));
        }
    }
    parts.join(" · ")
}

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let v = &app.drafts;
    let (list_area, detail_area) = drafts_split(area);
    let vis = v.visible();
    let mut title = format!(
        " Drafts · {} · showing {} of {} ({}) ",
        counts(&v.all),
        vis.len(),
        v.all.len(),
        if v.show_all {
            "all"
        } else {
            "undecided; A shows all"
        }
    );
    if !v.filter.is_empty() {
        title.push_str(&format!("· filter: {} ", v.filter));
    }
    let marked = v.marked_pending().len();
    if marked > 0 {
        title.push_str(&format!("· {marked} marked (*) "));
    }
    if v.new_above > 0 {
        let g = app
            .keymap
            .key_for(crate::tui::keymap::Section::Drafts, Act::Top);
        title.push_str(&format!("· {} new ↑ ({g}) ", v.new_above));
    }
    let inner_h = list_area.height.saturating_sub(2) as usize;
    let width = list_area.width.saturating_sub(4) as usize;
    let c = columns(width);
    let verdict_h = if c.verdict { "VERDICT " } else { "" };
    let mut lines = vec![header(
        t,
        fit(
            &format!(
                "{:<9} {:<5} {:<12} {:<8} {:<11} {:<rw$} {verdict_h}{}",
                "STATUS",
                // The sort: by age, descending (oldest first) unless `s` turned it.
                if v.newest_first { "AGE ↑" } else { "AGE ↓" },
                "ID",
                "PROFILE",
                "KIND",
                "RECIPIENTS",
                "BY (WRITTEN BY)",
                rw = c.recipients
            ),
            width,
        ),
    )];
    let rows_h = inner_h.saturating_sub(1);
    let offset = follow(v.sel, 0, rows_h);
    for (i, d) in vis.iter().enumerate().skip(offset).take(rows_h) {
        let verdict = match &d.verdict {
            Verdict::Run => "run",
            Verdict::Queue { .. } => "queue",
            Verdict::Block { .. } => "block",
        };
        let by = match &d.provider {
            Some(p) => format!("{} ({p})", d.created_by),
            None => d.created_by.to_string(),
        };
        let status = match d.status {
            DraftStatus::Executed => status_word(d).to_string(),
            DraftStatus::Pending if v.marked.contains(&d.id) => "*pending".to_string(),
            s => s.as_str().to_string(),
        };
        // Undecided drafts age from creation (or re-queue); decided ones show nothing.
        let age = if d.status.is_final() || d.status == DraftStatus::Approved {
            String::new()
        } else {
            age_text(d.created_at, app.now)
        };
        let text = format!(
            "{} {} {} {} {} {} {}{}",
            fit(&status, 9),
            fit(&age, 5),
            fit(&d.id, 12),
            fit(&d.profile, 8),
            fit(d.outbound.kind(), 11),
            fit(&d.outbound.recipients().join(", "), c.recipients),
            if c.verdict {
                format!("{} ", fit(verdict, 7))
            } else {
                String::new()
            },
            fit(&by, c.by),
        );
        let style = match d.status {
            DraftStatus::Pending => t.unread,
            DraftStatus::Approved | DraftStatus::Executed => t.ok,
            DraftStatus::Rejected | DraftStatus::Expired => t.muted,
            DraftStatus::Failed => t.error,
        };
        lines.push(row(
            t,
            i == v.sel,
            fit(&crate::sanitize::for_terminal(&text), width),
            style,
        ));
    }
    if vis.is_empty() {
        let msg = if !v.loaded {
            "loading…"
        } else if !v.filter.is_empty() {
            "Nothing matches. / changes the filter, Esc clears it."
        } else if !v.show_all && !v.all.is_empty() {
            "Nothing waits for approval. A shows decided and sent drafts."
        } else {
            "Nothing waits for approval. Drafts from MCP clients and the console appear here."
        };
        lines.push(Line::from(Span::styled(format!("  {msg}"), t.muted)));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), list_area);

    if detail_area.height == 0 {
        return;
    }
    let (title, lines) = match vis.get(v.sel) {
        Some(d) => {
            let mut out = vec![Line::from(Span::styled(
                format!("now: {}", draft_outlook(d)),
                match d.status {
                    DraftStatus::Failed => t.error,
                    DraftStatus::Pending => t.unread,
                    _ => t.ok,
                },
            ))];
            out.push(Line::from(Span::styled(
                format!("life ({}):", zone_name(app.tz)),
                t.muted,
            )));
            match app.draft_history.get(&d.id) {
                Some((at, ev)) if *at == d.updated_at => {
                    out.extend(draft_life(ev, app.tz).into_iter().map(|l| {
                        Line::from(Span::styled(crate::sanitize::for_terminal(&l), t.text))
                    }))
                }
                _ => out.push(Line::from(Span::styled("  loading…", t.muted))),
            }
            out.push(Line::from(""));
            out.extend(
                draft_lines(d, app.tz)
                    .into_iter()
                    .map(|l| Line::from(Span::styled(crate::sanitize::for_terminal(&l), t.text))),
            );
            (format!(" Draft {} ", d.id), out)
        }
        None => (" Draft ".to_string(), Vec::new()),
    };
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(t, title)),
        detail_area,
    );
}

#[derive(Debug, Clone, Default)]
pub struct DraftsView {
    pub all: Vec<Draft>,
    pub show_all: bool,
    /// Undecided drafts youngest first (`s`); by default the oldest, the most urgent, lead.
    pub newest_first: bool,
    /// Drafts marked for a batch decision (`space`), by id.
    pub marked: std::collections::BTreeSet<String>,
    pub filter: String,
    pub sel: usize,
    pub loaded: bool,
    /// Drafts that arrived above the selection and were not gone to yet ("N new ↑" in the
    /// title; `g` goes to them): the selection stays on the draft the operator looks at.
    pub new_above: usize,
}

impl DraftsView {
    /// Undecided first, by age (oldest first unless `newest_first`), then decided ones (most
    /// recently decided first).
    pub fn visible(&self) -> Vec<&Draft> {
        let f = self.filter.to_lowercase();
        let mut v: Vec<&Draft> = self
            .all
            .iter()
            .filter(|d| self.show_all || !d.status.is_final())
            .filter(|d| {
                f.is_empty()
                    || [
                        d.id.as_str(),
                        d.profile.as_str(),
                        d.outbound.kind(),
                        d.status.as_str(),
                        &d.outbound.recipients().join(" "),
                        d.outbound.subject().unwrap_or(""),
                    ]
                    .iter()
                    .any(|h| h.to_lowercase().contains(&f))
            })
            .collect();
        v.sort_by(|a, b| {
            let rank = |d: &Draft| match d.status {
                DraftStatus::Pending => 0,
                DraftStatus::Approved | DraftStatus::Failed => 1,
                _ => 2,
            };
            rank(a).cmp(&rank(b)).then_with(|| {
                if rank(a) == 0 {
                    // Age counts from creation (or re-queue), the same clock the TTL uses.
                    let oldest_first = a.created_at.cmp(&b.created_at);
                    if self.newest_first {
                        oldest_first.reverse()
                    } else {
                        oldest_first
                    }
                } else {
                    b.updated_at.cmp(&a.updated_at)
                }
            })
        });
        v
    }
    pub fn selected(&self) -> Option<&Draft> {
        self.visible().get(self.sel).copied()
    }
    /// The marked drafts that are still pending, in the order shown.
    pub fn marked_pending(&self) -> Vec<&Draft> {
        self.visible()
            .into_iter()
            .filter(|d| d.status == DraftStatus::Pending && self.marked.contains(&d.id))
            .collect()
    }
    pub fn pending(&self) -> usize {
        self.all
            .iter()
            .filter(|d| d.status == DraftStatus::Pending)
            .count()
    }
}
/// Whether approving this draft makes something leave the machine (mail, a chat post, an
/// invitation). Every kind today does; the match makes a new kind decide explicitly.
pub fn sends(o: &Outbound) -> bool {
    match o {
        Outbound::SendEmail { .. }
        | Outbound::ReplyEmail { .. }
        | Outbound::PostChat { .. }
        | Outbound::CreateEvent { .. } => true,
        // Accepting a deal proposal creates the deal locally.
        Outbound::CreateDeal { .. } => false,
        // Changes the mailbox, sends nothing.
        Outbound::MoveMail { .. } => false,
    }
}

/// `o` with its body replaced (for `$EDITOR` edits).
pub fn with_body(o: &Outbound, new_body: String) -> Outbound {
    let mut o = o.clone();
    match &mut o {
        Outbound::SendEmail { body, .. }
        | Outbound::ReplyEmail { body, .. }
        | Outbound::PostChat { body, .. }
        | Outbound::CreateEvent { body, .. } => *body = new_body,
        Outbound::CreateDeal { spec } => spec.notes = new_body,
        Outbound::MoveMail { .. } => {}
    }
    o
}

impl App {
    /// One notice for every draft that waits too long, at most once per interval (the
    /// drafts as this console knows them, at `self.now`).
    pub(in crate::tui) fn remind(&mut self) {
        if !self.drafts.loaded {
            return;
        }
        let now = self.now;
        let Some(r) = self.reminders.as_mut() else {
            return;
        };
        if let Some(reminder) = r.check(&self.drafts.all, now) {
            let key = self
                .keymap
                .key_for(Pane::Drafts.section(), crate::tui::keymap::Act::PaneDrafts);
            self.say(
                Level::Warn,
                format!("{} ({key} shows them)", reminder.line()),
            );
        }
    }
    /// Ask for the selected draft's events when the Drafts pane shows a draft whose life is
    /// not known for its current state.
    pub(in crate::tui) fn want_history(&mut self, fx: &mut Vec<Effect>) {
        if self.pane != Pane::Drafts {
            return;
        }
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if self
            .history_asked
            .as_ref()
            .is_some_and(|(id, at)| *id == d.id && *at == d.updated_at)
        {
            return; // asked, not answered yet
        }
        let fresh = self
            .draft_history
            .get(&d.id)
            .is_some_and(|(at, _)| *at == d.updated_at);
        if !fresh {
            let id = d.id.clone();
            self.history_asked = Some((id.clone(), d.updated_at));
            fx.push(Effect::Req(Req::DraftHistory { id }));
        }
    }
    /// The ids shown now, in order (what `reselect_draft` compares with after a change).
    pub(in crate::tui) fn visible_draft_ids(&self) -> Vec<String> {
        self.drafts.visible().iter().map(|d| d.id.clone()).collect()
    }
    /// After the queue changed: select `prev` again wherever it went, and count the drafts
    /// that appeared above it (not in `before`, the ids shown before the change).
    pub(in crate::tui) fn reselect_draft(&mut self, prev: Option<String>, before: &[String]) {
        let vis = self.drafts.visible();
        if let Some(id) = prev
            && let Some(i) = vis.iter().position(|d| d.id == id)
        {
            let arrived = vis[..i].iter().filter(|d| !before.contains(&d.id)).count();
            self.drafts.sel = i;
            self.drafts.new_above = (self.drafts.new_above + arrived).min(i);
            return;
        }
        self.drafts.sel = self.drafts.sel.min(vis.len().saturating_sub(1));
        self.drafts.new_above = self.drafts.new_above.min(self.drafts.sel);
    }
}

pub fn draft_lines(d: &Draft, tz: UtcOffset) -> Vec<String> {
    let verdict = match &d.verdict {
        crate::domain::Verdict::Run => "run".to_string(),
        crate::domain::Verdict::Queue { reason } => format!("queue — {reason}"),
        crate::domain::Verdict::Block { rule, reason, .. } => format!("block — {rule}: {reason}"),
    };
    let mut lines = vec![
        format!("status:     {}", status_word(d)),
        format!("profile:    {}", d.profile),
        format!("kind:       {}", d.outbound.kind()),
        format!("recipients: {}", d.outbound.recipients().join(", ")),
        format!("subject:    {}", d.outbound.subject().unwrap_or("—")),
        format!("verdict:    {verdict} (when created)"),
        format!("provider:   {}", d.provider.as_deref().unwrap_or("—")),
        format!(
            "created:    {} by {}",
            fmt_time(d.created_at, tz),
            d.created_by
        ),
        format!("updated:    {}", fmt_time(d.updated_at, tz)),
        format!("edits:      {}", d.edits),
    ];
    for a in d.outbound.attachments() {
        lines.push(format!(
            "attached:   {}",
            crate::sanitize::for_terminal(&a.summary())
        ));
    }
    lines.push(format!("digest:     {}", d.digest));
    if let Some(by) = &d.decided_by {
        lines.push(format!("decided by: {by}"));
    }
    if let Some(r) = &d.reason {
        lines.push(format!("reason:     {r}"));
    }
    if let Some(to) = &d.remote_id {
        lines.push(format!("went to:    {to}"));
    }
    if d.outbound.body_html().is_some() {
        lines.push(format!("format:     {}", crate::html_mail::REVIEW_NOTE));
    }
    lines.push(String::new());
    lines.extend(d.outbound.body().lines().map(str::to_string));
    lines
}

/// A draft's status in the word the Drafts list uses: an executed draft that leaves the
/// machine is `sent`, one that only changes things here (a deal, a mail move) is `done`.
pub fn status_word(d: &Draft) -> &'static str {
    match d.status {
        DraftStatus::Executed if sends(&d.outbound) => "sent",
        DraftStatus::Executed => "done",
        s => s.as_str(),
    }
}

/// What happens to a draft next, in words (the verdict alone says only that it waited).
pub fn draft_outlook(d: &Draft) -> &'static str {
    match d.status {
        DraftStatus::Pending => "waiting for the operator's decision (a approve · r reject)",
        DraftStatus::Approved => "approved: waiting for the executor to send it",
        DraftStatus::Executed => "sent",
        DraftStatus::Failed => "approved, but sending failed (it is retried)",
        DraftStatus::Rejected => "rejected: it will not be sent",
        DraftStatus::Expired => {
            "expired unanswered: it will not be sent (u re-queues it as a new draft)"
        }
    }
}

/// The draft's life from its events: created, edited, decided at / by, executed (where it
/// went) or failed (why), each with its time.
pub fn draft_life(events: &[DraftEvent], tz: UtcOffset) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let when = fmt_time(e.ts, tz);
            let what = match &e.kind {
                DraftEventKind::Created { provider, .. } => match provider {
                    Some(p) => format!("created by {} (written by {p})", e.actor),
                    None => format!("created by {}", e.actor),
                },
                DraftEventKind::Edited { .. } => {
                    format!("edited by {} (needs a fresh approval)", e.actor)
                }
                DraftEventKind::Approved { .. } => format!("approved by {}", e.actor),
                DraftEventKind::Rejected { reason } => {
                    format!("rejected by {}: {reason}", e.actor)
                }
                DraftEventKind::Executed { remote_id } => {
                    format!("sent by {} → {remote_id}", e.actor)
                }
                DraftEventKind::Failed { reason } => format!("FAILED ({}): {reason}", e.actor),
                DraftEventKind::Expired { ttl_hours } => {
                    format!("expired after {ttl_hours} h without a decision")
                }
                DraftEventKind::Requeued { from, .. } => format!(
                    "re-queued by {}: {from} → {} (a fresh time to live)",
                    e.actor, e.draft_id
                ),
            };
            format!("  {when}  {what}")
        })
        .collect()
}

impl App {
    pub(in crate::tui) fn approve(&mut self) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status != DraftStatus::Pending {
            let msg = format!(
                "draft {} is {}; only pending drafts can be approved",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        // The approval binds to the content shown now; if it changes before the engine
        // records the approval, the engine refuses.
        let action = Action::ApproveDraft {
            id: d.id.clone(),
            digest: Some(d.digest.clone()),
        };
        let label = format!("approved draft {}", d.id);
        // Every decidable draft gets the same dialog; what approving does is said plainly.
        let mut lines = vec![format!("{} for profile {}", d.outbound.kind(), d.profile)];
        let recipients = d.outbound.recipients();
        if !recipients.is_empty() {
            lines.push(format!("to: {}", recipients.join(", ")));
        }
        match &d.outbound {
            crate::domain::Outbound::MoveMail { message_id, folder } => {
                lines.push(format!("move message {message_id} to folder {folder}"));
            }
            crate::domain::Outbound::CreateDeal { spec } => {
                lines.push(format!("deal: {}", spec.name));
            }
            _ => {}
        }
        if let Some(s) = d.outbound.subject() {
            lines.push(format!("subject: {s}"));
        }
        if d.outbound.body_html().is_some() {
            lines.push(format!("format: {}", crate::html_mail::REVIEW_NOTE));
        }
        if !d.outbound.body().is_empty() {
            lines.push(String::new());
            lines.extend(d.outbound.body().lines().take(6).map(str::to_string));
        }
        lines.push(String::new());
        lines.push(if sends(&d.outbound) {
            "Approving releases this to be sent. y = approve · anything else cancels".into()
        } else {
            "Approving carries this out (nothing is sent). y = approve · anything else cancels"
                .into()
        });
        self.overlay = Some(Overlay::Confirm {
            title: format!("Approve draft {}?", d.id),
            lines,
            then: Req::Submit { action, label },
        });
    }
    /// Mark (or unmark) the selected draft for a batch decision; only pending drafts.
    pub(in crate::tui) fn mark(&mut self) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status != DraftStatus::Pending {
            let msg = format!(
                "draft {} is {}; only pending drafts can be marked",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        let id = d.id.clone();
        if !self.drafts.marked.remove(&id) {
            self.drafts.marked.insert(id);
        }
        let n = self.drafts.marked_pending().len();
        let (a, r) = (
            self.keymap.key_for(self.pane.section(), Act::Approve),
            self.keymap.key_for(self.pane.section(), Act::Reject),
        );
        self.say(
            Level::Info,
            format!(
                "{n} marked: {a} approves them all, {r} rejects them all (each on its own digest)"
            ),
        );
        // Marking moves on, so several are marked with repeated presses.
        let len = self.drafts.visible().len();
        self.drafts.sel = (self.drafts.sel + 1).min(len.saturating_sub(1));
    }
    /// The batch as the operator reviewed it: each marked draft with the digest shown now.
    pub(in crate::tui) fn marked_items(&self) -> (Vec<crate::domain::BatchItem>, Vec<String>) {
        let marked = self.drafts.marked_pending();
        let items = marked
            .iter()
            .map(|d| crate::domain::BatchItem {
                id: d.id.clone(),
                digest: d.digest.clone(),
            })
            .collect();
        let lines = marked
            .iter()
            .map(|d| {
                let mut l = format!(
                    "{}  {} for {} to {}",
                    d.id,
                    d.outbound.kind(),
                    d.profile,
                    d.outbound.recipients().join(", ")
                );
                if let Some(s) = d.outbound.subject() {
                    l.push_str(&format!(" · {s}"));
                }
                l
            })
            .collect();
        (items, lines)
    }
    /// Approve every marked draft in one step, after a confirmation listing each with its
    /// recipients and subject. The engine refuses the lot if any kind may not be batched.
    pub(in crate::tui) fn approve_marked(&mut self) {
        let (items, mut lines) = self.marked_items();
        let n = items.len();
        lines.push(String::new());
        lines.push(format!(
            "Approving releases all {n} to be sent, each exactly as it is now in the Drafts pane (Enter there shows a draft whole; one changed since is not approved). y = approve all · anything else cancels"
        ));
        self.overlay = Some(Overlay::Confirm {
            title: format!("Approve {n} marked drafts?"),
            lines,
            then: Req::Submit {
                action: Action::DecideDrafts {
                    decision: crate::domain::BatchDecision::Approve,
                    items,
                },
                label: format!("approved {n} drafts"),
            },
        });
    }
    pub(in crate::tui) fn reject_marked(&mut self) {
        let (items, _) = self.marked_items();
        let n = items.len();
        self.overlay = Some(Overlay::Input {
            kind: InputKind::RejectBatch { items },
            title: format!(
                "Reject {n} marked drafts — one reason for all (Enter to reject, Esc to cancel)"
            ),
            buf: String::new(),
        });
    }
    pub(in crate::tui) fn reject(&mut self) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status.is_final() {
            let msg = format!("draft {} is already {}", d.id, d.status.as_str());
            self.say(Level::Warn, msg);
            return;
        }
        self.overlay = Some(Overlay::Input {
            kind: InputKind::Reject { id: d.id.clone() },
            title: format!(
                "Reject draft {} — reason (Enter to reject, Esc to cancel)",
                d.id
            ),
            buf: String::new(),
        });
    }
    pub(in crate::tui) fn edit(&mut self, fx: &mut Vec<Effect>) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status.is_final() {
            let msg = format!(
                "draft {} is {}; it cannot be edited",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        fx.push(Effect::Edit {
            id: d.id.clone(),
            outbound: d.outbound.clone(),
        });
    }
    /// One key puts an expired draft back in the queue (nothing is sent, so nothing to
    /// confirm): the engine makes a new pending draft of the content shown, judged again.
    pub(in crate::tui) fn requeue(&mut self, fx: &mut Vec<Effect>) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status != DraftStatus::Expired {
            let msg = format!(
                "draft {} is {}; only expired drafts can be re-queued",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        if let Some(new) = &d.requeued_as {
            let msg = format!("draft {} was already re-queued as {new}", d.id);
            self.say(Level::Warn, msg);
            return;
        }
        fx.push(Effect::Req(Req::Submit {
            action: Action::RequeueDraft {
                id: d.id.clone(),
                digest: Some(d.digest.clone()),
            },
            label: format!("re-queued draft {}", d.id),
        }));
    }
    pub(in crate::tui) fn show_all(&mut self) {
        self.drafts.show_all = !self.drafts.show_all;
        self.drafts.sel = 0;
        self.drafts.new_above = 0;
    }
}
