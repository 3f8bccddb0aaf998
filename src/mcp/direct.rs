//! The direct lane: a plain `tools/call` of a short read-only tool, in an initialized legacy
//! HTTP session, is answered by the HTTP guard itself instead of through rmcp's session worker.
//!
//! Why: rmcp's stateful path hands every request through its session worker, a per-request
//! channel, the service loop and a spawned handler task, and streams the answer as separate SSE
//! chunks after a priming event; that costs about 50 µs of CPU per call before any tool work,
//! more than the whole `status` budget. The lane runs the same [`Hub::call_tool`] (scope check,
//! tool, PHI view, audit) with the same identity, session placeholders and actor name, and
//! writes the same JSON-RPC answer as one SSE event in one body.
//!
//! What it takes is deliberately narrow; anything else goes to rmcp unchanged, which then
//! answers (or refuses) as before:
//! - every guard check has passed (Origin, size, token, session owner, rate);
//! - the session is one rmcp still holds and has seen `notifications/initialized`;
//! - the message is exactly `{jsonrpc, id, method: "tools/call", params: {name, arguments}}`,
//!   each key once (no `_meta`: no progress token, no per-request version), posted to `/mcp`;
//! - the headers are plain: `Host` is a name rmcp accepts (its DNS-rebinding check),
//!   `Accept` lists both media types without parameters, `Content-Type` is JSON,
//!   `MCP-Protocol-Version` is absent or a known pre-2026-07-28 version, no `Last-Event-ID`;
//! - the tool is marked `lane: direct` in the tool table (`ToolDef::direct`): reads that never call a model, so nothing is lost by
//!   not being cancellable through `notifications/cancelled` (dropping the connection still
//!   drops the call).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rmcp::model::{
    CallToolResult, ErrorData as McpError, JsonObject, ProtocolVersion, RequestId,
    ServerJsonRpcMessage, ServerResult,
};

use serde::{Deserialize, Serialize};

use super::rendered::RenderedAnswer;
use super::server::{Hub, Session};
use super::tools::Reply;
use crate::http::auth::ClientIdentity;

/// What the lane needs of an initialized session: its PHI placeholders (shared with rmcp's
/// handler for the session) and the name its calls act under.
#[derive(Clone)]
pub(crate) struct Lane {
    pub session: Arc<Session>,
    pub actor: String,
}

/// Session id → [`Lane`], filled at `notifications/initialized`, emptied when the session
/// ends (DELETE, or the sweeper finding rmcp no longer holds it).
#[derive(Default)]
pub(crate) struct Lanes(RwLock<HashMap<String, Lane>>);

impl Lanes {
    pub fn open(&self, sid: &str, lane: Lane) {
        self.write().insert(sid.to_string(), lane);
    }

    pub fn get(&self, sid: &str) -> Option<Lane> {
        // Single inserts and removes: a poisoned map is still consistent.
        self.0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(sid)
            .cloned()
    }

    pub fn close(&self, sid: &str) {
        self.write().remove(sid);
    }

