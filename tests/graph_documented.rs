//! Microsoft Graph as documented (issue 22), against the strict fake: a body-less POST carries
//! `Content-Length: 0`; Teams uses only the documented chat-message query options, pages with
//! `@odata.nextLink`, takes in edits and re-reads nothing; ids are requested immutable, so an
//! event is not taken in twice; `Retry-After` is honoured on 503 and 504 (seconds or HTTP-date);
//! query timestamps have whole seconds. (Exactly-once by the send-id property is in
//! `graph_engine.rs`, where the executor runs.)

mod graph_support;

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use graph_support::{CLIENT_ID, Chat, ChatMsg, Fake, LinkStyle, RemoteDraft};
use opsdesk::config::GraphProfile;
use opsdesk::domain::NewMessage;
use opsdesk::sources::graph::calendar::CalendarSync;
use opsdesk::sources::graph::mail::MailSync;
use opsdesk::sources::graph::teams::TeamsSync;
use opsdesk::sources::graph::{Account, Deliver, send};
use opsdesk::sources::poller::next_delay;
use serde_json::json;

fn account(fake: &Fake, dir: &Path) -> Arc<Account> {
    let g = GraphProfile {
        tenant: "organizations".into(),
        client_id: CLIENT_ID.into(),
        time_zone: Some("UTC".into()),
        mail_interval_secs: 60,
        chat_interval_secs: 5,
        calendar_interval_secs: 300,
        authority_url: Some(fake.authority()),
        base_url: Some(fake.graph_base()),
    };
    let scopes = ["offline_access"];
    graph_support::account(
        graph_support::signed_in(fake, &g, dir, &scopes, &scopes),
        dir,
        "UTC",
    )
}

/// A sink that keeps what it is given, deduplicated by id like the inbox.
#[derive(Clone, Default)]
struct Collect(Arc<Mutex<(Vec<NewMessage>, HashSet<String>)>>);

impl Collect {
    fn deliver(&self) -> Deliver {
        let me = self.clone();
        Arc::new(move |m: NewMessage| {
            let mut g = me.0.lock().unwrap();
            if g.1.insert(m.id.clone()) {
                g.0.push(m);
                Ok(true)
            } else {
                Ok(false)
            }
        })
    }
    fn items(&self) -> Vec<NewMessage> {
        self.0.lock().unwrap().0.clone()
    }
}

fn rfc3339(t: time::OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap()
}

#[tokio::test]
async fn a_bodyless_send_goes_out_with_content_length_zero() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    fake.with(|s| {
        s.drafts.insert(
            "AAMkD1".into(),
            RemoteDraft {
                id: "AAMkD1".into(),
                folder: "drafts".into(),
                send_id: None,
                subject: "s".into(),
                to: vec!["ann@fabrikam.com".into()],
                body: "b".into(),
                reply_to: None,
            },
        )
    });
    // The fake answers 411 Length Required to a POST with neither a length nor chunking.
    send::send_draft(&acct, "AAMkD1").await.unwrap();
    fake.with(|s| {
        let r = s
            .requests
            .iter()
            .find(|r| r.path.ends_with("/send"))
            .unwrap();
        assert_eq!(r.content_length.as_deref(), Some("0"));
        assert!(r.body.is_empty());
        assert_eq!(s.sent.len(), 1);
    });
}

fn chat_msg(id: usize, created: &str) -> ChatMsg {
    ChatMsg {
        id: format!("m{id}"),
        created: created.into(),
        modified: None,
        edited: None,
        from_id: "user-ann".into(),
        from_name: "Ann".into(),
        body: format!("message {id}"),
        message_type: "message".into(),
        attachments: Vec::new(),
    }
}

