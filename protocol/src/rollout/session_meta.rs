//! The first line of every session file: who started the thread, where, with what.
//!
//! `SessionMeta` is what resume, fork and listing read before anything else (thread id, cwd,
//! base instructions, lineage). Its shape grew over many Codex versions; the reader accepts
//! the classic shape (no `session_id`, an `instructions` key) and the newest one alike.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use ts_rs::TS;

pub use crate::models::BaseInstructions;
use crate::thread_id::ThreadId;

use super::session_source::{HistoryMode, SessionSource};

/// The git state of the working directory when the session started (listing shows it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct GitInfo {
    /// Commit the work tree was at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub commit_hash: Option<String>,
    /// Checked-out branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub branch: Option<String>,
    /// Remote URL as Codex recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub repository_url: Option<String>,
}

/// The context window a session starts in (paginated history names windows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionContextWindow {
    /// Window identifier (a UUID in practice; any string is kept).
    pub window_id: String,
}

/// Where a rollout's history starts: a prefix of another thread's rollout, which the rollout
/// continues instead of copying it (a *fork by reference*).
///
/// The prefix is measured in the parent's own terms: its first `end_byte_offset` bytes of
/// uncompressed JSONL (a line boundary) and/or its lines whose `ordinal` is below
/// `end_ordinal_exclusive` (paginated parents). When both are given they must name the same
/// lines. The parent is found by `thread_id` under the same Codex home; `codex-rollout`
/// resolves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct HistoryBase {
    /// The thread whose rollout holds the prefix.
    pub thread_id: ThreadId,
    /// The prefix is the parent's lines with an `ordinal` below this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub end_ordinal_exclusive: Option<u64>,
    /// The prefix is the parent's first this many bytes (uncompressed), ending at a line
    /// boundary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub end_byte_offset: Option<u64>,
}

impl HistoryBase {
    /// A base with neither end set: the caller chooses how the prefix is measured.
    pub fn new(thread_id: ThreadId) -> Self {
        Self {
            thread_id,
            end_ordinal_exclusive: None,
            end_byte_offset: None,
        }
    }
}

/// Metadata of one thread, as written in the `session_meta` line.
///
/// Field order is the wire order of recent upstream versions, so a line written by them
/// re-serializes to the same bytes. Keys missing on input take their defaults; `Option`
/// fields that upstream omits when empty are omitted here too, while `model_provider` and
/// `base_instructions` are written as `null` when absent, as upstream does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionMeta {
    /// Account user that created the thread (newer hosts only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub creator_user_id: Option<String>,
    /// Account that created the thread (newer hosts only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub creator_account_id: Option<String>,
    /// Id of the root thread of this session. Classic files lack it; the line reader copies
    /// `id` into it then (see [`SessionMetaLine`]).
    pub session_id: ThreadId,
    /// This thread's id.
    pub id: ThreadId,
    /// The thread this one was forked from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub forked_from_id: Option<ThreadId>,
    /// Ordinal (exclusive) in the parent up to which history was copied on fork.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub forked_from_ordinal_exclusive: Option<u64>,
    /// The thread that spawned this one (sub-agents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub parent_thread_id: Option<ThreadId>,
    /// When the session started (RFC 3339 string, kept verbatim).
    #[serde(default)]
    pub timestamp: String,
    /// Working directory of the session.
    #[serde(default)]
    #[ts(type = "string")]
    pub cwd: PathBuf,
    /// Extra workspace roots of newer hosts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Array<string>")]
    pub runtime_workspace_roots: Option<Vec<PathBuf>>,
    /// Which client wrote the session (`codex_cli_rs`, `codex_vscode`, `Codex Desktop`, ...).
    #[serde(default)]
    pub originator: String,
    /// Version of the writing Codex.
    #[serde(default)]
    pub cli_version: String,
    /// (classic) user instructions stored in the meta line by old versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub instructions: Option<String>,
    /// What kind of client or agent started the thread.
    #[serde(default)]
    #[schemars(with = "Value")]
    #[ts(type = "unknown")]
    pub source: SessionSource,
    /// Open label for what started the thread (`user`, `subagent`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_source: Option<String>,
    /// Display nickname of a sub-agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_nickname: Option<String>,
    /// Role of a sub-agent (older files spell it `agent_type`).
    #[serde(default, alias = "agent_type", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_role: Option<String>,
    /// Path of the agent in the agent tree, e.g. `/root/worker`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_path: Option<String>,
    /// Model provider id; written as `null` when unknown.
    #[serde(default)]
    pub model_provider: Option<String>,
    /// Base instructions in force; written as `null` when absent.
    #[serde(default)]
    pub base_instructions: Option<BaseInstructions>,
    /// Tools supplied by the client (flat specs or namespaces, kept as JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub dynamic_tools: Option<Value>,
    /// Capability roots chosen for the session; omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(type = "Array<unknown>")]
    pub selected_capability_roots: Vec<Value>,
    /// Memory mode label (`disabled`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub memory_mode: Option<String>,
    /// `legacy` or `paginated`; absent in classic files (which means legacy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    #[ts(optional, type = "string")]
    pub history_mode: Option<HistoryMode>,
    /// The prefix of another rollout this one continues instead of copying it (a fork by
    /// reference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub history_base: Option<HistoryBase>,
    /// First ordinal of a sub-agent's own history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub subagent_history_start_ordinal: Option<u64>,
    /// Multi-agent protocol version (`disabled`, `v1`, `v2`; numbers in some versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub multi_agent_version: Option<Value>,
    /// The context window the session starts in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub context_window: Option<SessionContextWindow>,
}