    /// Keep only the lanes of `live` sessions.
    pub fn retain(&self, live: &HashSet<String>) {
        self.write().retain(|sid, _| live.contains(sid));
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Lane>> {
        self.0.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// A `tools/call` holding nothing but `jsonrpc`, `id`, `method` and `params` with `name` and
/// `arguments`, as the guard read it.
pub(crate) struct PlainCall {
    pub id: RequestId,
    pub name: String,
    pub args: JsonObject,
}

/// A plain call as it is on the wire: these fields and no others, each once, in objects.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    jsonrpc: String,
    id: WireId,
    method: String,
    #[serde(deserialize_with = "object_only")]
    params: WireParams,
}

/// A derived struct read from a JSON object only: serde's derive also takes an array of the
/// fields in order, which is not a JSON-RPC message.
fn object_only<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    T::deserialize(ObjectOnly(d))
}

struct ObjectOnly<D>(D);

impl<'de, D: serde::Deserializer<'de>> serde::Deserializer<'de> for ObjectOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(v)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(v)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// An id as the guard takes it: a string or an integer, never an integer written as a float
/// (`1.0`, which the guard refuses for every other message too).
struct WireId(RequestId);

impl<'de> Deserialize<'de> for WireId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = WireId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<WireId, E> {
                Ok(WireId(RequestId::Number(n)))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<WireId, E> {
                i64::try_from(n)
                    .map(|n| WireId(RequestId::Number(n)))
                    .map_err(E::custom)
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<WireId, E> {
                Ok(WireId(RequestId::String(s.into())))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireParams {
    name: String,
    #[serde(default)]
    arguments: Option<JsonObject>,
}

impl PlainCall {
    /// The call in `body` when it is exactly a JSON-RPC 2.0 `tools/call` of that shape; `None`
    /// otherwise (another method, a key twice, an id rmcp's own types would read differently),
    /// which the guard then checks in full and leaves to rmcp.
    pub fn parse(body: &[u8]) -> Option<PlainCall> {
        let mut de = serde_json::Deserializer::from_slice(body);
        let w: Wire = object_only(&mut de).ok()?;
        de.end().ok()?;
        if w.jsonrpc != "2.0" || w.method != "tools/call" {
            return None;
        }
        Some(PlainCall {
            id: w.id.0,
            name: w.params.name,
            args: w.params.arguments.unwrap_or_default(),
        })
    }

    pub fn is_direct(&self) -> bool {
        super::tools::tool_def(&self.name).is_some_and(|d| d.direct)
    }
}

/// Whether rmcp would take a POST with these headers without a word of its own (see the
/// module text); otherwise the request goes to rmcp, which answers as it always does.
pub(crate) fn headers_plain(h: &HeaderMap, hosts: &[String]) -> bool {
    if h.contains_key("last-event-id") || !host_allowed(h, hosts) {
        return false;
    }
    let version_ok = match h.get("mcp-protocol-version") {
        None => true,
        Some(v) => v.to_str().is_ok_and(|v| {
            v < ProtocolVersion::STANDARD_HEADERS.as_str()
                && ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .any(|k| k.as_str() == v)
        }),
    };
    let json_body = h
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|e| e.trim().eq_ignore_ascii_case("application/json"))
        });
    let (mut json, mut sse) = (false, false);
    for value in h.get_all(header::ACCEPT) {
        let Ok(value) = value.to_str() else {
            return false;
        };
        for part in value.split(',').map(str::trim) {
            if part.contains(';') {
                // Parameters (q-values) are rmcp's to weigh.
                return false;
            }
            json |= part.eq_ignore_ascii_case("application/json");
            sse |= part.eq_ignore_ascii_case("text/event-stream");
        }
    }
    version_ok && json_body && json && sse
}

/// rmcp's DNS-rebinding check, which the lane would otherwise skip: the `Host` header names
/// one of `hosts` (lower-case names without a port, as the router gives rmcp). Anything else
/// (missing, odd, another host) goes to rmcp, which refuses or answers it.
fn host_allowed(h: &HeaderMap, hosts: &[String]) -> bool {
    let Some(host) = h.get(header::HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let Ok(authority) = host.parse::<axum::http::uri::Authority>() else {
        return false;
    };
    let name = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    hosts.contains(&name)
}

/// Run `call` for `who` in `lane`'s session and answer as rmcp would: the JSON-RPC result or
/// error as one SSE event.
pub(crate) async fn answer(
    hub: &Arc<Hub>,
    lane: &Lane,
    who: &ClientIdentity,
    call: PlainCall,
) -> Response {
    let reply = hub
        .call_tool(
            who,
            &lane.actor,
            &lane.session.placeholders,
            &call.name,
            call.args,
        )
        .await
        .unwrap_or_else(|| {
            Err(McpError::invalid_params(
                format!("unknown tool `{}`", call.name),
                None,
            ))
        });
    let body = match reply {
        Ok(Reply::Rendered(a)) => rendered_answer(&call.id, &a),
        Ok(Reply::Json(json)) => typed_answer(&call.id, &json),
        Ok(Reply::Result(r)) => return sse_answer(&message(Ok(r), call.id)),
        Err(e) => return sse_answer(&message(Err(e), call.id)),
    };
    match body {
        Ok(body) => sse_body(body),
        Err(e) => sse_answer(&message(
            Err(McpError::internal_error(e.to_string(), None)),
            call.id,
        )),
    }
}

fn message(result: Result<CallToolResult, McpError>, id: RequestId) -> ServerJsonRpcMessage {
    match result {
        Ok(r) => {
            let mut r = ServerResult::CallToolResult(r);
            // Sessions are pre-2026-07-28 by construction, as rmcp's handler does for them.
            r.strip_result_type_for_legacy_peer();
            ServerJsonRpcMessage::response(r, id)
        }
        Err(e) => ServerJsonRpcMessage::error(e, Some(id)),
    }
}

/// The SSE event for a typed tool answer, written around its JSON as it is: the message
/// [`Reply::into_result`] and rmcp would write (a test holds them equal), without building a
/// `Value` of it and in a buffer sized once.
fn typed_answer(id: &RequestId, json: &str) -> Result<Vec<u8>, serde_json::Error> {
    // The text copy escapes every quote of the JSON: room for both copies and the escapes.
    let mut out = answer_head(id, 2 * json.len() + json.len() / 4)?;
    // Escaping the text is serde's, measured faster than a memchr scan over JSON's dense quotes.
    serde_json::to_writer(&mut out, json)?;
    Ok(answer_tail(out, |out| {
        out.extend_from_slice(json.as_bytes())
    }))
}

/// [`typed_answer`] for an answer with messages rendered ahead (`mcp::rendered`): both forms
/// are written straight into the event.
fn rendered_answer(id: &RequestId, a: &RenderedAnswer) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = answer_head(id, a.both_len() + 2)?;
    out.push(b'"');
    a.write_escaped(&mut out);
    out.push(b'"');
    Ok(answer_tail(out, |out| a.write_json(out)))
}

/// The event up to the text copy, in a buffer with room for `room` more bytes and the tail.
fn answer_head(id: &RequestId, room: usize) -> Result<Vec<u8>, serde_json::Error> {
    const HEAD: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":";
    const TEXT: &[u8] = b",\"result\":{\"content\":[{\"type\":\"text\",\"text\":";
    let mut out = Vec::with_capacity(room + 256);
    out.extend_from_slice(HEAD);
    // serde writes the id (a string id is whatever the client sent).
    match id {
        RequestId::Number(n) => serde_json::to_writer(&mut out, n)?,
        RequestId::String(s) => serde_json::to_writer(&mut out, s.as_ref())?,
    }
    out.extend_from_slice(TEXT);
    Ok(out)
}

/// The rest of the event after the text copy: the structured content (`json` writes it) and
/// the end.
fn answer_tail(mut out: Vec<u8>, json: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    const STRUCTURED: &[u8] = b"}],\"structuredContent\":";
    const TAIL: &[u8] = b",\"isError\":false}}\n\n";
    out.extend_from_slice(STRUCTURED);
    json(&mut out);
    out.extend_from_slice(TAIL);
    out
}

/// One SSE event holding `msg`, with rmcp's headers for an SSE answer; the body is complete,
/// so the server writes headers and answer together.
fn sse_answer(msg: &impl Serialize) -> Response {
    let mut body = Vec::with_capacity(4096);
    body.extend_from_slice(b"data: ");
    if let Err(e) = serde_json::to_writer(&mut body, msg) {
        tracing::error!("cannot serialise a direct answer: {e}");
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the answer could not be serialised",
        )
            .into_response();
    }
    body.extend_from_slice(b"\n\n");
    sse_body(body)
}