#[tokio::test]
async fn teams_pages_with_documented_filters_takes_in_edits_and_rereads_nothing() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    let now = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    let at = |secs: i64| rfc3339(now - time::Duration::seconds(secs));
    // 120 messages in the last hours: more than two pages of 50.
    fake.with(|s| {
        s.chats.push(Chat {
            id: "19:big@thread.v2".into(),
            messages: (0..120)
                .map(|i| chat_msg(i, &at(7200 - i as i64 * 10)))
                .collect(),
        })
    });
    let sink = Collect::default();
    let teams = TeamsSync::new(acct.clone());
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 120, "every page followed through @odata.nextLink");
    let items = sink.items();
    assert_eq!(items.first().unwrap().id, "teams/work/19:big@thread.v2/m0");
    assert_eq!(items.last().unwrap().id, "teams/work/19:big@thread.v2/m119");
    let pages = fake.with(|s| s.count("GET", "/chats/19:big@thread.v2/messages"));
    assert_eq!(pages, 3);

    // Ann edits an old message and writes a new one.
    fake.with(|s| {
        let c = &mut s.chats[0];
        c.messages[3].modified = Some(at(-2));
        c.messages[3].edited = Some(at(-2));
        c.messages[3].body = "message 3, corrected".into();
        c.messages.push(chat_msg(500, &at(-1)));
    });
    let before = fake.with(|s| s.requests.len());
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 2, "the edit and the new message: {r:?}");
    let items = sink.items();
    let edit = &items[items.len() - 1];
    assert!(
        edit.id.starts_with("teams/work/19:big@thread.v2/m3/edit/"),
        "{}",
        edit.id
    );
    assert_eq!(edit.meta["edited_of"], "teams/work/19:big@thread.v2/m3");
    assert_eq!(edit.body, "message 3, corrected");
    fake.with(|s| {
        let reads: Vec<_> = s.requests[before..]
            .iter()
            .filter(|r| r.path.ends_with("/messages"))
            .collect();
        assert_eq!(reads.len(), 1, "one page: only changed messages are read");
        // Documented ("List messages in a chat"): lastModifiedDateTime gt, ordered by it, and
        // a timestamp with whole seconds.
        let q = &reads[0].query;
        assert!(q.contains("$orderby=lastModifiedDateTime desc"), "{q}");
        let floor = q.split("lastModifiedDateTime gt ").nth(1).unwrap();
        let floor = floor.split('&').next().unwrap();
        assert!(!floor.contains('.'), "whole seconds: {floor}");
    });

    // Nothing changed: no chat is read again.
    let before = fake.with(|s| s.requests.len());
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.chats_checked), (0, 0));
    fake.with(|s| {
        assert!(
            !s.requests[before..]
                .iter()
                .any(|r| r.path.ends_with("/messages"))
        )
    });
}

#[tokio::test]
async fn an_event_keeps_its_id_because_immutable_ids_are_requested() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    fake.with(|s| {
        s.events.push(json!({
            "id": "AAMkEv1", "subject": "Standup",
            "start": {"dateTime": "2026-11-23T09:00:00.0000000", "timeZone": "UTC"},
            "end": {"dateTime": "2026-11-23T09:15:00.0000000", "timeZone": "UTC"},
            "organizer": {"emailAddress": {"name": "Ann", "address": "ann@fabrikam.com"}},
            "changeKey": "ZGR4Vg6W2k6ncLWjdkiyWwAAAAAXvQ==",
        }))
    });
    let sink = Collect::default();
    let cal = CalendarSync::new(acct);
    // The fake hands out a different id on every request unless immutable ids are asked for,
    // as Exchange ids change when an item is moved or updated.
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 1);
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 0, "same event, same id: not taken in twice");
    assert_eq!(sink.items()[0].meta["graph_id"], "AAMkEv1");
    assert_eq!(
        sink.items()[0].id,
        "AAMkEv1/rev/ZGR4Vg6W2k6ncLWjdkiyWwAAAAAXvQ=="
    );
    fake.with(|s| {
        for r in s
            .requests
            .iter()
            .filter(|r| r.path.ends_with("/calendarView"))
        {
            assert!(r.prefer.contains("IdType=\"ImmutableId\""), "{}", r.prefer);
            // Whole seconds in query timestamps (the fake refuses more than 7 digits).
            let start = r.query.split("startDateTime=").nth(1).unwrap();
            let start = start.split('&').next().unwrap();
            assert!(!start.contains('.'), "{start}");
        }
    });
}

