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
    /// Execution environments of a loaded thread (experimental); null when not loaded.
    pub environments: Option<serde_json::Value>,
    /// Client-defined extra data of a loaded thread (experimental); null when not loaded.
    pub extra: Option<serde_json::Value>,
    /// The session the thread belongs to. Codex keeps it in the session meta; a file that
    /// does not record one belongs to a session of its own id.
    pub session_id: String,
    /// The thread this one was forked from, when it was (a spawned sub-agent names its parent).
    pub forked_from_id: Option<String>,
    /// The thread this one is attached to (experimental); null for a thread read from a file.
    pub attached_to_thread_id: Option<String>,
    /// The thread that spawned this one (sub-agents); null otherwise.
    pub parent_thread_id: Option<String>,
    /// A short preview (usually the first user message), for lists.
    pub preview: String,
    /// True for threads that are never written to disk.
    pub ephemeral: bool,
    /// The section a person filed the thread under; never recorded in a session file.
    pub section: Option<serde_json::Value>,
    /// When the thread entered its section, Unix seconds.
    #[ts(type = "number | null")]
    pub section_entered_at: Option<i64>,
    /// The project the thread belongs to; null when it belongs to none (or it is not known).
    pub project_id: Option<String>,
    /// How the thread's history is persisted: `legacy` or `paginated` (read as `legacy` when
    /// a document from before the field omits it).
    #[serde(default)]
    pub history_mode: ThreadHistoryMode,
    /// Provider serving the model (e.g. `openai`).
    pub model_provider: String,
    /// The model of a loaded thread, else the latest one its state recorded; null when unknown.
    pub model: Option<String>,
    /// The reasoning effort of a loaded thread, else the latest recorded; null when unset.
    pub reasoning_effort: Option<String>,
    /// Creation time, Unix seconds.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Last update time, Unix seconds (a session file's modification time).
    #[ts(type = "number")]
    pub updated_at: i64,
    /// The time threads are ordered by in lists, Unix seconds.
    #[ts(type = "number | null")]
    pub recency_at: Option<i64>,
    /// Whether the thread is loaded and what it is doing.
    pub status: ThreadStatus,
    /// The session file, when the thread is persisted. Unstable: clients should not parse it.
    pub path: Option<String>,
    /// Working directory of the session.
    pub cwd: String,
    /// Version of the CLI that created the thread.
    pub cli_version: String,
    /// The client that created the thread (`codex_cli_rs`, `codex_exec`, ...), if recorded.
    pub originator: Option<String>,
    /// Which kind of client started it.
    pub source: SessionSource,
    /// Whether the thread takes direct input (experimental); null for a thread read from a file.
    pub can_accept_direct_input: Option<bool>,
    /// What started the thread (a person, a parent agent, a memory job); null when unknown.
    pub thread_source: Option<ThreadSource>,
    /// Display nickname of a sub-agent thread.
    pub agent_nickname: Option<String>,
    /// Role of a sub-agent thread.
    pub agent_role: Option<String>,
    /// Git state of `cwd` when the thread started, when known.
    pub git_info: Option<GitInfo>,
    /// Name the person gave the thread, if any.
    pub name: Option<String>,
    /// Whether daybreak is on for the thread (experimental); null for a thread read from a file.
    pub daybreak_enabled: Option<bool>,
    /// The turns. Populated only by resume, read (with turns), fork and rollback; empty
    /// elsewhere.
    pub turns: Vec<Turn>,
}

/// What a session file and its home say of a thread beyond the file's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadFile {
    /// Where the file is.
    pub path: String,
    /// When the file last changed, Unix seconds.
    pub modified_at: i64,
    /// The name the home's index gives the thread, if any.
    pub name: Option<String>,
    /// The provider the home's Codex assumes for a file that records none.
    pub default_model_provider: String,
}

