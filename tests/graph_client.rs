//! Microsoft Graph client, sign-in and pollers against the in-process fake (loopback only):
//! paging and delta links, `@removed`, 410 resync, 429 with Retry-After, 5xx retried for GET
//! only, expired access token → refresh with rotation, revoked sign-in, the device-code
//! sequence, draft + send (202), Teams per-chat polling, calendarView paging.

mod graph_support;

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use graph_support::{CLIENT_ID, Chat, ChatMsg, Fake, ME};
use opsdesk::config::GraphProfile;
use opsdesk::domain::NewMessage;
use opsdesk::sources::graph::auth::{DeviceError, TokenStore, device_code_poll, device_code_start};
use opsdesk::sources::graph::calendar::CalendarSync;
use opsdesk::sources::graph::client::GraphError;
use opsdesk::sources::graph::mail::MailSync;
use opsdesk::sources::graph::teams::TeamsSync;
use opsdesk::sources::graph::{Account, Deliver, send};
use opsdesk::sources::poller::next_delay;

fn graph_profile(fake: &Fake, tz: &str) -> GraphProfile {
    GraphProfile {
        tenant: "organizations".into(),
        client_id: CLIENT_ID.into(),
        time_zone: Some(tz.into()),
        mail_interval_secs: 60,
        chat_interval_secs: 5,
        calendar_interval_secs: 300,
        authority_url: Some(fake.authority()),
        base_url: Some(fake.graph_base()),
    }
}

/// A signed-in account of profile `work` against the fake (refresh token seeded as after a
/// device-code login).
fn account(fake: &Fake, dir: &Path, tz: &str) -> Arc<Account> {
    let g = graph_profile(fake, tz);
    let scopes = ["offline_access", "Mail.ReadWrite"];
    graph_support::account(
        graph_support::signed_in(fake, &g, dir, &scopes, &scopes),
        dir,
        tz,
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

#[tokio::test]
async fn mail_delta_follows_next_links_keeps_the_delta_link_and_never_duplicates() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    let ids: Vec<String> = (0..5)
        .map(|i| {
            fake.with(|s| {
                s.add_mail(
                    &format!("hello {i}"),
                    "ann@fabrikam.com",
                    "<p>Hi <b>there</b></p>",
                )
            })
        })
        .collect();
    let sink = Collect::default();
    let mail = MailSync::new(acct.clone());

    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.pages, r.removed, r.resynced), (5, 3, 0, false));
    let got: Vec<String> = sink.items().iter().map(|m| m.id.clone()).collect();
    assert_eq!(got, ids, "Graph immutable ids are the record ids, in order");
    let state = std::fs::read_to_string(tmp.path().join("graph/work/mail.json")).unwrap();
    assert!(state.contains("$deltatoken="), "delta link saved: {state}");
    // Pages after the first came from the nextLink; every call asked for immutable ids.
    fake.with(|s| {
        let delta: Vec<_> = s
            .requests
            .iter()
            .filter(|r| r.path.ends_with("/delta"))
            .collect();
        assert_eq!(delta.len(), 3);
        assert!(delta[1].query.contains("$skiptoken="));
        assert!(
            delta
                .iter()
                .all(|r| r.prefer.contains("IdType=\"ImmutableId\""))
        );
    });

    // The HTML body goes through the same sanitizing ingestion as everything else.
    let rec = opsdesk::domain::to_record(sink.items()[0].clone()).unwrap();
    assert_eq!(rec.text.trim(), "Hi there");
    assert!(rec.untrusted);

    // A re-poll from the delta link sees nothing new; a new mail arrives exactly once.
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.pages), (0, 1));
    fake.with(|s| s.add_mail("later", "bob@fabrikam.com", "x"));
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.seen), (1, 1));
    assert_eq!(sink.items().len(), 6);
}

