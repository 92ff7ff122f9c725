//! The [`Thread`] a resume returns: identity and origin from the session meta line, turns
//! from the history builder.

use codex_protocol::event::{EventMsg, EventTimestamp};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine, SessionSource as CoreSessionSource};

use super::ThreadHistoryBuilder;
use crate::v2::{GitInfo, SessionSource, Thread, ThreadSource, ThreadStatus, Turn, UserInput};

/// Longest preview kept, in characters.
const PREVIEW_CHARS: usize = 200;

/// A thread with no turns, described by its session meta line. Not loaded: a resume loads it.
///
/// `sessionId` is the meta's `session_id` (which the line reader fills with the thread id when
/// a classic file lacks it); the project is never known from a session file, so `projectId` is
/// null. A sub-agent's parent, nickname and role come from the meta's own keys, else from the
/// `thread_spawn` detail of its `source`.
pub fn thread_from_session_meta(line: &SessionMetaLine) -> Thread {
    let meta = &line.meta;
    let created_at = EventTimestamp::Rfc3339(meta.timestamp.clone())
        .unix_seconds()
        .unwrap_or_default();
    let spawn = thread_spawn(&meta.source);
    Thread {
        id: meta.id.to_string(),
        session_id: meta.session_id.to_string(),
        project_id: None,
        forked_from_id: meta.forked_from_id.map(|id| id.to_string()),
        parent_thread_id: meta
            .parent_thread_id
            .map(|id| id.to_string())
            .or_else(|| spawn_field(spawn, "parent_thread_id")),
        preview: String::new(),
        ephemeral: false,
        model_provider: meta.model_provider.clone().unwrap_or_default(),
        created_at,
        updated_at: created_at,
        status: ThreadStatus::NotLoaded,
        path: None,
        cwd: meta.cwd.display().to_string(),
        cli_version: meta.cli_version.clone(),
        source: session_source(&meta.source),
        thread_source: meta
            .thread_source
            .as_deref()
            .and_then(ThreadSource::from_wire),
        agent_nickname: meta
            .agent_nickname
            .clone()
            .or_else(|| spawn_field(spawn, "agent_nickname")),
        agent_role: meta
            .agent_role
            .clone()
            .or_else(|| spawn_field(spawn, "agent_role")),
        git_info: line.git.as_ref().map(|git| GitInfo {
            sha: git.commit_hash.clone(),
            branch: git.branch.clone(),
            origin_url: git.repository_url.clone(),
        }),
        name: None,
        turns: Vec::new(),
    }
}

/// The thread a resume shows: the first session meta line's identity, the first user
/// message as preview, and every turn. `None` when the items hold no session meta.
pub fn thread_from_rollout_items(items: &[RolloutItem]) -> Option<Thread> {
    let mut builder = ThreadBuilder::new();
    for item in items {
        builder.handle_rollout_item(item);
    }
    match builder.finish() {
        BuiltThread::Thread(thread) => Some(*thread),
        BuiltThread::TurnsOnly(_) => None,
    }
}

/// Incremental form of [`thread_from_rollout_items`], for callers that stream a file: it
/// keeps the first session meta's thread, the preview and the turns being built, never the
/// items.
#[derive(Debug, Default)]
pub struct ThreadBuilder {
    thread: Option<Thread>,
    preview: Option<String>,
    history: ThreadHistoryBuilder,
}

/// What [`ThreadBuilder::finish`] gives: the thread with its turns, or only the turns of
/// items that hold no session meta.
#[derive(Debug, Clone, PartialEq)]
pub enum BuiltThread {
    /// The items had a session meta.
    Thread(Box<Thread>),
    /// The items had none: no identity, only turns.
    TurnsOnly(Vec<Turn>),
}

impl BuiltThread {
    /// The turns, either way.
    pub fn turns(&self) -> &[Turn] {
        match self {
            Self::Thread(thread) => &thread.turns,
            Self::TurnsOnly(turns) => turns,
        }
    }
}

impl ThreadBuilder {
    /// Nothing seen yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next rollout item into account.
    pub fn handle_rollout_item(&mut self, item: &RolloutItem) {
        match item {
            RolloutItem::SessionMeta(meta) if self.thread.is_none() => {
                self.thread = Some(thread_from_session_meta(meta));
            }
            RolloutItem::EventMsg(EventMsg::UserMessage(message))
                if self.preview.is_none() && !message.message.trim().is_empty() =>
            {
                self.preview = Some(message.message.chars().take(PREVIEW_CHARS).collect());
            }
            _ => {}
        }
        self.history.handle_rollout_item(item);
    }

    /// The thread (its preview the first user message event, else the first user text of
    /// its turns), or the turns alone when no session meta was seen.
    pub fn finish(self) -> BuiltThread {
        let turns = self.history.finish();
        let Some(mut thread) = self.thread else {
            return BuiltThread::TurnsOnly(turns);
        };
        thread.turns = turns;
        thread.preview = match self.preview {
            Some(preview) => preview,
            None => first_user_text(&thread).unwrap_or_default(),
        };
        BuiltThread::Thread(Box::new(thread))
    }
}

fn first_user_text(thread: &Thread) -> Option<String> {
    thread
        .turns
        .iter()
        .flat_map(|turn| &turn.items)
        .find_map(|item| match item {
            crate::v2::ThreadItem::UserMessage { content, .. } => {
                content.iter().find_map(|input| match input {
                    UserInput::Text { text, .. } => {
                        Some(text.chars().take(PREVIEW_CHARS).collect())
                    }
                    _ => None,
                })
            }
            _ => None,
        })
}

/// The `{"thread_spawn": {...}}` detail of a sub-agent source, when the source is one.
fn thread_spawn(source: &CoreSessionSource) -> Option<&serde_json::Value> {
    match source {
        CoreSessionSource::SubAgent(detail) => detail.get("thread_spawn"),
        _ => None,
    }
}

/// A string field of the `thread_spawn` detail.
fn spawn_field(spawn: Option<&serde_json::Value>, key: &str) -> Option<String> {
    spawn?.get(key)?.as_str().map(str::to_string)
}

fn session_source(source: &CoreSessionSource) -> SessionSource {
    match source {
        CoreSessionSource::Cli => SessionSource::Cli,
        CoreSessionSource::VSCode => SessionSource::VsCode,
        CoreSessionSource::Exec => SessionSource::Exec,
        CoreSessionSource::Mcp => SessionSource::AppServer,
        CoreSessionSource::Custom(name) => SessionSource::Custom(name.clone()),
        CoreSessionSource::SubAgent(_) => SessionSource::SubAgent,
        CoreSessionSource::Internal(_) | CoreSessionSource::Unknown(_) => SessionSource::Unknown,
    }
}

#[cfg(test)]
#[path = "thread_meta_tests.rs"]
mod tests;