fn sse_body(body: Vec<u8>) -> Response {
    let mut resp = Response::new(Body::from(body));
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    const PLAIN: [(&str, &str); 4] = [
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2025-06-18"),
        ("host", "127.0.0.1:48080"),
    ];

    fn hosts() -> Vec<String> {
        vec!["localhost".into(), "127.0.0.1".into(), "::1".into()]
    }

    #[test]
    fn every_direct_tool_is_a_read_only_opsdesk_tool() {
        let direct: Vec<_> = super::super::tools::TOOLS
            .iter()
            .filter(|d| d.direct)
            .collect();
        assert!(!direct.is_empty(), "the lane answers some tools");
        for def in direct {
            let name = def.name;
            assert_eq!(
                def.tier,
                super::super::tools::Tier::ReadOnly,
                "`{name}` must be read-only to skip rmcp's cancellation"
            );
        }
    }

    #[test]
    fn plain_headers_take_the_lane() {
        assert!(headers_plain(&headers(&PLAIN), &hosts()));
        let mut without_version = headers(&PLAIN);
        without_version.remove("mcp-protocol-version");
        assert!(headers_plain(&without_version, &hosts()));
        let mut v6 = headers(&PLAIN);
        v6.insert("host", HeaderValue::from_static("[::1]:9"));
        assert!(headers_plain(&v6, &hosts()));
    }

    #[test]
    fn anything_rmcp_must_judge_goes_to_rmcp() {
        let (accept, ctype, version, host) = (PLAIN[0], PLAIN[1], PLAIN[2], PLAIN[3]);
        let cases: [&[(&str, &str)]; 11] = [
            &[ctype, version, host, ("accept", "application/json")],
            &[ctype, version, host, ("accept", "text/event-stream")],
            &[
                ctype,
                version,
                host,
                ("accept", "application/json;q=0, text/event-stream"),
            ],
            &[accept, version, host, ("content-type", "text/plain")],
            &[accept, ctype, host, ("mcp-protocol-version", "2026-07-28")],
            &[accept, ctype, host, ("mcp-protocol-version", "1999-01-01")],
            &[accept, ctype, version, host, ("last-event-id", "0/1")],
            &[accept, ctype, version],
            &[accept, ctype, version, ("host", "evil.example")],
            &[
                accept,
                ctype,
                version,
                ("host", "127.0.0.1.evil.example:80"),
            ],
            &[accept, ctype, version, ("host", "localhost@evil.example")],
        ];
        for case in cases {
            assert!(!headers_plain(&headers(case), &hosts()), "{case:?}");
        }
    }

    #[test]
    fn a_plain_call_keeps_its_id_name_and_arguments() {
        let call = PlainCall::parse(
            br#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "inbox_pull", "arguments": {"limit": 3}}}"#,
        )
        .expect("plain");
        assert_eq!(call.id, RequestId::Number(7));
        assert_eq!(call.name, "inbox_pull");
        assert_eq!(call.args.get("limit"), Some(&serde_json::json!(3)));
        let call = PlainCall::parse(
            br#"{"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "status"}}"#,
        )
        .expect("plain");
        assert_eq!(call.id, RequestId::String("a".into()));
        assert!(call.args.is_empty());
    }

    #[test]
    fn a_call_that_is_not_exactly_plain_goes_to_rmcp() {
        let not_plain: [&[u8]; 13] = [
            br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"status"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status"},"params":{"name":"inbox_pull"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status","name":"inbox_pull"}}"#,
            br#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"tools/call","params":{"name":"status"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status","_meta":{}}}"#,
            br#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"status"}}"#,
            br#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"status"}}"#,
            br#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"status"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"status"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status","arguments":[]}}"#,
            br#"["2.0",1,"tools/call",{"name":"status"}]"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["status",{}]}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"status"}} {}"#,
        ];
        for body in not_plain {
            assert!(
                PlainCall::parse(body).is_none(),
                "{}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn a_typed_answer_is_written_as_rmcp_would_write_it() {
        let out = serde_json::json!({
            "records": [{"seq": 1, "text": "a \"quoted\"\nline \\ back\tslash \u{1} é 😀 \u{2028}"}],
            "next": null, "n": -3.5, "ok": true,
        });
        let Ok(Reply::Json(json)) = super::super::tools::tool_answer(&out) else {
            panic!("a typed answer");
        };
        for id in [
            RequestId::String("r-\"1\"\\".into()),
            RequestId::Number(-42),
        ] {
            let body = typed_answer(&id, &json).expect("written");
            let text = std::str::from_utf8(&body).expect("UTF-8");
            let data = text
                .strip_prefix("data: ")
                .and_then(|t| t.strip_suffix("\n\n"))
                .expect("one SSE event");
            assert!(!data.contains('\n'), "one line: {data}");
            let direct: serde_json::Value = serde_json::from_str(data).expect("JSON");
            let via_rmcp = Reply::Json(json.clone()).into_result().unwrap();
            let via_rmcp = serde_json::to_value(message(Ok(via_rmcp), id)).unwrap();
            assert_eq!(direct, via_rmcp);
            assert_eq!(direct["result"]["structuredContent"], out);
        }
    }

    #[test]
    fn an_answer_with_rendered_messages_is_the_event_of_its_json() {
        use crate::mcp::rendered::{Renderings, answer_with_messages, tests::record};
        let renderings = Renderings::default();
        let fence = crate::mcp::fence::Fence::new();
        let envelope = serde_json::json!({"consumer": "c\"", "messages": [], "n": 1});
        let records = vec![
            Arc::new(record(1, "a \"quoted\"\nline \\ \u{1} é")),
            Arc::new(record(2, "")),
        ];
        let Ok(Reply::Rendered(a)) = answer_with_messages(&renderings, &envelope, records, &fence)
        else {
            panic!("a rendered answer");
        };
        for id in [RequestId::String("r-\"1\"".into()), RequestId::Number(7)] {
            assert_eq!(
                rendered_answer(&id, &a).expect("written"),
                typed_answer(&id, &a.json()).expect("written"),
            );
        }
    }

    #[tokio::test]
    async fn the_future_of_a_tool_call_stays_small() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = crate::paths::Paths::resolve(
            Some(tmp.path().join("data")),
            Some(tmp.path().join("config.toml")),
        )
        .unwrap();
        let engine = crate::engine::Engine::open(
            paths,
            crate::config::Config::default(),
            crate::engine::Mode::Primary,
        )
        .unwrap();
        let hub = Hub::new(Arc::new(engine), Default::default());
        let placeholders = crate::governance::phi_view::Placeholders::default();
        let who = ClientIdentity::uncleared("t");
        let call = hub.call_tool(&who, "t", &placeholders, "status", JsonObject::new());
        // The lane and rmcp's handler move it into their own futures, which are copied as they
        // are boxed and polled: with a vault call's future inline it was 35 kB (the lane's 72).
        let size = std::mem::size_of_val(&call);
        assert!(size <= 2048, "Hub::call_tool's future is {size} bytes");
    }

    async fn body(resp: Response) -> String {
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .expect("body");
        String::from_utf8(bytes.to_vec()).expect("UTF-8")
    }

    #[tokio::test]
    async fn errors_and_built_results_are_one_sse_event_without_result_type() {
        let resp = sse_answer(&message(
            Ok(CallToolResult::success(vec![])),
            RequestId::Number(1),
        ));
        assert_eq!(
            resp.headers().get(header::CONTENT_TYPE).unwrap(),
            "text/event-stream"
        );
        let text = body(resp).await;
        let data = text
            .strip_prefix("data: ")
            .and_then(|t| t.strip_suffix("\n\n"))
            .expect("one SSE event");
        let v: serde_json::Value = serde_json::from_str(data).expect("JSON");
        assert_eq!(v["id"], 1);
        assert!(v["result"].get("resultType").is_none(), "{v}");
        let err = body(sse_answer(&message(
            Err(McpError::invalid_params("nope", None)),
            RequestId::Number(2),
        )))
        .await;
        let v: serde_json::Value =
            serde_json::from_str(err.trim().strip_prefix("data: ").expect("data")).expect("JSON");
        assert_eq!(v["id"], 2);
        assert_eq!(v["error"]["code"], -32602);
    }
}
