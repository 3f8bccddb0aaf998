//! The remote calls that carry out approved drafts. Which call, in which order and with which
//! crash protection is the executor's business (`engine::executor`); this file only knows the
//! documented request and response shapes.
//!
//! Every outgoing mail carries a single-value extended property, [`SEND_ID_PROP`], whose value is
//! the opsdesk draft id. Why this and not an `x-opsdesk-send-id` internet message header:
//! Microsoft documents extended properties for exactly this ("store custom data on a resource
//! when no first-class property exists", learn.microsoft.com/graph/api/resources/
//! extended-properties-overview) and documents finding messages by one with
//! `$filter=singleValueExtendedProperties/Any(ep: ep/id eq '…' and ep/value eq '…')`
//! ("Get singleValueLegacyExtendedProperty"), whereas `internetMessageHeaders` can only be set
//! when a message is created (not on a `createReply` draft) and cannot be filtered on. The
//! property is kept when the message is sent and moved to Sent Items, so "is it in Sent Items?"
//! is a documented question with a documented answer.

use reqwest::Method;
use serde_json::{Value, json};

use super::Account;
use super::client::GraphError;
use super::mail::IMMUTABLE_IDS;
use super::teams::urlencode;

fn recipients(addrs: &[String]) -> Value {
    Value::Array(
        addrs
            .iter()
            .map(|a| json!({"emailAddress": {"address": a}}))
            .collect(),
    )
}

fn id_of(v: &Value, what: &str) -> Result<String, GraphError> {
    v["id"]
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| GraphError::Invalid(format!("{what} returned no id")))
}

/// The id of the extended property that marks a message with its opsdesk send id: a string
/// property in a fixed property-set GUID of opsdesk's own, named `OpsdeskSendId`.
pub(crate) const SEND_ID_PROP: &str =
    "String {6f3d2a8e-4b1c-4f5e-9a7d-0c2b8e1f4a63} Name OpsdeskSendId";

fn send_id_prop(send_id: &str) -> Value {
    json!([{"id": SEND_ID_PROP, "value": send_id}])
}

/// A mail body as Graph's `itemBody` takes it: `contentType` `Text` or `HTML` (documented
/// `bodyType` values), and the content sent exactly as the draft holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailBody<'a> {
    pub html: bool,
    pub content: &'a str,
}