#[tokio::test]
async fn removed_entries_are_counted_not_ingested_and_an_expired_delta_token_resyncs() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    let a = fake.with(|s| s.add_mail("a", "ann@fabrikam.com", "a"));
    fake.with(|s| s.add_mail("b", "ann@fabrikam.com", "b"));
    let sink = Collect::default();
    let mail = MailSync::new(acct.clone());
    mail.poll_once(&sink.deliver()).await.unwrap();

    fake.with(|s| s.remove_mail(&a));
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.seen, r.removed), (0, 0, 1));

    // The service forgets the sync state: 410 syncStateNotFound → full resync, no duplicates.
    fake.with(|s| s.delta_expired_below = usize::MAX);
    fake.with(|s| s.add_mail("c", "ann@fabrikam.com", "c"));
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert!(r.resynced);
    assert_eq!((r.new, r.seen), (1, 2), "b again (deduplicated) and c");
    fake.with(|s| {
        assert_eq!(
            s.count("GET", "/delta"),
            4,
            "one page, one page, 410, one page"
        )
    });
    assert_eq!(sink.items().len(), 3);
}

#[tokio::test]
async fn throttling_returns_retry_after_and_the_schedule_honours_it() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    fake.with(|s| s.add_mail("a", "ann@fabrikam.com", "a"));
    fake.with(|s| s.fail(None, "/delta", 429, Some(7), 1));
    let sink = Collect::default();
    let mail = MailSync::new(acct.clone());
    let e = mail.poll_once(&sink.deliver()).await.unwrap_err();
    assert_eq!(e.retry_after(), Some(Duration::from_secs(7)));
    // A 429 is not retried in the call: one request only.
    fake.with(|s| assert_eq!(s.count("GET", "/delta"), 1));
    // The poller waits at least Retry-After even when its interval is shorter.
    assert_eq!(
        next_delay(Duration::from_secs(1), 1, e.retry_after()),
        Duration::from_secs(7)
    );
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 1);
}

#[tokio::test]
async fn server_errors_are_retried_for_get_but_never_for_post() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    fake.with(|s| s.add_mail("a", "ann@fabrikam.com", "a"));
    fake.with(|s| s.fail(None, "/delta", 503, None, 2));
    let sink = Collect::default();
    let r = MailSync::new(acct.clone())
        .poll_once(&sink.deliver())
        .await
        .unwrap();
    assert_eq!(r.new, 1);
    fake.with(|s| assert_eq!(s.count("GET", "/delta"), 3, "two 503s, then success"));

    fake.with(|s| s.fail(Some(axum::http::Method::POST), "/me/messages", 500, None, 1));
    let e = send::create_draft(&acct, "d-1", &["x@fabrikam.com".into()], &[], "s", "b")
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(500));
    fake.with(|s| assert_eq!(s.count("POST", "/me/messages"), 1, "a POST is not retried"));

    // GET retries are bounded: a persistent 5xx comes back as an error.
    fake.with(|s| s.fail(None, "/delta", 500, None, 100));
    let e = MailSync::new(acct)
        .poll_once(&sink.deliver())
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(500));
}

#[tokio::test]
async fn an_expired_access_token_is_refreshed_and_the_refresh_token_rotated() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    let store = TokenStore::new(tmp.path().join("tokens"));
    let first = store.load("work").unwrap().unwrap().refresh_token;

    acct.client.get("/me", &[]).await.unwrap();
    let second = store.load("work").unwrap().unwrap().refresh_token;
    assert_ne!(first, second, "the rotated refresh token is saved");

    fake.with(|s| s.expire_access_tokens());
    let me = acct.client.get("/me", &[]).await.unwrap();
    assert_eq!(me["id"], ME);
    let third = store.load("work").unwrap().unwrap().refresh_token;
    assert_ne!(second, third);
    fake.with(|s| {
        assert_eq!(s.refreshes, 2);
        assert_eq!(s.count("GET", "/me"), 2 + 1, "one 401, then the retry");
        // The old refresh tokens are dead; only the newest is accepted.
        assert!(!s.refresh_tokens.contains(&first));
        assert!(!s.refresh_tokens.contains(&second));
        assert!(s.refresh_tokens.contains(&third));
    });
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(store.path("work")).unwrap().permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    let text = std::fs::read_to_string(store.path("work")).unwrap();
    assert!(!text.contains("at-"), "no access token on disk");

    // Redeeming an old refresh token is refused by the identity platform.
    let resp = reqwest::Client::new()
        .post(format!(
            "{}/organizations/oauth2/v2.0/token",
            fake.authority()
        ))
        .form(&[
            ("grant_type", "refresh_token"),
            ("client_id", CLIENT_ID),
            ("refresh_token", &second),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 400);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
}

