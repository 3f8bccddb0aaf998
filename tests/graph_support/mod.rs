//! An in-process fake of Microsoft Graph and the identity platform (axum on 127.0.0.1:0), built
//! from the documented request and response shapes: device code and token endpoints with
//! refresh-token rotation, Inbox delta with paging / `@removed` / expired delta tokens, chats and
//! chat messages with the documented `$orderby`/`$filter` rules, calendarView, draft + send (202),
//! chat posts, events with `transactionId`. Faults (429 + Retry-After, 5xx) can be scripted per
//! path. Every request is logged for assertions.
//!
//! As strict as the documentation (issue 22): a POST without `Content-Length` (and not chunked)
//! gets 411; chat messages accept only the documented `$orderby`/`$filter` combinations ("List
//! messages in a chat") and 400 anything else; query timestamps with more than 7 fractional
//! digits get 400; mail and event ids change from request to request unless
//! `Prefer: IdType="ImmutableId"` is sent; messages carry single-value extended properties and
//! a folder's messages can be searched by one with the documented `Any(ep: …)` filter; errors
//! come in Graph's `{"error":{"code","message","innerError"}}` shape; a delta GET without
//! `Content-Type: application/json` (listed as required) gets 400. `send_via_outbox` models a
//! send accepted but still in the Outbox (where, undocumented, `isDraft` may still read true).
#![allow(dead_code)]

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

pub const CLIENT_ID: &str = "11111111-2222-3333-4444-555555555555";
pub const ME: &str = "user-me-0001";

static INSTANCES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

#[derive(Debug, Clone)]
pub struct Mail {
    pub id: String,
    pub subject: String,
    pub from_name: String,
    pub from_addr: String,
    pub html: String,
    pub received: String,
    /// `replyTo`: where a reply goes instead of `from` (mailing lists, ticketing systems).
    pub reply_to: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum Change {
    Added(String),
    Removed(String),
}

#[derive(Debug, Clone)]
pub struct RemoteDraft {
    pub id: String,
    /// `drafts`, `outbox` (accepted by /send, not yet delivered) or `sentitems`.
    pub folder: String,
    /// Value of the opsdesk send-id extended property, when set.
    pub send_id: Option<String>,
    pub subject: String,
    pub to: Vec<String>,
    pub body: String,
    pub reply_to: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    pub id: String,
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    pub reply_to: Option<String>,
    /// The `body.contentType` last set on the message (`Text` or `HTML`, as sent); empty
    /// for a `createReply` draft whose body was never set.
    pub content_type: String,
}

#[derive(Debug, Clone)]
pub struct ChatMsg {
    pub id: String,
    pub created: String,
    /// `lastModifiedDateTime` (None: same as created).
    pub modified: Option<String>,
    /// `lastEditedDateTime`.
    pub edited: Option<String>,
    pub from_id: String,
    pub from_name: String,
    pub body: String,
    pub message_type: String,
    /// `attachments` as Graph lists them (chatMessageAttachment).
    pub attachments: Vec<Value>,
}

#[derive(Debug, Clone)]
pub struct Chat {
    pub id: String,
    pub messages: Vec<ChatMsg>,
}

#[derive(Debug, Clone)]
pub struct Fault {
    pub method: Option<Method>,
    pub path_contains: String,
    pub status: u16,
    pub retry_after: Option<u64>,
    /// A literal `Retry-After` value (e.g. an HTTP-date), instead of `retry_after`.
    pub retry_after_raw: Option<String>,
    pub code: String,
    pub remaining: u32,
    /// The service acts on the request, then answers with the fault (an ambiguous failure).
    pub after_acting: bool,
    /// Matching requests let through before the fault strikes (a failure midway).
    pub pass: u32,
    /// `error.innerError.code`, as Graph nests a more specific code (e.g. a delta query's
    /// `syncStateNotFound` under a generic top-level code).
    pub inner_code: Option<String>,
    /// A `WWW-Authenticate` header on the answer (a claims challenge).
    pub www_authenticate: Option<String>,
    /// A body that is not Graph's error JSON (a gateway's HTML page), sent as `text/html`.
    pub html_body: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Req {
    pub method: String,
    pub path: String,
    pub query: String,
    pub prefer: String,
    pub body: String,
    pub content_length: Option<String>,
    pub content_type: Option<String>,
}

pub struct FakeState {
    // identity platform
    pub refresh_tokens: HashSet<String>,
    pub access: HashMap<String, bool>,
    pub access_lifetime: u64,
    pub device_script: VecDeque<&'static str>,
    pub device_polls: u32,
    /// `interval` the devicecode endpoint announces (seconds).
    pub device_interval: u64,
    pub refreshes: u32,
    next: u64,
    instance: u64,
    // graph
    pub requests: Vec<Req>,
    pub faults: Vec<Fault>,
    pub inbox: Vec<Mail>,
    pub log: Vec<Change>,
    pub delta_expired_below: usize,
    pub page_size: usize,
    pub drafts: HashMap<String, RemoteDraft>,
    pub sent: Vec<Sent>,
    pub chats: Vec<Chat>,
    pub events: Vec<Value>,
    pub created_events: Vec<Value>,
    /// `/send` leaves the message in the Outbox until [`FakeState::deliver_outbox`].
    pub send_via_outbox: bool,
    /// Bumped on every request: what a mutable id is derived from.
    pub id_epoch: u64,
    /// Mail folders: (id, display name, parent id). The well-known ones are there from the start.
    pub folders: Vec<(String, String, Option<String>)>,
    /// The folder (id) of each inbox message that left the Inbox.
    pub location: HashMap<String, String>,
    /// Every move carried out: (message id, destination folder id).
    pub moves: Vec<(String, String)>,
    /// A request whose path contains this is carried out, then its answer is held back for a
    /// long time (the caller is killed meanwhile: a crash between the call and its record).
    pub stall_after_acting: Option<String>,
    /// Attachments per mail id ("List attachments", "Get attachment" `$value`, "Add
    /// attachment", upload sessions).
    pub attachments: HashMap<String, Vec<FakeAttachment>>,
    /// Open upload sessions by id.
    pub upload_sessions: HashMap<String, UploadSession>,
    /// `body.contentType` of each remote draft, as the client last set it.
    pub body_types: HashMap<String, String>,
    /// How `@odata.nextLink` / `@odata.deltaLink` are written.
    pub link_style: LinkStyle,
}

/// The forms OData JSON (v4.0 §4.6) allows for a paging link: Graph writes them absolute; a
/// service may write them relative to the host or to the service root (the context URL).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LinkStyle {
    #[default]
    Absolute,
    HostRelative,
    ServiceRelative,
}

/// A paging link to `path` (`/v1.0/...` with its query) in `style`.
fn server_link(style: LinkStyle, host: &str, path: &str) -> String {
    let host = host.trim_start_matches("http://");
    match style {
        LinkStyle::Absolute => format!("http://{host}{path}"),
        LinkStyle::HostRelative => path.to_string(),
        LinkStyle::ServiceRelative => path.trim_start_matches("/v1.0/").to_string(),
    }
}

/// "Create uploadSession" for a message attachment: the bytes arrive by `PUT` in ranges.
#[derive(Debug, Clone)]
pub struct UploadSession {
    pub message_id: String,
    pub name: String,
    pub content_type: String,
    pub size: usize,
    pub received: Vec<u8>,
}

/// An attachment as Graph models it: `#microsoft.graph.fileAttachment` (bytes),
/// `#microsoft.graph.itemAttachment` (an attached Outlook item; `$value` is its MIME) or
/// `#microsoft.graph.referenceAttachment` (a link; `$value` answers 405).
#[derive(Debug, Clone)]
pub struct FakeAttachment {
    pub id: String,
    pub name: String,
    pub content_type: Option<String>,
    pub is_inline: bool,
    pub kind: FakeAttachmentKind,
}

#[derive(Debug, Clone)]
pub enum FakeAttachmentKind {
    File(Vec<u8>),
    Item(Vec<u8>),
    Reference,
}

/// File attachments above this are listed without `contentBytes` (so the client reads them
/// through `$value`, streamed); 3 MB is the size above which Graph's documentation has
/// attachments moved through upload sessions rather than inline base64.
pub const LARGE_ATTACHMENT: usize = 3 * 1024 * 1024;

impl Default for FakeState {
    fn default() -> Self {
        FakeState {
            refresh_tokens: HashSet::new(),
            access: HashMap::new(),
            access_lifetime: 3600,
            device_script: VecDeque::new(),
            device_polls: 0,
            device_interval: 5,
            refreshes: 0,
            next: 0,
            instance: INSTANCES.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            requests: Vec::new(),
            faults: Vec::new(),
            inbox: Vec::new(),
            log: Vec::new(),
            delta_expired_below: 0,
            page_size: 2,
            drafts: HashMap::new(),
            sent: Vec::new(),
            chats: Vec::new(),
            events: Vec::new(),
            created_events: Vec::new(),
            send_via_outbox: false,
            id_epoch: 0,
            folders: [
                ("inbox", "Inbox"),
                ("archive", "Archive"),
                ("deleteditems", "Deleted Items"),
                ("drafts", "Drafts"),
                ("sentitems", "Sent Items"),
            ]
            .iter()
            .map(|(w, n)| (format!("folder-{w}"), n.to_string(), None))
            .collect(),
            location: HashMap::new(),
            moves: Vec::new(),
            stall_after_acting: None,
            attachments: HashMap::new(),
            upload_sessions: HashMap::new(),
            body_types: HashMap::new(),
            link_style: LinkStyle::Absolute,
        }
    }
}

impl FakeState {
    /// Ids are unique per fake instance, as real Graph ids are unique per mailbox.
    fn id(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}x{}", self.instance, self.next)
    }

