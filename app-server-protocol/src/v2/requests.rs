//! Params and responses of the client requests this crate types: starting, resuming, reading
//! and rolling back threads, starting and interrupting turns. The paged reads are in
//! `lists.rs`, what a client asks at start-up in `bootstrap.rs`.
//!
//! Upstream has many more methods (plugins, file system, commands...); they are outside this
//! project's layer, which models conversations.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::thread::Thread;
use super::turn::Turn;
use super::user_input::UserInput;

/// Params of `thread/start`: open a new thread.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadStartParams {
    /// Model to use; the server's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub model: Option<String>,
    /// Working directory; the server's when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cwd: Option<String>,
    /// Keep the thread in memory only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub ephemeral: Option<bool>,
}

/// Response of `thread/start`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadStartResponse {
    /// The new thread (no turns).
    pub thread: Thread,
}

/// Params of `thread/resume`: load a persisted thread and continue it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadResumeParams {
    /// The thread.
    pub thread_id: String,
    /// Leave `thread.turns` empty (the client pages them with `thread/turns/list`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub exclude_turns: Option<bool>,
}

/// Response of `thread/resume`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadResumeResponse {
    /// The thread with its turns rebuilt from its rollout (none when `excludeTurns`).
    pub thread: Thread,
    /// The model the thread continues with.
    pub model: String,
    /// The provider serving it.
    pub model_provider: String,
    /// The reasoning effort it continues with, when set.
    #[serde(default)]
    pub reasoning_effort: Option<String>,
    /// The working directory.
    pub cwd: String,
    /// When the agent asks before acting: Codex's `AskForApproval`, a policy name
    /// (`untrusted`, `on-request`, `never`) or a granular object.
    #[ts(type = "unknown")]
    pub approval_policy: serde_json::Value,
    /// Who reviews approval requests (`user`, `auto_review`).
    pub approvals_reviewer: String,
    /// The sandbox the agent runs in (Codex's `SandboxPolicy`, tagged by `type`).
    #[ts(type = "unknown")]
    pub sandbox: serde_json::Value,
    /// Where `thread/turns/list` (newest first) starts to page the turns back; null for a
    /// thread whose turns come whole in `thread/read`.
    #[serde(default)]
    pub turns_backwards_cursor: Option<String>,
    /// Where `thread/items/list` (newest first) starts to page the items back; null as for
    /// the turns.
    #[serde(default)]
    pub items_backwards_cursor: Option<String>,
}

/// Params of `thread/read`: look at a thread without loading it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadReadParams {
    /// The thread.
    pub thread_id: String,
    /// Rebuild and include the turns.
    #[serde(default)]
    pub include_turns: bool,
}

/// Response of `thread/read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadReadResponse {
    /// The thread; turns only when asked for.
    pub thread: Thread,
    /// Where the person stopped reading (Codex's local receipts, `ThreadReadState`); null
    /// when everything is read or nothing is known, as for a thread read from a file.
    #[serde(default)]
    #[ts(type = "unknown")]
    pub read_state: Option<serde_json::Value>,
}

/// Params of `thread/rollback`: forget the last turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadRollbackParams {
    /// The thread.
    pub thread_id: String,
    /// How many turns to drop from the end (at least 1).
    pub num_turns: u32,
}

/// Response of `thread/rollback`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadRollbackResponse {
    /// The thread with the turns that remain.
    pub thread: Thread,
}

/// Params of `turn/start`: send input and run the agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TurnStartParams {
    /// The thread.
    pub thread_id: String,
    /// What the person submitted.
    pub input: Vec<UserInput>,
    /// An id the client picks to recognise its own user message when it comes back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub client_id: Option<String>,
}

/// Response of `turn/start`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TurnStartResponse {
    /// The new turn, `inProgress`.
    pub turn: Turn,
}

/// Params of `turn/interrupt`: stop the running turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TurnInterruptParams {
    /// The thread.
    pub thread_id: String,
    /// The turn to stop; the request fails when another turn is running.
    pub turn_id: String,
}

/// Response of `turn/interrupt`. Empty: the outcome arrives as `turn/completed` with status
/// `interrupted`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(export_to = "v2/")]
pub struct TurnInterruptResponse {}

/// Params of `initialize`, the first request of a connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams {
    /// Who the client is.
    pub client_info: ClientInfo,
}

/// A client's self-description, used in logs and the user agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ClientInfo {
    /// Machine name, e.g. `my_editor`.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub title: Option<String>,
    /// Client version.
    pub version: String,
}

/// Response of `initialize`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResponse {
    /// The server's user agent, `name/X.Y.Z (...)`: clients compare the version with theirs.
    pub user_agent: String,
    /// The server's Codex home, absolute.
    pub codex_home: String,
    /// The server's platform family (`unix`, `windows`).
    pub platform_family: String,
    /// The server's operating system (`linux`, `macos`, `windows`).
    pub platform_os: String,
}