#[tokio::test]
async fn a_revoked_sign_in_is_reported_with_the_command_that_fixes_it() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    fake.with(|s| s.refresh_tokens.clear());
    let e = acct.client.get("/me", &[]).await.unwrap_err();
    assert!(e.is_login_required(), "{e}");
    assert!(e.to_string().contains("opsdesk login work"), "{e}");
    assert!(e.to_string().contains("invalid_grant"), "{e}");
}

#[tokio::test]
async fn device_code_flow_handles_pending_slow_down_expiry_and_denial() {
    let fake = Fake::start().await;
    let g = graph_profile(&fake, "UTC");
    let http = reqwest::Client::new();
    let scopes = vec!["offline_access".to_string(), "Mail.ReadWrite".to_string()];
    let dc = device_code_start(&http, &g, &scopes).await.unwrap();
    assert_eq!(dc.user_code, "FAKE-CODE");
    assert_eq!(dc.interval, 5);
    fake.with(|s| {
        let r = s.requests.last().unwrap();
        assert_eq!(r.path, "/organizations/oauth2/v2.0/devicecode");
        assert!(r.body.contains("offline_access"));
    });

    let waits = Arc::new(Mutex::new(Vec::new()));
    let sleep = |w: Arc<Mutex<Vec<u64>>>| {
        move |d: Duration| {
            w.lock().unwrap().push(d.as_secs());
            async {}
        }
    };
    fake.with(|s| {
        s.device_script = [
            "authorization_pending",
            "slow_down",
            "authorization_pending",
            "ok",
        ]
        .into()
    });
    let grant = device_code_poll(&http, &g, &dc, sleep(waits.clone()))
        .await
        .unwrap();
    assert!(grant.refresh_token.is_some());
    assert_eq!(
        *waits.lock().unwrap(),
        vec![5, 5, 10, 10],
        "slow_down adds 5 s for good"
    );

    // Trouble at the token endpoint mid-way (a 503 page, a 429 with its Retry-After) is polled
    // through: the operator may be signing in right now.
    waits.lock().unwrap().clear();
    fake.with(|s| s.device_script = ["503", "authorization_pending", "429", "ok"].into());
    let grant = device_code_poll(&http, &g, &dc, sleep(waits.clone()))
        .await
        .unwrap();
    assert!(grant.refresh_token.is_some());
    assert_eq!(
        *waits.lock().unwrap(),
        vec![5, 5, 5, 12],
        "the 429's 7 s added once"
    );
    // ...but not for ever.
    fake.with(|s| s.device_script = ["503"; 6].into());
    let e = device_code_poll(&http, &g, &dc, sleep(waits.clone()))
        .await
        .unwrap_err();
    assert!(matches!(e, DeviceError::Refused(_)), "{e}");

    fake.with(|s| s.device_script = ["authorization_pending", "expired_token"].into());
    let e = device_code_poll(&http, &g, &dc, sleep(waits.clone()))
        .await
        .unwrap_err();
    assert!(matches!(e, DeviceError::Expired), "{e}");

    fake.with(|s| s.device_script = ["access_denied"].into());
    let e = device_code_poll(&http, &g, &dc, sleep(waits.clone()))
        .await
        .unwrap_err();
    assert!(matches!(e, DeviceError::Declined), "{e}");
}

