//! What a date or an age given on a command line means: one rule for every command (`compress`,
//! `du`, `usage`, `search`), so `--older-than 7d` or `--since 2025-09-25` reads the same
//! everywhere.
//!
//! - An age ([`parse_age`]): a whole number with a unit, `d`, `h`, `m` or `s` (`7d`, `12h`,
//!   `30m`, `45s`); a bare number is days.
//! - A day ([`parse_day`]): `YYYY-MM-DD` or `YYYYMMDD`.
//! - A moment ([`parse_instant_ms`]): an RFC 3339 time, or a day, which means the start of
//!   that day in the zone days are counted in, or for the end of a range the start of the
//!   next day.
//! - The zone days are counted in ([`day_zone`]): the IANA zone a command was given
//!   (`--timezone`), else the local zone (the `TZ` environment variable when it names one, as
//!   every Unix program reads it, then the system's), else UTC (said so). `usage` groups responses by day
//!   in it and `search` reads `--since`/`--until` days in it: a day means the same everywhere.

use std::time::Duration;

use chrono::{DateTime, Days, NaiveDate, TimeZone};
use chrono_tz::Tz;

/// Why an age argument is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgeError {
    /// It does not start with a whole number.
    #[error("`{0}` is not an age like 7d, 12h, 30m or 0")]
    NotANumber(String),
    /// Its unit is not one of `d`, `h`, `m`, `s`.
    #[error("`{0}`: the unit must be d, h, m or s")]
    Unit(String),
}

/// Which end of a range a day stands for in [`parse_instant_ms`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeEnd {
    /// The first moment counted: the day's start.
    Start,
    /// The first moment no longer counted: the next day's start.
    End,
}

/// Parses `7d`, `12h`, `30m`, `45s` or a bare number of days (surrounding spaces ignored).
pub fn parse_age(text: &str) -> Result<Duration, AgeError> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "d"),
    };
    let number: u64 = number
        .parse()
        .map_err(|_| AgeError::NotANumber(text.to_string()))?;
    let seconds = match unit {
        "d" => 86_400,
        "h" => 3_600,
        "m" => 60,
        "s" => 1,
        _ => return Err(AgeError::Unit(text.to_string())),
    };
    Ok(Duration::from_secs(number.saturating_mul(seconds)))
}

/// `duration` as [`parse_age`] reads it, in the largest unit that divides it (`7d`, `12h`,
/// `30m`, `45s`; `0` for none).
pub fn format_age(duration: Duration) -> String {
    match duration.as_secs() {
        0 => "0".to_string(),
        s if s % 86_400 == 0 => format!("{}d", s / 86_400),
        s if s % 3_600 == 0 => format!("{}h", s / 3_600),
        s if s % 60 == 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

/// Parses a day: `YYYY-MM-DD` or `YYYYMMDD`.
pub fn parse_day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(text, "%Y%m%d"))
        .ok()
}

/// Parses a moment as Unix milliseconds: an RFC 3339 time, or a day ([`parse_day`]) in
/// `zone`, whose start is taken for [`RangeEnd::Start`] and the next day's start for
/// [`RangeEnd::End`] (a day whose midnight a clock change skips starts at its first hour).
pub fn parse_instant_ms(text: &str, end: RangeEnd, zone: Tz) -> Option<i64> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Some(at.timestamp_millis());
    }
    let date = parse_day(text)?;
    let date = match end {
        RangeEnd::Start => date,
        RangeEnd::End => date.checked_add_days(Days::new(1)).unwrap_or(date),
    };
    (0..3).find_map(|hour| {
        let local = date.and_hms_opt(hour, 0, 0)?;
        zone.from_local_datetime(&local)
            .earliest()
            .map(|at| at.timestamp_millis())
    })
}

/// The zone days are counted in (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayZone {
    /// The zone.
    pub zone: Tz,
    /// No zone was given and the local one could not be told: UTC was taken.
    pub guessed: bool,
    /// `TZ` was set to something that names no IANA zone (a POSIX rule such as
    /// `CET-1CEST,M3.5.0`), so the system's zone was taken instead.
    pub unread_tz: Option<String>,
}

/// A `--timezone` that names no IANA zone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown time zone `{0}`: expected an IANA name such as Europe/Paris or UTC")]
pub struct UnknownZone(pub String);

/// The zone named `name` (an IANA name), else the local zone (`TZ`, then the system's), else
/// UTC.
pub fn day_zone(name: Option<&str>) -> Result<DayZone, UnknownZone> {
    let tz = std::env::var("TZ").ok();
    zone_from(name, tz.as_deref(), || iana_time_zone::get_timezone().ok())
}

/// [`day_zone`] with the environment's `TZ` and the system's zone as arguments: `--timezone`,
/// else `TZ` when it names an IANA zone (`America/New_York`, `:America/New_York`, or a path
/// into a `zoneinfo` folder), else the system's zone, else UTC.
pub(crate) fn zone_from(
    name: Option<&str>,
    tz: Option<&str>,
    system: impl FnOnce() -> Option<String>,
) -> Result<DayZone, UnknownZone> {
    let found = |zone: Tz| DayZone {
        zone,
        guessed: false,
        unread_tz: None,
    };
    if let Some(name) = name {
        let zone: Tz = name.parse().map_err(|_| UnknownZone(name.to_string()))?;
        return Ok(found(zone));
    }
    let tz = tz.filter(|tz| !tz.is_empty());
    if let Some(zone) = tz.and_then(zone_in_tz) {
        return Ok(found(zone));
    }
    let unread_tz = tz.map(str::to_string);
    Ok(match system().and_then(|name| name.parse::<Tz>().ok()) {
        Some(zone) => DayZone {
            unread_tz,
            ..found(zone)
        },
        None => DayZone {
            zone: Tz::UTC,
            guessed: true,
            unread_tz,
        },
    })
}

/// The IANA zone a `TZ` value names: `Area/City`, `:Area/City`, or a path ending in
/// `zoneinfo/Area/City`.
fn zone_in_tz(tz: &str) -> Option<Tz> {
    let name = tz.strip_prefix(':').unwrap_or(tz);
    let name = match name.rfind("zoneinfo/") {
        Some(at) => &name[at + "zoneinfo/".len()..],
        None => name,
    };
    name.parse().ok()
}

#[cfg(test)]
#[path = "dates_tests.rs"]
mod tests;