    /// A refresh token the identity platform will accept (as after a sign-in).
    pub fn issue_refresh_token(&mut self) -> String {
        let rt = self.id("rt-");
        self.refresh_tokens.insert(rt.clone());
        rt
    }

    /// Every access token issued so far stops working (as at expiry).
    pub fn expire_access_tokens(&mut self) {
        for v in self.access.values_mut() {
            *v = false;
        }
    }

    pub fn add_mail(&mut self, subject: &str, from: &str, html: &str) -> String {
        let id = self.id("AAMkImm-");
        self.inbox.push(Mail {
            id: id.clone(),
            subject: subject.into(),
            from_name: from.split('@').next().unwrap_or(from).into(),
            from_addr: from.into(),
            html: html.into(),
            received: "2026-11-22T07:00:00Z".into(),
            reply_to: Vec::new(),
        });
        self.log.push(Change::Added(id.clone()));
        id
    }

    /// Attach a file to mail `mail_id`; the attachment's id.
    pub fn add_file_attachment(
        &mut self,
        mail_id: &str,
        name: &str,
        content_type: &str,
        bytes: &[u8],
        is_inline: bool,
    ) -> String {
        let id = self.id("AAMkAtt-");
        self.attachments
            .entry(mail_id.to_string())
            .or_default()
            .push(FakeAttachment {
                id: id.clone(),
                name: name.into(),
                content_type: Some(content_type.into()),
                is_inline,
                kind: FakeAttachmentKind::File(bytes.to_vec()),
            });
        id
    }

    /// Attach an Outlook item (a forwarded mail) whose MIME form is `mime`.
    pub fn add_item_attachment(&mut self, mail_id: &str, name: &str, mime: &[u8]) -> String {
        let id = self.id("AAMkAtt-");
        self.attachments
            .entry(mail_id.to_string())
            .or_default()
            .push(FakeAttachment {
                id: id.clone(),
                name: name.into(),
                content_type: None,
                is_inline: false,
                kind: FakeAttachmentKind::Item(mime.to_vec()),
            });
        id
    }

    /// Attach a link to a cloud file (a referenceAttachment: no bytes).
    pub fn add_reference_attachment(&mut self, mail_id: &str, name: &str) -> String {
        let id = self.id("AAMkAtt-");
        self.attachments
            .entry(mail_id.to_string())
            .or_default()
            .push(FakeAttachment {
                id: id.clone(),
                name: name.into(),
                content_type: None,
                is_inline: false,
                kind: FakeAttachmentKind::Reference,
            });
        id
    }

    /// Change event `id` with `patch` (its fields replaced) as an organizer's update does: Graph
    /// moves `lastModifiedDateTime` (and `changeKey`) on every change; here one minute later.
    pub fn update_event(&mut self, id: &str, patch: Value) {
        let ev = self
            .events
            .iter_mut()
            .find(|e| e["id"] == id)
            .expect("no such event");
        for (k, v) in patch.as_object().into_iter().flatten() {
            ev[k] = v.clone();
        }
        let last = ev["lastModifiedDateTime"]
            .as_str()
            .map(ts)
            .unwrap_or(time::macros::datetime!(2026-11-22 07:00 UTC));
        let next = last + time::Duration::minutes(1);
        ev["lastModifiedDateTime"] = json!(
            next.format(&time::format_description::well_known::Rfc3339)
                .unwrap()
        );
        ev["changeKey"] = json!(format!("ck-{}", next.unix_timestamp()));
    }

    /// Everything in the Outbox goes out and lands in Sent Items.
    pub fn deliver_outbox(&mut self) {
        for d in self.drafts.values_mut() {
            if d.folder == "outbox" {
                d.folder = "sentitems".into();
            }
        }
    }

    /// A message as the caller sees it: the stored (immutable) id, or a changing one when
    /// immutable ids were not asked for (as an Exchange EWS id changes when an item moves).
    fn out_id(&self, id: &str, immutable: bool) -> String {
        if immutable {
            id.to_string()
        } else {
            format!("{id}.r{}", self.id_epoch)
        }
    }

    /// A user folder (under `parent`, a folder id, or at the top); its id.
    pub fn add_folder(&mut self, name: &str, parent: Option<&str>) -> String {
        let id = self.id("folder-");
        self.folders
            .push((id.clone(), name.to_string(), parent.map(str::to_string)));
        id
    }

