//! Calendar: `calendarView` over a rolling window (yesterday to two weeks ahead), in the
//! profile's time zone (`Prefer: outlook.timezone`), paged through `@odata.nextLink`.
//!
//! Each *version* of an event becomes one calendar record: its id is the immutable event id
//! (`Prefer: IdType="ImmutableId"`) plus `/rev/<version>`, so a re-poll of an unchanged event
//! does not duplicate it (the inbox dedups by id), while a rescheduled or cancelled one comes
//! in as a new record with its current start, end and `cancelled`. The version is the event's
//! `changeKey`, which Graph changes on every change of the event; `lastModifiedDateTime` is
//! not asked for, because the calendarView reference says it does not support `$select` (it
//! comes back only without one), and is used only when a service sends it anyway. An event
//! with neither is versioned by a digest of what the brief reads (start, end, cancelled,
//! subject, location), so a change still comes in. Inbox records are immutable, so the older
//! versions stay; readers group by `meta.graph_id` (the event id) and take the newest version
//! (the brief does, and leaves cancelled events out). An all-day event (`isAllDay`) and one
//! shown as free (`showAs`) are marked `meta.all_day` / `meta.show_as`: the brief lists them
//! but does not count them as conflicts. `meta.start`/`meta.end` are RFC 3339 (what the brief reads) when the
//! times can be placed on the UTC line: always for a UTC view; for another zone the offset
//! comes from the zone database, by IANA name or by Windows name ("Pacific Standard Time", which
//! Graph uses by default and echoes from `Prefer: outlook.timezone`) mapped to its IANA zone
//! through CLDR's windowsZones table (the `windows-timezones` crate). The wall-clock times Graph
//! returned are kept in `start_local`/`end_local` with `time_zone` either way; an event in a
//! zone neither name knows is still taken in, with a warning and `meta.time_zone_unknown`.
//!
//! A deleted event is not cancelled, and calendarView has no removal signal: it is simply no
//! longer listed. `calendar.json` keeps, per event, the start it last had; after a poll that
//! read every page, an event whose last start lies inside this poll's window but that was not
//! listed is gone (deleted, or moved out of the window) and comes in as a last version marked
//! `removed` and `cancelled`, so the brief stops showing it at its old time. Should it be
//! listed again (moved back in), its next version is newer and wins.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use super::client::GraphError;
use super::mail::IMMUTABLE_IDS;
use super::{Account, Deliver, deliver_all, parse_ts, party, rfc3339, rfc3339_precise};
use crate::domain::{Channel, NewMessage};

const LOOK_BACK: time::Duration = time::Duration::days(1);
const LOOK_AHEAD: time::Duration = time::Duration::days(14);
const MAX_PAGES: u32 = 20;
/// No `lastModifiedDateTime` (see the module comment): `changeKey` versions an event.
const SELECT: &str = "subject,organizer,start,end,location,bodyPreview,isCancelled,attendees,changeKey,isAllDay,showAs,isOnlineMeeting";

const STATE: &str = "calendar.json";

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CalendarReport {
    pub new: u64,
    pub seen: u64,
    pub pages: u32,
    /// Events listed before, inside the window, and no longer listed.
    pub removed: u64,
}

/// What a poll remembers of each event it listed (see the module comment).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct CalendarState {
    #[serde(default)]
    events: BTreeMap<String, Listed>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Listed {
    /// RFC 3339, on the UTC line.
    start: String,
    #[serde(default)]
    subject: Option<String>,
}

pub struct CalendarSync {
    account: Arc<Account>,
}

impl CalendarSync {
    pub fn new(account: Arc<Account>) -> CalendarSync {
        CalendarSync { account }
    }

    pub async fn poll_once(&self, deliver: &Deliver) -> Result<CalendarReport, GraphError> {
        let now = crate::domain::now();
        let prefer = format!(
            "outlook.timezone=\"{}\"",
            self.account.time_zone.replace(['"', '\\'], "")
        );
        let mut link = format!(
            "/me/calendarView?startDateTime={}&endDateTime={}&$select={SELECT}&$top=50",
            rfc3339(now - LOOK_BACK),
            rfc3339(now + LOOK_AHEAD)
        );
        let mut report = CalendarReport::default();
        let mut listed: BTreeMap<String, Listed> = BTreeMap::new();
        loop {
            // Immutable ids: an event updated or moved keeps its id, so an unchanged one is not
            // taken in twice.
            let page = self
                .account
                .client
                .get(&link, &[IMMUTABLE_IDS, &prefer])
                .await?;
            report.pages += 1;
            let mut batch = Vec::new();
            for ev in page["value"].as_array().into_iter().flatten() {
                report.seen += 1;
                if let Some(m) = self.to_message(ev) {
                    if let Some(start) = m.meta.get("start").and_then(|v| v.as_str()) {
                        listed.insert(
                            ev["id"].as_str().unwrap_or_default().to_owned(),
                            Listed {
                                start: start.to_owned(),
                                subject: m.subject.clone(),
                            },
                        );
                    }
                    batch.push(m);
                }
            }
            report.new += deliver_all(deliver, batch).await?;
            match self.account.client.page_link(&page, "@odata.nextLink")? {
                Some(next) if report.pages < MAX_PAGES => link = next,
                // A view cut short says nothing about what it did not read.
                Some(_) => return Ok(report),
                None => break,
            }
        }
        self.removals(
            listed,
            (now - LOOK_BACK, now + LOOK_AHEAD),
            deliver,
            &mut report,
        )
        .await?;
        Ok(report)
    }

