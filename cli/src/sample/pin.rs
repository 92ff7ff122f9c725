//! Pinning the volatile values of a freshly recorded sample, so regenerating it gives the same
//! bytes.
//!
//! The recorder stamps lines with the wall clock and core mints random ids (`msg_<uuid>`,
//! user message item ids, ...). None of that is under a caller's control, and it should not
//! be: a live session must use the real clock. So the generator records for real and then
//! rewrites, in the text of each line, only those values:
//! - the envelope `timestamp` of line `n` becomes the start time plus `n` seconds;
//! - the numbers of the time keys (`completed_at`, `started_at_ms`, `completed_at_ms`,
//!   `create_time`) become that same instant, in the key's unit; `started_at` becomes the
//!   time of the last `task_started` line (the start of the turn it belongs to);
//! - every UUID except the ones listed to keep (the thread id) is replaced, in order of first
//!   appearance, by a fixed sequence, so an id repeated across lines (an item and its events)
//!   stays the same id everywhere.
//!
//! Keys are matched as `"key":` in the raw JSON text. A quote inside a JSON string is always
//! escaped, so text a person typed can never look like a key here.

use std::collections::HashMap;

use chrono::{DateTime, Duration, SecondsFormat, Utc};

/// Keys whose number is a time in whole Unix seconds.
const SECONDS_KEYS: &[&str] = &["completed_at"];
/// The start of a turn: pinned to the line time on `task_started`, and on later lines (the
/// turn's `task_complete`) to the start of the turn they close, so durations stay coherent.
const START_KEY: &str = "started_at";
const TURN_STARTED_MARK: &str = "\"type\":\"task_started\"";
/// Keys whose number is a time in Unix milliseconds.
const MILLIS_KEYS: &[&str] = &["started_at_ms", "completed_at_ms"];
/// Keys whose number is a time in fractional Unix seconds.
const FRACTIONAL_KEYS: &[&str] = &["create_time"];
const ENVELOPE_PREFIX: &str = "{\"timestamp\":\"";

/// Rewrites the volatile values of `text` (a whole JSONL file); see the module docs.
pub fn pin_volatile_values(text: &str, start: DateTime<Utc>, keep_ids: &[&str]) -> String {
    let mut ids = IdMap::new(keep_ids);
    let mut out = String::with_capacity(text.len());
    let mut turn_start = None;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let at = start + Duration::seconds(i64::try_from(index).unwrap_or(i64::MAX / 2));
        if line.contains(TURN_STARTED_MARK) {
            turn_start = Some(at.timestamp());
        }
        let line = pin_envelope_timestamp(line, at);
        let line = pin_time_numbers(&line, at, turn_start.unwrap_or(at.timestamp()));
        out.push_str(&ids.replace_all(&line));
    }
    out
}

fn pin_envelope_timestamp(line: &str, at: DateTime<Utc>) -> String {
    let Some(rest) = line.strip_prefix(ENVELOPE_PREFIX) else {
        return line.to_string();
    };
    let Some(end) = rest.find('"') else {
        return line.to_string();
    };
    format!(
        "{ENVELOPE_PREFIX}{}{}",
        at.to_rfc3339_opts(SecondsFormat::Millis, true),
        &rest[end..]
    )
}

fn pin_time_numbers(line: &str, at: DateTime<Utc>, turn_start: i64) -> String {
    let seconds = at.timestamp();
    let mut line = replace_number_of_key(line, START_KEY, &turn_start.to_string());
    for key in SECONDS_KEYS {
        line = replace_number_of_key(&line, key, &seconds.to_string());
    }
    for key in MILLIS_KEYS {
        line = replace_number_of_key(&line, key, &at.timestamp_millis().to_string());
    }
    for key in FRACTIONAL_KEYS {
        line = replace_number_of_key(&line, key, &format!("{seconds}.0"));
    }
    line
}

