//! The one redacted view of PHI for every recipient that is not cleared for it (DESIGN
//! principle 8): MCP tool results, resources, pushes (`notifications/message`, Claude Code's
//! channel) and the free text the audit trail quotes all pass [`PhiPolicy::view`] (or
//! [`PhiPolicy::scrub_audit`], which uses the same redactors).
//!
//! Attribution: a JSON object that names a configured profile in `profile` (or `entity`, as
//! audit records do) belongs to that profile, with everything inside it. Text of a
//! `requires_hipaa` profile is redacted; text of another profile stays clear; text that cannot
//! be attributed while any `requires_hipaa` profile exists is redacted with every HIPAA
//! profile's redactor (fail closed). A redactor that cannot be built is an error: nothing of
//! the answer goes out.
//!
//! Placeholders are stable within one [`Placeholders`] (one per MCP client session), so a client
//! sees the same `<PERSON_1>` for the same name across its calls and pushes. The mapping never
//! leaves the process and is never logged.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map, Value};

use super::redact::{Kind, RedactionSession, Redactor};
use crate::config::Config;
use crate::domain::UNASSIGNED;

/// Keys whose string values are kept as they are: profile names (needed for attribution) and
/// identifiers opsdesk itself generates, which a client needs to refer back to an item.
const KEEP: &[&str] = &[
    "profile", "entity", "digest", "draft_id", "consumer", "channel", "status", "kind", "jsonrpc",
    // An attachment's content hash and resource URI (opsdesk computes both): a client needs
    // them to name the attachment, and a hash read as digits must not become a placeholder.
    "sha256", "uri",
];

/// Key of a draft's content digest (see [`keyed_digest`]).
const DIGEST_KEY: &str = "digest";
const KEYED_PREFIX: &str = "hmac-sha256:";

/// A digest as a redacted view shows it: HMAC-SHA256 under a key drawn once per process, so
/// the same draft shows the same value while the engine runs (a client can still tell drafts
/// apart and see one change) but no guess of the clear content can be checked against it.
fn keyed_digest(digest: &str) -> String {
    use hmac::{KeyInit, Mac};
    // `None` when the OS gave no randomness: a key the same for everyone would keep the digest
    // guessable, so nothing derived from it is shown.
    static KEY: OnceLock<Option<[u8; 32]>> = OnceLock::new();
    let key = KEY.get_or_init(|| {
        let mut k = [0u8; 32];
        getrandom::fill(&mut k).ok().map(|()| k)
    });
    // HMAC takes a key of any length: `new_from_slice` cannot fail for 32 bytes.
    match key.and_then(|k| hmac::Hmac::<sha2::Sha256>::new_from_slice(&k).ok()) {
        Some(mut mac) => {
            mac.update(digest.as_bytes());
            format!("{KEYED_PREFIX}{}", hex::encode(mac.finalize().into_bytes()))
        }
        None => format!("{KEYED_PREFIX}unavailable"),
    }
}

/// Key of an HTML mail body (`Outbound::body_html`): redacted through its text (see
/// `PhiPolicy::redact_html`).
const HTML_KEY: &str = "body_html";
/// Key of the text beside it: an HTML mail's text rendering.
const BODY_KEY: &str = "body";

/// Key of the notice added to a redacted object answer.
pub(crate) const NOTICE_KEY: &str = "phi_redaction";

/// How clearance is configured, for the notice.
pub(crate) const HOW_TO_CLEAR: &str = "PHI of a requires_hipaa profile goes in clear only to a cleared client: give the client its own token (`opsdesk mcp-config <client> --new-client <name>`) and set `hipaa_cleared = true` in [server.clients.<name>] only if its model runs under a HIPAA BAA";

/// Whether records of `unassigned` may exist (asked by the view; see [`PhiPolicy::watching`]).
pub type UnassignedProbe = Arc<dyn Fn() -> bool + Send + Sync>;

/// Why a view could not be produced; the answer must then not go out at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("PHI of profile `{profile}` cannot be redacted ({reason}); nothing was sent")]
pub struct ViewError {
    pub profile: String,
    pub reason: String,
}

/// The placeholder mapping of one recipient (an MCP session, a listen stream, a stdio
/// connection). Holds PHI: never serialized, never cloned.
#[derive(Default)]
pub struct Placeholders {
    session: Mutex<RedactionSession>,
}

impl std::fmt::Debug for Placeholders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Placeholders")
    }
}

impl Placeholders {
    pub fn new() -> Arc<Placeholders> {
        Arc::new(Placeholders::default())
    }
}

/// What one view replaced: counts per kind (never values) and the profiles it redacted for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redacted {
    pub counts: BTreeMap<Kind, usize>,
    pub profiles: BTreeSet<String>,
}