impl<'a> MailBody<'a> {
    pub fn text(content: &'a str) -> MailBody<'a> {
        MailBody {
            html: false,
            content,
        }
    }

    /// Sanitized HTML (only ever a draft's `body_html`, which the engine sanitized).
    pub fn html(content: &'a str) -> MailBody<'a> {
        MailBody {
            html: true,
            content,
        }
    }

    fn json(&self) -> Value {
        let kind = if self.html { "HTML" } else { "Text" };
        json!({"contentType": kind, "content": self.content})
    }
}

impl<'a> From<&'a str> for MailBody<'a> {
    fn from(content: &'a str) -> MailBody<'a> {
        MailBody::text(content)
    }
}

/// Well-known folder names (documented for `/me/mailFolders/{name}`).
pub const SENT_ITEMS: &str = "sentitems";
pub const DRAFTS: &str = "drafts";

/// `POST /me/messages`: a new draft in Drafts, marked with `send_id`; its immutable id.
pub async fn create_draft(
    a: &Account,
    send_id: &str,
    to: &[String],
    cc: &[String],
    subject: &str,
    body: impl Into<MailBody<'_>>,
) -> Result<String, GraphError> {
    let msg = json!({
        "subject": subject,
        "body": body.into().json(),
        "toRecipients": recipients(to),
        "ccRecipients": recipients(cc),
        "singleValueExtendedProperties": send_id_prop(send_id),
    });
    let r = a
        .client
        .write(Method::POST, "/me/messages", Some(&msg), &[IMMUTABLE_IDS])
        .await?;
    id_of(&r.body, "create draft")
}

/// `POST /me/messages/{id}/createReply`: a reply draft (threaded, quoting the original); its id.
pub(crate) async fn create_reply(a: &Account, original_id: &str) -> Result<String, GraphError> {
    let r = a
        .client
        .write(
            Method::POST,
            &format!("/me/messages/{}/createReply", urlencode(original_id)),
            Some(&json!({})),
            &[IMMUTABLE_IDS],
        )
        .await?;
    id_of(&r.body, "createReply")
}

/// `PATCH /me/messages/{id}`: make the draft say exactly what was approved, marked with
/// `send_id` (a `createReply` draft gets its mark here).
pub async fn set_content(
    a: &Account,
    id: &str,
    send_id: &str,
    to: &[String],
    subject: &str,
    body: impl Into<MailBody<'_>>,
) -> Result<(), GraphError> {
    let patch = json!({
        "subject": subject,
        "body": body.into().json(),
        "toRecipients": recipients(to),
        "singleValueExtendedProperties": send_id_prop(send_id),
    });
    a.client
        .write(
            Method::PATCH,
            &format!("/me/messages/{}", urlencode(id)),
            Some(&patch),
            &[IMMUTABLE_IDS],
        )
        .await?;
    Ok(())
}

/// The id of the message in mail folder `folder` (a well-known name) that carries `send_id`,
/// if any: the documented extended-property filter.
pub async fn find_by_send_id(
    a: &Account,
    folder: &str,
    send_id: &str,
) -> Result<Option<String>, GraphError> {
    let filter = format!(
        "singleValueExtendedProperties/Any(ep: ep/id eq '{}' and ep/value eq '{}')",
        SEND_ID_PROP.replace('\'', "''"),
        send_id.replace('\'', "''")
    );
    let page = a
        .client
        .get(
            &format!(
                "/me/mailFolders/{folder}/messages?$filter={}&$select=id&$top=5",
                query_encode(&filter)
            ),
            &[IMMUTABLE_IDS],
        )
        .await?;
    Ok(page["value"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|m| {
            m["id"]
                .as_str()
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        }))
}

/// Message `id` if it is in mail folder `folder` (`GET /me/mailFolders/{folder}/messages/{id}`;
/// 404 when it is not there).
pub async fn find_by_id(a: &Account, folder: &str, id: &str) -> Result<Option<String>, GraphError> {
    match a
        .client
        .get(
            &format!(
                "/me/mailFolders/{folder}/messages/{}?$select=id",
                urlencode(id)
            ),
            &[IMMUTABLE_IDS],
        )
        .await
    {
        Ok(v) => Ok(v["id"].as_str().map(str::to_owned)),
        Err(GraphError::Http { status: 404, .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Percent-encode a query value (everything but unreserved characters).
fn query_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 2);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `POST /me/messages/{id}/send`: documented to answer 202 Accepted. No body; the client sends
/// `Content-Length: 0`, which the reference lists as required.
pub async fn send_draft(a: &Account, id: &str) -> Result<(), GraphError> {
    let r = a
        .client
        .write(
            Method::POST,
            &format!("/me/messages/{}/send", urlencode(id)),
            None,
            &[IMMUTABLE_IDS],
        )
        .await?;
    if r.status == 202 || r.status == 200 {
        Ok(())
    } else {
        Err(GraphError::Invalid(format!("send answered {}", r.status)))
    }
}

/// `POST /chats/{id}/messages`; the new message's id.
pub async fn post_chat(a: &Account, chat_id: &str, body: &str) -> Result<String, GraphError> {
    let r = a
        .client
        .write(
            Method::POST,
            &format!("/chats/{}/messages", urlencode(chat_id)),
            Some(&json!({"body": {"contentType": "text", "content": body}})),
            &[],
        )
        .await?;
    id_of(&r.body, "chat post")
}

/// A message of the operator in `chat_id` changed after `since` whose text is `body`: how the
/// executor finds out whether a post interrupted by a crash went through. Documented options
/// only ("List messages in a chat"): `lastModifiedDateTime gt` with the same `$orderby`.
pub(crate) async fn find_own_chat_post(
    a: &Account,
    chat_id: &str,
    since: time::OffsetDateTime,
    body: &str,
) -> Result<Option<String>, GraphError> {
    let me = a.client.get("/me?$select=id", &[]).await?;
    let me = me["id"].as_str().unwrap_or("").to_owned();
    let page = a
        .client
        .get(
            &format!(
                "/chats/{}/messages?$top=50&$orderby=lastModifiedDateTime%20desc&$filter=lastModifiedDateTime%20gt%20{}",
                urlencode(chat_id),
                super::rfc3339(since)
            ),
            &[],
        )
        .await?;
    Ok(page["value"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|m| {
            m["from"]["user"]["id"].as_str() == Some(me.as_str())
                && m["body"]["content"].as_str().map(str::trim) == Some(body.trim())
        })
        .and_then(|m| m["id"].as_str().map(str::to_owned)))
}

/// `POST /me/events` with `transactionId`, which the service uses to drop a repeated create
/// (so a retry after a crash cannot make a second event).
#[allow(clippy::too_many_arguments)]
pub async fn create_event(
    a: &Account,
    transaction_id: &str,
    subject: &str,
    start: time::OffsetDateTime,
    end: time::OffsetDateTime,
    attendees: &[String],
    location: Option<&str>,
    body: &str,
) -> Result<String, GraphError> {
    let fmt = |t: time::OffsetDateTime| {
        let s = super::rfc3339(t);
        s.trim_end_matches('Z').to_owned()
    };
    let mut ev = json!({
        "subject": subject,
        "body": {"contentType": "Text", "content": body},
        "start": {"dateTime": fmt(start), "timeZone": "UTC"},
        "end": {"dateTime": fmt(end), "timeZone": "UTC"},
        "attendees": attendees.iter().map(|x| json!({"emailAddress": {"address": x}, "type": "required"})).collect::<Vec<_>>(),
        "transactionId": transaction_id,
    });
    if let Some(l) = location {
        ev["location"] = json!({"displayName": l});
    }
    let r = a
        .client
        .write(Method::POST, "/me/events", Some(&ev), &[IMMUTABLE_IDS])
        .await?;
    id_of(&r.body, "create event")
}

/// The well-known folder names Microsoft documents for `mailFolder` (usable wherever a folder
/// id is, including `destinationId` of a move).
pub(crate) const WELL_KNOWN_FOLDERS: &[&str] = &[
    "archive",
    "clutter",
    "conflicts",
    "conversationhistory",
    "deleteditems",
    "drafts",
    "inbox",
    "junkemail",
    "localfailures",
    "msgfolderroot",
    "outbox",
    "recoverableitemsdeletions",
    "scheduled",
    "searchfolders",
    "sentitems",
    "serverfailures",
    "syncissues",
];

/// The id of mail folder `folder`: a well-known name (`GET /me/mailFolders/{name}`), a display
/// name or a path of display names (`Deals/Sunrise`: top-level folder, then `childFolders`,
/// each by `$filter=displayName eq '…'`), or a folder id. `None` when there is no such folder.
pub(crate) async fn resolve_folder(
    a: &Account,
    folder: &str,
) -> Result<Option<String>, GraphError> {
    let f = folder.trim();
    let lower = f.to_ascii_lowercase();
    if WELL_KNOWN_FOLDERS.contains(&lower.as_str()) {
        return folder_by_id(a, &lower).await;
    }
    let mut parent: Option<String> = None;
    for (i, name) in f.split('/').map(str::trim).enumerate() {
        if name.is_empty() {
            return Ok(None);
        }
        let base = match &parent {
            None => "/me/mailFolders".to_string(),
            Some(p) => format!("/me/mailFolders/{}/childFolders", urlencode(p)),
        };
        let filter = format!("displayName eq '{}'", name.replace('\'', "''"));
        let v = a
            .client
            .get(
                &format!(
                    "{base}?$filter={}&$select=id,displayName",
                    query_encode(&filter)
                ),
                &[IMMUTABLE_IDS],
            )
            .await?;
        match v["value"].as_array().and_then(|l| l.first()) {
            Some(first) => parent = Some(id_of(first, "mail folder lookup")?),
            // A single segment that names no folder may be a folder id.
            None if i == 0 && !f.contains('/') && !f.contains(' ') => {
                return folder_by_id(a, f).await;
            }
            None => return Ok(None),
        }
    }
    Ok(parent)
}

/// `GET /me/mailFolders/{id or well-known name}`: its id, `None` on 404.
async fn folder_by_id(a: &Account, id: &str) -> Result<Option<String>, GraphError> {
    match a
        .client
        .get(
            &format!("/me/mailFolders/{}?$select=id", urlencode(id)),
            &[IMMUTABLE_IDS],
        )
        .await
    {
        Ok(v) => Ok(Some(id_of(&v, "mail folder")?)),
        Err(GraphError::Http { status: 404, .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The folder message `id` is in (`GET /me/messages/{id}?$select=parentFolderId`); `None` when
/// the message is gone (404). With immutable ids a message keeps its id when it moves.
pub(crate) async fn parent_folder(a: &Account, id: &str) -> Result<Option<String>, GraphError> {
    match a
        .client
        .get(
            &format!("/me/messages/{}?$select=id,parentFolderId", urlencode(id)),
            &[IMMUTABLE_IDS],
        )
        .await
    {
        Ok(v) => Ok(v["parentFolderId"].as_str().map(str::to_owned)),
        Err(GraphError::Http { status: 404, .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `POST /me/messages/{id}/move` with `{"destinationId": …}`: documented to answer 201 Created
/// with the moved message; its (immutable) id.
pub(crate) async fn move_message(
    a: &Account,
    id: &str,
    destination: &str,
) -> Result<String, GraphError> {
    let r = a
        .client
        .write(
            Method::POST,
            &format!("/me/messages/{}/move", urlencode(id)),
            Some(&json!({"destinationId": destination})),
            &[IMMUTABLE_IDS],
        )
        .await?;
    id_of(&r.body, "move")
}

/// Attachments up to this size are added in one request with their bytes in base64; larger
/// ones go through an upload session ("Attach large files to Outlook messages": 3 MB).
pub const INLINE_ATTACHMENT_MAX: usize = 3 * 1024 * 1024;
/// Upload session chunk: a multiple of 320 KiB, as the documentation asks, under 4 MiB.
pub const UPLOAD_CHUNK: usize = 10 * 320 * 1024;

/// `GET /me/messages/{id}/attachments?$select=name`: the names of the draft's attachments
/// (what an earlier, interrupted attempt already added).
pub(crate) async fn attachment_names(a: &Account, id: &str) -> Result<Vec<String>, GraphError> {
    let v = a
        .client
        .get(
            &format!("/me/messages/{}/attachments?$select=name", urlencode(id)),
            &[IMMUTABLE_IDS],
        )
        .await?;
    Ok(v["value"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default())
}

/// Add a file to draft `id`: one `POST .../attachments` (fileAttachment, base64) up to
/// [`INLINE_ATTACHMENT_MAX`], else `POST .../attachments/createUploadSession` and the bytes
/// `PUT` to its `uploadUrl` in [`UPLOAD_CHUNK`]s.
pub(crate) async fn add_attachment(
    a: &Account,
    id: &str,
    name: &str,
    media_type: &str,
    bytes: &[u8],
) -> Result<(), GraphError> {
    use base64::Engine as _;
    let base = format!("/me/messages/{}/attachments", urlencode(id));
    if bytes.len() <= INLINE_ATTACHMENT_MAX {
        let body = json!({
            "@odata.type": "#microsoft.graph.fileAttachment",
            "name": name,
            "contentType": media_type,
            "contentBytes": base64::engine::general_purpose::STANDARD.encode(bytes),
        });
        a.client
            .write(Method::POST, &base, Some(&body), &[IMMUTABLE_IDS])
            .await?;
        return Ok(());
    }
    let body = json!({"AttachmentItem": {
        "attachmentType": "file",
        "name": name,
        "size": bytes.len(),
        "contentType": media_type,
    }});
    let r = a
        .client
        .write(
            Method::POST,
            &format!("{base}/createUploadSession"),
            Some(&body),
            &[],
        )
        .await?;
    let url = r.body["uploadUrl"]
        .as_str()
        .ok_or_else(|| GraphError::Invalid("createUploadSession returned no uploadUrl".into()))?
        .to_owned();
    let mut start = 0;
    while start < bytes.len() {
        let end = (start + UPLOAD_CHUNK).min(bytes.len());
        a.client
            .put_upload_chunk(&url, &bytes[start..end], start as u64, bytes.len() as u64)
            .await?;
        start = end;
    }
    Ok(())
}
