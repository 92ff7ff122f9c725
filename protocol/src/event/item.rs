//! Item lifecycle and streaming deltas: `item_started`, `item_completed`, content deltas, and
//! the raw response item mirror.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::items::TurnItem;
use crate::models::ResponseItem;

/// A turn item began (a command started, a message started streaming...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ItemStartedEvent {
    /// The thread, as written: a UUID from every live writer, but kept as text because real
    /// files carry redacted placeholders here and the item must still be read.
    pub thread_id: String,
    /// The turn the item belongs to.
    pub turn_id: String,
    /// The item as it stands when it begins.
    pub item: TurnItem,
    /// Milliseconds since the Unix epoch. Older writers omitted it (read as 0).
    #[serde(default)]
    #[ts(type = "number")]
    pub started_at_ms: i64,
}

/// A turn item finished; `item` is its final state. This is the event that persists items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ItemCompletedEvent {
    /// The thread, as written (see [`ItemStartedEvent::thread_id`]).
    pub thread_id: String,
    /// The turn the item belongs to.
    pub turn_id: String,
    /// The item's final state.
    pub item: TurnItem,
    /// Milliseconds since the Unix epoch; omitted when the writer did not record the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub started_at_ms: Option<i64>,
    /// Milliseconds since the Unix epoch; 0 in old records (plan items) that lacked it.
    #[serde(default)]
    #[ts(type = "number")]
    pub completed_at_ms: i64,
}

/// A piece of an agent message's text, as it streams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct AgentMessageContentDeltaEvent {
    /// The thread, as written.
    pub thread_id: String,
    /// The turn the message belongs to.
    pub turn_id: String,
    /// The agent message item the text belongs to.
    pub item_id: String,
    /// The new text, to append to what came before.
    pub delta: String,
}

/// A piece of a plan's text, as it streams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PlanDeltaEvent {
    /// The thread, as written.
    pub thread_id: String,
    /// The turn the plan belongs to.
    pub turn_id: String,
    /// The plan item the text belongs to.
    pub item_id: String,
    /// The new text, to append to what came before.
    pub delta: String,
}

/// A piece of a reasoning summary, as it streams; `summary_index` says which summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReasoningContentDeltaEvent {
    /// The thread, as written.
    pub thread_id: String,
    /// The turn the reasoning belongs to.
    pub turn_id: String,
    /// The reasoning item the text belongs to.
    pub item_id: String,
    /// The new text, to append to what came before.
    pub delta: String,
    /// Which summary of the item the text belongs to (0-based; 0 when absent).
    #[serde(default)]
    #[ts(type = "number")]
    pub summary_index: i64,
}

/// A piece of raw reasoning text, as it streams; `content_index` says which part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReasoningRawContentDeltaEvent {
    /// The thread, as written.
    pub thread_id: String,
    /// The turn the reasoning belongs to.
    pub turn_id: String,
    /// The reasoning item the text belongs to.
    pub item_id: String,
    /// The new text, to append to what came before.
    pub delta: String,
    /// Which raw content part of the item the text belongs to (0-based; 0 when absent).
    #[serde(default)]
    #[ts(type = "number")]
    pub content_index: i64,
}

/// A response item exactly as recorded into history, for observers that want the raw facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RawResponseItemEvent {
    /// The item, exactly as recorded.
    pub item: ResponseItem,
}
