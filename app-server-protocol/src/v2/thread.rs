//! [`Thread`]: a conversation as a client lists, resumes and shows it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::turn::Turn;

/// A conversation: its identity, where it runs, and (on resume/read/fork/rollback) its turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct Thread {
    /// Thread id.
    pub id: String,
    /// The session the thread belongs to: shared by every thread of one session tree (a
    /// root thread and the sub-agents it spawned). The root thread's id, for a root thread.
    pub session_id: String,
    /// The project the thread belongs to; null when it belongs to none (or it is not known).
    pub project_id: Option<String>,
    /// The thread this one was forked from, when it was.
    pub forked_from_id: Option<String>,
    /// The thread that spawned this one (sub-agents); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub parent_thread_id: Option<String>,
    /// A short preview (usually the first user message), for lists.
    pub preview: String,
    /// True for threads that are never written to disk.
    pub ephemeral: bool,
    /// Provider serving the model (e.g. `openai`).
    pub model_provider: String,
    /// Creation time, Unix seconds.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Last update time, Unix seconds.
    #[ts(type = "number")]
    pub updated_at: i64,
    /// Whether the thread is loaded and what it is doing.
    pub status: ThreadStatus,
    /// The session file, when the thread is persisted. Unstable: clients should not parse it.
    pub path: Option<String>,
    /// Working directory of the session.
    pub cwd: String,
    /// Version of the CLI that created the thread.
    pub cli_version: String,
    /// Which kind of client started it.
    pub source: SessionSource,
    /// What started the thread (a person, a parent agent, a memory job); absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_source: Option<ThreadSource>,
    /// Display nickname of a sub-agent thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_nickname: Option<String>,
    /// Role of a sub-agent thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_role: Option<String>,
    /// Git state of `cwd` when the thread started, when known.
    pub git_info: Option<GitInfo>,
    /// Name the person gave the thread, if any.
    pub name: Option<String>,
    /// The turns. Populated only by resume, read (with turns), fork and rollback; empty
    /// elsewhere.
    pub turns: Vec<Turn>,
}

/// What started a thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "v2/")]
pub enum ThreadSource {
    /// A person.
    User,
    /// A parent agent spawned it.
    Subagent,
    /// A background memory-consolidation job.
    MemoryConsolidation,
}

impl ThreadSource {
    /// The source a session meta names (`thread_source`), or `None` for a spelling this
    /// version does not know.
    pub(crate) fn from_wire(value: &str) -> Option<Self> {
        match value {
            "user" => Some(Self::User),
            "subagent" => Some(Self::Subagent),
            "memory_consolidation" => Some(Self::MemoryConsolidation),
            _ => None,
        }
    }
}

/// Whether a thread is loaded in the server and what it is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum ThreadStatus {
    /// Not loaded in memory.
    NotLoaded,
    /// Loaded, no turn running.
    Idle,
    /// Loaded but broken.
    SystemError,
    /// A turn is running.
    #[serde(rename_all = "camelCase")]
    Active {
        /// What the running turn waits on, if anything.
        active_flags: Vec<ThreadActiveFlag>,
    },
}

/// What an active thread is waiting on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum ThreadActiveFlag {
    /// An approval request is open.
    WaitingOnApproval,
    /// A question to the person is open.
    WaitingOnUserInput,
}

/// Which kind of client started a thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum SessionSource {
    /// The terminal UI.
    Cli,
    /// An editor extension.
    #[serde(rename = "vscode")]
    VsCode,
    /// `codex exec`.
    Exec,
    /// A client of the app server (core calls it `mcp`).
    AppServer,
    /// A sub-agent spawned by another thread.
    SubAgent,
    /// A named custom client.
    Custom(String),
    /// Anything this version does not know.
    #[serde(other)]
    Unknown,
}

/// Git state of a working directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct GitInfo {
    /// Commit checked out.
    pub sha: Option<String>,
    /// Branch checked out.
    pub branch: Option<String>,
    /// URL of the `origin` remote.
    pub origin_url: Option<String>,
}