    /// After a complete view: a last version for every event listed before whose start lies
    /// in `window` but that this view did not list; then remember this view's events.
    async fn removals(
        &self,
        listed: BTreeMap<String, Listed>,
        window: (time::OffsetDateTime, time::OffsetDateTime),
        deliver: &Deliver,
        report: &mut CalendarReport,
    ) -> Result<(), GraphError> {
        let before: CalendarState = self.account.load_state(STATE);
        let mut gone = Vec::new();
        for (id, was) in &before.events {
            let inside = parse_ts(&was.start).is_some_and(|t| t >= window.0 && t < window.1);
            if inside && !listed.contains_key(id) {
                gone.push(self.removed(id, was));
            }
        }
        report.removed = gone.len() as u64;
        deliver_all(deliver, gone).await?;
        // Events of the earlier view that are outside this window are forgotten: the window
        // moved past them, or they moved out of it (and were marked above if they were inside).
        self.account
            .save_state(STATE, &CalendarState { events: listed })
            .await
    }

    /// The last version of an event no longer listed.
    fn removed(&self, id: &str, was: &Listed) -> NewMessage {
        let mut meta = BTreeMap::new();
        meta.insert("graph_id".into(), json!(id));
        meta.insert("source".into(), json!("graph_calendar"));
        meta.insert("start".into(), json!(was.start));
        meta.insert("cancelled".into(), json!(true));
        meta.insert("removed".into(), json!(true));
        NewMessage {
            // One removal per listing: a listed-again event's later removal is a new record.
            id: format!("{id}/removed/{}", was.start),
            profile: self.account.profile.clone(),
            channel: Channel::Calendar,
            thread_id: None,
            from: crate::domain::Party::default(),
            to: Vec::new(),
            subject: was.subject.clone(),
            ts: crate::domain::now(),
            body: "No longer in the calendar at this time (deleted, or moved out of the next two weeks).".into(),
            html: false,
            meta,
            attachments: Vec::new(),
        }
    }

    fn to_message(&self, ev: &Value) -> Option<NewMessage> {
        let id = ev["id"].as_str()?.to_owned();
        let modified = ev["lastModifiedDateTime"].as_str().and_then(parse_ts);
        let mut meta = BTreeMap::new();
        meta.insert("graph_id".into(), json!(id));
        meta.insert("source".into(), json!("graph_calendar"));
        let mut unknown_zone = None;
        for key in ["start", "end"] {
            let local = ev[key]["dateTime"].as_str().unwrap_or("");
            let tz = ev[key]["timeZone"]
                .as_str()
                .unwrap_or(&self.account.time_zone);
            meta.insert(format!("{key}_local"), json!(local));
            meta.insert("time_zone".into(), json!(tz));
            match to_utc(local, tz) {
                Some(t) => {
                    meta.insert(key.into(), json!(rfc3339(t)));
                }
                None if !local.is_empty() => {
                    unknown_zone = Some(tz.to_owned());
                }
                None => {}
            }
        }
        if let Some(tz) = unknown_zone {
            // Kept, not dropped: the operator still sees the event and its local times.
            tracing::warn!(
                profile = %self.account.profile,
                zone = %crate::sanitize::one_line(&tz, 80),
                "calendar event {id}: unknown time zone (neither IANA nor Windows); its times are kept as wall-clock only"
            );
            meta.insert("time_zone_unknown".into(), json!(true));
        }
        if let Some(l) = ev["location"]["displayName"]
            .as_str()
            .filter(|s| !s.is_empty())
        {
            meta.insert("location".into(), json!(l));
        }
        if ev["isCancelled"].as_bool() == Some(true) {
            meta.insert("cancelled".into(), json!(true));
        }
        if ev["isAllDay"].as_bool() == Some(true) {
            meta.insert("all_day".into(), json!(true));
        }
        if let Some(show) = ev["showAs"].as_str().filter(|s| !s.is_empty()) {
            meta.insert("show_as".into(), json!(crate::sanitize::one_line(show, 32)));
        }
        // One record per version (see the module comment).
        let version = match (ev["changeKey"].as_str().filter(|k| !k.is_empty()), modified) {
            (Some(key), _) => key.to_owned(),
            (None, Some(m)) => rfc3339_precise(m),
            (None, None) => digest(ev),
        };
        let record_id = format!("{id}/rev/{version}");
        Some(NewMessage {
            id: record_id,
            profile: self.account.profile.clone(),
            channel: Channel::Calendar,
            thread_id: None,
            from: party(&ev["organizer"]["emailAddress"]),
            to: ev["attendees"]
                .as_array()
                .map(|a| a.iter().map(|r| party(&r["emailAddress"])).collect())
                .unwrap_or_default(),
            subject: ev["subject"].as_str().map(str::to_owned),
            ts: modified.unwrap_or_else(crate::domain::now),
            body: ev["bodyPreview"].as_str().unwrap_or("").to_owned(),
            html: false,
            meta,
            attachments: Vec::new(),
        })
    }
}