#[tokio::test]
async fn retry_after_is_honoured_on_503_and_504_in_seconds_or_as_a_date() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());

    // A long Retry-After on a 503 is not waited out in-call, nor retried early: it goes back
    // to the poller's schedule, which waits at least that long.
    fake.with(|s| s.fail_with_retry_after("/me", 503, "120", 1));
    let e = acct.client.get("/me?$select=id", &[]).await.unwrap_err();
    assert_eq!(e.status(), Some(503));
    assert_eq!(e.retry_after(), Some(Duration::from_secs(120)));
    assert_eq!(fake.with(|s| s.count("GET", "/me")), 1, "no early retry");
    assert_eq!(
        next_delay(Duration::from_secs(5), 1, e.retry_after()),
        Duration::from_secs(120)
    );

    // An HTTP-date on a 504, far ahead.
    let later = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(600));
    fake.with(|s| s.fail_with_retry_after("/me", 504, &later, 1));
    let e = acct.client.get("/me?$select=id", &[]).await.unwrap_err();
    let ra = e.retry_after().unwrap();
    assert!(
        ra > Duration::from_secs(500) && ra <= Duration::from_secs(600),
        "{ra:?}"
    );

    // A short one is waited out and the GET then succeeds.
    fake.with(|s| s.fail_with_retry_after("/me", 503, "0", 1));
    let v = acct.client.get("/me?$select=id", &[]).await.unwrap();
    assert_eq!(v["id"], graph_support::ME);
}

#[tokio::test]
async fn a_chat_answering_403_or_404_is_skipped_and_the_other_chats_go_on_and_are_saved() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    let now = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    let at = |secs: i64| rfc3339(now - time::Duration::seconds(secs));
    let chat = |id: &str, n: usize, secs: i64| Chat {
        id: id.into(),
        messages: vec![ChatMsg {
            id: format!("m{n}"),
            ..chat_msg(n, &at(secs))
        }],
    };
    fake.with(|s| {
        s.chats.push(chat("19:a@thread.v2", 1, 600));
        s.chats.push(chat("19:locked@thread.v2", 2, 300));
        s.chats.push(chat("19:c@thread.v2", 3, 1200));
        // "List messages in a chat" of a chat the operator may no longer read.
        s.fail_code("/chats/19:locked@thread.v2/messages", 403, "Forbidden", 1);
    });
    let sink = Collect::default();
    let teams = TeamsSync::new(acct.clone());
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.chats_failed), (2, 1), "{r:?}");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("graph/work/teams.json")).unwrap())
            .unwrap();
    assert!(saved["chats"]["19:a@thread.v2"].is_string(), "{saved}");
    assert!(saved["chats"]["19:c@thread.v2"].is_string(), "{saved}");
    assert!(
        saved["chats"].get("19:locked@thread.v2").is_none(),
        "its cursor is not advanced: {saved}"
    );

    // Next poll it answers 404: skipped again; the others are not re-read.
    fake.with(|s| s.fail_code("/chats/19:locked@thread.v2/messages", 404, "NotFound", 1));
    let before = fake.with(|s| s.requests.len());
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.chats_checked, r.chats_failed), (0, 1, 1), "{r:?}");
    fake.with(|s| {
        assert!(
            !s.requests[before..]
                .iter()
                .any(|q| q.path.contains("19:a@thread.v2") || q.path.contains("19:c@thread.v2"))
        )
    });

    // A 410 Gone is the same: skipped, not a failed poll.
    fake.with(|s| s.fail_code("/chats/19:locked@thread.v2/messages", 410, "Gone", 1));
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.chats_checked, r.chats_failed), (0, 1, 1), "{r:?}");

    // Readable again: its message comes in.
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.chats_failed), (1, 0), "{r:?}");
    assert!(
        sink.items()
            .iter()
            .any(|m| m.id == "teams/work/19:locked@thread.v2/m2")
    );

    // A 429 still backs off the whole poll and saves nothing.
    fake.with(|s| {
        s.chats[0].messages.push(ChatMsg {
            id: "m4".into(),
            ..chat_msg(4, &at(-1))
        });
        s.fail(None, "/chats/19:a@thread.v2/messages", 429, Some(7), 1);
    });
    let saved_before = std::fs::read(tmp.path().join("graph/work/teams.json")).unwrap();
    let e = teams.poll_once(&sink.deliver()).await.unwrap_err();
    assert_eq!(e.retry_after(), Some(Duration::from_secs(7)));
    assert_eq!(
        std::fs::read(tmp.path().join("graph/work/teams.json")).unwrap(),
        saved_before
    );
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 1, "{r:?}");
}

