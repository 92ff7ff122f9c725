//! The [`Thread`] a resume returns: identity and origin from the session meta line, turns
//! from the history builder; what the file itself says (path, modification time) and what its
//! home says (the thread's name, the default provider) are added by
//! [`Thread::describe_file`](crate::v2::Thread::describe_file), since this crate reads no files.

use codex_protocol::event::{EventMsg, EventTimestamp};
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::{
    HistoryMode, RolloutItem, SessionMetaLine, SessionSource as CoreSessionSource,
};

use super::{ThreadHistoryBuilder, TranscriptMode, TurnSchedule};
use crate::v2::{
    GitInfo, SessionSource, Thread, ThreadHistoryMode, ThreadSource, ThreadStatus, Turn, TurnStatus,
};
use codex_protocol::user_input::UserInput as CoreUserInput;

/// What an editor extension writes before the person's own words in a user message: the
/// preview shows what follows it.
const USER_MESSAGE_BEGIN: &str = "## My request for Codex:";

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
    let source = session_source(&meta.source);
    let parent_thread_id = meta
        .parent_thread_id
        .map(|id| id.to_string())
        .or_else(|| spawn_field(spawn, "parent_thread_id"));
    Thread {
        id: meta.id.to_string(),
        environments: None,
        extra: None,
        // Codex's state keeps no session of a thread it has not loaded: it names the thread.
        session_id: meta.id.to_string(),
        forked_from_id: meta
            .forked_from_id
            .map(|id| id.to_string())
            .or_else(|| parent_thread_id.clone()),
        attached_to_thread_id: None,
        parent_thread_id,
        preview: String::new(),
        ephemeral: false,
        section: None,
        section_entered_at: None,
        project_id: None,
        history_mode: match meta.history_mode {
            Some(HistoryMode::Paginated) => ThreadHistoryMode::Paginated,
            _ => ThreadHistoryMode::Legacy,
        },
        model_provider: meta.model_provider.clone().unwrap_or_default(),
        model: None,
        reasoning_effort: None,
        created_at,
        updated_at: created_at,
        recency_at: None,
        status: ThreadStatus::NotLoaded,
        path: None,
        cwd: meta.cwd.display().to_string(),
        cli_version: meta.cli_version.clone(),
        originator: Some(meta.originator.clone()).filter(|originator| !originator.is_empty()),
        can_accept_direct_input: None,
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
        git_info: line
            .git
            .as_ref()
            .map(|git| GitInfo {
                sha: git.commit_hash.clone(),
                branch: git.branch.clone(),
                origin_url: git.repository_url.clone(),
            })
            .filter(|git| git.sha.is_some() || git.branch.is_some() || git.origin_url.is_some()),
        name: source.shown_name(None),
        source,
        daybreak_enabled: None,
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
    /// The first user message recorded, as a `user_message` event or a completed
    /// `UserMessage` item, whichever comes first: Codex previews a thread by the first
    /// message its head holds, and a rollback does not change it.
    preview: Option<String>,
    /// The model and reasoning effort of the latest turn context: what Codex's state records
    /// of a thread it ran.
    model: Option<String>,
    reasoning_effort: Option<String>,
    saw_turn_context: bool,
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

    /// Drops all but the last `last` turns.
    pub fn keep_last_turns(&mut self, last: usize) {
        let turns = match self {
            Self::Thread(thread) => &mut thread.turns,
            Self::TurnsOnly(turns) => turns,
        };
        let first_kept = turns.len().saturating_sub(last);
        turns.drain(..first_kept);
    }
}

impl ThreadBuilder {
    /// Nothing seen yet; the turns show Codex's items ([`TranscriptMode::Codex`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Nothing seen yet; the turns show the items of `mode`.
    pub fn in_mode(mode: TranscriptMode) -> Self {
        Self {
            history: ThreadHistoryBuilder::in_mode(mode),
            ..Self::default()
        }
    }

    /// Takes the next rollout item into account.
    pub fn handle_rollout_item(&mut self, item: &RolloutItem) {
        match item {
            RolloutItem::SessionMeta(meta) if self.thread.is_none() => {
                self.thread = Some(thread_from_session_meta(meta));
            }
            RolloutItem::EventMsg(event) if self.preview.is_none() => {
                self.preview = user_message_preview(event);
            }
            RolloutItem::TurnContext(context) => {
                self.model = Some(context.model.clone()).filter(|model| !model.is_empty());
                self.reasoning_effort = context.effort.clone();
                self.saw_turn_context = true;
            }
            _ => {}
        }
        self.history.handle_rollout_item(item);
    }

    /// A first pass over a thread's items: its identity, preview and model, how many turns
    /// it has and when each stops changing
    /// ([`ThreadHistoryBuilder::planner`]; [`Self::finish_schedule`]).
    pub fn planner() -> Self {
        Self {
            history: ThreadHistoryBuilder::planner(),
            ..Self::default()
        }
    }

