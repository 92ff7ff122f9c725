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
    pub turn_id: String,
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
    pub turn_id: String,
    pub item: TurnItem,
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
    pub thread_id: String,
    pub turn_id: String,
    pub item_id: String,
    pub delta: String,
}

/// A piece of a plan's text, as it streams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PlanDeltaEvent {
    pub thread_id: String,
    pub turn_id: String,
    pub item_id: String,
    pub delta: String,
}

/// A piece of a reasoning summary, as it streams; `summary_index` says which summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReasoningContentDeltaEvent {
    pub thread_id: String,
    pub turn_id: String,
    pub item_id: String,
    pub delta: String,
    #[serde(default)]
    #[ts(type = "number")]
    pub summary_index: i64,
}

/// A piece of raw reasoning text, as it streams; `content_index` says which part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReasoningRawContentDeltaEvent {
    pub thread_id: String,
    pub turn_id: String,
    pub item_id: String,
    pub delta: String,
    #[serde(default)]
    #[ts(type = "number")]
    pub content_index: i64,
}

/// A response item exactly as recorded into history, for observers that want the raw facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RawResponseItemEvent {
    pub item: ResponseItem,
}
