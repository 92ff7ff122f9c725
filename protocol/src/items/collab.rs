//! Multi-agent items: one agent spawning, messaging and waiting for others.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::thread_id::ThreadId;

/// A multi-agent tool call made by the agent of `sender_thread_id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct CollabAgentToolCallItem {
    /// The item id (the tool call's id).
    pub id: String,
    /// Which operation was called.
    pub tool: CollabAgentTool,
    /// Where the call stands.
    pub status: CollabAgentToolCallStatus,
    /// The thread of the agent that made the call.
    pub sender_thread_id: ThreadId,
    /// The threads of the agents the call addresses; empty when absent.
    #[serde(default)]
    pub receiver_thread_ids: Vec<ThreadId>,
    /// The receiving agents' descriptions (nickname, role...), opaque here.
    #[serde(default)]
    #[ts(type = "unknown[]")]
    pub receiver_agents: Vec<serde_json::Value>,
    /// The prompt sent, for calls that send one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub prompt: Option<String>,
    /// The model of a spawned agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    /// The reasoning effort of a spawned agent, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reasoning_effort: Option<String>,
    /// The status of each agent involved, keyed by thread id.
    #[serde(default)]
    pub agents_states: BTreeMap<String, AgentStatus>,
}

/// Which multi-agent operation was called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum CollabAgentTool {
    /// `spawn_agent`: start a sub-agent.
    SpawnAgent,
    /// `send_input`: send a sub-agent input.
    SendInput,
    /// `resume_agent`: resume a sub-agent.
    ResumeAgent,
    /// `wait`: wait for sub-agents.
    Wait,
    /// `close_agent`: close a sub-agent.
    CloseAgent,
    /// `send_message`: send a sub-agent a message.
    SendMessage,
    /// `followup_task`: give a sub-agent a follow-up task.
    FollowupTask,
    /// `interrupt_agent`: interrupt a sub-agent.
    InterruptAgent,
    /// `list_agents`: list the sub-agents.
    ListAgents,
}

/// Where a multi-agent tool call stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum CollabAgentToolCallStatus {
    /// `in_progress`: the call runs.
    InProgress,
    /// `completed`: the call succeeded.
    Completed,
    /// `failed`: the call failed.
    Failed,
    /// `interrupted`: the call was interrupted.
    Interrupted,
}

/// The state of an agent. Unit states are plain strings; `completed` (with the final message,
/// if any) and `errored` (with the error) are one-key objects.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum AgentStatus {
    /// `pending_init`: not started yet (the default).
    #[default]
    PendingInit,
    /// `running`: working.
    Running,
    /// `interrupted`: stopped by an interrupt.
    Interrupted,
    /// `{"completed": message}`: finished, with its final message if any.
    Completed(Option<String>),
    /// `{"errored": error}`: failed, with the error.
    Errored(String),
    /// `shutdown`: closed.
    Shutdown,
    /// `not_found`: no such agent.
    NotFound,
}

/// Progress of a sub-agent, reported to its parent thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SubAgentActivityItem {
    /// The sub-agent's model; `null` when unknown.
    pub model: Option<String>,
    /// The sub-agent's reasoning effort, as written; `null` when unknown.
    pub reasoning_effort: Option<String>,
    /// The item id.
    pub id: String,
    /// What happened.
    pub kind: SubAgentActivityKind,
    /// The sub-agent's thread.
    pub agent_thread_id: ThreadId,
    /// The agent's path in the agent tree, e.g. `/root/worker`.
    pub agent_path: String,
}

/// What happened to the sub-agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum SubAgentActivityKind {
    /// `started`: the sub-agent started.
    Started,
    /// `interacted`: another agent interacted with it.
    Interacted,
    /// `interrupted`: it was interrupted.
    Interrupted,
    /// `completed`: it finished.
    Completed,
}
