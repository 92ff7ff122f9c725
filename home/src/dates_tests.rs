use std::time::Duration;

use chrono::NaiveDate;

use super::*;

#[test]
fn ages_have_a_unit_or_are_days() {
    let day = 86_400;
    for (text, seconds) in [
        ("7d", 7 * day),
        (" 12h ", 12 * 3_600),
        ("30m", 30 * 60),
        ("45s", 45),
        ("0", 0),
        ("3", 3 * day),
    ] {
        assert_eq!(parse_age(text), Ok(Duration::from_secs(seconds)), "{text}");
    }
    assert_eq!(parse_age("d"), Err(AgeError::NotANumber("d".to_string())));
    assert_eq!(parse_age("7w"), Err(AgeError::Unit("7w".to_string())));
    assert_eq!(
        parse_age("7w").map_err(|err| err.to_string()),
        Err("`7w`: the unit must be d, h, m or s".to_string())
    );
}

#[test]
fn a_day_is_dashed_or_compact_and_a_moment_is_rfc_3339_or_a_utc_day() {
    let day = NaiveDate::from_ymd_opt(2025, 9, 25);
    assert_eq!(parse_day("2025-09-25"), day);
    assert_eq!(parse_day("20250925"), day);
    assert_eq!(parse_day("25/09/2025"), None);
    let start = 1_758_758_400_000; // 2025-09-25T00:00:00Z
    assert_eq!(
        parse_instant_ms("2025-09-25", RangeEnd::Start, Tz::UTC),
        Some(start)
    );
    assert_eq!(
        parse_instant_ms("2025-09-25", RangeEnd::End, Tz::UTC),
        Some(start + 86_400_000)
    );
    assert_eq!(
        parse_instant_ms("2025-09-25T02:00:00+02:00", RangeEnd::End, Tz::Asia__Tokyo),
        Some(start)
    );
    assert_eq!(
        parse_instant_ms("yesterday", RangeEnd::Start, Tz::UTC),
        None
    );
}

#[test]
fn a_day_is_counted_in_the_zone_days_are_counted_in() -> Result<(), UnknownZone> {
    let utc_start = 1_758_758_400_000; // 2025-09-25T00:00:00Z
    let tokyo = day_zone(Some("Asia/Tokyo"))?;
    assert!(!tokyo.guessed);
    // Tokyo is nine hours ahead: its 25 September starts at 15:00 UTC the day before.
    assert_eq!(
        parse_instant_ms("2025-09-25", RangeEnd::Start, tokyo.zone),
        Some(utc_start - 9 * 3_600_000)
    );
    // Sao Paulo's 2018-11-04 had no midnight (the clock went from 00:00 to 01:00).
    let sao_paulo = day_zone(Some("America/Sao_Paulo"))?.zone;
    assert_eq!(
        parse_instant_ms("2018-11-04", RangeEnd::Start, sao_paulo),
        Some(1_541_300_400_000) // 2018-11-04T01:00:00-02:00
    );
    assert_eq!(
        day_zone(Some("Mars/Olympus")),
        Err(UnknownZone("Mars/Olympus".to_string()))
    );
    Ok(())
}

#[test]
fn the_local_zone_is_tz_then_the_systems_and_timezone_wins() -> Result<(), UnknownZone> {
    let system = || Some("Europe/Paris".to_string());
    let new_york: Tz = chrono_tz::America::New_York;
    for tz in [
        "America/New_York",
        ":America/New_York",
        "/usr/share/zoneinfo/America/New_York",
    ] {
        assert_eq!(zone_from(None, Some(tz), system)?.zone, new_york, "{tz}");
    }
    let given = zone_from(Some("Asia/Tokyo"), Some("America/New_York"), system)?;
    assert_eq!(given.zone, chrono_tz::Asia::Tokyo);
    let unset = zone_from(None, None, system)?;
    assert_eq!(unset.zone, chrono_tz::Europe::Paris);
    assert_eq!(unset.unread_tz, None);
    let empty = zone_from(None, Some(""), system)?;
    assert_eq!(empty.zone, chrono_tz::Europe::Paris);
    let posix = zone_from(None, Some("CET-1CEST,M3.5.0,M10.5.0/3"), system)?;
    assert_eq!(posix.zone, chrono_tz::Europe::Paris);
    assert_eq!(
        posix.unread_tz.as_deref(),
        Some("CET-1CEST,M3.5.0,M10.5.0/3")
    );
    let nothing = zone_from(None, Some("nowhere"), || None)?;
    assert_eq!((nothing.zone, nothing.guessed), (Tz::UTC, true));
    Ok(())
}

#[test]
fn an_age_is_written_in_its_largest_whole_unit_and_read_back() -> Result<(), AgeError> {
    for (seconds, text) in [
        (0, "0"),
        (7 * 86_400, "7d"),
        (36 * 3_600, "36h"),
        (90, "90s"),
    ] {
        let age = Duration::from_secs(seconds);
        assert_eq!(format_age(age), text);
        assert_eq!(parse_age(text)?, age);
    }
    assert_eq!(format_age(Duration::from_secs(1_800)), "30m");
    Ok(())
}