    /// Folder id of a well-known name or an id, if the folder exists.
    fn folder_id(&self, name_or_id: &str) -> Option<String> {
        let wk = format!("folder-{}", name_or_id.to_ascii_lowercase());
        self.folders
            .iter()
            .find(|(id, _, _)| *id == wk || id == name_or_id)
            .map(|(id, _, _)| id.clone())
    }

    pub fn remove_mail(&mut self, id: &str) {
        self.inbox.retain(|m| m.id != id);
        self.log.push(Change::Removed(id.into()));
    }

    pub fn fail(
        &mut self,
        method: Option<Method>,
        path_contains: &str,
        status: u16,
        retry_after: Option<u64>,
        times: u32,
    ) {
        self.faults.push(Fault {
            method,
            path_contains: path_contains.into(),
            status,
            retry_after,
            retry_after_raw: None,
            after_acting: false,
            pass: 0,
            inner_code: None,
            www_authenticate: None,
            html_body: None,
            code: if status == 429 {
                "TooManyRequests".into()
            } else {
                "serviceNotAvailable".into()
            },
            remaining: times,
        });
    }

    /// Like [`FakeState::fail`] (any method), with the documented error `code` of the answer.
    pub fn fail_code(&mut self, path_contains: &str, status: u16, code: &str, times: u32) {
        self.fail(None, path_contains, status, None, times);
        if let Some(f) = self.faults.last_mut() {
            f.code = code.to_string();
        }
    }

    /// Like [`FakeState::fail`], answered with an HTML page instead of Graph's error JSON.
    pub fn fail_with_html(&mut self, path_contains: &str, status: u16, html: &str, times: u32) {
        self.fail(None, path_contains, status, None, times);
        if let Some(f) = self.faults.last_mut() {
            f.html_body = Some(html.to_string());
        }
    }

    /// Like [`FakeState::fail`], with a literal `Retry-After` header value.
    pub fn fail_with_retry_after(
        &mut self,
        path_contains: &str,
        status: u16,
        value: &str,
        times: u32,
    ) {
        self.fail(None, path_contains, status, None, times);
        if let Some(f) = self.faults.last_mut() {
            f.retry_after_raw = Some(value.to_string());
        }
    }

    pub fn count(&self, method: &str, path_contains: &str) -> usize {
        self.requests
            .iter()
            .filter(|r| r.method == method && r.path.contains(path_contains))
            .count()
    }

    fn mail_json(m: &Mail, id: String) -> Value {
        json!({
            "id": id,
            "subject": m.subject,
            "from": {"emailAddress": {"name": m.from_name, "address": m.from_addr}},
            "toRecipients": [{"emailAddress": {"name": "Me", "address": "me@contoso.com"}}],
            "replyTo": m.reply_to.iter()
                .map(|a| json!({"emailAddress": {"name": a, "address": a}}))
                .collect::<Vec<_>>(),
            "receivedDateTime": m.received,
            "body": {"contentType": "html", "content": m.html},
            "conversationId": format!("conv-{}", m.id),
            "internetMessageId": format!("<{}@fake>", m.id),
            "isRead": false,
            "isDraft": false,
            "hasAttachments": false,
        })
    }
}

pub struct Fake {
    pub addr: SocketAddr,
    pub state: Arc<Mutex<FakeState>>,
    _thread: Option<std::thread::JoinHandle<()>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Fake {
    /// Serve on the current tokio runtime.
    pub async fn start() -> Fake {
        let state = Arc::new(Mutex::new(FakeState::default()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        // Upload-session chunks run to 4 MiB: above axum's default 2 MB body limit.
        let app = Router::new()
            .fallback(handle)
            .layer(axum::extract::DefaultBodyLimit::max(64 * 1024 * 1024))
            .with_state(state.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = rx.await;
                })
                .await;
        });
        Fake {
            addr,
            state,
            _thread: None,
            stop: Some(tx),
        }
    }

    /// Serve on a runtime of its own thread (for tests that drive a child process).
    pub fn start_in_thread() -> Fake {
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let mut fake = Fake::start().await;
                let stop = fake.stop.take();
                let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
                tx.send((fake.addr, fake.state.clone(), stop_tx)).unwrap();
                let _ = stop_rx.await;
                if let Some(s) = stop {
                    let _ = s.send(());
                }
            });
        });
        let (addr, state, stop) = rx.recv().unwrap();
        Fake {
            addr,
            state,
            _thread: Some(thread),
            stop: Some(stop),
        }
    }

    pub fn authority(&self) -> String {
        format!("http://{}", self.addr)
    }
    pub fn graph_base(&self) -> String {
        format!("http://{}/v1.0", self.addr)
    }
    pub fn with<R>(&self, f: impl FnOnce(&mut FakeState) -> R) -> R {
        f(&mut self.state.lock().unwrap())
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 3 <= b.len()
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn params(q: &str) -> HashMap<String, String> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Graph's documented error shape.
fn err(status: u16, code: &str) -> Response {
    (
        StatusCode::from_u16(status).unwrap(),
        axum::Json(json!({"error": {
            "code": code,
            "message": format!("fake: {code}"),
            "innerError": {
                "date": "2026-11-22T07:00:00",
                "request-id": "00000000-0000-0000-0000-000000000001",
                "client-request-id": "00000000-0000-0000-0000-000000000002",
            },
        }})),
    )
        .into_response()
}

/// Graph's error shape with a more specific code nested in `innerError` (as the delta
/// documentation's `syncStateNotFound` / `resyncRequired` may come).
fn err_nested(status: u16, code: &str, inner: &str) -> Response {
    (
        StatusCode::from_u16(status).unwrap(),
        axum::Json(json!({"error": {
            "code": code,
            "message": format!("fake: {code}"),
            "innerError": {
                "code": inner,
                "date": "2026-11-22T07:00:00",
                "request-id": "00000000-0000-0000-0000-000000000001",
                "client-request-id": "00000000-0000-0000-0000-000000000002",
            },
        }})),
    )
        .into_response()
}

/// The stored id behind a possibly mutable one.
fn canon(id: &str) -> String {
    match id.rsplit_once(".r") {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base.into(),
        _ => id.into(),
    }
}

/// A query timestamp Graph accepts: RFC 3339 with at most 7 fractional digits.
fn query_ts_ok(v: &str) -> bool {
    let frac = v
        .split_once('.')
        .map(|(_, f)| f.trim_end_matches('Z').len())
        .unwrap_or(0);
    frac <= 7
        && time::OffsetDateTime::parse(v, &time::format_description::well_known::Rfc3339).is_ok()
}

/// `(property, operator, value)` clauses of a chat-messages `$filter`, joined by ` and `.
fn clauses(filter: &str) -> Option<Vec<(String, String, String)>> {
    filter
        .split(" and ")
        .map(|c| {
            let mut it = c.trim().splitn(3, ' ');
            Some((
                it.next()?.to_string(),
                it.next()?.to_string(),
                it.next()?.to_string(),
            ))
        })
        .collect()
}

/// The documented `$orderby`/`$filter` combinations of "List messages in a chat"; anything
/// else is a 400. Returns the (gt, lt) bounds on the ordered property.
fn chat_query(
    order: &str,
    filter: &str,
) -> Result<(String, Option<String>, Option<String>), Box<Response>> {
    let prop = match order {
        "" | "lastModifiedDateTime desc" => "lastModifiedDateTime",
        "createdDateTime desc" => "createdDateTime",
        _ => return Err(Box::new(err(400, "BadRequest"))),
    };
    let (mut gt, mut lt) = (None, None);
    if !filter.is_empty() {
        for (p, op, v) in clauses(filter).ok_or_else(|| Box::new(err(400, "BadRequest")))? {
            let allowed = p == prop
                && matches!(
                    (prop, op.as_str()),
                    ("lastModifiedDateTime", "gt" | "lt") | ("createdDateTime", "lt")
                );
            if !allowed || !query_ts_ok(&v) {
                return Err(Box::new(err(400, "BadRequest")));
            }
            if op == "gt" {
                gt = Some(v);
            } else {
                lt = Some(v);
            }
        }
    }
    Ok((prop.to_string(), gt, lt))
}

/// The documented extended-property filter of a folder search; the (id, value) it asks for.
fn ext_prop_filter(filter: &str) -> Option<(String, String)> {
    let inner = filter
        .strip_prefix("singleValueExtendedProperties/Any(ep: ep/id eq '")?
        .strip_suffix("')")?;
    let (id, value) = inner.split_once("' and ep/value eq '")?;
    Some((id.replace("''", "'"), value.replace("''", "'")))
}

fn send_id_of(body: &Value) -> Option<String> {
    body["singleValueExtendedProperties"]
        .as_array()?
        .iter()
        .find(|p| {
            p["id"]
                .as_str()
                .is_some_and(|i| i.ends_with("Name OpsdeskSendId"))
        })
        .and_then(|p| p["value"].as_str().map(str::to_string))
}

/// The `body.contentType` of a message create or update: `Some(None)` when there is no body,
/// `Some(Some(t))` for a documented `bodyType` (`text` or `html`, any case), `None` (a 400)
/// for anything else.
fn body_type(v: &Value) -> Option<Option<String>> {
    let Some(body) = v.get("body").filter(|b| !b.is_null()) else {
        return Some(None);
    };
    let t = body["contentType"].as_str()?;
    ["text", "html"]
        .iter()
        .any(|k| t.eq_ignore_ascii_case(k))
        .then(|| Some(t.to_string()))
}

fn oauth_err(code: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({"error": code, "error_description": format!("AADSTS fake: {code}")})),
    )
        .into_response()
}

