//! An enveloped line's `ordinal` (paginated files number every line), read and written by its
//! bytes where Codex writes it (`{"timestamp":"…","ordinal":N,…`) and through a parse of the
//! line otherwise: [`line_ordinal`] and [`with_line_ordinal`], the one reading and the one
//! writing of it.

use serde_json::Value;

use crate::line_tags;

/// The `ordinal` of an enveloped line: read from its bytes when the line has the shape Codex
/// writes (the ordinal right after the timestamp), else from a parse of the whole line, so a
/// line written another way (keys in another order, spaces) is read right too. `None` for a
/// line without one, or one that is no JSON object.
pub fn line_ordinal(raw: &[u8]) -> Option<u64> {
    if let Some(tags) = line_tags(raw) {
        return tags.ordinal;
    }
    #[derive(serde::Deserialize)]
    struct OrdinalOnly {
        ordinal: Option<u64>,
    }
    serde_json::from_slice::<OrdinalOnly>(raw.trim_ascii())
        .ok()
        .and_then(|line| line.ordinal)
}

/// What [`with_line_ordinal`] does to a line that has no ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenMissing {
    /// Leave it without one (`None`).
    Keep,
    /// Give it one, where Codex writes it.
    Add,
}

/// `line` with its envelope's `ordinal` set to `ordinal`: the digits replaced in place, or
/// (with [`WhenMissing::Add`]) the key written right after the timestamp, when the line opens
/// `{"timestamp":"…"` as Codex writes it; else the envelope re-encoded. `None` when there is
/// nothing to write: a line without an ordinal kept so, or one that is no JSON object.
pub fn with_line_ordinal(line: &[u8], ordinal: u64, missing: WhenMissing) -> Option<Vec<u8>> {
    const HEAD: &[u8] = br#"{"timestamp":""#;
    const KEY: &[u8] = br#","ordinal":"#;
    let digits_of = |bytes: &[u8]| {
        bytes
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count()
    };
    if let Some(rest) = line.strip_prefix(HEAD)
        && let Some(quote) = memchr::memchr2(b'"', b'\\', rest).filter(|at| rest[*at] == b'"')
    {
        let after_timestamp = HEAD.len() + quote + 1;
        let number = ordinal.to_string();
        let tail = &line[after_timestamp..];
        match tail.strip_prefix(KEY).map(digits_of) {
            Some(digits) if digits > 0 => {
                let start = after_timestamp + KEY.len();
                return Some([&line[..start], number.as_bytes(), &line[start + digits..]].concat());
            }
            None if missing == WhenMissing::Add => {
                let key = [KEY, number.as_bytes()].concat();
                return Some([&line[..after_timestamp], &key, tail].concat());
            }
            None => return None,
            Some(_) => {}
        }
    }
    let mut value: Value = serde_json::from_slice(line).ok()?;
    let envelope = value.as_object_mut()?;
    if envelope.get("ordinal").is_none() && missing == WhenMissing::Keep {
        return None;
    }
    envelope.insert("ordinal".to_owned(), Value::from(ordinal));
    serde_json::to_vec(&value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ordinal_is_read_from_the_bytes_where_codex_writes_it_else_parsed() {
        let cases: [(&str, Option<u64>); 7] = [
            (
                r#"{"timestamp":"2025-06-02T09:00:00.000Z","ordinal":42,"type":"x"}"#,
                Some(42),
            ),
            (r#"{"timestamp":"x","type":"x","payload":{}}"#, None),
            // Written another way: read by a parse.
            (
                r#"{"type":"x","ordinal":7,"timestamp":"t","payload":{}}"#,
                Some(7),
            ),
            (
                r#"{ "timestamp": "t", "ordinal": 9, "type": "x" }"#,
                Some(9),
            ),
            // Too large for a u64, or not a number: none.
            (
                r#"{"timestamp":"t","ordinal":99999999999999999999,"type":"x"}"#,
                None,
            ),
            (r#"{"timestamp":"t","ordinal":"3","type":"x"}"#, None),
            ("not json", None),
        ];
        for (line, expected) in cases {
            assert_eq!(line_ordinal(line.as_bytes()), expected, "{line}");
        }
    }

    #[test]
    fn the_ordinal_is_written_where_codex_writes_it() {
        let set = |line: &str, missing| {
            with_line_ordinal(line.as_bytes(), 7, missing)
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        };
        let canonical = r#"{"timestamp":"t","ordinal":42,"type":"x","payload":{}}"#;
        let renumbered = r#"{"timestamp":"t","ordinal":7,"type":"x","payload":{}}"#;
        let bare = r#"{"timestamp":"t","type":"x","payload":{}}"#;
        assert_eq!(
            set(canonical, WhenMissing::Keep).as_deref(),
            Some(renumbered)
        );
        assert_eq!(set(bare, WhenMissing::Keep), None);
        assert_eq!(set(bare, WhenMissing::Add).as_deref(), Some(renumbered));
        let reordered = set(
            r#"{"type":"x","ordinal":1,"timestamp":"t"}"#,
            WhenMissing::Keep,
        );
        let reread = reordered
            .as_deref()
            .map(|line| line_ordinal(line.as_bytes()));
        assert_eq!(reread, Some(Some(7)));
        assert_eq!(set("not json", WhenMissing::Add), None);
        for line in [canonical, bare] {
            let written = set(line, WhenMissing::Add).unwrap_or_default();
            assert_eq!(line_ordinal(written.as_bytes()), Some(7), "{line}");
        }
    }
}
