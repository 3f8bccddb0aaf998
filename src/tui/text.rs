//! Text helpers of the console that other surfaces use too (the CLI, `doctor`): times and
//! ages as the console shows them.

use time::{OffsetDateTime, UtcOffset};

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
/// A draft's age in the fewest characters that still read well: `45m`, `7h`, `3d4h`, `12d`.
pub fn age_text(created: OffsetDateTime, now: OffsetDateTime) -> String {
    let mins = (now - created).whole_minutes();
    if mins < 0 {
        return "-".into();
    }
    let (d, h, m) = (mins / 1440, mins / 60 % 24, mins % 60);
    match (d, h) {
        (0, 0) => format!("{m}m"),
        (0, h) => format!("{h}h"),
        (d, h) if d < 10 && h > 0 => format!("{d}d{h}h"),
        (d, _) => format!("{d}d"),
    }
}