impl SessionMeta {
    /// A meta with the required facts and every optional field empty.
    pub fn new(
        id: ThreadId,
        timestamp: impl Into<String>,
        cwd: impl Into<PathBuf>,
        originator: impl Into<String>,
        cli_version: impl Into<String>,
    ) -> Self {
        SessionMeta {
            creator_user_id: None,
            creator_account_id: None,
            session_id: id,
            id,
            forked_from_id: None,
            forked_from_ordinal_exclusive: None,
            parent_thread_id: None,
            timestamp: timestamp.into(),
            cwd: cwd.into(),
            runtime_workspace_roots: None,
            originator: originator.into(),
            cli_version: cli_version.into(),
            instructions: None,
            source: SessionSource::default(),
            thread_source: None,
            agent_nickname: None,
            agent_role: None,
            agent_path: None,
            model_provider: None,
            base_instructions: None,
            dynamic_tools: None,
            selected_capability_roots: Vec::new(),
            memory_mode: None,
            history_mode: None,
            history_base: None,
            subagent_history_start_ordinal: None,
            multi_agent_version: None,
            context_window: None,
        }
    }

    /// The history mode, with absence read as [`HistoryMode::Legacy`] as upstream does.
    pub fn effective_history_mode(&self) -> HistoryMode {
        self.history_mode.clone().unwrap_or(HistoryMode::Legacy)
    }
}

/// The `session_meta` payload: [`SessionMeta`] plus the git state, flattened together.
///
/// Reading copies `id` into `session_id` when the latter is missing (classic files), so every
/// reader sees a session id.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema, TS)]
pub struct SessionMetaLine {
    /// The thread metadata (flattened on the wire).
    #[serde(flatten)]
    pub meta: SessionMeta,
    /// Git state of the working directory, when Codex found a repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub git: Option<GitInfo>,
}

impl<'de> Deserialize<'de> for SessionMetaLine {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let value = Value::deserialize(deserializer)?;
        let Value::Object(mut map) = value else {
            return Err(D::Error::custom(
                "session_meta payload must be a JSON object",
            ));
        };
        let git = match map.remove("git") {
            None | Some(Value::Null) => None,
            Some(git) => Some(GitInfo::deserialize(git).map_err(D::Error::custom)?),
        };
        if !map.contains_key("session_id") {
            let id = map
                .get("id")
                .cloned()
                .ok_or_else(|| D::Error::missing_field("id"))?;
            map.insert("session_id".to_string(), id);
        }
        let meta = SessionMeta::deserialize(Value::Object(map)).map_err(D::Error::custom)?;
        Ok(SessionMetaLine { meta, git })
    }
}

#[cfg(test)]
#[path = "session_meta_tests.rs"]
mod tests;
