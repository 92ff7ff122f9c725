//! What can be wrong with one line of a rollout file.
//!
//! A session file is written by many Codex versions and read long after; a reader must be able
//! to say precisely why a line was not understood (and keep going). Every variant names the
//! part of the line that was wrong so a validator can print it next to the line number.

use thiserror::Error;

/// Why one rollout line could not be turned into a typed record.
///
/// The parser never panics; every way a line can be bad ends up here. Messages are owned
/// strings so the error can outlive the input buffer and be compared in tests.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// The line is empty or holds only whitespace (a blank line between records).
    #[error("blank line: a rollout line must hold one JSON object")]
    Blank,

    /// The bytes are not UTF-8; `offset` is the first byte that is not part of valid UTF-8.
    #[error("invalid UTF-8 at byte offset {offset}")]
    InvalidUtf8 {
        /// Byte offset of the first invalid byte within the line.
        offset: usize,
    },

    /// The JSON ends before the value is complete (typically the last line of a file that was
    /// being written when the process died).
    #[error("truncated JSON (line ends at column {column} inside a value): {message}")]
    Truncated {
        /// serde_json's message.
        message: String,
        /// Column where the input ended.
        column: usize,
    },

    /// The text is not JSON at all.
    #[error("not JSON at line {line}, column {column}: {message}")]
    NotJson {
        /// serde_json's message.
        message: String,
        /// Line within the text (1 for a single JSON line).
        line: usize,
        /// Column of the offending character.
        column: usize,
    },

    /// The text is valid JSON but not an object (`found` names the JSON kind).
    #[error("not a JSON object: found {found}")]
    NotObject {
        /// `array`, `string`, `number`, `boolean` or `null`.
        found: &'static str,
    },

    /// A key the envelope requires is missing (`timestamp`, `type` or `payload`).
    #[error("envelope field `{field}` is missing")]
    MissingField {
        /// The envelope key that is absent.
        field: &'static str,
    },

    /// An envelope key is present but holds the wrong kind of value, or appears twice.
    #[error("envelope field `{field}` is invalid: {message}")]
    InvalidEnvelopeField {
        /// The envelope key.
        field: String,
        /// What is wrong with it.
        message: String,
    },

    /// The line's `type` is one the model knows, but its payload does not fit that type.
    #[error(
        "`{line_type}` line with payload type {payload} does not match the model: {message}",
        payload = display_payload_type(.payload_type)
    )]
    Payload {
        /// The envelope `type` (`session_meta`, `response_item`, ...).
        line_type: String,
        /// The payload's own `type` tag when it has one (`message`, `token_count`, ...).
        payload_type: Option<String>,
        /// serde's message, which names the offending field.
        message: String,
    },

    /// A line of the pre-envelope legacy format that does not fit its record kind.
    #[error(
        "legacy {record} record with payload type {payload} does not match the model: {message}",
        payload = display_payload_type(.payload_type)
    )]
    Legacy {
        /// Which legacy record kind the line looked like (`session_meta`, `response_item`).
        record: &'static str,
        /// The record's own `type` tag when it has one.
        payload_type: Option<String>,
        /// serde's message.
        message: String,
    },
}

fn display_payload_type(payload_type: &Option<String>) -> String {
    match payload_type {
        Some(tag) => format!("`{tag}`"),
        None => "(none)".to_string(),
    }
}

impl LineError {
    /// Classifies a serde_json error raised while reading the raw text of a line.
    pub(crate) fn from_syntax(err: &serde_json::Error) -> Self {
        match err.classify() {
            serde_json::error::Category::Eof => LineError::Truncated {
                message: err.to_string(),
                column: err.column(),
            },
            _ => LineError::NotJson {
                message: err.to_string(),
                line: err.line(),
                column: err.column(),
            },
        }
    }

    /// A short stable name of the variant, for counting problems by kind.
    pub fn kind(&self) -> &'static str {
        match self {
            LineError::Blank => "blank",
            LineError::InvalidUtf8 { .. } => "invalid_utf8",
            LineError::Truncated { .. } => "truncated",
            LineError::NotJson { .. } => "not_json",
            LineError::NotObject { .. } => "not_object",
            LineError::MissingField { .. } => "missing_field",
            LineError::InvalidEnvelopeField { .. } => "invalid_envelope_field",
            LineError::Payload { .. } => "payload",
            LineError::Legacy { .. } => "legacy",
        }
    }
}
