//! The remote calls that carry out approved drafts. Which call, in which order and with which
//! crash protection is the executor's business (`engine::executor`); this file only knows the
//! documented request and response shapes.

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

/// `POST /me/messages`: a new draft in Drafts; its immutable id.
pub async fn create_draft(
    a: &Account,
    to: &[String],
    cc: &[String],
    subject: &str,
    body: &str,
) -> Result<String, GraphError> {
    let msg = json!({
        "subject": subject,
        "body": {"contentType": "Text", "content": body},
        "toRecipients": recipients(to),
        "ccRecipients": recipients(cc),
    });
    let r = a
        .client
        .write(Method::POST, "/me/messages", Some(&msg), &[IMMUTABLE_IDS])
        .await?;
    id_of(&r.body, "create draft")
}

/// `POST /me/messages/{id}/createReply`: a reply draft (threaded, quoting the original); its id.
pub async fn create_reply(a: &Account, original_id: &str) -> Result<String, GraphError> {
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

/// `PATCH /me/messages/{id}`: make the draft say exactly what was approved.
pub async fn set_content(
    a: &Account,
    id: &str,
    to: &[String],
    subject: &str,
    body: &str,
) -> Result<(), GraphError> {
    let patch = json!({
        "subject": subject,
        "body": {"contentType": "Text", "content": body},
        "toRecipients": recipients(to),
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

/// Whether message `id` is still an unsent draft: `Some(true)` draft, `Some(false)` sent (with
/// immutable ids the message keeps its id when sending moves it to Sent Items), `None` gone.
pub async fn draft_state(a: &Account, id: &str) -> Result<Option<bool>, GraphError> {
    match a
        .client
        .get(
            &format!("/me/messages/{}?$select=isDraft", urlencode(id)),
            &[IMMUTABLE_IDS],
        )
        .await
    {
        Ok(v) => Ok(Some(v["isDraft"].as_bool().unwrap_or(false))),
        Err(GraphError::Http { status: 404, .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `POST /me/messages/{id}/send`: documented to answer 202 Accepted.
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

/// A message of the operator in `chat_id` created after `since` whose text is `body`: how the
/// executor finds out whether a post interrupted by a crash went through.
pub async fn find_own_chat_post(
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
                "/chats/{}/messages?$top=50&$orderby=createdDateTime%20desc&$filter=createdDateTime%20gt%20{}",
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