fn ok(v: Value) -> Response {
    axum::Json(v).into_response()
}

async fn handle(
    State(state): State<Arc<Mutex<FakeState>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (resp, stall) = handle_locked(&state, method, uri, headers, body);
    if stall {
        // The service acted; its answer is held back (the caller is killed meanwhile).
        tokio::time::sleep(std::time::Duration::from_secs(300)).await;
    }
    resp
}

/// Everything a request does, under the state's lock; whether its answer is to be held back.
fn handle_locked(
    state: &Arc<Mutex<FakeState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> (Response, bool) {
    let mut st = state.lock().unwrap();
    let path = uri.path().to_string();
    let query = uri.query().unwrap_or("").to_string();
    let body_s = String::from_utf8_lossy(&body).into_owned();
    st.requests.push(Req {
        method: method.to_string(),
        path: decode(&path),
        query: decode(&query),
        prefer: headers
            .get("prefer")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string(),
        body: body_s.clone(),
        content_length: headers
            .get("content-length")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
        content_type: headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
    });
    st.id_epoch += 1;
    // HTTP front ends answer 411 to a POST with neither a length nor chunked encoding.
    if method == Method::POST
        && !headers.contains_key("content-length")
        && !headers.contains_key("transfer-encoding")
    {
        return (err(411, "LengthRequired"), false);
    }
    if path.contains("/oauth2/v2.0/") {
        return (identity(&mut st, &path, &body_s), false);
    }
    if let Some(session) = path.strip_prefix("/upload/") {
        return (upload_put(&mut st, session, &headers, &body), false);
    }
    let Some(rest) = path.strip_prefix("/v1.0") else {
        return (err(404, "noSuchPath"), false);
    };
    // Scripted faults come first (a throttled or failing service answers before auth), unless
    // they strike after the service acted.
    let mut late = None;
    let hit = st.faults.iter_mut().position(|f| {
        let hit = f.remaining > 0
            && f.method.as_ref().is_none_or(|m| *m == method)
            && decode(rest).contains(&f.path_contains);
        if hit && f.pass > 0 {
            f.pass -= 1;
            return false;
        }
        hit
    });
    if let Some(f) = hit.map(|i| &mut st.faults[i]) {
        f.remaining -= 1;
        let f = f.clone();
        if f.after_acting {
            late = Some(f);
        } else {
            return (fault_response(&f), false);
        }
    }
    let resp = graph(&mut st, &method, &headers, rest, &query, &body_s);
    let stall = st
        .stall_after_acting
        .as_ref()
        .is_some_and(|p| decode(rest).contains(p.as_str()));
    match late {
        Some(f) => (fault_response(&f), stall),
        None => (resp, stall),
    }
}

fn fault_response(f: &Fault) -> Response {
    let mut r = match (&f.html_body, &f.inner_code) {
        (Some(html), _) => (
            StatusCode::from_u16(f.status).unwrap(),
            [("content-type", "text/html")],
            html.clone(),
        )
            .into_response(),
        (None, Some(inner)) => err_nested(f.status, &f.code, inner),
        (None, None) => err(f.status, &f.code),
    };
    if let Some(v) = f
        .retry_after_raw
        .clone()
        .or_else(|| f.retry_after.map(|s| s.to_string()))
    {
        r.headers_mut().insert("retry-after", v.parse().unwrap());
    }
    if let Some(v) = &f.www_authenticate {
        r.headers_mut()
            .insert("www-authenticate", v.parse().unwrap());
    }
    r
}

/// The Graph endpoints proper.
fn graph(
    st: &mut FakeState,
    method: &Method,
    headers: &HeaderMap,
    rest: &str,
    query: &str,
    body_s: &str,
) -> Response {
    let immutable = headers
        .get("prefer")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.contains("IdType=\"ImmutableId\""));
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if st.access.get(token) != Some(&true) {
        return err(401, "InvalidAuthenticationToken");
    }
    let q = params(query);
    let segs: Vec<String> = rest.trim_matches('/').split('/').map(decode).collect();
    let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
    let json_body: Value = serde_json::from_str(body_s).unwrap_or(Value::Null);
    match (method.as_str(), segs.as_slice()) {
        ("GET", ["me"]) => ok(json!({"id": ME, "displayName": "Operator"})),
        ("GET", ["me", "mailFolders", "inbox", "messages", "delta"]) => {
            // "message: delta" lists `Content-Type: application/json` as a required header.
            let json_type = headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("application/json"));
            if !json_type {
                return err(400, "BadRequest");
            }
            let host = headers
                .get("host")
                .and_then(|h| h.to_str().ok())
                .unwrap_or("")
                .to_string();
            delta(st, &q, &host, immutable)
        }
        ("POST", ["me", "messages", id, "attachments"]) => {
            use base64::Engine as _;
            if !st.drafts.contains_key(&canon(id)) {
                return err(404, "ErrorItemNotFound");
            }
            if json_body["@odata.type"] != "#microsoft.graph.fileAttachment" {
                return err(400, "ErrorInvalidRequest");
            }
            let Some(bytes) = json_body["contentBytes"]
                .as_str()
                .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            else {
                return err(400, "ErrorInvalidRequest");
            };
            // "Add attachment": the request must stay under the 3 MB the documentation sets.
            if bytes.len() > LARGE_ATTACHMENT {
                return err(413, "ErrorRequestEntityTooLarge");
            }
            let aid = st.id("AAMkAtt-");
            let a = FakeAttachment {
                id: aid,
                name: json_body["name"].as_str().unwrap_or("").into(),
                content_type: json_body["contentType"].as_str().map(str::to_string),
                is_inline: false,
                kind: FakeAttachmentKind::File(bytes),
            };
            let v = attachment_json(&a);
            st.attachments.entry(canon(id)).or_default().push(a);
            (StatusCode::CREATED, axum::Json(v)).into_response()
        }
        ("POST", ["me", "messages", id, "attachments", "createUploadSession"]) => {
            if !st.drafts.contains_key(&canon(id)) {
                return err(404, "ErrorItemNotFound");
            }
            let item = &json_body["AttachmentItem"];
            if item["attachmentType"] != "file" || item["size"].as_u64().is_none() {
                return err(400, "ErrorInvalidRequest");
            }
            let sid = st.id("upload-");
            st.upload_sessions.insert(
                sid.clone(),
                UploadSession {
                    message_id: canon(id),
                    name: item["name"].as_str().unwrap_or("").into(),
                    content_type: item["contentType"].as_str().unwrap_or("").into(),
                    size: item["size"].as_u64().unwrap_or(0) as usize,
                    received: Vec::new(),
                },
            );
            let host = headers
                .get("host")
                .and_then(|h| h.to_str().ok())
                .unwrap_or("")
                .to_string();
            (
                StatusCode::CREATED,
                axum::Json(json!({
                    "uploadUrl": format!("http://{host}/upload/{sid}"),
                    "expirationDateTime": "2026-11-30T00:00:00Z",
                    "nextExpectedRanges": ["0-"],
                })),
            )
                .into_response()
        }
        ("GET", ["me", "messages", id, "attachments"]) => {
            let Some(list) = st.attachments.get(&canon(id)) else {
                return match st.inbox.iter().any(|m| m.id == canon(id))
                    || st.drafts.contains_key(&canon(id))
                {
                    true => ok(json!({"value": []})),
                    false => err(404, "ErrorItemNotFound"),
                };
            };
            let value: Vec<Value> = list.iter().map(attachment_json).collect();
            ok(json!({
                "@odata.context": format!("https://graph.microsoft.com/v1.0/$metadata#users('{ME}')/messages('{id}')/attachments"),
                "value": value,
            }))
        }
        ("GET", ["me", "messages", id, "attachments", aid, "$value"]) => {
            let Some(a) = st
                .attachments
                .get(&canon(id))
                .and_then(|l| l.iter().find(|a| a.id == *aid))
            else {
                return err(404, "ErrorItemNotFound");
            };
            match &a.kind {
                FakeAttachmentKind::File(b) => (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        a.content_type.clone().unwrap_or_default(),
                    )],
                    b.clone(),
                )
                    .into_response(),
                FakeAttachmentKind::Item(mime) => (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        "message/rfc822".to_string(),
                    )],
                    mime.clone(),
                )
                    .into_response(),
                FakeAttachmentKind::Reference => err(405, "ErrorInvalidRequest"),
            }
        }
        ("GET", ["me", "messages", id]) => match st.drafts.get(&canon(id)) {
            // Undocumented, modelled pessimistically: a message in the Outbox reads as a draft.
            Some(d) => {
                ok(json!({"id": st.out_id(&d.id, immutable), "isDraft": d.folder != "sentitems"}))
            }
            None => match st.inbox.iter().find(|m| m.id == canon(id)) {
                Some(m) => {
                    let parent = st
                        .location
                        .get(&m.id)
                        .cloned()
                        .unwrap_or_else(|| "folder-inbox".into());
                    ok(json!({"id": st.out_id(&m.id, immutable), "parentFolderId": parent}))
                }
                None => err(404, "ErrorItemNotFound"),
            },
        },
        ("GET", ["me", "mailFolders"]) => folder_query(st, None, &q),
        ("GET", ["me", "mailFolders", parent, "childFolders"]) => {
            let parent = parent.to_string();
            folder_query(st, Some(parent), &q)
        }
        ("GET", ["me", "mailFolders", folder]) => match st.folder_id(folder) {
            Some(id) => ok(json!({"id": id})),
            None => err(404, "ErrorItemNotFound"),
        },
        ("POST", ["me", "messages", id, "move"]) => {
            let id = canon(id);
            if !st.inbox.iter().any(|m| m.id == id) {
                return err(404, "ErrorItemNotFound");
            }
            let Some(dest) = json_body["destinationId"]
                .as_str()
                .and_then(|d| st.folder_id(d))
            else {
                return err(404, "ErrorItemNotFound");
            };
            st.location.insert(id.clone(), dest.clone());
            st.moves.push((id.clone(), dest.clone()));
            let shown = st.out_id(&id, immutable);
            (
                StatusCode::CREATED,
                axum::Json(json!({"id": shown, "parentFolderId": dest})),
            )
                .into_response()
        }
        ("GET", ["me", "mailFolders", folder, "messages"]) => {
            let Some((prop, value)) = q.get("$filter").and_then(|f| ext_prop_filter(f)) else {
                return err(400, "BadRequest");
            };
            if !prop.ends_with("Name OpsdeskSendId") {
                return ok(json!({"value": []}));
            }
            let found: Vec<Value> = st
                .drafts
                .values()
                .filter(|d| d.folder == *folder && d.send_id.as_deref() == Some(value.as_str()))
                .map(|d| json!({"id": st.out_id(&d.id, immutable)}))
                .collect();
            ok(json!({"value": found}))
        }
        ("GET", ["me", "mailFolders", folder, "messages", id]) => {
            match st.drafts.get(&canon(id)).filter(|d| d.folder == *folder) {
                Some(d) => ok(json!({"id": st.out_id(&d.id, immutable)})),
                None => err(404, "ErrorItemNotFound"),
            }
        }
        ("POST", ["me", "messages"]) => {
            let Some(body_type) = body_type(&json_body) else {
                return err(400, "ErrorInvalidRequest");
            };
            let id = st.id("AAMkDraft-");
            if let Some(t) = body_type {
                st.body_types.insert(id.clone(), t);
            }
            let d = RemoteDraft {
                id: id.clone(),
                folder: "drafts".into(),
                send_id: send_id_of(&json_body),
                subject: json_body["subject"].as_str().unwrap_or("").into(),
                to: addresses(&json_body["toRecipients"]),
                body: json_body["body"]["content"].as_str().unwrap_or("").into(),
                reply_to: None,
            };
            st.drafts.insert(id.clone(), d);
            let shown = st.out_id(&id, immutable);
            (
                StatusCode::CREATED,
                axum::Json(json!({"id": shown, "isDraft": true})),
            )
                .into_response()
        }
        ("POST", ["me", "messages", orig, "createReply"]) => {
            let orig = canon(orig);
            let Some(m) = st.inbox.iter().find(|m| m.id == orig).cloned() else {
                return err(404, "ErrorItemNotFound");
            };
            let id = st.id("AAMkDraft-");
            st.drafts.insert(
                id.clone(),
                RemoteDraft {
                    id: id.clone(),
                    folder: "drafts".into(),
                    send_id: None,
                    subject: format!("RE: {}", m.subject),
                    // "If the original message specifies a recipient in the replyTo
                    // property, … send the reply to the recipients in replyTo and not the
                    // recipient in the from property" (createReply reference).
                    to: if m.reply_to.is_empty() {
                        vec![m.from_addr.clone()]
                    } else {
                        m.reply_to.clone()
                    },
                    body: format!("<quoted>{}</quoted>", m.html),
                    reply_to: Some(m.id.clone()),
                },
            );
            let shown = st.out_id(&id, immutable);
            (
                StatusCode::CREATED,
                axum::Json(json!({"id": shown, "isDraft": true})),
            )
                .into_response()
        }
        ("PATCH", ["me", "messages", id]) => {
            let Some(body_type) = body_type(&json_body) else {
                return err(400, "ErrorInvalidRequest");
            };
            if let Some(t) = body_type
                && st.drafts.contains_key(&canon(id))
            {
                st.body_types.insert(canon(id), t);
            }
            let Some(d) = st.drafts.get_mut(&canon(id)) else {
                return err(404, "ErrorItemNotFound");
            };
            // Pessimistic about the undocumented: an Outbox item still edits like a draft.
            if d.folder == "sentitems" {
                return err(400, "ErrorInvalidOperation");
            }
            if let Some(sid) = send_id_of(&json_body) {
                d.send_id = Some(sid);
            }
            if let Some(s) = json_body["subject"].as_str() {
                d.subject = s.into();
            }
            if let Some(b) = json_body["body"]["content"].as_str() {
                d.body = b.into();
            }
            if json_body["toRecipients"].is_array() {
                d.to = addresses(&json_body["toRecipients"]);
            }
            let id = d.id.clone();
            ok(json!({"id": st.out_id(&id, immutable), "isDraft": true}))
        }
        ("POST", ["me", "messages", id, "send"]) => {
            let outbox = st.send_via_outbox;
            let Some(d) = st.drafts.get_mut(&canon(id)) else {
                return err(404, "ErrorItemNotFound");
            };
            // A message still in the Outbox is accepted again (and goes out twice): the danger
            // the executor's recovery must avoid.
            if d.folder == "sentitems" {
                return err(400, "ErrorInvalidOperation");
            }
            d.folder = if outbox { "outbox" } else { "sentitems" }.into();
            let sent = Sent {
                id: d.id.clone(),
                to: d.to.clone(),
                subject: d.subject.clone(),
                body: d.body.clone(),
                reply_to: d.reply_to.clone(),
                content_type: String::new(),
            };
            let sent = Sent {
                content_type: st.body_types.get(&sent.id).cloned().unwrap_or_default(),
                ..sent
            };
            st.sent.push(sent);
            StatusCode::ACCEPTED.into_response()
        }
        ("GET", ["me", "chats"]) => {
            if q.get("$orderby").map(String::as_str)
                != Some("lastMessagePreview/createdDateTime desc")
            {
                return err(400, "BadRequest");
            }
            let mut chats: Vec<(String, String)> = st
                .chats
                .iter()
                .filter_map(|c| {
                    c.messages
                        .iter()
                        .map(|m| m.created.clone())
                        .max()
                        .map(|t| (c.id.clone(), t))
                })
                .collect();
            chats.sort_by(|a, b| b.1.cmp(&a.1));
            ok(
                json!({"value": chats.iter().map(|(id, t)| json!({"id": id, "chatType": "oneOnOne", "lastMessagePreview": {"createdDateTime": t}})).collect::<Vec<_>>()}),
            )
        }
        ("GET", ["chats", chat, "messages"]) => {
            let top: usize = q.get("$top").and_then(|t| t.parse().ok()).unwrap_or(20);
            if top > 50 {
                return err(400, "BadRequest");
            }
            let order = q.get("$orderby").cloned().unwrap_or_default();
            let filter = q.get("$filter").cloned().unwrap_or_default();
            let (prop, gt, lt) = match chat_query(&order, &filter) {
                Ok(x) => x,
                Err(r) => return *r,
            };
            let skip: usize = q
                .get("$skiptoken")
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let Some(c) = st.chats.iter().find(|c| c.id == *chat) else {
                return err(404, "NotFound");
            };
            let key = |m: &ChatMsg| -> String {
                if prop == "createdDateTime" {
                    m.created.clone()
                } else {
                    m.modified.clone().unwrap_or_else(|| m.created.clone())
                }
            };
            let mut msgs: Vec<&ChatMsg> = c
                .messages
                .iter()
                .filter(|m| gt.as_ref().is_none_or(|f| ts(&key(m)) > ts(f)))
                .filter(|m| lt.as_ref().is_none_or(|f| ts(&key(m)) < ts(f)))
                .collect();
            msgs.sort_by_key(|m| std::cmp::Reverse(ts(&key(m))));
            let more = msgs.len() > skip + top;
            let page: Vec<&ChatMsg> = msgs.into_iter().skip(skip).take(top).collect();
            let mut v = json!({"value": page.iter().map(|m| json!({
                "id": m.id, "messageType": m.message_type, "createdDateTime": m.created,
                "lastModifiedDateTime": m.modified.clone().unwrap_or_else(|| m.created.clone()),
                "lastEditedDateTime": m.edited,
                "deletedDateTime": null, "subject": null,
                "from": {"user": {"id": m.from_id, "displayName": m.from_name}},
                "body": {"contentType": "html", "content": m.body},
                "attachments": m.attachments,
            })).collect::<Vec<_>>()});
            if more {
                let host = headers
                    .get("host")
                    .and_then(|h| h.to_str().ok())
                    .unwrap_or("");
                v["@odata.nextLink"] = json!(server_link(
                    st.link_style,
                    host,
                    &format!(
                        "/v1.0/chats/{chat}/messages?$top={top}&$orderby={}&$filter={}&$skiptoken={}",
                        order.replace(' ', "%20"),
                        filter.replace(' ', "%20"),
                        skip + top
                    )
                ));
            }
            ok(v)
        }
        ("POST", ["chats", chat, "messages"]) => {
            let id = st.id("17000000");
            let Some(c) = st.chats.iter_mut().find(|c| c.id == *chat) else {
                return err(404, "NotFound");
            };
            c.messages.push(ChatMsg {
                id: id.clone(),
                created: "2026-11-22T07:59:00Z".into(),
                modified: None,
                edited: None,
                from_id: ME.into(),
                from_name: "Operator".into(),
                body: json_body["body"]["content"].as_str().unwrap_or("").into(),
                message_type: "message".into(),
                attachments: Vec::new(),
            });
            (StatusCode::CREATED, axum::Json(json!({"id": id}))).into_response()
        }
        ("GET", ["me", "calendarView"]) => {
            let (Some(start), Some(end)) = (q.get("startDateTime"), q.get("endDateTime")) else {
                return err(400, "ErrorInvalidParameter");
            };
            if !query_ts_ok(start) || !query_ts_ok(end) {
                return err(400, "ErrorInvalidParameter");
            }
            let offset: usize = q
                .get("$skiptoken")
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let size = st.page_size;
            let page: Vec<Value> = st
                .events
                .iter()
                .skip(offset)
                .take(size)
                .map(|e| {
                    let mut e = e.clone();
                    e["id"] = json!(st.out_id(e["id"].as_str().unwrap_or(""), immutable));
                    // `$select` is honoured, and "the createdDateTime and lastModifiedDateTime
                    // properties of event do not support $select" (calendarView reference):
                    // with a `$select` they do not come back at all.
                    if let (Some(sel), Some(obj)) = (q.get("$select"), e.as_object_mut()) {
                        let keep: HashSet<&str> = sel.split(',').map(str::trim).collect();
                        obj.retain(|k, _| {
                            k == "id"
                                || k.starts_with("@odata")
                                || (keep.contains(k.as_str())
                                    && k != "createdDateTime"
                                    && k != "lastModifiedDateTime")
                        });
                    }
                    e
                })
                .collect();
            let mut v = json!({"value": page});
            if offset + size < st.events.len() {
                v["@odata.nextLink"] = json!(server_link(
                    st.link_style,
                    headers
                        .get("host")
                        .and_then(|h| h.to_str().ok())
                        .unwrap_or(""),
                    &format!(
                        "/v1.0/me/calendarView?startDateTime={}&endDateTime={}&$skiptoken={}",
                        q["startDateTime"],
                        q["endDateTime"],
                        offset + size
                    )
                ));
            }
            ok(v)
        }
        ("POST", ["me", "events"]) => {
            let tx = json_body["transactionId"]
                .as_str()
                .unwrap_or("")
                .to_string();
            if let Some(existing) = st
                .created_events
                .iter()
                .find(|e| !tx.is_empty() && e["transactionId"] == tx.as_str())
            {
                let mut ev = existing.clone();
                ev["id"] = json!(st.out_id(ev["id"].as_str().unwrap_or(""), immutable));
                return (StatusCode::CREATED, axum::Json(ev)).into_response();
            }
            let id = st.id("AAMkEvent-");
            let mut ev = json_body.clone();
            ev["id"] = json!(id);
            st.created_events.push(ev.clone());
            ev["id"] = json!(st.out_id(&id, immutable));
            (StatusCode::CREATED, axum::Json(ev)).into_response()
        }
        _ => err(404, "noSuchPath"),
    }
}