impl Redacted {
    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }

    /// `person=2 mrn=1` — for the audit trail's `reason`.
    pub fn summary(&self) -> String {
        self.counts
            .iter()
            .map(|(k, n)| format!("{}={n}", k.tag().to_ascii_lowercase()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

struct HipaaProfile {
    profile: crate::config::Profile,
    redactor: OnceLock<Result<Arc<Redactor>, String>>,
}

/// Which profiles require HIPAA handling, and their redactors (compiled on first use: building
/// one costs tens of milliseconds, and most CLI runs never need it).
///
/// The reserved profile `unassigned` (items no `[classification]` rule placed) is always known
/// and always HIPAA, the strictest of all: it may be anyone's, so its redactor has every
/// profile's roster, no keep list and conditions redacted too. It makes the view active (and
/// applies to text nobody owns) only while such records may exist: when `[classification]`
/// sends unmatched items there, or once the inbox's marker says one was ever stored
/// (`store/inbox/mod.rs` `UNASSIGNED_MARKER`) — so removing the section later leaves them
/// protected, and a config that never has them keeps the identity fast path (one `stat` of the
/// marker per check until it appears).
pub struct PhiPolicy {
    hipaa: BTreeMap<String, HipaaProfile>,
    known: BTreeSet<String>,
    unassigned: HipaaProfile,
    /// Set once unassigned records may exist; never cleared (fail closed).
    unassigned_live: AtomicBool,
    /// Asked until it says yes: whether records of `unassigned` may exist now (the inbox's
    /// answer: a flag it raises on storing, reading or seeing the marker of one).
    probe: Option<UnassignedProbe>,
    /// Where stored records go to be scanned ahead of their first view (see
    /// [`PhiPolicy::prime`]); `None` until a host that answers uncleared readers starts it.
    primer: OnceLock<SyncSender<Priming>>,
}

/// A stored record's texts and the redactor that will read them.
struct Priming {
    redactor: Arc<Redactor>,
    texts: Vec<String>,
}

/// Records waiting to be primed; beyond this the newest are skipped (their first view scans
/// them), so a burst of ingestion never queues unbounded work or memory.
const PRIMING_QUEUE: usize = 1024;

impl std::fmt::Debug for PhiPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PhiPolicy")
            .field("hipaa_profiles", &self.hipaa.keys().collect::<Vec<_>>())
            .finish()
    }
}

#[derive(Clone, Copy)]
enum Owner<'a> {
    /// A configured profile.
    Profile(&'a str),
    /// Nothing says whose text this is.
    Unknown,
}

impl PhiPolicy {
    pub fn from_config(config: &Config) -> PhiPolicy {
        let unassigned = crate::config::Profile {
            phi_auto_redact: true,
            requires_hipaa: true,
            phi_names: config
                .profiles
                .values()
                .flat_map(|p| p.phi_names.iter().cloned())
                .collect(),
            redact_conditions: true,
            ..Default::default()
        };
        let live = config
            .classification
            .as_ref()
            .is_some_and(|c| c.unmatched == crate::config::Unmatched::Unassigned);
        let mut policy = PhiPolicy {
            hipaa: config
                .profiles
                .iter()
                .filter(|(_, p)| p.requires_hipaa)
                .map(|(n, p)| {
                    (
                        n.clone(),
                        HipaaProfile {
                            profile: p.clone(),
                            redactor: OnceLock::new(),
                        },
                    )
                })
                .collect(),
            known: config.profiles.keys().cloned().collect(),
            unassigned: HipaaProfile {
                profile: unassigned,
                redactor: OnceLock::new(),
            },
            unassigned_live: AtomicBool::new(live),
            probe: None,
            primer: OnceLock::new(),
        };
        policy.known.insert(UNASSIGNED.to_string());
        policy
    }

    /// Also treat `unassigned` as live once `probe` says records of it may exist: stored by any
    /// process, under any config (the inbox's `unassigned_probe`).
    pub fn watching(mut self, probe: UnassignedProbe) -> PhiPolicy {
        self.probe = Some(probe);
        self
    }

    /// Scan stored records ahead of their first view from now on (a host that answers
    /// uncleared readers calls this; one-shot commands do not, their process ends first). One
    /// background thread, at a lower CPU priority, ends when the policy is dropped.
    pub fn start_priming(&self) -> std::io::Result<()> {
        if self.hipaa.is_empty() && !self.unassigned_live() || self.primer.get().is_some() {
            return Ok(());
        }
        let (tx, rx) = sync_channel::<Priming>(PRIMING_QUEUE);
        std::thread::Builder::new()
            .name("phi-primer".into())
            .spawn(move || {
                lower_priority();
                for job in rx {
                    for t in &job.texts {
                        // A text the redactor cannot read is reported by the view that shows
                        // it (and nothing of that answer goes out); here it is only not primed.
                        if let Err(e) = job.redactor.prime(t) {
                            tracing::debug!("PHI primer: {e}");
                        }
                    }
                }
            })?;
        // A second caller racing this one keeps the first thread; this one's ends at once.
        let _ = self.primer.set(tx);
        Ok(())
    }

    /// Queue a stored record of a HIPAA profile to be scanned now, so the first answer that
    /// shows it to an uncleared reader finds its texts in the redactor's cache: the detectors'
    /// cost falls on ingestion's background, not on the reader's wait. Best effort by design:
    /// with priming not started, the queue full or the redactor not buildable, the record is
    /// scanned by its first view instead, exactly as it would have been.
    pub fn prime(&self, rec: &crate::domain::InboxRecord) {
        let Some(tx) = self.primer.get() else {
            return;
        };
        // Not buildable or not serializable: the first view reports it; see above.
        let Ok(Some(job)) = self.priming(rec) else {
            return;
        };
        // Full or gone: skipped, see above.
        let _ = tx.try_send(job);
    }

    /// [`PhiPolicy::prime`] on the calling thread, done when it returns (a bench measures the
    /// view of primed records with it).
    pub fn prime_now(&self, rec: &crate::domain::InboxRecord) -> Result<(), ViewError> {
        let Some(job) = self.priming(rec)? else {
            return Ok(());
        };
        for t in &job.texts {
            job.redactor.prime(t).map_err(|e| ViewError {
                profile: rec.profile.clone(),
                reason: e.to_string(),
            })?;
        }
        Ok(())
    }

    /// What priming `rec` scans, and with which redactor: every string a view of its message
    /// redacts (`None` for a profile without HIPAA handling).
    fn priming(&self, rec: &crate::domain::InboxRecord) -> Result<Option<Priming>, ViewError> {
        if !self.is_hipaa(&rec.profile) {
            return Ok(None);
        }
        let Some(redactor) = self.redactor(&rec.profile)? else {
            return Ok(None);
        };
        let message =
            serde_json::to_value(crate::domain::MessageOut::from(rec.clone())).map_err(|e| {
                ViewError {
                    profile: rec.profile.clone(),
                    reason: e.to_string(),
                }
            })?;
        let mut texts = Vec::new();
        collect_viewed(&message, &mut texts);
        Ok(Some(Priming { redactor, texts }))
    }

    /// Whether records of `unassigned` may exist (checked on the disk until they do).
    fn unassigned_live(&self) -> bool {
        if self.unassigned_live.load(Ordering::Relaxed) {
            return true;
        }
        let seen = self.probe.as_ref().is_some_and(|p| p());
        if seen {
            self.unassigned_live.store(true, Ordering::Relaxed);
        }
        seen
    }

    /// Whether any profile requires HIPAA handling (otherwise every view is the identity).
    pub fn is_active(&self) -> bool {
        !self.hipaa.is_empty() || self.unassigned_live()
    }

    pub fn is_hipaa(&self, profile: &str) -> bool {
        profile == UNASSIGNED || self.hipaa.contains_key(profile)
    }

    fn hipaa_profile(&self, profile: &str) -> Option<&HipaaProfile> {
        if profile == UNASSIGNED {
            return Some(&self.unassigned);
        }
        self.hipaa.get(profile)
    }

    fn redactor(&self, profile: &str) -> Result<Option<Arc<Redactor>>, ViewError> {
        let Some(h) = self.hipaa_profile(profile) else {
            return Ok(None);
        };
        h.redactor
            .get_or_init(|| {
                Redactor::for_profile(&h.profile)
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map(Some)
            .map_err(|reason| ViewError {
                profile: profile.to_string(),
                reason,
            })
    }

    /// The redactors that apply to text owned by `owner`.
    fn redactors_for(&self, owner: Owner<'_>) -> Result<Vec<(&str, Arc<Redactor>)>, ViewError> {
        match owner {
            Owner::Profile(p) => Ok(self
                .redactor(p)?
                .map(|r| {
                    let name = match p {
                        UNASSIGNED => Some(UNASSIGNED),
                        _ => self.hipaa.get_key_value(p).map(|(k, _)| k.as_str()),
                    };
                    vec![(name.unwrap_or(""), r)]
                })
                .unwrap_or_default()),
            // Text nobody owns may be an unassigned item's while such items may exist.
            Owner::Unknown => self
                .hipaa
                .keys()
                .map(String::as_str)
                .chain(self.unassigned_live().then_some(UNASSIGNED))
                .map(|p| Ok((p, self.redactor(p)?.ok_or_else(|| internal(p))?)))
                .collect(),
        }
    }

    /// THE view: what a recipient may see of `value`. A cleared recipient (or a configuration
    /// without `requires_hipaa` profiles) gets it unchanged. Otherwise every string of a HIPAA
    /// profile — and every string that cannot be attributed — is redacted in place with the
    /// recipient's placeholders; `owner` attributes the whole value when the caller knows it
    /// (a push about one inbox record). When anything was replaced and `value` is an object, a
    /// notice (`phi_redaction`) says so and how clearance is configured.
    pub fn view(
        &self,
        cleared: bool,
        to: &Placeholders,
        value: &mut Value,
        owner: Option<&str>,
    ) -> Result<Redacted, ViewError> {
        let mut report = Redacted::default();
        if cleared || !self.is_active() {
            return Ok(report);
        }
        let owner = match owner {
            Some(p) if self.known.contains(p) => Owner::Profile(p),
            _ => Owner::Unknown,
        };
        let mut session = to.session.lock().unwrap_or_else(|e| e.into_inner());
        let learned = Redactor::learned_names(&session);
        self.walk(value, owner, &mut session, &mut report, Pass::Full)?;
        // One redaction per answer: a name learned from a later field (a message's text
        // after its subject, the second message after the first) is replaced in every field
        // the first pass already went through.
        if Redactor::learned_names(&session) > learned {
            self.walk(
                value,
                owner,
                &mut session,
                &mut report,
                Pass::Learned(learned),
            )?;
        }
        drop(session);
        if report.total() > 0
            && let Value::Object(map) = value
        {
            map.insert(NOTICE_KEY.to_string(), notice(&report));
        }
        Ok(report)
    }

    fn walk<'s>(
        &'s self,
        value: &mut Value,
        owner: Owner<'s>,
        session: &mut RedactionSession,
        report: &mut Redacted,
        pass: Pass,
    ) -> Result<(), ViewError> {
        match value {
            Value::String(s) => self.redact_string(s, owner, session, report, pass),
            Value::Array(items) => {
                for v in items {
                    self.walk(v, owner, session, report, pass)?;
                }
                Ok(())
            }
            Value::Object(map) => {
                let named = self.owner_of(map);
                // An object naming another profile than its parent's is still checked against
                // both: nesting never makes text less protected.
                let owners: Vec<Owner<'s>> = match (named, owner) {
                    (Some(n), Owner::Profile(p)) if n != p => {
                        vec![Owner::Profile(n), Owner::Profile(p)]
                    }
                    (Some(n), _) => vec![Owner::Profile(n)],
                    (None, o) => vec![o],
                };
                // An HTML mail's text rendering is its sibling `body` (the engine derives it):
                // taken before `body` itself is redacted in the loop below.
                let rendering = map
                    .contains_key(HTML_KEY)
                    .then(|| {
                        map.get(BODY_KEY)
                            .and_then(Value::as_str)
                            .map(str::to_string)
                    })
                    .flatten();
                // A message's preview is its text folded on one line: when it is exactly
                // that, it is folded again from the redacted text (so a name cut at the
                // preview's end, or an HL7 field the fold glued, cannot differ).
                let derived_preview = pass == Pass::Full && preview_of_text(map);
                // The text first: what it teaches the session (the patient's name) then holds
                // for the subject, the sender and the attachment names beside it.
                let mut keys: Vec<String> = map.keys().cloned().collect();
                if let Some(at) = keys.iter().position(|k| k == TEXT_KEY) {
                    let text = keys.remove(at);
                    keys.insert(0, text);
                }
                for k in keys {
                    let Some(v) = map.get_mut(&k) else {
                        continue;
                    };
                    // A draft's digest is SHA-256 of its clear content: shown as it is, a
                    // caller could hash guesses (a name, a date of birth in a known subject)
                    // until one matched. Of protected content it is shown keyed instead.
                    if k == DIGEST_KEY
                        && pass == Pass::Full
                        && let Value::String(d) = v
                    {
                        if self.protects(&owners)? && !d.starts_with(KEYED_PREFIX) {
                            *d = keyed_digest(d);
                        }
                        continue;
                    }
                    if KEEP.contains(&k.as_str()) && v.is_string() {
                        continue;
                    }
                    if k == HTML_KEY
                        && let Value::String(html) = v
                    {
                        if pass == Pass::Full {
                            self.redact_html(html, rendering.as_deref(), &owners, session, report)?;
                        }
                        continue;
                    }
                    if derived_preview && k == PREVIEW_KEY {
                        continue;
                    }
                    for o in &owners {
                        self.walk(v, *o, session, report, pass)?;
                    }
                }
                if derived_preview && let Some(text) = map.get(TEXT_KEY).and_then(Value::as_str) {
                    let folded = refold_preview(text);
                    map.insert(PREVIEW_KEY.to_string(), Value::String(folded));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// An HTML mail body (`body_html`) of text that must be redacted: markup can split a name
    /// (`Margaret <b>Okafor</b>`) or hide it in entities (`&#79;kafor`) where a redactor reading
    /// the HTML would miss it. So the HTML is replaced by its redacted text rendering (escaped,
    /// in `<pre>`): the recipient still reads the mail, never the identifiers.
    ///
    /// The rendering is the draft's `body` when the object carries one (the engine derived it
    /// when the draft was queued), so no HTML is parsed again on the async worker that answers
    /// the client; only what that text says is shown, whatever the HTML holds. Without a body,
    /// the inbound converter renders it, which bounds size and nesting depth.
    fn redact_html<'s>(
        &'s self,
        html: &mut String,
        rendering: Option<&str>,
        owners: &[Owner<'s>],
        session: &mut RedactionSession,
        report: &mut Redacted,
    ) -> Result<(), ViewError> {
        if html.is_empty() || !self.protects(owners)? {
            return Ok(());
        }
        let mut text = match rendering {
            Some(body) => body.to_string(),
            None => crate::sanitize::html_to_text(html, crate::sanitize::MAX_TEXT_CHARS),
        };
        for o in owners {
            self.redact_string(&mut text, *o, session, report, Pass::Full)?;
        }
        *html = format!("<pre>{}</pre>", crate::sanitize::escape_markup(&text));
        Ok(())
    }

    /// Whether any of `owners` has content a redactor covers (a HIPAA profile, or text nobody
    /// owns while it may be anyone's).
    fn protects(&self, owners: &[Owner<'_>]) -> Result<bool, ViewError> {
        for o in owners {
            if !self.redactors_for(*o)?.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The configured profile an object names (borrowed from the policy, not the object).
    fn owner_of(&self, map: &Map<String, Value>) -> Option<&str> {
        ["profile", "entity"]
            .iter()
            .filter_map(|k| map.get(*k).and_then(Value::as_str))
            .find_map(|p| self.known.get(p).map(String::as_str))
    }

    fn redact_string(
        &self,
        s: &mut String,
        owner: Owner<'_>,
        session: &mut RedactionSession,
        report: &mut Redacted,
        pass: Pass,
    ) -> Result<(), ViewError> {
        if s.is_empty() {
            return Ok(());
        }
        // A fenced value is redacted inside its fence: the markers carry an id drawn for this
        // answer, so the text itself is what the redactor's cache of texts already read knows
        // (the same message in the next answer, and as ingestion primed it).
        if let Some((open, inside, close)) = fence_split(s) {
            let (open, close) = (open.to_string(), close.to_string());
            let mut inner = inside.to_string();
            self.redact_string(&mut inner, owner, session, report, pass)?;
            if inner != inside {
                *s = format!("{open}{inner}{close}");
            }
            return Ok(());
        }
        for (profile, r) in self.redactors_for(owner)? {
            let out = match pass {
                Pass::Full => r.redact(s, session),
                Pass::Learned(since) => r.redact_learned_since(s, session, since),
            }
            .map_err(|e| ViewError {
                profile: profile.to_string(),
                reason: e.to_string(),
            })?;
            if out != *s {
                // Counted only for a text that changed (most strings of an answer do not).
                let before = placeholder_counts(s);
                let after = placeholder_counts(&out);
                for (k, n) in after {
                    let added = n.saturating_sub(before.get(&k).copied().unwrap_or(0));
                    if added > 0 {
                        *report.counts.entry(k).or_insert(0) += added;
                    }
                }
                report.profiles.insert(profile.to_string());
                *s = out;
            }
        }
        Ok(())
    }

    /// The audit trail quotes free text (provider error bodies, governance reasons): redact
    /// `reason` for the event's entity (or, unattributed, for every HIPAA profile) before it is
    /// written, because the trail cannot be cleaned afterwards. A redactor that cannot be built
    /// withholds the text instead.
    pub fn scrub_audit(&self, ev: &mut crate::domain::AuditEvent) {
        if !self.is_active() {
            return;
        }
        let Some(reason) = ev.reason.as_mut() else {
            return;
        };
        let owner = match ev.entity.as_deref() {
            Some(p) if self.known.contains(p) => Owner::Profile(p),
            _ => Owner::Unknown,
        };
        let mut session = RedactionSession::new();
        let mut report = Redacted::default();
        if let Err(e) = self.redact_string(reason, owner, &mut session, &mut report, Pass::Full) {
            *reason = format!("[text withheld: {e}]");
        }
    }
}

/// The two passes of one view: every detector, then only the names the first pass learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    Full,
    /// Only the names learned since the session had this many (the first pass's).
    Learned(usize),
}

/// Keys of an inbox message (`MessageOut`): its text and the preview folded from it.
const TEXT_KEY: &str = "text";
const PREVIEW_KEY: &str = "preview";

/// A value MCP answers fence (`<<untrusted:ID>>\n…\n<</untrusted:ID>>`, `domain::fence`) cut
/// into its opening, what is inside, and its closing; `None` when it is not exactly that (one
/// id of lower-case letters, the same at both ends, nothing after the closing): text that only
/// looks fenced is redacted whole, so nothing can ride outside the part redacted.
fn fence_split(text: &str) -> Option<(&str, &str, &str)> {
    let rest = text.strip_prefix("<<untrusted:")?;
    let (id, body) = rest.split_once(">>\n")?;
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let close_len = "\n<</untrusted:".len() + id.len() + ">>".len();
    let end = body.len().checked_sub(close_len)?;
    let close = body.get(end..)?;
    if close.strip_prefix("\n<</untrusted:")?.strip_suffix(">>")? != id {
        return None;
    }
    let open = text.len() - body.len();
    Some((&text[..open], &body[..end], close))
}

/// The strings of a message the view redacts one by one (what [`PhiPolicy::walk`] passes to
/// the redactor for a message answer, before fencing): every string but the kept keys and a
/// preview (folded again from the redacted text).
fn collect_viewed(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if !s.is_empty() => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| collect_viewed(i, out)),
        Value::Object(map) => {
            for (k, v) in map {
                if (KEEP.contains(&k.as_str()) || k == PREVIEW_KEY) && v.is_string() {
                    continue;
                }
                collect_viewed(v, out);
            }
        }
        _ => {}
    }
}

/// The primer works when the process is otherwise idle: a nice value of 10 for its thread
/// (Linux gives threads their own). Where that is refused it runs at the normal priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take no pointers; they act on the calling thread only.
    unsafe {
        let tid = libc::gettid();
        if libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10) != 0 {
            tracing::debug!(
                "PHI primer keeps the normal priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// A message's text without its fence.
fn unfenced(text: &str) -> &str {
    fence_split(text).map_or(text, |(_, inside, _)| inside)
}

fn fold_preview(text: &str) -> String {
    crate::sanitize::one_line(unfenced(text), crate::sanitize::MAX_PREVIEW_CHARS)
}

/// The preview folded from (redacted) `text`, fenced as `text` is when it is (the fence of
/// one answer is one id: the preview had the same markers).
fn refold_preview(text: &str) -> String {
    let folded = fold_preview(text);
    match fence_split(text) {
        Some((open, _, close)) => format!("{open}{folded}{close}"),
        None => folded,
    }
}

/// Whether `map` is a message whose preview is its text folded (as ingestion makes it), each
/// inside the answer's fence or neither.
fn preview_of_text(map: &Map<String, Value>) -> bool {
    match (
        map.get(TEXT_KEY).and_then(Value::as_str),
        map.get(PREVIEW_KEY).and_then(Value::as_str),
    ) {
        (Some(text), Some(preview)) => refold_preview(text) == preview,
        _ => false,
    }
}

fn internal(profile: &str) -> ViewError {
    ViewError {
        profile: profile.to_string(),
        reason: "no redactor".into(),
    }
}

fn notice(r: &Redacted) -> Value {
    serde_json::json!({
        "redacted": true,
        "profiles": r.profiles,
        "counts": r.counts.iter().map(|(k, n)| (k.tag().to_ascii_lowercase(), *n)).collect::<BTreeMap<_, _>>(),
        "notice": format!(
            "identifiers of patients (PHI) were replaced by placeholders such as <PERSON_1> because this client is not HIPAA-cleared; the same value keeps the same placeholder within this session. {HOW_TO_CLEAR}"
        ),
    })
}

/// Placeholders (`<TAG_n>`) in `text`, per kind.
fn placeholder_counts(text: &str) -> BTreeMap<Kind, usize> {
    let mut out = BTreeMap::new();
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        let tail = &rest[open + 1..];
        let Some(close) = tail.find('>').filter(|&c| c <= 24) else {
            rest = tail;
            continue;
        };
        let inner = &tail[..close];
        if let Some((tag, n)) = inner.rsplit_once('_')
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && let Some(k) = Kind::ALL.into_iter().find(|k| k.tag() == tag)
        {
            *out.entry(k).or_insert(0) += 1;
        }
        rest = &tail[close..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config() -> Config {
        let toml = r#"
            [profiles.clinic]
            requires_hipaa = true
            phi_auto_redact = true
            phi_names = ["Margaret Okafor"]
            [profiles.deals]
        "#;
        crate::config::Config::from_toml_str(toml, std::path::Path::new("t.toml")).expect("config")
    }

    /// Issue 29: one answer, one redaction. A name the text teaches is gone from the fields
    /// read before it (subject, sender, attachment names) and from an earlier message; the
    /// preview is the redacted text folded.
    #[test]
    fn every_field_of_an_answer_agrees() {
        let p = PhiPolicy::from_config(&config());
        let text = "<<untrusted:abcdefghijklmnopqrst>>\nPatient: Ximena Quispe-Mamani called about\nPID|1||7110489^^^RVC^MR||ABERNATHY^RUTH||19521103|F\n<</untrusted:abcdefghijklmnopqrst>>";
        let mut v = json!({"messages": [
            {"profile": "clinic", "subject": "Re: Quispe-Mamani", "text": "nothing here", "preview": "nothing here"},
            {"profile": "clinic", "subject": "Quispe-Mamani forms",
             "from": {"name": "Ximena Quispe-Mamani", "address": "desk@clinic.example"},
             "attachments": [{"name": "Quispe-Mamani_scan.pdf"}],
             "text": text,
             "preview": refold_preview(text)},
        ]});
        p.view(false, &Placeholders::default(), &mut v, None)
            .unwrap();
        let s = v.to_string();
        for id in [
            "Quispe",
            "Ximena",
            "7110489",
            "ABERNATHY",
            "RUTH",
            "19521103",
        ] {
            assert!(!s.contains(id), "{id} in {s}");
        }
        let m = &v["messages"][1];
        // Folded again from the redacted text, inside the same fence as the text.
        assert_eq!(
            m["preview"].as_str().unwrap(),
            refold_preview(m["text"].as_str().unwrap())
        );
        assert!(
            m["preview"]
                .as_str()
                .unwrap()
                .starts_with("<<untrusted:abcdefghijklmnopqrst>>\nPatient: <PERSON_"),
            "{m}"
        );
        // A preview that is not the text folded is redacted on its own, not replaced.
        let mut w = json!({"profile": "clinic", "text": "Patient Margaret Okafor", "preview": "Okafor (custom)"});
        p.view(false, &Placeholders::default(), &mut w, None)
            .unwrap();
        assert!(w["preview"].as_str().unwrap().ends_with("(custom)"), "{w}");
        assert!(!w.to_string().contains("Okafor"), "{w}");
    }

    fn clinic_record(text: &str) -> crate::domain::InboxRecord {
        let mut r = crate::domain::to_record(crate::domain::NewMessage {
            id: "m-1".into(),
            profile: "clinic".into(),
            channel: crate::domain::Channel::Email,
            thread_id: None,
            from: crate::domain::Party {
                name: "Ruth Abernathy".into(),
                address: "ruth@example.org".into(),
            },
            to: vec![],
            subject: Some("Refill for Ruth".into()),
            ts: time::OffsetDateTime::UNIX_EPOCH,
            body: text.into(),
            html: false,
            meta: Default::default(),
            attachments: vec![],
        })
        .expect("record");
        r.seq = 1;
        r
    }

    fn cached_texts(p: &PhiPolicy, profile: &str) -> usize {
        let r = p.redactor(profile).unwrap().unwrap();
        let d = format!("{r:?}");
        let n = d
            .split("cached_texts: ")
            .nth(1)
            .expect("Debug shows the cache");
        n.split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    /// Issue 29: a record stored while priming runs is scanned in the background, so its first
    /// view finds every text it redacts already read; the view is the same as without priming.
    #[test]
    fn stored_records_are_primed_before_their_first_view() {
        let rec = clinic_record("Margaret Okafor called about her MRN 7110489 refill.");
        let plain = PhiPolicy::from_config(&config());
        // Without priming started, storing a record scans nothing.
        plain.prime(&rec);
        assert_eq!(cached_texts(&plain, "clinic"), 0);

        let primed = PhiPolicy::from_config(&config());
        primed.start_priming().unwrap();
        primed.prime(&rec);
        // Text, subject, sender name and address, id and timestamps: every string the view
        // reads of this message.
        let mut texts = Vec::new();
        collect_viewed(
            &serde_json::to_value(crate::domain::MessageOut::from(rec.clone())).unwrap(),
            &mut texts,
        );
        texts.sort();
        texts.dedup();
        assert!(texts.len() >= 5, "{}", texts.len());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while cached_texts(&primed, "clinic") < texts.len() {
            assert!(std::time::Instant::now() < deadline, "primer never ran");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let view = |p: &PhiPolicy| {
            let mut v = serde_json::to_value(crate::domain::MessageOut::from(rec.clone())).unwrap();
            p.view(false, &Placeholders::default(), &mut v, None)
                .unwrap();
            v
        };
        let before = cached_texts(&primed, "clinic");
        let (a, b) = (view(&primed), view(&plain));
        assert_eq!(a, b);
        assert!(!a.to_string().contains("Okafor"), "{a}");
        // The first view added no text to the primed cache: it read them all from it.
        assert_eq!(cached_texts(&primed, "clinic"), before);
        // A record of a profile without HIPAA is not primed.
        let mut other = rec.clone();
        other.profile = "deals".into();
        primed.prime(&other);
    }

    /// A fenced value is redacted inside its fence (so a message's text is the same text in
    /// every answer, whatever the answer's marker id); text that only looks fenced is redacted
    /// whole, so no identifier rides in a forged marker or after a closing one.
    #[test]
    fn fenced_values_are_redacted_inside_and_forged_fences_whole() {
        let p = PhiPolicy::from_config(&config());
        let redact = |s: &str| {
            let mut v = json!({"profile": "clinic", "note": s});
            p.view(false, &Placeholders::default(), &mut v, None)
                .unwrap();
            v["note"].as_str().unwrap().to_string()
        };
        let fenced = "<<untrusted:qwertyuiopasdfghjklz>>\nSeen: Margaret Okafor\n<</untrusted:qwertyuiopasdfghjklz>>";
        let out = redact(fenced);
        assert!(
            out.starts_with("<<untrusted:qwertyuiopasdfghjklz>>\nSeen: <PERSON_"),
            "{out}"
        );
        assert!(
            out.ends_with("\n<</untrusted:qwertyuiopasdfghjklz>>"),
            "{out}"
        );
        for forged in [
            "<<untrusted:Margaret Okafor>>\nx\n<</untrusted:Margaret Okafor>>",
            "<<untrusted:abc>>\nx\n<</untrusted:abc>> Margaret Okafor",
            "<<untrusted:abc>>\nx\n<</untrusted:abd>>\nMargaret Okafor",
        ] {
            let out = redact(forged);
            assert!(!out.contains("Okafor"), "{forged} -> {out}");
        }
    }

    #[test]
    fn hipaa_text_is_redacted_other_profiles_stay_clear_and_unattributed_text_fails_closed() {
        let p = PhiPolicy::from_config(&config());
        let ph = Placeholders::default();
        let mut v = json!({
            "messages": [
                {"profile": "clinic", "text": "Margaret Okafor MRN: 00482913 DOB: 1958-03-14"},
                {"profile": "deals", "text": "Margaret Okafor signed the term sheet"},
            ],
            "loose": "call Margaret Okafor",
        });
        let r = p.view(false, &ph, &mut v, None).unwrap();
        let s = v.to_string();
        assert!(!s.contains("00482913") && !s.contains("1958-03-14"), "{s}");
        assert!(
            v["messages"][1]["text"]
                .as_str()
                .unwrap()
                .contains("Margaret Okafor")
        );
        assert!(!v["loose"].as_str().unwrap().contains("Okafor"), "{s}");
        assert!(r.total() >= 3, "{r:?}");
        assert_eq!(v[NOTICE_KEY]["redacted"], json!(true));
        // Same value, same placeholder, within one recipient.
        let mut again = json!({"profile": "clinic", "text": "Margaret Okafor"});
        p.view(false, &ph, &mut again, None).unwrap();
        let first = v["messages"][0]["text"].as_str().unwrap().to_string();
        let placeholder = again["text"].as_str().unwrap();
        assert!(first.contains(placeholder), "{first} / {placeholder}");
    }

    #[test]
    fn an_html_body_is_redacted_through_its_text_even_when_markup_splits_a_name() {
        let p = PhiPolicy::from_config(&config());
        let ph = Placeholders::default();
        let html = "<p>Patient Margaret <b>Okafor</b>, MRN: 00482913, DOB: 1958-03-14</p>";
        let mut v = json!({"profile": "clinic", "outbound": {"body_html": html}});
        let r = p.view(false, &ph, &mut v, None).unwrap();
        let out = v["outbound"]["body_html"].as_str().unwrap();
        for leak in ["Okafor", "00482913", "1958-03-14"] {
            assert!(!out.contains(leak), "{out}");
        }
        assert!(
            out.starts_with("<pre>") && out.contains("&lt;PERSON_1&gt;"),
            "{out}"
        );
        assert!(r.total() >= 3, "{r:?}");
        // Another profile's HTML stays as it is.
        let mut clear = json!({"profile": "deals", "outbound": {"body_html": html}});
        p.view(false, &ph, &mut clear, None).unwrap();
        assert_eq!(clear["outbound"]["body_html"], json!(html));
    }

    /// A draft's HTML is shown through its stored text rendering (`body`), not parsed again on
    /// the worker answering the client: what the HTML holds beyond that text never shows.
    #[test]
    fn an_html_body_is_shown_through_the_drafts_own_rendering() {
        let p = PhiPolicy::from_config(&config());
        let ph = Placeholders::default();
        let mut v = json!({"profile": "clinic", "outbound": {
            "body": "Rendered text for Margaret Okafor",
            "body_html": "<p>Markup only text</p>",
        }});
        p.view(false, &ph, &mut v, None).unwrap();
        let out = v["outbound"]["body_html"].as_str().unwrap();
        assert!(out.starts_with("<pre>Rendered text for "), "{out}");
        assert!(
            !out.contains("Markup only") && !out.contains("Okafor"),
            "{out}"
        );
        assert!(!v["outbound"]["body"].as_str().unwrap().contains("Okafor"));
        // Without a body, deep markup is still rendered within the inbound converter's bounds.
        let deep = format!(
            "{}Margaret Okafor{}",
            "<div>".repeat(2_000),
            "</div>".repeat(2_000)
        );
        let mut v = json!({"profile": "clinic", "outbound": {"body_html": deep}});
        p.view(false, &ph, &mut v, None).unwrap();
        let out = v["outbound"]["body_html"].as_str().unwrap();
        assert!(out.starts_with("<pre>") && !out.contains("Okafor"), "{out}");
    }

    #[test]
    fn a_cleared_recipient_gets_the_value_unchanged() {
        let p = PhiPolicy::from_config(&config());
        let mut v = json!({"profile": "clinic", "text": "Margaret Okafor MRN: 00482913"});
        let orig = v.clone();
        let r = p
            .view(true, &Placeholders::default(), &mut v, None)
            .unwrap();
        assert_eq!(v, orig);
        assert_eq!(r.total(), 0);
    }

    #[test]
    fn audit_reasons_are_redacted_for_hipaa_entities_only() {
        let p = PhiPolicy::from_config(&config());
        let mut ev = crate::domain::AuditEvent::new(
            "llm.attempt",
            "mcp:x",
            crate::domain::AuditOutcome::Error,
        )
        .entity("clinic");
        ev.reason = Some("provider said: patient Margaret Okafor MRN: 00482913 not allowed".into());
        p.scrub_audit(&mut ev);
        let r = ev.reason.clone().unwrap();
        assert!(!r.contains("Okafor") && !r.contains("00482913"), "{r}");
        let mut ev2 = crate::domain::AuditEvent::new(
            "llm.attempt",
            "mcp:x",
            crate::domain::AuditOutcome::Error,
        )
        .entity("deals");
        ev2.reason = Some("Margaret Okafor".into());
        p.scrub_audit(&mut ev2);
        assert_eq!(ev2.reason.as_deref(), Some("Margaret Okafor"));
    }

    #[test]
    fn unassigned_text_is_redacted_with_every_roster_even_without_a_hipaa_profile() {
        let toml = r#"
            [profiles.deals]
            phi_names = ["Margaret Okafor"]
            [profiles.work]
            [classification]
        "#;
        let c = crate::config::Config::from_toml_str(toml, std::path::Path::new("t.toml"))
            .expect("config");
        let p = PhiPolicy::from_config(&c);
        assert!(p.is_active() && p.is_hipaa(crate::domain::UNASSIGNED));
        let mut v = json!({
            "items": [
                {"profile": "unassigned", "text": "Margaret Okafor MRN: 00482913"},
                {"profile": "work", "text": "Margaret Okafor MRN: 00482913"},
            ]
        });
        p.view(false, &Placeholders::default(), &mut v, None)
            .unwrap();
        let s = v.to_string();
        assert!(
            !v["items"][0]["text"].as_str().unwrap().contains("Okafor"),
            "{s}"
        );
        assert!(
            !v["items"][0]["text"].as_str().unwrap().contains("00482913"),
            "{s}"
        );
        assert!(
            v["items"][1]["text"].as_str().unwrap().contains("Okafor"),
            "{s}"
        );
        // Without [classification] nothing changes: no HIPAA profile, no view.
        let plain = crate::config::Config::from_toml_str(
            "[profiles.work]\n",
            std::path::Path::new("t.toml"),
        )
        .expect("config");
        assert!(!PhiPolicy::from_config(&plain).is_active());
    }

    #[test]
    fn classification_without_the_unassigned_bucket_keeps_the_view_off() {
        let c = crate::config::Config::from_toml_str(
            "[profiles.work]\n[classification]\nunmatched = \"default\"\n",
            std::path::Path::new("t.toml"),
        )
        .expect("config");
        let p = PhiPolicy::from_config(&c);
        assert!(!p.is_active(), "no HIPAA profile, no unassigned records");
        let mut v = json!({"profile": "work", "text": "Margaret Okafor MRN: 00482913"});
        let orig = v.clone();
        p.view(false, &Placeholders::default(), &mut v, None)
            .unwrap();
        assert_eq!(v, orig);
    }

    #[test]
    fn stored_unassigned_records_stay_protected_whatever_the_config_says_now() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join(crate::store::inbox::UNASSIGNED_MARKER);
        let c = crate::config::Config::from_toml_str(
            "[profiles.work]\nphi_names = [\"Margaret Okafor\"]\n",
            std::path::Path::new("t.toml"),
        )
        .expect("config");
        let probe = marker.clone();
        let p = PhiPolicy::from_config(&c).watching(Arc::new(move || probe.exists()));
        assert!(!p.is_active(), "nothing stored yet: the identity fast path");
        std::fs::write(&marker, b"x").unwrap();
        assert!(p.is_active() && p.is_hipaa(UNASSIGNED));
        let mut v = json!({
            "items": [{"profile": "unassigned", "text": "Margaret Okafor MRN: 00482913"}],
            "loose": "Margaret Okafor",
        });
        p.view(false, &Placeholders::default(), &mut v, None)
            .unwrap();
        let s = v.to_string();
        assert!(!s.contains("Okafor") && !s.contains("00482913"), "{s}");
        // Fail closed: once seen, always on (even if the marker goes away).
        std::fs::remove_file(&marker).unwrap();
        assert!(p.is_active());
    }

    #[test]
    fn placeholders_are_counted_per_kind() {
        let c =
            placeholder_counts("<PERSON_1> and <PERSON_2>, <MRN_1>, <not_a_tag> <HEALTH_PLAN_3>");
        assert_eq!(c.get(&Kind::Person), Some(&2));
        assert_eq!(c.get(&Kind::Mrn), Some(&1));
        assert_eq!(c.get(&Kind::HealthPlan), Some(&1));
    }
}