/// A version for an event that carries neither `changeKey` nor `lastModifiedDateTime`: a
/// digest of the fields a reader of the calendar acts on.
fn digest(ev: &Value) -> String {
    use sha2::Digest as _;
    let mut h = sha2::Sha256::new();
    for part in [
        &ev["start"],
        &ev["end"],
        &ev["isCancelled"],
        &ev["subject"],
        &ev["location"]["displayName"],
    ] {
        h.update(part.to_string().as_bytes());
        h.update([0]);
    }
    let d = h.finalize();
    format!("d{}", hex::encode(&d[..8]))
}

/// A wall-clock time in `tz` on the UTC line, when the zone is known.
fn to_utc(local: &str, tz: &str) -> Option<time::OffsetDateTime> {
    if local.is_empty() {
        return None;
    }
    let utc_like = matches!(
        tz.to_ascii_lowercase().as_str(),
        "utc" | "etc/utc" | "gmt" | "etc/gmt" | "z" | "coordinated universal time"
    );
    if utc_like {
        return parse_ts(local.trim_end_matches('Z'));
    }
    zoned(local, tz)
}

/// Convert with the zone database: an IANA name as it is, a Windows name through its IANA
/// zone; `None` for a name neither knows, in which case only the `_local` fields are kept.
fn zoned(local: &str, tz: &str) -> Option<time::OffsetDateTime> {
    let civil: jiff::civil::DateTime = local.trim_end_matches('Z').parse().ok()?;
    let zoned = civil
        .in_tz(tz)
        .or_else(|_| civil.in_tz(windows_to_iana(tz).ok_or(())?).map_err(|_| ()))
        .ok()?;
    let ts = zoned.timestamp();
    time::OffsetDateTime::from_unix_timestamp_nanos(ts.as_nanosecond()).ok()
}

/// The IANA zone of a Windows zone name (CLDR windowsZones, territory "001": e.g. "Pacific
/// Standard Time" → "America/Los_Angeles"), as Graph writes the names.
fn windows_to_iana(tz: &str) -> Option<&'static str> {
    tz.trim()
        .parse::<windows_timezones::WindowsTimezone>()
        .ok()
        .map(|w| w.tzdb_id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_clock_times_are_placed_on_the_utc_line() {
        let t = to_utc("2026-11-23T09:30:00.0000000", "UTC").unwrap();
        assert_eq!(rfc3339(t), "2026-11-23T09:30:00Z");
        let t = to_utc("2026-11-23T09:30:00.0000000", "Europe/Amsterdam").unwrap();
        assert_eq!(rfc3339(t), "2026-11-23T08:30:00Z");
        assert!(to_utc("2026-11-23T09:30:00", "Not/AZone").is_none());
    }

    #[test]
    fn windows_zone_names_are_placed_through_their_iana_zone() {
        let t = to_utc("2026-11-23T09:30:00.0000000", "Pacific Standard Time").unwrap();
        assert_eq!(rfc3339(t), "2026-11-23T17:30:00Z");
        // Summer time is the IANA zone's, not a fixed offset.
        let t = to_utc("2026-07-01T09:30:00.0000000", "W. Europe Standard Time").unwrap();
        assert_eq!(rfc3339(t), "2026-07-01T07:30:00Z");
        let t = to_utc("2026-11-23T09:30:00", "India Standard Time").unwrap();
        assert_eq!(rfc3339(t), "2026-11-23T04:00:00Z");
        assert!(to_utc("2026-11-23T09:30:00", "Mars Standard Time").is_none());
    }
}
