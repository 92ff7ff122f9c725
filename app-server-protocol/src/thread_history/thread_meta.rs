//! The [`Thread`] a resume returns: identity and origin from the session meta line, turns
//! from the history builder.

use codex_protocol::event::{EventMsg, EventTimestamp};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine, SessionSource as CoreSessionSource};

use super::build_turns_from_rollout_items;
use crate::v2::{GitInfo, SessionSource, Thread, ThreadSource, ThreadStatus, UserInput};

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
    let meta = items.iter().find_map(|item| match item {
        RolloutItem::SessionMeta(meta) => Some(meta),
        _ => None,
    })?;
    let mut thread = thread_from_session_meta(meta);
    thread.preview = items
        .iter()
        .find_map(|item| match item {
            RolloutItem::EventMsg(EventMsg::UserMessage(message))
                if !message.message.trim().is_empty() =>
            {
                Some(message.message.chars().take(PREVIEW_CHARS).collect())
            }
            _ => None,
        })
        .unwrap_or_default();
    thread.turns = build_turns_from_rollout_items(items);
    if thread.preview.is_empty() {
        thread.preview = first_user_text(&thread).unwrap_or_default();
    }
    Some(thread)
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