/// `$filter=displayName eq '…'` over the folders under `parent` (top level when `None`).
fn folder_query(st: &FakeState, parent: Option<String>, q: &HashMap<String, String>) -> Response {
    let Some(name) = q
        .get("$filter")
        .and_then(|f| f.strip_prefix("displayName eq '"))
        .and_then(|f| f.strip_suffix('\''))
        .map(|n| n.replace("''", "'"))
    else {
        return err(400, "BadRequest");
    };
    let found: Vec<Value> = st
        .folders
        .iter()
        .filter(|(_, n, p)| *n == name && *p == parent)
        .map(|(id, n, _)| json!({"id": id, "displayName": n}))
        .collect();
    ok(json!({"value": found}))
}

fn ts(s: &str) -> time::OffsetDateTime {
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).unwrap()
}

fn addresses(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["emailAddress"]["address"].as_str().map(str::to_string))
        .collect()
}

/// Inbox delta: full sync pages, then changes since a delta token.
fn delta(st: &mut FakeState, q: &HashMap<String, String>, host: &str, immutable: bool) -> Response {
    let base = "/v1.0/me/mailFolders/inbox/messages/delta";
    // skiptoken = "<from>:<offset>:<pos>" where from = "full" or a log position.
    let (from, offset, pos): (Option<usize>, usize, usize) = if let Some(t) = q.get("$skiptoken") {
        let p: Vec<&str> = t.split(':').collect();
        (
            p[0].parse().ok(),
            p[1].parse().unwrap(),
            p[2].parse().unwrap(),
        )
    } else if let Some(t) = q.get("$deltatoken") {
        let n: usize = t.parse().unwrap_or(0);
        if n < st.delta_expired_below {
            return err(410, "syncStateNotFound");
        }
        (Some(n), 0, st.log.len())
    } else {
        (None, 0, st.log.len())
    };
    let items: Vec<Value> = match from {
        None => st
            .inbox
            .iter()
            .map(|m| FakeState::mail_json(m, st.out_id(&m.id, immutable)))
            .collect(),
        Some(n) => st.log[n.min(pos)..pos]
            .iter()
            .filter_map(|c| match c {
                Change::Added(id) => st
                    .inbox
                    .iter()
                    .find(|m| &m.id == id)
                    .map(|m| FakeState::mail_json(m, st.out_id(&m.id, immutable))),
                Change::Removed(id) => Some(json!({"id": id, "@removed": {"reason": "deleted"}})),
            })
            .collect(),
    };
    let items: Vec<Value> = items
        .into_iter()
        .map(|mut v| {
            if let Some(id) = v["id"].as_str() {
                let has = st
                    .attachments
                    .get(&canon(id))
                    .is_some_and(|a| !a.is_empty());
                if v.get("@removed").is_none() {
                    v["hasAttachments"] = json!(has);
                }
            }
            v
        })
        .collect();
    let size = st.page_size;
    let page: Vec<Value> = items.iter().skip(offset).take(size).cloned().collect();
    let mut v = json!({"value": page});
    let from_s = from.map_or("full".to_string(), |n| n.to_string());
    if offset + size < items.len() {
        v["@odata.nextLink"] = json!(server_link(
            st.link_style,
            host,
            &format!("{base}?$skiptoken={from_s}:{}:{pos}", offset + size)
        ));
    } else {
        v["@odata.deltaLink"] = json!(server_link(
            st.link_style,
            host,
            &format!("{base}?$deltatoken={pos}")
        ));
    }
    ok(v)
}

