//! [`Session`]: one thread's history and configuration behind an async lock, plus its sinks.
//!
//! Locking rule: the lock guards only in-memory state and is never held across an await of
//! anything slow (a sink, the model, a tool). Readers take snapshots: [`Session::clone_history`]
//! is O(1) because `ContextManager` shares its items copy-on-write.

use std::sync::Arc;

use codex_protocol::event::{EventMsg, ThreadRolledBackEvent};
use codex_protocol::thread_id::ThreadId;
use tokio::sync::Mutex;

use super::clock::{Clock, IdSource, RandomIds, SystemClock, unix_ms};
use super::config::SessionConfiguration;
use super::config::TurnContext;
use super::sink::EventSink;
use super::sink::RolloutSink;
use super::sink::SinkError;
use crate::context_manager::ContextManager;
use crate::prompt::Prompt;
use crate::prompt::ToolSpec;

/// The state the lock protects.
#[derive(Debug)]
pub(crate) struct SessionState {
    pub(crate) history: ContextManager,
    pub(crate) configuration: SessionConfiguration,
}

/// One running thread: records items into history, hands them to the rollout sink and emits
/// client events.
///
/// One item, from provider output to everywhere it goes ([`Session::record_conversation_items`]):
/// prepare a copy (media, turn id and create time when missing, ids when missing) → append to
/// history under the lock (tool outputs truncated by the model's policy) → hand the
/// untruncated items to the [`RolloutSink`](crate::RolloutSink) (accepted, not yet on disk) →
/// one `raw_response_item` event each. With a client-visible form, `item_started` and
/// `item_completed` follow ([`Session::record_response_item_and_emit_turn_item`]).
#[derive(Debug)]
pub struct Session {
    pub(crate) state: Mutex<SessionState>,
    pub(crate) rollout: Option<Arc<dyn RolloutSink>>,
    pub(crate) events: Arc<dyn EventSink>,
    thread_id: ThreadId,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdSource>,
}

impl Session {
    /// A session with empty history. Without a rollout sink nothing is recorded durably
    /// (an ephemeral thread); events always go to `events`.
    pub fn new(
        configuration: SessionConfiguration,
        rollout: Option<Arc<dyn RolloutSink>>,
        events: Arc<dyn EventSink>,
    ) -> Self {
        let thread_id = configuration.thread_id;
        Self {
            state: Mutex::new(SessionState {
                history: ContextManager::new(),
                configuration,
            }),
            rollout,
            events,
            thread_id,
            clock: Arc::new(SystemClock::new()),
            ids: Arc::new(RandomIds),
        }
    }

    /// This session with its time read from `clock` and its ids minted by `ids` instead of
    /// the system's (see [`Clock`](crate::Clock)): a reproducible recording, a test.
    pub fn with_clock_and_ids(mut self, clock: Arc<dyn Clock>, ids: Arc<dyn IdSource>) -> Self {
        self.clock = clock;
        self.ids = ids;
        self
    }

    /// The clock every time this session stamps comes from.
    pub fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }

    /// The source of every id this session mints.
    pub fn ids(&self) -> &dyn IdSource {
        self.ids.as_ref()
    }

    /// Now, in Unix milliseconds, by this session's clock.
    pub fn now_unix_ms(&self) -> i64 {
        unix_ms(self.clock.now())
    }

    /// The thread this session records.
    pub fn thread_id(&self) -> ThreadId {
        self.thread_id
    }

    /// A snapshot of the history (O(1), shares items until either side writes).
    pub async fn clone_history(&self) -> ContextManager {
        self.state.lock().await.history.clone()
    }

    /// Replaces the whole history (resume, fork, compaction). The new history's version is
    /// made greater than the old one's, so the version only ever increases and a cursor taken
    /// before never reads the new lineage as a delta.
    pub async fn replace_history(&self, mut history: ContextManager) {
        let mut state = self.state.lock().await;
        history.succeed_version(state.history.history_version());
        state.history = history;
    }

    /// Rolls back the last `num_turns` user turns: drops them from history
    /// ([`ContextManager::drop_last_n_user_turns`]), records the `thread_rolled_back` marker
    /// that replays the rollback on resume, and emits it, all under the state lock so no turn
    /// records in between (the marker's place in the file is exactly where history changed).
    /// Rolling back no turns changes nothing and records nothing.
    pub async fn rollback(&self, id: &str, num_turns: u32) {
        if num_turns == 0 {
            return;
        }
        let mut state = self.state.lock().await;
        state.history.drop_last_n_user_turns(num_turns);
        let msg = EventMsg::ThreadRolledBack(ThreadRolledBackEvent { num_turns });
        self.send_event_with_id(id, msg).await;
        drop(state);
    }

    /// A copy of the configuration.
    pub async fn configuration(&self) -> SessionConfiguration {
        self.state.lock().await.configuration.clone()
    }

    /// Changes the configuration; turns already running keep their [`TurnContext`].
    pub async fn update_configuration(&self, update: impl FnOnce(&mut SessionConfiguration)) {
        update(&mut self.state.lock().await.configuration);
    }

    /// The context of a new turn `sub_id`, a snapshot of the current configuration.
    pub async fn new_turn_context(&self, sub_id: impl Into<String>) -> TurnContext {
        TurnContext::new(sub_id, &self.state.lock().await.configuration)
    }

    /// The prompt of the next sampling step: the session's base instructions, the history
    /// projected for the turn's model, and the given tools.
    pub async fn build_prompt(
        &self,
        turn: &TurnContext,
        tools: Vec<ToolSpec>,
        output_schema: Option<serde_json::Value>,
    ) -> Prompt {
        let (history, base_instructions) = {
            let state = self.state.lock().await;
            (
                state.history.clone(),
                state.configuration.base_instructions.clone(),
            )
        };
        Prompt {
            base_instructions,
            input: history.for_prompt(&turn.model.input_modalities),
            tools,
            parallel_tool_calls: turn.model.supports_parallel_tool_calls,
            output_schema,
        }
    }

    /// Waits until everything handed to the rollout sink is durable. `Ok` without a sink.
    pub async fn flush_rollout(&self) -> Result<(), SinkError> {
        match &self.rollout {
            Some(rollout) => rollout.flush().await,
            None => Ok(()),
        }
    }
}
