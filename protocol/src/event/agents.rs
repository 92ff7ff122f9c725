//! Events of multi-agent threads: sub-agent activity, the `collab_*` tool lifecycle
//! (spawn, interact, wait, close, resume) and guardian (auto-review) assessments.
//!
//! Ids here are kept as strings rather than [`crate::thread_id::ThreadId`]s: real files carry
//! redacted placeholders in them, and an assessment with a placeholder id is still a fact
//! about the session. Statuses and actions whose spellings move between versions are JSON.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// A sub-agent started, finished or changed state (the parent's record of its child).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SubAgentActivityEvent {
    /// Id of the event (the spawning call id in practice).
    #[serde(default)]
    pub event_id: String,
    /// When it happened, Unix milliseconds.
    #[serde(default)]
    #[ts(type = "number")]
    pub occurred_at_ms: i64,
    /// The sub-agent's thread.
    #[serde(default)]
    pub agent_thread_id: String,
    /// The sub-agent's path in the agent tree (`/root/worker`).
    #[serde(default)]
    pub agent_path: String,
    /// What happened (`started`, `completed`, ...).
    #[serde(default)]
    pub kind: String,
}

/// The end of a `collab_*` tool call (spawn, interaction, wait, close, resume). One shape for
/// all of them: the fields each writes are optional, and anything else is kept in `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct CollabToolEndEvent {
    /// The tool call this ends.
    #[serde(default)]
    pub call_id: String,
    /// The agent that made the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sender_thread_id: Option<String>,
    /// The agent addressed (interaction, close, resume).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub receiver_thread_id: Option<String>,
    /// The agent created (spawn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub new_thread_id: Option<String>,
    /// The prompt sent (spawn, interaction).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub prompt: Option<String>,
    /// The model of a spawned agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    /// The outcome (a string or a one-key object such as `{"completed": "..."}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub status: Option<Value>,
    /// Every other key, as written (nicknames, roles, per-agent statuses, ...).
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: serde_json::Map<String, Value>,
}

/// The start of a `collab_*` tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct CollabToolBeginEvent {
    /// The tool call this starts.
    #[serde(default)]
    pub call_id: String,
    /// Every other key, as written.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: serde_json::Map<String, Value>,
}

/// A guardian (automatic approval reviewer) assessed an action; written once when the review
/// starts (`in_progress`) and once with its decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct GuardianAssessmentEvent {
    /// The assessment (the same id for its start and its decision).
    pub id: String,
    /// The item (tool call) assessed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub target_item_id: Option<String>,
    /// The turn of the action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<String>,
    /// `in_progress`, `approved`, `denied`, ...
    pub status: String,
    /// `low`, `medium`, `high`, once decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub risk_level: Option<String>,
    /// Whether the person had authorised the action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user_authorization: Option<String>,
    /// Why the guardian decided as it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rationale: Option<String>,
    /// Who decided (`agent`, `user`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub decision_source: Option<String>,
    /// The action assessed (`{"type":"command",...}`, `{"type":"apply_patch",...}`), as
    /// written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub action: Option<Value>,
}

/// Authentication is being (or was) recovered after the provider refused the credentials.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct AuthRecoveryEvent {
    /// Every key, as written (upstream's payload is not pinned down).
    #[serde(flatten)]
    #[ts(skip)]
    pub fields: serde_json::Map<String, Value>,
}

/// An MCP server's request for input was abandoned (the turn ended first).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct ElicitationAbandonedEvent {
    /// Every key, as written (upstream's payload is not pinned down).
    #[serde(flatten)]
    #[ts(skip)]
    pub fields: serde_json::Map<String, Value>,
}
