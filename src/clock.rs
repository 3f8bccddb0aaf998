//! Clock and time display on the ground floor: the local zone's offset and the one time
//! convention every surface shows (console, `inbox list`, `watch`, `doctor`).

use std::mem::MaybeUninit;

use time::{OffsetDateTime, UtcOffset};

/// The UTC offset of the local time zone at `t` (falls back to UTC).
///
/// `time`'s own `current_local_offset` refuses to work once a process has several threads,
/// because `localtime_r` reads `TZ` and another thread could be changing the environment at
/// that moment. opsdesk never modifies its environment after start-up, so the call is sound
/// here; it is made per record so a long-running watch follows daylight-saving changes.
pub fn local_offset(t: OffsetDateTime) -> UtcOffset {
    // time_t is 64 bits here but 32 on some targets.
    #[allow(irrefutable_let_patterns, clippy::useless_conversion)]
    let Ok(secs) = libc::time_t::try_from(t.unix_timestamp()) else {
        return UtcOffset::UTC;
    };
    let mut tm = MaybeUninit::<libc::tm>::zeroed();
    // SAFETY: `secs` and `tm` are valid for the call; localtime_r writes only into `tm` and
    // returns null on failure, in which case `tm` is not read. See above for the environment.
    let ok = unsafe { !libc::localtime_r(&secs, tm.as_mut_ptr()).is_null() };
    if !ok {
        return UtcOffset::UTC;
    }
    // SAFETY: localtime_r succeeded, so it filled `tm` (and it started zeroed anyway).
    let gmtoff = unsafe { tm.assume_init() }.tm_gmtoff;
    i32::try_from(gmtoff)
        .ok()
        .and_then(|s| UtcOffset::from_whole_seconds(s).ok())
        .unwrap_or(UtcOffset::UTC)
}

/// The zone every console time is shown in, e.g. `UTC` or `UTC+01:00`.
pub fn zone_name(tz: UtcOffset) -> String {
    if tz == UtcOffset::UTC {
        return "UTC".into();
    }
    let (h, m, _) = tz.as_hms();
    let sign = if tz.is_negative() { '-' } else { '+' };
    format!("UTC{sign}{:02}:{:02}", h.unsigned_abs(), m.unsigned_abs())
}

/// One time convention for the console, `inbox list`, `inbox show` and `watch`: the item's
/// own time, in the local zone, to the minute.
pub fn fmt_time(t: OffsetDateTime, tz: UtcOffset) -> String {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    t.to_offset(tz).format(&f).unwrap_or_default()
}

/// A cooldown's end (RFC 3339, from the router) in the operator's zone to the second, with
/// how long is left: `18:21:31 UTC (in 2m 05s)`; the date too when it is not today.
pub fn until_text(rfc3339: &str, now: time::OffsetDateTime, tz: time::UtcOffset) -> String {
    let Ok(t) =
        time::OffsetDateTime::parse(rfc3339, &time::format_description::well_known::Rfc3339)
    else {
        return rfc3339.to_string();
    };
    let local = t.to_offset(tz);
    let f = if local.date() == now.to_offset(tz).date() {
        time::macros::format_description!("[hour]:[minute]:[second]")
    } else {
        time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]")
    };
    let mut s = format!("{} {}", local.format(&f).unwrap_or_default(), zone_name(tz));
    let left = (t - now).whole_seconds();
    if left > 0 {
        let (h, m, sec) = (left / 3600, left / 60 % 60, left % 60);
        s.push_str(&match (h, m) {
            (0, 0) => format!(" (in {sec}s)"),
            (0, m) => format!(" (in {m}m {sec:02}s)"),
            (h, m) => format!(" (in {h}h {m:02}m)"),
        });
    }
    s
}
