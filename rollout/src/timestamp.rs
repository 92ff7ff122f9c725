//! The `timestamp` string of a rollout line: UTC with milliseconds, `2025-09-24T19:22:20.123Z`.
//!
//! Fixed width and always `Z`, so lines sort as text and every reader (ours, upstream's, a
//! person with `grep`) sees the same instant.

use chrono::{DateTime, SecondsFormat, Utc};

/// Formats `at` the way rollout lines and session meta carry time.
pub fn format_line_timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The current time as a line timestamp.
pub fn now_line_timestamp() -> String {
    format_line_timestamp(Utc::now())
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn line_timestamp_is_utc_with_milliseconds() -> Result<(), Box<dyn std::error::Error>> {
        let at = Utc
            .with_ymd_and_hms(2025, 9, 24, 19, 22, 20)
            .single()
            .ok_or("bad date")?;
        assert_eq!(format_line_timestamp(at), "2025-09-24T19:22:20.000Z");
        let later = at + chrono::Duration::microseconds(123_456);
        assert_eq!(format_line_timestamp(later), "2025-09-24T19:22:20.123Z");
        assert_eq!(now_line_timestamp().len(), 24);
        Ok(())
    }
}