#[tokio::test]
async fn a_rescheduled_or_cancelled_event_comes_in_again_with_its_current_times() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    fake.with(|s| {
        s.events.push(json!({
            "id": "AAMkEv1", "subject": "Review", "isCancelled": false,
            "start": {"dateTime": "2026-11-23T09:00:00.0000000", "timeZone": "UTC"},
            "end": {"dateTime": "2026-11-23T10:00:00.0000000", "timeZone": "UTC"},
            "organizer": {"emailAddress": {"name": "Ann", "address": "ann@fabrikam.com"}},
            "lastModifiedDateTime": "2026-11-22T07:00:00Z",
        }))
    });
    let sink = Collect::default();
    let cal = CalendarSync::new(acct);
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 1);
    // The organizer moves it to the afternoon.
    fake.with(|s| {
        s.update_event(
            "AAMkEv1",
            json!({
                "start": {"dateTime": "2026-11-23T14:00:00.0000000", "timeZone": "UTC"},
                "end": {"dateTime": "2026-11-23T15:00:00.0000000", "timeZone": "UTC"},
            }),
        )
    });
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 1);
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 0);
    // Then cancels it.
    fake.with(|s| s.update_event("AAMkEv1", json!({"isCancelled": true})));
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 1);
    let items = sink.items();
    assert_eq!(items.len(), 3);
    assert!(items.iter().all(|m| m.meta["graph_id"] == "AAMkEv1"));
    assert_eq!(items[0].meta["start"], "2026-11-23T09:00:00Z");
    assert_eq!(items[1].meta["start"], "2026-11-23T14:00:00Z");
    assert!(!items[1].meta.contains_key("cancelled"));
    assert_eq!(items[2].meta["cancelled"], true);
    assert!(items[0].ts < items[1].ts && items[1].ts < items[2].ts);
}