impl Thread {
    /// Completes a thread read from a session file as Codex describes it: the file's path, its
    /// modification time as the update and recency time, the home's name for it, and the
    /// home's provider when the file records none.
    pub fn describe_file(&mut self, file: ThreadFile) {
        self.path = Some(file.path);
        self.updated_at = file.modified_at;
        self.recency_at = Some(file.modified_at);
        self.name = self.source.shown_name(file.name);
        if self.model_provider.is_empty() {
            self.model_provider = file.default_model_provider;
        }
    }
}

/// How a thread's history is persisted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum ThreadHistoryMode {
    /// Every item in one file, read whole on resume (every Codex before 0.151).
    #[default]
    Legacy,
    /// Ordinals on every line; history read page by page (0.151 and later).
    Paginated,
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
    /// A sub-agent spawned by another thread, with the detail its session meta records
    /// (`"review"`, `"compact"`, `{"thread_spawn": {...}}`, `{"other": ...}`).
    SubAgent(serde_json::Value),
    /// A named custom client.
    Custom(String),
    /// Anything this version does not know.
    #[serde(other)]
    Unknown,
}

/// The kinds a thread's source is filtered by (`thread/list`'s `sourceKinds`, `list` and
/// `view`'s `--source`): Codex 0.169's `ThreadSourceKind`, as it spells them.
pub const SOURCE_KINDS: [&str; 10] = [
    "cli",
    "vscode",
    "exec",
    "appServer",
    "subAgent",
    "subAgentReview",
    "subAgentCompact",
    "subAgentThreadSpawn",
    "subAgentOther",
    "unknown",
];

impl SessionSource {
    /// The kind of source ([`SOURCE_KINDS`]): a sub-agent's by what spawned it (`review`,
    /// `compact`, a `thread_spawn`, anything else); `subAgent` when it says nothing.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Cli => "cli",
            Self::VsCode => "vscode",
            Self::Exec => "exec",
            Self::AppServer => "appServer",
            Self::SubAgent(detail) => match detail {
                serde_json::Value::String(text) if text == "review" => "subAgentReview",
                serde_json::Value::String(text) if text == "compact" => "subAgentCompact",
                serde_json::Value::Object(fields) if fields.contains_key("thread_spawn") => {
                    "subAgentThreadSpawn"
                }
                serde_json::Value::Null => "subAgent",
                _ => "subAgentOther",
            },
            // Codex has no kind of its own for a named custom client.
            Self::Custom(_) | Self::Unknown => "unknown",
        }
    }

    /// Whether a sub-agent (of any kind) started the thread.
    pub fn is_sub_agent(&self) -> bool {
        matches!(self, Self::SubAgent(_))
    }

    /// Whether the thread is a guardian's (auto-review of an approval:
    /// `{"subagent": {"other": "guardian"}}`), which Codex shows by a fixed preview and name.
    fn is_guardian(&self) -> bool {
        matches!(self, Self::SubAgent(serde_json::Value::Object(fields))
            if fields.get("other").and_then(serde_json::Value::as_str) == Some("guardian"))
    }

    /// The preview Codex shows of a thread of this source whose first user message gives
    /// `first`: that, but for a guardian's thread, always "Approval review" (Codex 0.171 on
    /// a thread read from its file).
    pub fn shown_preview(&self, first: String) -> String {
        match self.is_guardian() {
            true => GUARDIAN_PREVIEW.to_owned(),
            false => first,
        }
    }

    /// The name Codex shows of a thread of this source that its home's index names `indexed`:
    /// that, else "Guardian review" for a guardian's thread.
    pub fn shown_name(&self, indexed: Option<String>) -> Option<String> {
        indexed.or_else(|| self.is_guardian().then(|| GUARDIAN_NAME.to_owned()))
    }
}

/// The preview Codex shows of a guardian's thread, whatever its first message.
const GUARDIAN_PREVIEW: &str = "Approval review";

/// The name Codex gives a guardian's thread that its home names none.
const GUARDIAN_NAME: &str = "Guardian review";

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
