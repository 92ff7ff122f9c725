//! What a raw line is to usage, told from its type tags where Codex writes them, before any
//! parse.
//!
//! Codex writes every enveloped line as `{"timestamp":"…",["ordinal":N,]"type":"…",
//! "payload":{"type":"…",…}`: the line's type, and for an event its payload's type, sit in
//! the first hundred bytes. [`line_kind`] reads them there and says whether the line can
//! change a usage answer ([`LineKind`]); a line of any other shape (a legacy line, keys in
//! another order, an escape inside a tag) is `None`, and the caller falls back to searching
//! the whole line for the tags (which may keep too much, never too little).
//!
//! The lines usage reads: `session_meta` (the thread, and a child's copied prefix),
//! `turn_context` and the `thread_settings_applied` event (the model), `token_usage_record`,
//! the `token_count` event, and the `task_started`/`turn_started` events (where a child's
//! copied prefix ends). No other item changes an answer ([`super::UsageScan`] and
//! [`codex_rollout::ParentPrefixScan`] act on these alone), so a line whose tags name
//! another type is passed over whatever its text says.

/// What a line is to usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// A line no usage rule reads: not parsed.
    Skip,
    /// A `token_count` event: read by the small parse of [`super::light`], which falls back to
    /// the typed parse.
    TokenCount,
    /// Another line usage reads: the typed parse.
    Parse,
}

/// The kind of `raw` by its tags, `None` when the line is not in the shape Codex writes.
pub(crate) fn line_kind(raw: &[u8]) -> Option<LineKind> {
    let tags = line_tags(raw)?;
    match tags.line_type {
        b"session_meta" | b"turn_context" | b"token_usage_record" => Some(LineKind::Parse),
        b"event_msg" => Some(match tags.payload_type? {
            b"token_count" => LineKind::TokenCount,
            b"task_started" | b"turn_started" | b"thread_settings_applied" => LineKind::Parse,
            _ => LineKind::Skip,
        }),
        _ => Some(LineKind::Skip),
    }
}

/// A line's type tags as Codex writes them (also what the search index reads by,
/// `search/update.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineTags<'a> {
    /// The line's `type`.
    pub(crate) line_type: &'a [u8],
    /// The payload's `type`, when `"payload":{"type":"…"` follows the line's type at once.
    pub(crate) payload_type: Option<&'a [u8]>,
}

/// The type tags of `raw`, `None` when the line is not in the shape Codex writes.
pub(crate) fn line_tags(raw: &[u8]) -> Option<LineTags<'_>> {
    let rest = raw.strip_prefix(br#"{"timestamp":""#)?;
    let (_, mut rest) = string_body(rest)?;
    if let Some(after) = rest.strip_prefix(br#","ordinal":"#) {
        let digits = after
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        rest = &after[digits..];
    }
    let rest = rest.strip_prefix(br#","type":""#)?;
    let (line_type, rest) = string_body(rest)?;
    let payload_type = rest
        .strip_prefix(br#","payload":{"type":""#)
        .and_then(string_body)
        .map(|(payload_type, _)| payload_type);
    Some(LineTags {
        line_type,
        payload_type,
    })
}

/// The body of a JSON string whose opening quote was just read, and what follows its closing
/// quote; `None` when it holds an escape (then its text is not its bytes) or never closes.
fn string_body(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = memchr::memchr2(b'"', b'\\', bytes)?;
    if bytes[end] != b'"' {
        return None;
    }
    Some((&bytes[..end], &bytes[end + 1..]))
}

#[cfg(test)]
#[path = "line_kind_tests.rs"]
mod tests;