#[tokio::test]
async fn a_never_seen_chat_older_than_a_day_does_not_hide_a_known_chat_with_unread_messages() {
    // The engine was off for three days: a chat it never saw had its last message 30 h ago,
    // a known chat (read up to 72 h ago) got one 40 h ago. Once with a state file of an older
    // version (no record of the last scan), once with one.
    for with_scan_record in [false, true] {
        let fake = Fake::start().await;
        let tmp = tempfile::tempdir().unwrap();
        let acct = account(&fake, tmp.path());
        let now = time::OffsetDateTime::now_utc()
            .replace_nanosecond(0)
            .unwrap();
        let at = |hours: i64| rfc3339(now - time::Duration::hours(hours));
        fake.with(|s| {
            s.chats.push(Chat {
                id: "19:new@thread.v2".into(),
                messages: vec![chat_msg(1, &at(30))],
            });
            s.chats.push(Chat {
                id: "19:known@thread.v2".into(),
                messages: vec![chat_msg(2, &at(80)), chat_msg(3, &at(40))],
            });
        });
        let mut state = json!({
            "me": graph_support::ME,
            "chats": {"19:known@thread.v2": at(72)},
        });
        if with_scan_record {
            state["scanned"] = json!(at(72));
        }
        std::fs::create_dir_all(tmp.path().join("graph/work")).unwrap();
        std::fs::write(
            tmp.path().join("graph/work/teams.json"),
            serde_json::to_vec(&state).unwrap(),
        )
        .unwrap();
        let sink = Collect::default();
        let teams = TeamsSync::new(acct.clone());
        let r = teams.poll_once(&sink.deliver()).await.unwrap();
        assert_eq!(
            (r.new, r.chats_checked),
            (1, 1),
            "{with_scan_record}: {r:?}"
        );
        assert_eq!(sink.items()[0].id, "teams/work/19:known@thread.v2/m3");
        fake.with(|s| assert_eq!(s.count("GET", "/chats/19:new@thread.v2/messages"), 0));

        // Caught up: the next poll reads one page of the chat list and no chat.
        let before = fake.with(|s| s.requests.len());
        let r = teams.poll_once(&sink.deliver()).await.unwrap();
        assert_eq!((r.new, r.chats_checked), (0, 0), "{r:?}");
        fake.with(|s| {
            let reqs: Vec<_> = s.requests[before..]
                .iter()
                .map(|r| r.path.clone())
                .collect();
            assert_eq!(reqs, vec!["/v1.0/me/chats".to_string()], "{reqs:?}");
        });
    }
}

#[tokio::test]
async fn a_known_chat_skipped_by_a_poll_is_read_by_the_next_even_below_the_last_scan() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    let now = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    let at = |mins: i64| rfc3339(now - time::Duration::minutes(mins));
    fake.with(|s| {
        // Caught up 10 minutes ago.
        s.chats.push(Chat {
            id: "19:recent@thread.v2".into(),
            messages: vec![chat_msg(1, &at(10))],
        });
        // Unread since 30 minutes ago, but refused on the first try.
        s.chats.push(Chat {
            id: "19:later@thread.v2".into(),
            messages: vec![chat_msg(2, &at(120)), chat_msg(3, &at(30))],
        });
        s.fail_code("/chats/19:later@thread.v2/messages", 403, "Forbidden", 1);
    });
    let state = json!({
        "me": graph_support::ME,
        "chats": {"19:recent@thread.v2": at(10), "19:later@thread.v2": at(120)},
        "scanned": at(60),
    });
    std::fs::create_dir_all(tmp.path().join("graph/work")).unwrap();
    std::fs::write(
        tmp.path().join("graph/work/teams.json"),
        serde_json::to_vec(&state).unwrap(),
    )
    .unwrap();
    let sink = Collect::default();
    let teams = TeamsSync::new(acct.clone());
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.chats_failed), (0, 1), "{r:?}");
    // This scan is now the last complete one, and the skipped chat's message is older than
    // it: the scan must still go down to that chat's cursor.
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.chats_failed), (1, 0), "{r:?}");
    assert_eq!(sink.items()[0].id, "teams/work/19:later@thread.v2/m3");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("graph/work/teams.json")).unwrap())
            .unwrap();
    assert!(saved.get("behind").is_none(), "{saved}");
}

fn review_event(id: &str, hour: u32) -> serde_json::Value {
    json!({
        "id": id, "subject": format!("Review {id}"), "isCancelled": false,
        "start": {"dateTime": format!("2026-11-23T{hour:02}:00:00.0000000"), "timeZone": "UTC"},
        "end": {"dateTime": format!("2026-11-23T{hour:02}:30:00.0000000"), "timeZone": "UTC"},
        "organizer": {"emailAddress": {"name": "Ann", "address": "ann@fabrikam.com"}},
        "changeKey": format!("ck-{id}-1"),
        "lastModifiedDateTime": "2026-11-22T07:00:00Z",
    })
}

