//! A raw line's type tags, read where Codex writes them, before any parse: the one byte-level
//! rule every reader that passes over lines by their type asks (usage, the turn index).
//!
//! Codex writes every enveloped line as `{"timestamp":"…",["ordinal":N,]"type":"…",
//! "payload":{"type":"…",…}`: the line's type, and its payload's type, sit in the first
//! hundred bytes. [`line_tags`] reads them there; a line of any other shape (a legacy line,
//! keys in another order, an escape inside a tag) has no tags, and a reader must parse it.
//! The tags are the line's own (a message quoting a tag in its text is not fooled), but
//! they do not say the line parses: a reader that passes over a line by its tags must not
//! depend on whether it is a readable item. The envelope's `ordinal` is read on the way
//! (`ordinal.rs` reads and writes it).

/// The type tags of an enveloped line (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineTags<'a> {
    /// The line's `type` (`event_msg`, `response_item`, `turn_context`, …).
    pub line_type: &'a [u8],
    /// The payload's `type` when the payload opens with it (events and response items).
    pub payload_type: Option<&'a [u8]>,
    /// The envelope's `ordinal` (paginated files); `None` for a line without one.
    pub ordinal: Option<u64>,
}

/// The tags of `raw`, `None` when the line is not in the shape Codex writes.
pub fn line_tags(raw: &[u8]) -> Option<LineTags<'_>> {
    tags_and_rest(raw).map(|(tags, _)| tags)
}

/// [`line_tags`], and the bytes after the payload's type (after the line's type when the
/// payload does not open with one).
fn tags_and_rest(raw: &[u8]) -> Option<(LineTags<'_>, &[u8])> {
    let rest = raw.strip_prefix(br#"{"timestamp":""#)?;
    let (_, mut rest) = string_body(rest)?;
    let mut ordinal = None;
    if let Some(after) = rest.strip_prefix(br#","ordinal":"#) {
        let digits = after
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        // No digits, or more than a u64 holds: not the shape Codex writes.
        ordinal = Some(std::str::from_utf8(&after[..digits]).ok()?.parse().ok()?);
        rest = &after[digits..];
    }
    let rest = rest.strip_prefix(br#","type":""#)?;
    let (line_type, rest) = string_body(rest)?;
    let payload = rest
        .strip_prefix(br#","payload":{"type":""#)
        .and_then(string_body);
    let tags = LineTags {
        line_type,
        payload_type: payload.map(|(payload_type, _)| payload_type),
        ordinal,
    };
    Some((tags, payload.map_or(rest, |(_, after)| after)))
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
#[path = "line_tags_tests.rs"]
mod tests;
