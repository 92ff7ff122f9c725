//! Turn lifecycle events: started, complete, aborted; rollback and compaction markers.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use super::ErrorEvent;

/// A turn began (`task_started` on the wire; `turn_started` accepted on input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TurnStartedEvent {
    /// Who or what started the turn (newer writers; opaque here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub turn_attribution: Option<serde_json::Value>,
    /// Empty in files older than per-turn ids.
    #[serde(default)]
    pub turn_id: String,
    /// The turn of the root thread this turn serves, for sub-agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub root_turn_id: Option<String>,
    /// The tracing id of the turn, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub trace_id: Option<String>,
    /// When the turn started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub started_at: Option<EventTimestamp>,
    /// The model's context window, in tokens; `null` when unknown.
    #[ts(type = "number | null")]
    pub model_context_window: Option<i64>,
    /// The collaboration mode (`default`, `plan`, ...), kept as spelled.
    #[serde(default)]
    pub collaboration_mode_kind: String,
}

/// A turn ended normally (`task_complete` on the wire; `turn_complete` accepted on input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TurnCompleteEvent {
    /// The turn of the root thread this turn serves, for sub-agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub root_turn_id: Option<String>,
    /// Empty in files older than per-turn ids.
    #[serde(default)]
    pub turn_id: String,
    /// The last thing the agent said, for notifications.
    pub last_agent_message: Option<String>,
    /// Set when the turn ended because of an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<ErrorEvent>,
    /// When the turn started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub started_at: Option<EventTimestamp>,
    /// When the turn completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub completed_at: Option<EventTimestamp>,
    /// How long the turn took, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<i64>,
    /// Milliseconds from the start of the turn to the model's first output token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub time_to_first_token_ms: Option<i64>,
}

impl TurnStartedEvent {
    /// A start event for `turn_id` with every optional field absent, so producers and tests
    /// name only what they know (`TurnStartedEvent { started_at, ..TurnStartedEvent::new(id) }`)
    /// and a field added upstream is defaulted here once.
    pub fn new(turn_id: impl Into<String>) -> Self {
        Self {
            turn_attribution: None,
            turn_id: turn_id.into(),
            root_turn_id: None,
            trace_id: None,
            started_at: None,
            model_context_window: None,
            collaboration_mode_kind: String::new(),
        }
    }
}

impl TurnCompleteEvent {
    /// A completion event for `turn_id` with every optional field absent (no last message, no
    /// error, no timings); see [`TurnStartedEvent::new`] for why.
    pub fn new(turn_id: impl Into<String>) -> Self {
        Self {
            root_turn_id: None,
            turn_id: turn_id.into(),
            last_agent_message: None,
            error: None,
            started_at: None,
            completed_at: None,
            duration_ms: None,
            time_to_first_token_ms: None,
        }
    }
}

/// A turn stopped before completing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TurnAbortedEvent {
    /// The turn of the root thread this turn serves, for sub-agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub root_turn_id: Option<String>,
    /// Missing in older files; written as `null` then.
    #[serde(default)]
    pub turn_id: Option<String>,
    /// Why the turn stopped.
    pub reason: TurnAbortReason,
    /// The error that stopped the turn, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<ErrorEvent>,
    /// When the turn started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub started_at: Option<EventTimestamp>,
    /// When the turn stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub completed_at: Option<EventTimestamp>,
    /// How long the turn ran, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<i64>,
}

/// Why a turn was aborted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum TurnAbortReason {
    /// The person interrupted it.
    Interrupted,
    /// A new submission replaced it.
    Replaced,
    /// The review it was running ended.
    ReviewEnded,
    /// A token or cost budget ran out.
    BudgetLimited,
}

/// The last `num_turns` user turns were dropped from the thread. Replayed when a session is
/// resumed: the turns before it in the file no longer count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ThreadRolledBackEvent {
    /// How many user turns were dropped, counted from the end.
    pub num_turns: u32,
}

/// The history was compacted (`{"type":"context_compacted"}`; it has no fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct ContextCompactedEvent {}

/// A point in time in a turn event. Upstream writes unix seconds; some writers wrote an
/// RFC 3339 string, which is kept as written rather than failing the event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(untagged)]
#[ts(untagged)]
pub enum EventTimestamp {
    /// Seconds since the Unix epoch.
    UnixSeconds(#[ts(type = "number")] i64),
    /// An RFC 3339 date-time string.
    Rfc3339(String),
}

impl EventTimestamp {
    /// The time as unix seconds; `None` for a string that is not RFC 3339.
    pub fn unix_seconds(&self) -> Option<i64> {
        match self {
            Self::UnixSeconds(seconds) => Some(*seconds),
            Self::Rfc3339(text) => chrono::DateTime::parse_from_rfc3339(text)
                .ok()
                .map(|time| time.timestamp()),
        }
    }
}

impl From<i64> for EventTimestamp {
    fn from(seconds: i64) -> Self {
        Self::UnixSeconds(seconds)
    }
}