#[tokio::test]
async fn a_draft_is_created_marked_patched_and_sent_with_202() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    let id = send::create_draft(
        &acct,
        "draft-7",
        &["ann@fabrikam.com".into()],
        &[],
        "Plan",
        "first",
    )
    .await
    .unwrap();
    // Marked with the send id: found in Drafts by the documented extended-property filter.
    let in_drafts = send::find_by_send_id(&acct, send::DRAFTS, "draft-7").await;
    assert_eq!(in_drafts.unwrap().as_deref(), Some(id.as_str()));
    let in_sent = send::find_by_send_id(&acct, send::SENT_ITEMS, "draft-7").await;
    assert_eq!(in_sent.unwrap(), None);
    send::set_content(
        &acct,
        &id,
        "draft-7",
        &["ann@fabrikam.com".into()],
        "Plan",
        "approved text",
    )
    .await
    .unwrap();
    send::send_draft(&acct, &id).await.unwrap();
    let in_sent = send::find_by_send_id(&acct, send::SENT_ITEMS, "draft-7").await;
    assert_eq!(in_sent.unwrap().as_deref(), Some(id.as_str()));
    assert_eq!(
        send::find_by_send_id(&acct, send::SENT_ITEMS, "draft-8")
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        send::find_by_id(&acct, send::DRAFTS, &id).await.unwrap(),
        None
    );
    fake.with(|s| {
        assert_eq!(s.sent.len(), 1);
        assert_eq!(s.sent[0].body, "approved text");
        assert_eq!(s.sent[0].to, vec!["ann@fabrikam.com".to_string()]);
    });
    // Sending again is refused by the service (it is no longer a draft).
    assert!(send::send_draft(&acct, &id).await.is_err());
    fake.with(|s| assert_eq!(s.sent.len(), 1));
}

fn msg(id: &str, created: &str, from: &str, body: &str, kind: &str) -> ChatMsg {
    ChatMsg {
        id: id.into(),
        created: created.into(),
        modified: None,
        edited: None,
        from_id: from.into(),
        from_name: format!("name of {from}"),
        body: body.into(),
        message_type: kind.into(),
        attachments: Vec::new(),
    }
}

#[tokio::test]
async fn teams_reads_changed_chats_since_the_last_seen_time_skipping_own_and_system_messages() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    let now = time::OffsetDateTime::now_utc();
    let at = |mins: i64| {
        (now - time::Duration::minutes(mins))
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap()
    };
    fake.with(|s| {
        s.chats.push(Chat {
            id: "19:abc@thread.v2".into(),
            messages: vec![
                msg(
                    "1",
                    &at(30),
                    "user-ann",
                    "<p>Can you review?</p>",
                    "message",
                ),
                msg("2", &at(20), ME, "sure", "message"),
                msg(
                    "3",
                    &at(10),
                    "user-ann",
                    "member added",
                    "systemEventMessage",
                ),
                msg("4", &at(5), "user-ann", "thanks!", "message"),
            ],
        });
        s.chats.push(Chat {
            id: "19:old@thread.v2".into(),
            messages: vec![msg("9", &at(60 * 48), "user-bob", "ancient", "message")],
        });
    });
    let sink = Collect::default();
    let teams = TeamsSync::new(acct.clone());
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 2, "{r:?}");
    assert_eq!(r.skipped, 2);
    let items = sink.items();
    assert_eq!(items[0].id, "teams/work/19:abc@thread.v2/1");
    assert_eq!(items[1].id, "teams/work/19:abc@thread.v2/4");
    assert_eq!(items[0].thread_id.as_deref(), Some("19:abc@thread.v2"));

    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(
        (r.new, r.chats_checked),
        (0, 0),
        "nothing changed, no chat read"
    );
    fake.with(|s| {
        s.chats[0]
            .messages
            .push(msg("5", &at(1), "user-ann", "one more", "message"))
    });
    let r = teams.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 1);
    fake.with(|s| {
        assert_eq!(s.count("GET", "/chats/19:old@thread.v2/messages"), 0);
        assert_eq!(s.count("GET", "getAllMessages"), 0);
        let q = &s
            .requests
            .iter()
            .rev()
            .find(|r| r.path.ends_with("/messages"))
            .unwrap()
            .query;
        assert!(q.contains("$filter=lastModifiedDateTime gt "), "{q}");
        assert!(q.contains("$orderby=lastModifiedDateTime desc"), "{q}");
    });
}