#[tokio::test]
async fn paging_links_written_relative_to_the_host_or_the_service_root_are_followed() {
    for style in [LinkStyle::HostRelative, LinkStyle::ServiceRelative] {
        let fake = Fake::start().await;
        let tmp = tempfile::tempdir().unwrap();
        let acct = account(&fake, tmp.path());
        fake.with(|s| {
            s.link_style = style;
            for i in 0..5 {
                s.add_mail(&format!("m{i}"), "ann@fabrikam.com", "x");
            }
            for i in 0..3 {
                s.events.push(review_event(&format!("AAMkEv{i}"), 9 + i));
            }
        });
        let sink = Collect::default();
        let mail = MailSync::new(acct.clone());
        let r = mail.poll_once(&sink.deliver()).await.unwrap();
        assert_eq!((r.new, r.pages), (5, 3), "{style:?}");
        // The relative delta link was saved resolved, and the next poll reads from it.
        fake.with(|s| s.add_mail("later", "bob@fabrikam.com", "y"));
        let r = mail.poll_once(&sink.deliver()).await.unwrap();
        assert_eq!((r.new, r.resynced), (1, false), "{style:?}");
        let cal = CalendarSync::new(acct);
        let r = cal.poll_once(&sink.deliver()).await.unwrap();
        assert_eq!((r.new, r.pages), (3, 2), "{style:?}");
        fake.with(|s| {
            // Every request went to the service's own paths (no doubled `/v1.0`).
            assert!(
                s.requests
                    .iter()
                    .all(|r| !r.path.contains("/v1.0/v1.0") && !r.path.contains("v1.0me")),
                "{style:?}"
            );
        });
    }
}

#[tokio::test]
async fn a_saved_delta_link_the_service_keeps_refusing_is_dropped_for_a_full_sync() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    fake.with(|s| {
        s.add_mail("a", "ann@fabrikam.com", "a");
        s.add_mail("b", "ann@fabrikam.com", "b");
    });
    let sink = Collect::default();
    let mail = MailSync::new(acct);
    mail.poll_once(&sink.deliver()).await.unwrap();
    // The saved link is refused with a code that is not one of the documented resync codes
    // (a 400 the service will give every time): the poll does not stay stuck on it.
    fake.with(|s| {
        s.add_mail("c", "ann@fabrikam.com", "c");
        s.fail_code("/messages/delta", 400, "invalidRequest", 1);
    });
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert!(r.resynced, "{r:?}");
    assert_eq!(
        (r.new, r.seen),
        (1, 3),
        "a and b again (deduplicated), and c"
    );
    assert_eq!(sink.items().len(), 3);
    // Throttling or a server error on the saved link is no reason to start over.
    fake.with(|s| s.fail_code("/messages/delta", 429, "TooManyRequests", 1));
    let e = mail.poll_once(&sink.deliver()).await.unwrap_err();
    assert_eq!(e.status(), Some(429));
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert!(!r.resynced && r.new == 0, "{r:?}");
}

#[tokio::test]
async fn a_resync_code_of_the_error_reference_starts_a_full_sync() {
    for code in [
        "resyncApplyDifferences",
        "resyncUploadDifferences",
        "SyncStateInvalid",
    ] {
        let fake = Fake::start().await;
        let tmp = tempfile::tempdir().unwrap();
        let acct = account(&fake, tmp.path());
        fake.with(|s| {
            s.add_mail("a", "ann@fabrikam.com", "a");
        });
        let sink = Collect::default();
        let mail = MailSync::new(acct);
        mail.poll_once(&sink.deliver()).await.unwrap();
        fake.with(|s| s.fail_code("/messages/delta", 409, code, 1));
        let r = mail.poll_once(&sink.deliver()).await.unwrap();
        assert!(r.resynced, "{code}: {r:?}");
        assert_eq!(sink.items().len(), 1, "{code}");
    }
}