/// Replaces the number after every `"key":` in `line` by `value`; other values (`null`,
/// strings) are left alone.
fn replace_number_of_key(line: &str, key: &str, value: &str) -> String {
    let needle = format!("\"{key}\":");
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(found) = rest.find(&needle) {
        let after = found + needle.len();
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
            .unwrap_or(rest.len());
        if number_len > 0 {
            out.push_str(value);
            rest = &rest[number_len..];
        }
    }
    out.push_str(rest);
    out
}

/// Replaces UUIDs by a fixed sequence, consistently across the whole file.
struct IdMap<'a> {
    keep: &'a [&'a str],
    assigned: HashMap<String, String>,
}

impl<'a> IdMap<'a> {
    fn new(keep: &'a [&'a str]) -> Self {
        Self {
            keep,
            assigned: HashMap::new(),
        }
    }

    fn replace_all(&mut self, line: &str) -> String {
        let bytes = line.as_bytes();
        let mut out = String::with_capacity(line.len());
        let mut copied = 0;
        let mut index = 0;
        while index + UUID_LEN <= bytes.len() {
            let candidate = &bytes[index..index + UUID_LEN];
            let bounded = index == 0 || !bytes[index - 1].is_ascii_hexdigit();
            if bounded && is_uuid(candidate) {
                let text = &line[index..index + UUID_LEN];
                if !self.keep.contains(&text) {
                    out.push_str(&line[copied..index]);
                    let next = self.assigned.len() + 1;
                    let pinned = self
                        .assigned
                        .entry(text.to_string())
                        .or_insert_with(|| format!("0197a2c4-5e00-7000-8000-{next:012x}"));
                    out.push_str(pinned);
                    copied = index + UUID_LEN;
                }
                index += UUID_LEN;
            } else {
                index += 1;
            }
        }
        out.push_str(&line[copied..]);
        out
    }
}

const UUID_LEN: usize = 36;

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex.
fn is_uuid(candidate: &[u8]) -> bool {
    candidate
        .iter()
        .enumerate()
        .all(|(position, byte)| match position {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_digit() || (b'a'..=b'f').contains(byte),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2025-06-02T09:00:00Z")
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or_default()
    }

    #[test]
    fn pins_envelope_time_numbers_and_ids_but_keeps_listed_ids() {
        let keep = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55";
        let text = format!(
            "{{\"timestamp\":\"2031-01-01T00:00:00.999Z\",\"type\":\"x\",\"payload\":{{\"id\":\"{keep}\"}}}}\n\
             {{\"timestamp\":\"2031-01-01T00:00:01.000Z\",\"type\":\"event_msg\",\"payload\":{{\"item\":{{\"id\":\"msg_01990000-aaaa-7bbb-8ccc-dddddddddddd\"}},\"started_at_ms\":1900000000123,\"started_at\":null,\"create_time\":1900000000.25,\"text\":\"\\\"started_at\\\":5\"}}}}\n\
             {{\"timestamp\":\"2031-01-01T00:00:02.000Z\",\"type\":\"y\",\"payload\":{{\"again\":\"01990000-aaaa-7bbb-8ccc-dddddddddddd\"}}}}\n"
        );
        let pinned = pin_volatile_values(&text, start(), &[keep]);
        let expected = format!(
            "{{\"timestamp\":\"2025-06-02T09:00:00.000Z\",\"type\":\"x\",\"payload\":{{\"id\":\"{keep}\"}}}}\n\
             {{\"timestamp\":\"2025-06-02T09:00:01.000Z\",\"type\":\"event_msg\",\"payload\":{{\"item\":{{\"id\":\"msg_0197a2c4-5e00-7000-8000-000000000001\"}},\"started_at_ms\":1748854801000,\"started_at\":null,\"create_time\":1748854801.0,\"text\":\"\\\"started_at\\\":5\"}}}}\n\
             {{\"timestamp\":\"2025-06-02T09:00:02.000Z\",\"type\":\"y\",\"payload\":{{\"again\":\"0197a2c4-5e00-7000-8000-000000000001\"}}}}\n"
        );
        assert_eq!(pinned, expected);
    }
}