#[tokio::test]
async fn calendar_view_pages_in_the_profile_time_zone() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "Europe/Amsterdam");
    fake.with(|s| {
        for i in 0..3 {
            s.events.push(serde_json::json!({
                "id": format!("AAMkEv{i}"),
                "subject": format!("Meeting {i}"),
                "organizer": {"emailAddress": {"name": "Ann", "address": "ann@fabrikam.com"}},
                "start": {"dateTime": format!("2026-11-23T0{}:00:00.0000000", 9 + i), "timeZone": "Europe/Amsterdam"},
                "end": {"dateTime": format!("2026-11-23T0{}:30:00.0000000", 9 + i), "timeZone": "Europe/Amsterdam"},
                "location": {"displayName": "Room 1"},
                "bodyPreview": "agenda",
                "lastModifiedDateTime": "2026-11-20T10:00:00Z",
                "attendees": [],
            }));
        }
    });
    let sink = Collect::default();
    let cal = CalendarSync::new(acct);
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.pages), (3, 2));
    let items = sink.items();
    assert_eq!(items[0].meta["start"], "2026-11-23T08:00:00Z");
    assert_eq!(items[0].meta["start_local"], "2026-11-23T09:00:00.0000000");
    fake.with(|s| {
        let reqs: Vec<_> = s
            .requests
            .iter()
            .filter(|r| r.path.ends_with("/calendarView"))
            .collect();
        assert!(reqs.iter().all(
            |r| r.prefer.contains("outlook.timezone=\"Europe/Amsterdam\"")
                && r.prefer.contains("IdType=\"ImmutableId\"")
        ));
        assert!(reqs[0].query.contains("startDateTime=") && reqs[0].query.contains("endDateTime="));
    });
    let r = cal.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!(r.new, 0, "re-poll: no duplicates");
}

#[tokio::test]
async fn a_link_to_another_host_is_not_followed_with_the_token() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    let e = acct
        .client
        .get("http://127.0.0.2:9/v1.0/me", &[])
        .await
        .unwrap_err();
    assert!(matches!(e, GraphError::Invalid(_)), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refresh_does_not_wait_for_the_token_lock_and_never_overwrites_a_newer_token() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    let store = TokenStore::new(tmp.path().join("tokens"));
    let first = store.load("work").unwrap().unwrap().refresh_token;
    // Another process holds the token lock (e.g. an `opsdesk login` saving a new sign-in).
    let lock =
        opsdesk::store::jsonl::FileLock::exclusive(&tmp.path().join("tokens/.work.lock")).unwrap();
    let a = acct.clone();
    let call = tokio::spawn(async move { a.client.get("/me", &[]).await });
    // The token request goes out while the lock is held: nothing blocks on it.
    for _ in 0..500 {
        if fake.with(|s| s.refreshes) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        fake.with(|s| s.refreshes),
        1,
        "refresh went out under the lock"
    );
    // Meanwhile the other process saved a different sign-in: it must survive our rotation.
    let mut newer = store.load("work").unwrap().unwrap();
    newer.refresh_token = fake.with(|s| s.issue_refresh_token());
    store.save("work", &newer).unwrap();
    drop(lock);
    assert_eq!(call.await.unwrap().unwrap()["id"], ME);
    let now = store.load("work").unwrap().unwrap().refresh_token;
    assert_eq!(now, newer.refresh_token, "the newer sign-in is kept");
    assert_ne!(now, first);
}