fn identity(st: &mut FakeState, path: &str, body: &str) -> Response {
    let form = params(body);
    if path.ends_with("/devicecode") {
        if form.get("client_id").map(String::as_str) != Some(CLIENT_ID) {
            return oauth_err("invalid_client");
        }
        return ok(json!({
            "device_code": "dc-secret-1", "user_code": "FAKE-CODE",
            "verification_uri": "https://microsoft.com/devicelogin",
            "expires_in": 900, "interval": st.device_interval,
            "message": "To sign in, use a web browser to open the page https://microsoft.com/devicelogin and enter the code FAKE-CODE to authenticate."
        }));
    }
    let grant = form.get("grant_type").cloned().unwrap_or_default();
    match grant.as_str() {
        "urn:ietf:params:oauth:grant-type:device_code" => {
            st.device_polls += 1;
            if form.get("device_code").map(String::as_str) != Some("dc-secret-1") {
                return oauth_err("bad_verification_code");
            }
            match st.device_script.pop_front() {
                // The token endpoint having trouble: a front end's page, or throttling.
                Some("503") => {
                    (StatusCode::SERVICE_UNAVAILABLE, "Service Unavailable").into_response()
                }
                Some("429") => (
                    StatusCode::TOO_MANY_REQUESTS,
                    [("retry-after", "7")],
                    "Too Many Requests",
                )
                    .into_response(),
                Some(e) if e != "ok" => oauth_err(e),
                _ => issue(st),
            }
        }
        "refresh_token" => {
            st.refreshes += 1;
            let rt = form.get("refresh_token").cloned().unwrap_or_default();
            // Rotation: a refresh token is good for one redemption.
            if st.refresh_tokens.remove(&rt) {
                issue(st)
            } else {
                oauth_err("invalid_grant")
            }
        }
        _ => oauth_err("unsupported_grant_type"),
    }
}

