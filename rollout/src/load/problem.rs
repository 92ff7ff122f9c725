//! What was wrong with one line of a rollout, as the loader reports it.
//!
//! A session file is read long after it was written, by a version that may not know every
//! line kind the writer used, from a disk that may have lost the last write. None of that may
//! stop a session from loading: each bad line becomes a [`LineProblem`] with its line number,
//! and the rest of the file is used. The problem list is what a validator prints.

use std::fmt;

use codex_protocol::rollout::LineError;

use crate::source::StreamDamage;

/// How a problem line was treated, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// An empty or whitespace-only line. Skipped.
    Blank,
    /// Bytes that are not UTF-8. Skipped.
    InvalidUtf8,
    /// JSON that ends inside a value: typically the last line of a file whose writer died
    /// mid-line. Skipped.
    Truncated,
    /// Not a JSON object, or an object without the envelope keys (`timestamp`, `type`,
    /// `payload`) or with envelope keys of the wrong kind. Skipped.
    Malformed,
    /// A line kind the model knows (`response_item`, `event_msg`, ...) whose payload does not
    /// fit it. Kept as an opaque line (no item): forks and rewrites copy it, nothing
    /// interprets it.
    Mismatch,
    /// A line `type` the model does not know (e.g. `world_state` of a newer writer). Kept as
    /// an unknown item: it survives a fork or a rewrite, and reconstruction ignores it.
    UnknownLineType,
    /// A known line kind whose payload `type` the model does not know (an unknown event or
    /// response item). Kept as written; reconstruction ignores it.
    UnknownPayloadType,
    /// The compressed (zstd) stream is damaged here: truncated, corrupt, or followed by
    /// bytes that are not a frame. The partial line at the damage is dropped and nothing after
    /// it can be read; always the last problem of a file.
    Damaged,
}

impl ProblemKind {
    /// Whether a line with this problem could not be read. Lines of a kind newer than this
    /// model (an unknown line or payload type) are read, just not understood: they are not
    /// unreadable. The one rule every reader and every report counts by.
    pub fn is_unreadable(self) -> bool {
        !matches!(
            self,
            ProblemKind::UnknownLineType | ProblemKind::UnknownPayloadType
        )
    }

    /// A short stable name, for counting problems by kind and for machine output.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Blank => "blank",
            ProblemKind::InvalidUtf8 => "invalid_utf8",
            ProblemKind::Truncated => "truncated",
            ProblemKind::Malformed => "malformed",
            ProblemKind::Mismatch => "mismatch",
            ProblemKind::UnknownLineType => "unknown_line_type",
            ProblemKind::UnknownPayloadType => "unknown_payload_type",
            ProblemKind::Damaged => "damaged",
        }
    }

    /// True when the line stays part of the loaded file (copied by forks and rewrites), as an
    /// item the model does not interpret or as an opaque line; false when it was skipped.
    pub fn is_kept(self) -> bool {
        matches!(
            self,
            ProblemKind::Mismatch | ProblemKind::UnknownLineType | ProblemKind::UnknownPayloadType
        )
    }

    /// Classifies a parser error.
    pub(crate) fn of_line_error(error: &LineError) -> Self {
        match error {
            LineError::Blank => ProblemKind::Blank,
            LineError::InvalidUtf8 { .. } => ProblemKind::InvalidUtf8,
            LineError::Truncated { .. } => ProblemKind::Truncated,
            LineError::NotJson { .. }
            | LineError::NotObject { .. }
            | LineError::MissingField { .. }
            | LineError::InvalidEnvelopeField { .. } => ProblemKind::Malformed,
            LineError::Payload { .. } | LineError::Legacy { .. } => ProblemKind::Mismatch,
        }
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One line the loader could not use as the model intends, with where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    /// 1-based line number in the file.
    pub line: usize,
    /// What kind of problem, and whether the line was kept.
    pub kind: ProblemKind,
    /// A human-readable explanation (the parser's message, naming the offending field).
    pub message: String,
}

impl LineProblem {
    /// A problem of a line the parser rejected.
    pub(crate) fn from_line_error(line: usize, error: &LineError) -> Self {
        Self {
            line,
            kind: ProblemKind::of_line_error(error),
            message: error.to_string(),
        }
    }
}

impl LineProblem {
    /// The problem a damaged compressed stream reports at line `line`, after `dropped` bytes
    /// of that line were decoded (and dropped). One wording for every reader.
    pub(crate) fn of_damage(line: usize, damage: &StreamDamage, dropped: usize) -> Self {
        Self {
            line,
            kind: ProblemKind::Damaged,
            message: format!(
                "{damage}; {} and nothing after it can be read",
                match dropped {
                    0 => "the line that starts here is lost".to_string(),
                    _ => format!("the {dropped} byte(s) decoded of this line were dropped"),
                }
            ),
        }
    }
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let treatment = if self.kind.is_kept() {
            "kept"
        } else {
            "skipped"
        };
        write!(
            f,
            "line {}: {} ({treatment}): {}",
            self.line, self.kind, self.message
        )
    }
}
