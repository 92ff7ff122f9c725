//! The small parse of a `token_count` line: its timestamp and its payload, nothing else.
//!
//! Token counts are most of the lines usage reads. The typed parse of a whole line builds the
//! envelope and the item; this one reads the two fields usage needs straight into the same
//! payload type ([`TokenCountEvent`], so the payload is accepted or refused exactly as the
//! typed parse does) and borrows the timestamp. A line it cannot read (an escape in the
//! timestamp, a payload of another shape) gets `None`, and the caller parses it the typed way,
//! so the answer is the typed parse's whatever the line holds.

use codex_protocol::event::TokenCountEvent;
use serde::Deserialize;

/// A `token_count` line as usage reads it (other keys are passed over).
#[derive(Debug, Deserialize)]
pub(crate) struct TokenCountLine<'a> {
    /// The timestamp as written.
    #[serde(borrow)]
    pub(crate) timestamp: &'a str,
    /// The event.
    pub(crate) payload: TokenCountEvent,
}

/// Reads `raw` (a line [`super::line_kind::line_kind`] called a token count) when it is in
/// the plain shape; `None` sends it to the typed parse.
pub(crate) fn token_count_line(raw: &[u8]) -> Option<TokenCountLine<'_>> {
    // The typed parse refuses a line that is not UTF-8 as a whole; so does this one.
    let text = std::str::from_utf8(raw).ok()?;
    serde_json::from_str(text).ok()
}

#[cfg(test)]
#[path = "light_tests.rs"]
mod tests;
