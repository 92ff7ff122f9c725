//! The `compacted` line: a history compaction and what replaced the history.
//!
//! Resume scans backwards for the last of these: its `replacement_history` becomes the start
//! of the rebuilt model history, and only lines after it are replayed. Older files carry only
//! the summary `message`; those are rebuilt from the message instead.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::models::ResponseItem;

/// The payload of a `compacted` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct CompactedItem {
    /// The summary text produced by the compaction (may be empty when the history replacement
    /// carries everything).
    #[serde(default)]
    pub message: String,
    /// The items that replace the whole model history from this point on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub replacement_history: Option<Vec<ResponseItem>>,
    /// Host metadata aligned with `replacement_history` (newer versions; kept as JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Array<unknown>")]
    pub replacement_history_metadata: Option<Vec<Value>>,
    /// Guardian review history carried across the compaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub guardian_history: Option<Value>,
    /// Context retained across the compaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub retained_context: Option<Value>,
    /// Where MCP resources in the replacement came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub mcp_resource_origins: Option<Value>,
    /// Sequence number of the context window this compaction opens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub window_number: Option<u64>,
    /// Id of the first window of the thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub first_window_id: Option<String>,
    /// Id of the window this compaction closes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub previous_window_id: Option<String>,
    /// Id of the window this compaction opens; legacy files wrote a number here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | number")]
    #[schemars(with = "Option<Value>")]
    pub window_id: Option<CompactionWindowId>,
    /// Response id of the compaction request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub compaction_response_id: Option<String>,
    /// Token usage recorded at compaction time (kept as JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub latest_token_usage_record: Option<Value>,
    /// What a resume needs to continue after the compaction (kept as JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub resume_metadata: Option<Value>,
}

/// The `window_id` of a compaction: a window UUID, or the number legacy files stored there.
///
/// Kept as written so a legacy line survives a load-and-write; [`CompactedItem::window`]
/// gives the normalised view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CompactionWindowId {
    /// A window identifier.
    Id(String),
    /// A legacy window number.
    LegacyNumber(u64),
}

impl CompactedItem {
    /// A compaction carrying only its summary message (the classic form).
    pub fn from_message(message: impl Into<String>) -> Self {
        CompactedItem {
            message: message.into(),
            replacement_history: None,
            replacement_history_metadata: None,
            guardian_history: None,
            retained_context: None,
            mcp_resource_origins: None,
            window_number: None,
            first_window_id: None,
            previous_window_id: None,
            window_id: None,
            compaction_response_id: None,
            latest_token_usage_record: None,
            resume_metadata: None,
        }
    }

    /// The window this compaction opens, normalised as upstream reads it: a legacy numeric
    /// `window_id` fills the window number (when none is given) and yields no id.
    pub fn window(&self) -> (Option<u64>, Option<&str>) {
        match &self.window_id {
            Some(CompactionWindowId::Id(id)) => (self.window_number, Some(id.as_str())),
            Some(CompactionWindowId::LegacyNumber(number)) => {
                (self.window_number.or(Some(*number)), None)
            }
            None => (self.window_number, None),
        }
    }
}

/// The classic reading of a compaction without replacement history: the summary becomes one
/// assistant message holding the text, which replaces the compacted history.
impl From<CompactedItem> for ResponseItem {
    fn from(item: CompactedItem) -> Self {
        ResponseItem::assistant_text(item.message, None)
    }
}