#[tokio::test]
async fn events_are_versioned_by_change_key_since_select_returns_no_last_modified_time() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    fake.with(|s| s.events.push(review_event("AAMkEv1", 9)));
    let sink = Collect::default();
    let cal = CalendarSync::new(acct);
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 1);
    fake.with(|s| {
        let q = &s
            .requests
            .iter()
            .find(|r| r.path.ends_with("/calendarView"))
            .unwrap()
            .query;
        assert!(
            q.contains("changeKey") && !q.contains("lastModifiedDateTime"),
            "{q}"
        );
    });
    // Moved (Graph changes `changeKey`); the fake, like the service, sends no modification time.
    fake.with(|s| {
        s.update_event(
            "AAMkEv1",
            json!({"start": {"dateTime": "2026-11-23T14:00:00.0000000", "timeZone": "UTC"}}),
        )
    });
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 1);
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 0);
    let items = sink.items();
    assert_eq!(items[1].meta["start"], "2026-11-23T14:00:00Z");
    assert_ne!(items[0].id, items[1].id);
    // An event that carries no version at all still comes in again when it changes.
    fake.with(|s| {
        let mut ev = review_event("AAMkEv2", 11);
        ev.as_object_mut().unwrap().remove("changeKey");
        s.events.push(ev);
    });
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 1);
    fake.with(|s| {
        let ev = s.events.iter_mut().find(|e| e["id"] == "AAMkEv2").unwrap();
        ev["isCancelled"] = json!(true);
    });
    assert_eq!(cal.poll_once(&sink.deliver()).await.unwrap().new, 1);
    assert_eq!(sink.items().last().unwrap().meta["cancelled"], true);
}

#[tokio::test]
async fn all_day_and_free_events_are_marked_for_the_brief() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    fake.with(|s| {
        let mut ev = review_event("AAMkEv1", 0);
        ev["isAllDay"] = json!(true);
        ev["showAs"] = json!("oof");
        s.events.push(ev);
        let mut ev = review_event("AAMkEv2", 10);
        ev["showAs"] = json!("free");
        s.events.push(ev);
    });
    let sink = Collect::default();
    CalendarSync::new(acct)
        .poll_once(&sink.deliver())
        .await
        .unwrap();
    let items = sink.items();
    assert_eq!(items[0].meta["all_day"], true);
    assert_eq!(items[0].meta["show_as"], "oof");
    assert!(!items[1].meta.contains_key("all_day"));
    assert_eq!(items[1].meta["show_as"], "free");
}

#[tokio::test]
async fn a_mail_naming_reply_to_records_where_a_reply_goes() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    fake.with(|s| {
        s.add_mail("list mail", "ann@fabrikam.com", "x");
        s.inbox[0].reply_to = vec!["team-list@fabrikam.com".into()];
    });
    let sink = Collect::default();
    MailSync::new(acct)
        .poll_once(&sink.deliver())
        .await
        .unwrap();
    let m = &sink.items()[0];
    assert_eq!(m.meta["reply_to"], json!(["team-list@fabrikam.com"]));
    assert_eq!(m.meta["is_read"], false);
}

#[tokio::test]
async fn an_error_names_its_request_id_and_a_body_that_is_no_json_says_what_came_back() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    let cal = CalendarSync::new(acct);
    // Graph's error JSON: its innerError's request id is what Microsoft's support asks for.
    fake.with(|s| s.fail_code("/me/calendarView", 400, "ErrorInvalidParameter", 1));
    let e = cal
        .poll_once(&Collect::default().deliver())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("400: ErrorInvalidParameter")
            && e.contains("request-id 00000000-0000-0000-0000-000000000001"),
        "{e}"
    );
    // A gateway's HTML page (a 502 is retried, then reported).
    fake.with(|s| {
        s.fail_with_html(
            "/me/calendarView",
            502,
            "<html><body><h1>502 Bad Gateway</h1></body></html>",
            10,
        )
    });
    let e = cal
        .poll_once(&Collect::default().deliver())
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("502") && e.contains("502 Bad Gateway"), "{e}");
}