#[tokio::test]
async fn calendar_times_in_windows_zone_names_are_placed_and_an_unknown_zone_keeps_the_event() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    // A Windows name, as the config allows; Graph answers in it (`Prefer: outlook.timezone`).
    let acct = account(&fake, tmp.path(), "Pacific Standard Time");
    let event = |id: &str, tz: &str| {
        serde_json::json!({
            "id": id, "subject": format!("Meeting {id}"),
            "organizer": {"emailAddress": {"name": "Ann", "address": "ann@fabrikam.com"}},
            "start": {"dateTime": "2026-11-23T09:00:00.0000000", "timeZone": tz},
            "end": {"dateTime": "2026-11-23T09:30:00.0000000", "timeZone": tz},
            "lastModifiedDateTime": "2026-11-20T10:00:00Z", "attendees": [],
        })
    };
    fake.with(|s| {
        s.events.push(event("AAMkEvPst", "Pacific Standard Time"));
        s.events.push(event("AAMkEvOdd", "Mars Standard Time"));
    });
    let sink = Collect::default();
    let r = CalendarSync::new(acct)
        .poll_once(&sink.deliver())
        .await
        .unwrap();
    assert_eq!(r.new, 2, "the event in an unknown zone is not dropped");
    let items = sink.items();
    let pst = items
        .iter()
        .find(|m| m.subject.as_deref() == Some("Meeting AAMkEvPst"))
        .unwrap();
    assert_eq!(pst.meta["start"], "2026-11-23T17:00:00Z");
    assert_eq!(pst.meta["end"], "2026-11-23T17:30:00Z");
    assert!(!pst.meta.contains_key("time_zone_unknown"));
    let odd = items
        .iter()
        .find(|m| m.subject.as_deref() == Some("Meeting AAMkEvOdd"))
        .unwrap();
    assert!(!odd.meta.contains_key("start"));
    assert_eq!(odd.meta["start_local"], "2026-11-23T09:00:00.0000000");
    assert_eq!(odd.meta["time_zone"], "Mars Standard Time");
    assert_eq!(odd.meta["time_zone_unknown"], true);
    fake.with(|s| {
        let r = s
            .requests
            .iter()
            .find(|r| r.path.ends_with("/calendarView"))
            .unwrap();
        assert!(
            r.prefer
                .contains("outlook.timezone=\"Pacific Standard Time\""),
            "{}",
            r.prefer
        );
    });
}

#[tokio::test]
async fn a_mail_sync_cut_short_resumes_at_the_saved_next_link() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    for i in 0..7 {
        fake.with(|s| s.add_mail(&format!("m{i}"), "ann@fabrikam.com", "x"));
    }
    // Two pages (of two) go through, then the third page is throttled.
    fake.with(|s| {
        s.fail(None, "/delta", 429, Some(5), 1);
        s.faults.last_mut().unwrap().pass = 2;
    });
    let sink = Collect::default();
    let mail = MailSync::new(acct.clone());
    let e = mail.poll_once(&sink.deliver()).await.unwrap_err();
    assert_eq!(e.retry_after(), Some(Duration::from_secs(5)));
    assert_eq!(sink.items().len(), 4);
    let state = std::fs::read_to_string(tmp.path().join("graph/work/mail.json")).unwrap();
    assert!(
        state.contains("next_link") && state.contains("$skiptoken="),
        "{state}"
    );

    // The next poll continues at page three, not at the start.
    let before = fake.with(|s| s.requests.len());
    let r = mail.poll_once(&sink.deliver()).await.unwrap();
    assert_eq!((r.new, r.pages), (3, 2), "{r:?}");
    fake.with(|s| {
        let first = s.requests[before..]
            .iter()
            .find(|r| r.path.ends_with("/delta"))
            .unwrap();
        assert!(first.query.contains("$skiptoken=full:4"), "{}", first.query);
    });
    let state = std::fs::read_to_string(tmp.path().join("graph/work/mail.json")).unwrap();
    assert!(
        state.contains("$deltatoken=") && !state.contains("next_link"),
        "{state}"
    );
    assert_eq!(sink.items().len(), 7);
}