fn issue(st: &mut FakeState) -> Response {
    let at = st.id("at-");
    let rt = st.id("rt-");
    st.access.insert(at.clone(), true);
    st.refresh_tokens.insert(rt.clone());
    ok(json!({
        "token_type": "Bearer", "scope": "Mail.ReadWrite", "expires_in": st.access_lifetime,
        "access_token": at, "refresh_token": rt,
    }))
}

/// One entry of "List attachments", in the documented shape of each derived type.
fn attachment_json(a: &FakeAttachment) -> Value {
    use base64::Engine as _;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let mut v = json!({
        "id": a.id,
        "lastModifiedDateTime": "2026-11-22T07:00:00Z",
        "name": a.name,
        "contentType": a.content_type,
        "isInline": a.is_inline,
    });
    match &a.kind {
        FakeAttachmentKind::File(b) => {
            v["@odata.type"] = json!("#microsoft.graph.fileAttachment");
            v["size"] = json!(b.len());
            v["contentId"] = Value::Null;
            v["contentLocation"] = Value::Null;
            if b.len() <= LARGE_ATTACHMENT {
                v["contentBytes"] = json!(b64(b));
            }
        }
        FakeAttachmentKind::Item(mime) => {
            v["@odata.type"] = json!("#microsoft.graph.itemAttachment");
            v["size"] = json!(mime.len());
        }
        FakeAttachmentKind::Reference => {
            v["@odata.type"] = json!("#microsoft.graph.referenceAttachment");
            v["size"] = json!(0);
        }
    }
    v
}