#[tokio::test]
async fn a_deleted_event_comes_in_as_removed_and_one_outside_the_window_is_only_forgotten() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    let soon = time::OffsetDateTime::now_utc() + time::Duration::hours(3);
    let at = |t: time::OffsetDateTime| json!({"dateTime": rfc3339(t).trim_end_matches('Z'), "timeZone": "UTC"});
    fake.with(|s| {
        for id in ["AAMkEv1", "AAMkEv2"] {
            let mut ev = review_event(id, 9);
            ev["start"] = at(soon);
            ev["end"] = at(soon + time::Duration::minutes(30));
            s.events.push(ev);
        }
    });
    let sink = Collect::default();
    let cal = CalendarSync::new(acct);
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.removed), (2, 0));
    // The organizer deletes one (no `isCancelled`: it is just no longer listed).
    fake.with(|s| s.events.retain(|e| e["id"] != "AAMkEv1"));
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.removed), (0, 1), "{r:?}");
    let last = sink.items().last().unwrap().clone();
    assert_eq!(last.meta["graph_id"], "AAMkEv1");
    assert_eq!(last.meta["removed"], true);
    assert_eq!(last.meta["cancelled"], true);
    assert_eq!(last.subject.as_deref(), Some("Review AAMkEv1"));
    // Said once, not on every poll.
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.removed), (0, 0), "{r:?}");
    // A view cut short by a failure marks nothing.
    fake.with(|s| s.fail_code("/me/calendarView", 400, "ErrorInvalidParameter", 1));
    cal.poll_once(&sink.deliver()).await.unwrap_err();
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.removed, 0, "{r:?}");
}

#[tokio::test]
async fn a_chat_message_s_shared_file_card_and_quoted_reply_come_in_as_text() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path());
    let now = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    // Shapes from the chatMessageAttachment reference and the "List messages in a chat"
    // example: the body holds only `<attachment id=…>` placeholders.
    let mut m = chat_msg(1, &rfc3339(now - time::Duration::minutes(5)));
    m.body =
        r#"See below <attachment id="153fa47d"></attachment><attachment id="card1"></attachment>"#
            .into();
    m.attachments = vec![
        json!({
            "id": "153fa47d", "contentType": "reference",
            "contentUrl": "https://contoso.sharepoint.com/sites/x/Shared%20Documents/Q3.xlsx",
            "content": null, "name": "Q3.xlsx", "thumbnailUrl": null
        }),
        json!({
            "id": "card1", "contentType": "application/vnd.microsoft.card.adaptive",
            "contentUrl": null, "name": null, "thumbnailUrl": null,
            "content": json!({
                "type": "AdaptiveCard", "version": "1.4",
                "body": [
                    {"type": "TextBlock", "text": "Approval needed"},
                    {"type": "FactSet", "facts": [{"title": "Due", "value": "Friday 5 pm"}]}
                ]
            }).to_string()
        }),
        json!({
            "id": "1616883610068", "contentType": "messageReference",
            "contentUrl": null, "name": null, "thumbnailUrl": null,
            "content": json!({
                "messageId": "1616883610068",
                "messagePreview": "can you send the numbers?",
                "messageSender": {"application": null, "device": null,
                    "user": {"id": "u2", "displayName": "Bob <b>"}}
            }).to_string()
        }),
    ];
    fake.with(|s| {
        s.chats.push(Chat {
            id: "19:att@thread.v2".into(),
            messages: vec![m],
        })
    });
    let sink = Collect::default();
    TeamsSync::new(acct)
        .poll_once(&sink.deliver())
        .await
        .unwrap();
    let body = &sink.items()[0].body;
    assert!(body.starts_with("See below"), "{body}");
    for part in [
        "Shared file: Q3.xlsx &lt;https://contoso.sharepoint.com/sites/x/Shared%20Documents/Q3.xlsx&gt;",
        "Card (adaptive): Approval needed · Due: Friday 5 pm",
        "In reply to Bob &lt;b&gt;: &quot;can you send the numbers?&quot;",
    ] {
        assert!(body.contains(part), "{part} in {body}");
    }
}
