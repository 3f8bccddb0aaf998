//! Text helpers of the console: times (the ground floor's `clock`) and draft ages.

use time::OffsetDateTime;

// Times are shown one way everywhere (console, CLI, `watch`, `doctor`): the ground floor's.
pub use crate::clock::{fmt_time, zone_name};

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
