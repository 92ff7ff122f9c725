//! The `timestamp` string of a rollout line: UTC with milliseconds, `2025-09-24T19:22:20.123Z`.
//!
//! Fixed width and always `Z`, so lines sort as text and every reader (ours, upstream's, a
//! person with `grep`) sees the same instant. Every recorded batch needs one, so the
//! formatting is done by hand into a fixed buffer (chrono's general RFC 3339 writer costs
//! several times more, which showed in the recorder benchmark).

use chrono::{DateTime, Datelike, Timelike, Utc};

/// Length of a line timestamp: `YYYY-MM-DDThh:mm:ss.mmmZ`.
pub(crate) const LINE_TIMESTAMP_LEN: usize = 24;

/// Formats `at` the way rollout lines and session meta carry time. Years outside 0..=9999
/// (which no clock produces) are clamped into four digits rather than widening the field.
pub fn format_line_timestamp(at: DateTime<Utc>) -> String {
    let mut out = [0u8; LINE_TIMESTAMP_LEN];
    put_second_prefix(&mut out, at);
    put_millis(&mut out, at);
    // Every byte written above is an ASCII digit or separator.
    String::from_utf8_lossy(&out).into_owned()
}

/// A line timestamp that is re-rendered only when the second changes.
///
/// A recorder stamps every call; sessions record many small calls within the same second,
/// and rebuilding the whole 24-byte text (plus a `String`) for each showed as a per-call cost
/// in the recorder benchmark. The cache keeps the text of the last second and rewrites only
/// the three millisecond digits, borrowing the result instead of allocating.
#[derive(Debug, Clone)]
pub(crate) struct LineTimestampCache {
    /// Unix second whose `YYYY-MM-DDThh:mm:ss.` prefix is in `text`; `None` before first use.
    second: Option<i64>,
    text: [u8; LINE_TIMESTAMP_LEN],
}

impl Default for LineTimestampCache {
    fn default() -> Self {
        Self::new()
    }
}

impl LineTimestampCache {
    /// An empty cache (the first call renders the full text).
    pub(crate) const fn new() -> Self {
        Self {
            second: None,
            text: [0u8; LINE_TIMESTAMP_LEN],
        }
    }

    /// `at` as a line timestamp; byte-for-byte what [`format_line_timestamp`] returns.
    pub(crate) fn format(&mut self, at: DateTime<Utc>) -> &str {
        let second = at.timestamp();
        if self.second != Some(second) {
            put_second_prefix(&mut self.text, at);
            self.text[LINE_TIMESTAMP_LEN - 1] = b'Z';
            self.second = Some(second);
        }
        put_millis(&mut self.text, at);
        // Only ASCII digits and separators are ever written, so this never fails; the
        // fallback keeps the signature panic-free.
        std::str::from_utf8(&self.text).unwrap_or("1970-01-01T00:00:00.000Z")
    }

    /// The current time as a line timestamp. Within a cached second this reads the clock and
    /// writes three digits; the calendar conversion runs only when the second changes.
    pub(crate) fn now(&mut self) -> &str {
        let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        match since_epoch {
            Ok(elapsed) if self.second == i64::try_from(elapsed.as_secs()).ok() => {
                put_digits(&mut self.text[20..23], elapsed.subsec_millis());
                std::str::from_utf8(&self.text).unwrap_or("1970-01-01T00:00:00.000Z")
            }
            // A new second (or a clock before 1970): the full conversion.
            _ => self.format(Utc::now()),
        }
    }
}

/// Writes `YYYY-MM-DDThh:mm:ss.` into the first 20 bytes and the closing `Z`.
fn put_second_prefix(out: &mut [u8; LINE_TIMESTAMP_LEN], at: DateTime<Utc>) {
    let year = at.year().clamp(0, 9999) as u32;
    put_digits(&mut out[0..4], year);
    out[4] = b'-';
    put_digits(&mut out[5..7], at.month());
    out[7] = b'-';
    put_digits(&mut out[8..10], at.day());
    out[10] = b'T';
    put_digits(&mut out[11..13], at.hour());
    out[13] = b':';
    put_digits(&mut out[14..16], at.minute());
    out[16] = b':';
    put_digits(&mut out[17..19], at.second());
    out[19] = b'.';
    out[23] = b'Z';
}

/// Writes the millisecond digits. A leap second shows as a nanosecond field past one second
/// in chrono; it is kept in 0..=999 ms.
fn put_millis(out: &mut [u8; LINE_TIMESTAMP_LEN], at: DateTime<Utc>) {
    put_digits(&mut out[20..23], (at.nanosecond() / 1_000_000).min(999));
}

/// The current time as a line timestamp.
pub(crate) fn now_line_timestamp() -> String {
    format_line_timestamp(Utc::now())
}

/// Writes `value` as zero-padded decimal digits filling `out` (higher digits are dropped).
fn put_digits(out: &mut [u8], mut value: u32) {
    for slot in out.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

#[cfg(test)]
mod tests {
    use chrono::{SecondsFormat, TimeZone};

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
        assert_eq!(now_line_timestamp().len(), LINE_TIMESTAMP_LEN);
        Ok(())
    }

    #[test]
    fn hand_formatting_agrees_with_chrono() -> Result<(), Box<dyn std::error::Error>> {
        let start = Utc
            .with_ymd_and_hms(1999, 12, 31, 23, 59, 58)
            .single()
            .ok_or("bad date")?;
        for step in 0..5_000i64 {
            let at = start + chrono::Duration::microseconds(step * 7_919_333);
            assert_eq!(
                format_line_timestamp(at),
                at.to_rfc3339_opts(SecondsFormat::Millis, true)
            );
        }
        Ok(())
    }

    /// The cache must give the uncached text whether calls stay within one second, cross a
    /// second, a day or a year, or go backwards (a clock stepped back).
    #[test]
    fn cached_timestamp_agrees_with_the_uncached_one() -> Result<(), Box<dyn std::error::Error>> {
        let start = Utc
            .with_ymd_and_hms(1999, 12, 31, 23, 59, 58)
            .single()
            .ok_or("bad date")?;
        let mut cache = LineTimestampCache::new();
        for step in 0..5_000i64 {
            // Mostly small forward steps (same second), with a jump back every 97 calls.
            let offset = if step % 97 == 0 {
                -1_500_000
            } else {
                step * 1_333
            };
            let at = start + chrono::Duration::microseconds(step * 400 + offset);
            assert_eq!(cache.format(at), format_line_timestamp(at));
        }
        assert_eq!(cache.now().len(), LINE_TIMESTAMP_LEN);
        Ok(())
    }
}