/// `PUT {uploadUrl}`: one range of an upload session. As documented: no `Authorization`
/// header (the URL is pre-authenticated), `Content-Range: bytes a-b/total` continuing where the
/// last range ended; 200 with the next expected range, 201 when the file is complete.
fn upload_put(st: &mut FakeState, session: &str, headers: &HeaderMap, body: &[u8]) -> Response {
    if headers.contains_key("authorization") {
        return err(400, "AuthorizationHeaderNotAllowed");
    }
    let Some(up) = st.upload_sessions.get_mut(session) else {
        return err(404, "ErrorItemNotFound");
    };
    let range = headers
        .get("content-range")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("bytes "))
        .and_then(|v| {
            let (r, total) = v.split_once('/')?;
            let (a, b) = r.split_once('-')?;
            Some((
                a.parse::<usize>().ok()?,
                b.parse::<usize>().ok()?,
                total.parse::<usize>().ok()?,
            ))
        });
    let Some((a, b, total)) = range else {
        return err(400, "InvalidContentRange");
    };
    if a != up.received.len() || b + 1 - a != body.len() || total != up.size || b >= total {
        return err(416, "InvalidRange");
    }
    up.received.extend_from_slice(body);
    if up.received.len() < up.size {
        return ok(json!({"nextExpectedRanges": [format!("{}-", up.received.len())]}));
    }
    let up = st.upload_sessions.remove(session).unwrap();
    let aid = st.id("AAMkAtt-");
    st.attachments
        .entry(up.message_id.clone())
        .or_default()
        .push(FakeAttachment {
            id: aid,
            name: up.name,
            content_type: Some(up.content_type),
            is_inline: false,
            kind: FakeAttachmentKind::File(up.received),
        });
    (StatusCode::CREATED, axum::Json(json!({}))).into_response()
}

/// A signed-in Graph account of profile `work` against `fake`, as after a device-code login:
/// a refresh token from the fake is saved in `data_dir/tokens` with `token_scopes`, the client
/// asks for `scopes`, retries fast (1 ms base) and keeps its state in `data_dir/graph/work`.
pub fn signed_in(
    fake: &Fake,
    g: &opsdesk::config::GraphProfile,
    data_dir: &std::path::Path,
    token_scopes: &[&str],
    scopes: &[&str],
) -> opsdesk::sources::graph::client::GraphClient {
    use opsdesk::sources::graph::auth::{Auth, TokenFile, TokenStore};
    let store = TokenStore::new(data_dir.join("tokens"));
    let rt = fake.with(|s| s.issue_refresh_token());
    store
        .save(
            "work",
            &TokenFile {
                refresh_token: rt,
                tenant: g.tenant.clone(),
                client_id: g.client_id.clone(),
                scopes: token_scopes.iter().map(|s| s.to_string()).collect(),
                saved_at: time::OffsetDateTime::now_utc(),
            },
        )
        .unwrap();
    let http = reqwest::Client::new();
    let auth = Auth::new(
        "work",
        g,
        scopes.iter().map(|s| s.to_string()).collect(),
        http.clone(),
        store,
    );
    let mut client =
        opsdesk::sources::graph::client::GraphClient::new(http, fake.graph_base(), auth);
    client.retry_base = std::time::Duration::from_millis(1);
    client
}

/// [`signed_in`]'s client as the pollers' `Account` (profile `work`).
pub fn account(
    client: opsdesk::sources::graph::client::GraphClient,
    data_dir: &std::path::Path,
    time_zone: &str,
) -> Arc<opsdesk::sources::graph::Account> {
    Arc::new(opsdesk::sources::graph::Account {
        profile: "work".into(),
        client,
        state_dir: data_dir.join("graph/work"),
        time_zone: time_zone.into(),
    })
}