#[tokio::test]
async fn a_resync_code_nested_in_inner_error_starts_a_full_resync() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    fake.with(|s| s.add_mail("a", "ann@fabrikam.com", "a"));
    let sink = Collect::default();
    let mail = MailSync::new(acct.clone());
    mail.poll_once(&sink.deliver()).await.unwrap();
    // A generic top-level code with the specific one nested (and cased) as services send it.
    for inner in ["syncStateNotFound", "ResyncRequired"] {
        fake.with(|s| {
            s.fail_code("/delta", 400, "BadRequest", 1);
            s.faults.last_mut().unwrap().inner_code = Some(inner.into());
        });
        let r = mail.poll_once(&sink.deliver()).await.unwrap();
        assert!(r.resynced, "{inner}: {r:?}");
    }
    assert_eq!(sink.items().len(), 1);
}

#[tokio::test]
async fn a_claims_challenge_asks_for_a_new_sign_in_and_delta_gets_say_json() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let acct = account(&fake, tmp.path(), "UTC");
    // Continuous Access Evaluation: 401 with a claims challenge, after the refresh too.
    fake.with(|s| {
        s.fail_code("/me", 401, "InvalidAuthenticationToken", 2);
        s.faults.last_mut().unwrap().www_authenticate = Some(
            "Bearer realm=\"\", authorization_uri=\"https://login.microsoftonline.com/common/oauth2/authorize\", error=\"insufficient_claims\", claims=\"eyJhY2Nlc3NfdG9rZW4iOnt9fQ==\"".into(),
        );
    });
    let e = acct.client.get("/me?$select=id", &[]).await.unwrap_err();
    assert!(e.is_login_required(), "{e}");
    assert!(e.to_string().contains("opsdesk login work"), "{e}");
    // Conditional Access on the resource: 403 with the code in the body.
    fake.with(|s| s.fail_code("/me", 403, "insufficient_claims", 1));
    let e = acct.client.get("/me?$select=id", &[]).await.unwrap_err();
    assert!(e.is_login_required(), "{e}");
    // An ordinary 403 stays what it is.
    fake.with(|s| s.fail_code("/me", 403, "Authorization_RequestDenied", 1));
    let e = acct.client.get("/me?$select=id", &[]).await.unwrap_err();
    assert_eq!(e.status(), Some(403));

    // The fake refuses a delta GET without the documented `Content-Type: application/json`.
    fake.with(|s| s.add_mail("a", "ann@fabrikam.com", "a"));
    let sink = Collect::default();
    MailSync::new(acct.clone())
        .poll_once(&sink.deliver())
        .await
        .unwrap();
    fake.with(|s| {
        assert!(
            s.requests
                .iter()
                .filter(|r| r.path.ends_with("/delta"))
                .all(|r| r.content_type.as_deref() == Some("application/json"))
        )
    });
}

/// A profile that names no zone for its calendar views asks Graph for the operator's zone
/// (`[operator] time_zone`, else the system's), as the guide says, not for UTC.
#[tokio::test]
async fn calendar_views_default_to_the_operators_zone() {
    let fake = Fake::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let mut profile = graph_profile(&fake, "x");
    profile.time_zone = None;
    let text = "[operator]\ntime_zone = \"America/Chicago\"\n[profiles.work]\n";
    let mut config =
        opsdesk::config::Config::from_toml_str(text, Path::new("config.toml")).unwrap();
    config.profiles.get_mut("work").unwrap().graph = Some(profile);
    let http = reqwest::Client::new();
    let acct = Account::for_profile(&config, tmp.path(), "work", &http).unwrap();
    assert_eq!(acct.time_zone, "America/Chicago");
}