    /// The first pass's thread (without its turns: [`TurnSchedule::turns`] counts them)
    /// and schedule.
    pub fn finish_schedule(mut self) -> (BuiltThread, TurnSchedule) {
        let history = std::mem::take(&mut self.history);
        let schedule = history.finish_schedule();
        (self.finish_with(Vec::new()), schedule)
    }

    /// A second pass over the items a first one read ([`Self::planner`]), showing the items
    /// of `mode`, that hands on each turn once it is final ([`Self::take_final_turns`]);
    /// [`Self::finish`] gives the thread with the turns not handed on.
    pub fn following(mode: TranscriptMode, schedule: TurnSchedule) -> Self {
        Self {
            history: ThreadHistoryBuilder::in_mode(mode).following(schedule),
            ..Self::default()
        }
    }

    /// The turns that became final since the last call, in order, each as the thread shows
    /// it ([`ThreadHistoryBuilder::take_final_turns`]).
    pub fn take_final_turns(&mut self) -> Vec<Turn> {
        self.history.take_final_turns()
    }

    /// Whether the session meta has been seen (the thread has its identity).
    pub fn has_identity(&self) -> bool {
        self.thread.is_some()
    }

    /// The preview settled so far: the first user message seen.
    pub fn preview(&self) -> Option<&str> {
        self.preview.as_deref()
    }

    /// A builder for a page of this thread's later turns, read from a turn's start: the
    /// identity and preview this one settled, no turns, no turn context yet.
    pub fn for_later_page(&self) -> Self {
        Self {
            thread: self.thread.clone(),
            preview: self.preview.clone(),
            history: ThreadHistoryBuilder::in_mode(self.history.mode()),
            ..Self::default()
        }
    }

    /// Whether the thread built so far could differ had the items before the first one this
    /// builder saw been given too: its turns say so
    /// ([`ThreadHistoryBuilder::reads_earlier_items`]), or no turn context was seen (the
    /// thread's model is the latest one's).
    pub fn reads_earlier_items(&self) -> bool {
        self.history.reads_earlier_items() || !self.saw_turn_context
    }

    /// The thread (its preview the first user message recorded), or the turns alone when no
    /// session meta was seen.
    pub fn finish(mut self) -> BuiltThread {
        let turns = std::mem::take(&mut self.history).finish();
        self.finish_with(turns)
    }

    fn finish_with(self, mut turns: Vec<Turn>) -> BuiltThread {
        // A turn the file leaves open was cut short as far as a reader can tell: Codex shows
        // a thread it has not loaded that way.
        if let Some(last) = turns.last_mut()
            && last.status == TurnStatus::InProgress
        {
            last.status = TurnStatus::Interrupted;
        }
        let Some(mut thread) = self.thread else {
            return BuiltThread::TurnsOnly(turns);
        };
        thread.turns = turns;
        thread.model = self.model;
        thread.reasoning_effort = self.reasoning_effort;
        thread.preview = thread
            .source
            .shown_preview(self.preview.unwrap_or_default());
        BuiltThread::Thread(Box::new(thread))
    }
}

/// The preview a user message event gives: a `user_message` event's text, or a completed
/// `UserMessage` item's first text, when not blank.
fn user_message_preview(event: &EventMsg) -> Option<String> {
    let text = match event {
        EventMsg::UserMessage(message) => preview_of(&message.message),
        EventMsg::ItemCompleted(completed) => {
            let TurnItem::UserMessage(message) = &completed.item else {
                return None;
            };
            message.content.iter().find_map(|input| match input {
                CoreUserInput::Text { text, .. } => Some(preview_of(text)),
                _ => None,
            })?
        }
        _ => return None,
    };
    Some(text).filter(|text| !text.is_empty())
}

/// The preview of a user message, as Codex lists it: the whole text after the editor's
/// context (everything up to [`USER_MESSAGE_BEGIN`]), trimmed; never cut.
fn preview_of(message: &str) -> String {
    let own_words = match message.find(USER_MESSAGE_BEGIN) {
        Some(start) => &message[start + USER_MESSAGE_BEGIN.len()..],
        None => message,
    };
    own_words.trim().to_owned()
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

/// The client view of a session meta's source (what `Thread.source` shows).
pub fn session_source(source: &CoreSessionSource) -> SessionSource {
    match source {
        CoreSessionSource::Cli => SessionSource::Cli,
        CoreSessionSource::VSCode => SessionSource::VsCode,
        CoreSessionSource::Exec => SessionSource::Exec,
        CoreSessionSource::Mcp => SessionSource::AppServer,
        CoreSessionSource::Custom(name) => SessionSource::Custom(name.clone()),
        CoreSessionSource::SubAgent(detail) => SessionSource::SubAgent(detail.clone()),
        CoreSessionSource::Internal(_) | CoreSessionSource::Unknown(_) => SessionSource::Unknown,
    }
}

#[cfg(test)]
#[path = "thread_meta_tests.rs"]
mod tests;
