//! [`ParsedLine`]: the result of reading one line, typed and lossless.
//!
//! The typed model cannot know every key every Codex version writes. So a parsed line carries
//! the typed record and, whenever the typed record does not re-serialize to exactly the bytes
//! that were read, the original text as well. Writing the line back through
//! [`ParsedLine::to_json_line`] therefore reproduces the input byte for byte; nothing a newer
//! (or older) writer put in the file is lost by a load-and-write.

use std::borrow::Cow;

use serde_json::Value;

use super::item::RolloutItem;
use super::line::RolloutLine;

/// Which on-disk format a line was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineFormat {
    /// The `{timestamp, type, payload}` envelope of every Codex version since mid 2025.
    Envelope,
    /// The pre-envelope format of 2025 files (no timestamp per line).
    Legacy(LegacyRecord),
}

/// The kinds of record the pre-envelope legacy format holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LegacyRecord {
    /// The bare session meta on the first line (`{"id", "timestamp", "instructions", "git"}`).
    SessionMeta,
    /// A `{"record_type": "state"}` marker between items; it carries no item.
    StateMarker,
    /// A bare `ResponseItem` (`{"type": "message", ...}`) without envelope.
    ResponseItem,
}

impl LegacyRecord {
    /// Short name used in messages and counts.
    pub fn as_str(self) -> &'static str {
        match self {
            LegacyRecord::SessionMeta => "session_meta",
            LegacyRecord::StateMarker => "state_marker",
            LegacyRecord::ResponseItem => "response_item",
        }
    }
}

/// What a line holds once read: a rollout line, or a legacy marker with no item.
// `Line` is the common case (legacy markers are rare); boxing it would cost an allocation per
// line for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ParsedRecord {
    /// A rollout line (enveloped, or a legacy meta or item mapped onto the envelope model).
    Line(RolloutLine),
    /// A legacy `{"record_type": ...}` marker; `record_type` is its value (`state`).
    LegacyMarker {
        /// The marker's `record_type`.
        record_type: String,
    },
}

impl ParsedRecord {
    /// The rollout line, unless this is a legacy marker (the one place that unwraps a record;
    /// [`TypedLine`] and [`ParsedLine`] delegate here).
    pub fn line(&self) -> Option<&RolloutLine> {
        match self {
            ParsedRecord::Line(line) => Some(line),
            ParsedRecord::LegacyMarker { .. } => None,
        }
    }

    /// Takes the rollout line out, unless this is a legacy marker.
    pub fn into_line(self) -> Option<RolloutLine> {
        match self {
            ParsedRecord::Line(line) => Some(line),
            ParsedRecord::LegacyMarker { .. } => None,
        }
    }
}

/// How faithfully the typed model alone reproduces a line (see [`ParsedLine::round_trip`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundTrip {
    /// The typed serialization is byte-identical to the input; no original text is kept.
    Exact,
    /// The typed serialization is equal as JSON (key order or spacing differ); the original
    /// text is kept so writing back stays byte-identical.
    JsonEqual,
    /// The typed model drops or changes something; the original text is kept.
    Lossy,
}

/// A line read into its typed form only (see [`super::parse_rollout_line_typed`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TypedLine {
    /// The rollout line or legacy marker.
    pub record: ParsedRecord,
    /// The format the line was written in.
    pub format: LineFormat,
}

impl TypedLine {
    /// The rollout line, unless this is a legacy marker.
    pub fn line(&self) -> Option<&RolloutLine> {
        self.record.line()
    }

    /// Takes the rollout line out, unless this is a legacy marker.
    pub fn into_line(self) -> Option<RolloutLine> {
        self.record.into_line()
    }
}

/// One successfully read line: the typed record, its format, and the original text when the
/// typed record alone would not reproduce it.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedLine {
    pub(crate) record: ParsedRecord,
    pub(crate) format: LineFormat,
    pub(crate) original: Option<Box<str>>,
}

impl ParsedLine {
    /// The rollout line, unless this is a legacy marker.
    pub fn line(&self) -> Option<&RolloutLine> {
        self.record.line()
    }

    /// Takes the rollout line out, unless this is a legacy marker.
    pub fn into_line(self) -> Option<RolloutLine> {
        self.record.into_line()
    }

    /// The recorded item, unless this is a legacy marker.
    pub fn item(&self) -> Option<&RolloutItem> {
        self.line().map(|line| &line.item)
    }

    /// The record (line or legacy marker).
    pub fn record(&self) -> &ParsedRecord {
        &self.record
    }

    /// The format the line was written in.
    pub fn format(&self) -> LineFormat {
        self.format
    }

    /// True for a line of the pre-envelope legacy format.
    pub fn is_legacy(&self) -> bool {
        matches!(self.format, LineFormat::Legacy(_))
    }

    /// True when the original text is kept because the typed record does not reproduce it
    /// byte for byte. Legacy lines always keep it (the typed model writes the envelope).
    pub fn is_original_kept(&self) -> bool {
        self.original.is_some()
    }

    /// The kept original text (without line terminator), if any.
    pub fn original(&self) -> Option<&str> {
        self.original.as_deref()
    }

    /// The text to write back for this line (without line terminator): the original when it
    /// was kept, else the typed serialization, which is then byte-identical to the input.
    pub fn to_json_line(&self) -> Result<Cow<'_, str>, serde_json::Error> {
        if let Some(original) = &self.original {
            return Ok(Cow::Borrowed(original));
        }
        match &self.record {
            ParsedRecord::Line(line) => line.to_json_line().map(Cow::Owned),
            ParsedRecord::LegacyMarker { record_type } => {
                serde_json::to_string(&serde_json::json!({ "record_type": record_type }))
                    .map(Cow::Owned)
            }
        }
    }

    /// The typed model's rendering of this line in the line's own format, as JSON: the
    /// envelope for enveloped lines; the bare item, bare meta or marker for legacy lines.
    /// Used to measure what the model reproduces.
    pub fn typed_value(&self) -> Result<Value, serde_json::Error> {
        match (&self.record, self.format) {
            (ParsedRecord::LegacyMarker { record_type }, _) => {
                Ok(serde_json::json!({ "record_type": record_type }))
            }
            (ParsedRecord::Line(line), LineFormat::Envelope) => serde_json::to_value(line),
            (ParsedRecord::Line(line), LineFormat::Legacy(_)) => match &line.item {
                RolloutItem::SessionMeta(meta) => serde_json::to_value(meta),
                RolloutItem::ResponseItem(item) => serde_json::to_value(item),
                other => serde_json::to_value(other),
            },
        }
    }

    /// How faithfully the typed model alone reproduces the input. Computed on demand (it
    /// re-reads the kept original), so reading a file pays nothing for it.
    pub fn round_trip(&self) -> Result<RoundTrip, serde_json::Error> {
        let Some(original) = &self.original else {
            return Ok(RoundTrip::Exact);
        };
        let original: Value = serde_json::from_str(original)?;
        if self.typed_value()? == original {
            Ok(RoundTrip::JsonEqual)
        } else {
            Ok(RoundTrip::Lossy)
        }
    }
}
