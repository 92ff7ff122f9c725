//! The parts of a `reasoning` item: the visible summary and the raw reasoning text.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// One entry of a reasoning summary, the short text shown to people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReasoningItemReasoningSummary {
    /// `summary_text`: one summary entry.
    SummaryText {
        /// The summary text.
        text: String,
    },
}

/// One entry of raw reasoning content. Providers that expose raw reasoning send
/// `reasoning_text`; `text` is the older, generic spelling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReasoningItemContent {
    /// `reasoning_text`: raw reasoning text.
    ReasoningText {
        /// The reasoning text.
        text: String,
    },
    /// `text`: raw reasoning text in the older spelling.
    Text {
        /// The reasoning text.
        text: String,
    },
}

impl ReasoningItemContent {
    /// The text of the entry, whatever its spelling.
    pub fn text(&self) -> &str {
        match self {
            Self::ReasoningText { text } | Self::Text { text } => text,
        }
    }
}

/// Serde skip rule for `reasoning.content`, reproducing the upstream wire exactly.
///
/// `None` is written as `"content": null`; a list is written only when it holds at least one
/// `reasoning_text` entry, so `[]` and lists of plain `text` entries are omitted. Providers
/// reject reasoning items that echo back content they did not produce as `reasoning_text`.
pub(crate) fn reasoning_content_is_omitted(content: &Option<Vec<ReasoningItemContent>>) -> bool {
    match content {
        None => false,
        Some(entries) => !entries
            .iter()
            .any(|entry| matches!(entry, ReasoningItemContent::ReasoningText { .. })),
    }
}

/// Serde default for a missing `reasoning.content` key: an empty list, which is omitted again
/// on write. Reading a missing key as `None` would write it back as `"content": null` and break
/// the read-write fixed point.
pub(crate) fn missing_reasoning_content() -> Option<Vec<ReasoningItemContent>> {
    Some(Vec::new())
}
