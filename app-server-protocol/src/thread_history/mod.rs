//! Rebuilding a thread's turns from its persisted rollout items, the way a resume shows them.
//!
//! Input is values (`RolloutItem`s), never files: reading session files is `codex-rollout`'s
//! job. In the Codex mode only persisted events and compaction lines are read: `ResponseItem`s
//! are model memory, not client history. The complete mode ([`TranscriptMode::Complete`])
//! also reads the calls and outputs among them (`recorded_calls`).
//!
//! Turn boundaries: `task_started` opens a turn and `task_complete` / `turn_aborted` close it
//! (completed or failed, interrupted). Files from cores that did not persist `task_started`
//! get implicit turns: a user message opens a new turn unless the open implicit turn has none
//! yet. Further user messages inside an explicit turn (steering) stay in it; a `task_started`
//! right after a user message adopts that message's turn. A rollback drops the last turns.
//! Records between turns go to the turn they name (item events carry a turn id), else to the
//! last closed turn (late records), else open an implicit turn. An explicit turn still open at
//! the end stays `inProgress` (the thread of a file, [`ThreadBuilder`], shows it `interrupted`,
//! as Codex shows a thread it has not loaded); an implicit one is `completed`.
//!
//! Ids, as Codex 0.169's `thread/read` gives them (checked against it in
//! `cli/tests/it/real_codex_thread.rs`): an implicit turn is `rollout-<index>`, after the index of
//! the rollout item that opened it among the items Codex's reader keeps
//! ([`RolloutItem::is_read_by_codex`]); a record without an id gets `item-<n>`, counting only the
//! items added (a record that merges into one already there mints nothing), renumbered after a
//! rollback as if the dropped turns had never been. Legacy `exec_command_end` and
//! `view_image_tool_call` events show no item: Codex shows commands from typed items only.

mod events;
mod pending_turn;
mod recorded_calls;
mod schedule;
mod thread_meta;

use codex_protocol::event::EventMsg;
use codex_protocol::items::{ExecCommandSource, TurnItem};
use codex_protocol::rollout::RolloutItem;

use crate::projection::TurnOutcome;
use crate::v2::{ThreadItem, TimedThreadItem, Turn, TurnStatus};
use pending_turn::{Origin, PendingTurn};
use recorded_calls::RecordedCalls;

pub use schedule::TurnSchedule;
pub use thread_meta::{
    BuiltThread, ThreadBuilder, session_source, thread_from_rollout_items, thread_from_session_meta,
};

/// Which items a rebuilt thread shows.
///
/// The turns, their ids and statuses are the same in both; so are Codex's items, in the same
/// order with the same ids: the complete mode only adds items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TranscriptMode {
    /// Exactly what Codex's `thread/read` answers (checked against it in
    /// `cli/tests/it/real_codex_thread.rs`).
    #[default]
    Codex,
    /// Codex's items, plus one for every call the file records that Codex's records show no
    /// item of (function, custom tool, local shell and MCP calls with their outputs, and
    /// legacy `exec_command_end` events): a `commandExecution`, `fileChange`, `mcpToolCall`
    /// or `dynamicToolCall` whose id is the call id. What a person reading a session needs:
    /// Codex shows no command of a legacy-mode file (`recorded_calls` has the rules).
    Complete,
}

/// The turns of a thread, rebuilt from its rollout items in file order.
pub fn build_turns_from_rollout_items(items: &[RolloutItem]) -> Vec<Turn> {
    build_turns_in_mode(items, TranscriptMode::Codex)
}

/// [`build_turns_from_rollout_items`] showing the items of `mode`.
pub fn build_turns_in_mode(items: &[RolloutItem], mode: TranscriptMode) -> Vec<Turn> {
    let mut builder = ThreadHistoryBuilder::in_mode(mode);
    for item in items {
        builder.handle_rollout_item(item);
    }
    builder.finish()
}

/// Incremental form of [`build_turns_from_rollout_items`], for callers that stream a file.
#[derive(Debug, Clone, Default)]
pub struct ThreadHistoryBuilder {
    /// Closed turns, still open to late records that name them (or arrive between turns).
    closed: Vec<PendingTurn>,
    current: Option<PendingTurn>,
    /// Item ids minted so far (`item-1`, `item-2`, ...): one per item added, none for a
    /// record that merges into an item already there.
    minted_items: u64,
    /// Rollout items seen before the one being handled: an implied turn is named
    /// `rollout-<index>` after the item that opened it, as Codex names it.
    item_index: u64,
    /// Whether a turn was implied, a record named a turn not here or a rollback dropped more
    /// turns than there were ([`Self::reads_earlier_items`] adds the minted ids shown).
    reads_earlier: bool,
    /// The recorded calls shown, in [`TranscriptMode::Complete`].
    recorded: Option<RecordedCalls>,
    /// Whether closed turns before the last one keep no items ([`Self::turns_only`]).
    turns_only: bool,
    /// When turns stop changing, as a first pass learnt it ([`Self::following`]), and the
    /// turns already handed on.
    schedule: Option<schedule::Following>,
    /// Turns closed so far, rollbacks aside: the next closed turn's `seq`.
    turns_closed: u64,
    /// A first pass that learns when turns stop changing ([`Self::planner`]).
    planning: bool,
    /// A first pass's closed turns before the last two, kept as their ids and places only
    /// (`schedule.rs`), so planning holds a few words a turn.
    settled: Vec<schedule::Settled>,
    /// Where a first pass's record naming a settled turn goes (nowhere: only its place counts).
    sink: Option<PendingTurn>,
}

impl ThreadHistoryBuilder {
    /// An empty history of Codex's items ([`TranscriptMode::Codex`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty history showing the items of `mode`.
    pub fn in_mode(mode: TranscriptMode) -> Self {
        Self {
            recorded: (mode == TranscriptMode::Complete).then(RecordedCalls::default),
            ..Self::default()
        }
    }

    /// An empty history whose turns (ids, statuses, times) are Codex's but which builds no
    /// item but the person's messages, and keeps none in closed turns before the last: what
    /// counts a thread's turns in the memory of a turn, without the cost of its items.
    pub fn turns_only() -> Self {
        Self {
            turns_only: true,
            ..Self::default()
        }
    }

    /// The items this history shows.
    pub(crate) fn mode(&self) -> TranscriptMode {
        match self.recorded {
            Some(_) => TranscriptMode::Complete,
            None => TranscriptMode::Codex,
        }
    }

    /// Takes one rollout item into account.
    pub fn handle_rollout_item(&mut self, item: &RolloutItem) {
        self.handle_rollout_item_at_index(item);
        // Codex names implicit turns after the items its reader keeps.
        if item.is_read_by_codex() {
            self.item_index += 1;
        }
    }

    /// Whether the turns built so far could differ had the items before the first one this
    /// builder saw been given too: they show something numbered by position (an implied
    /// `rollout-<index>` turn id, a minted `item-<n>` id: a minted id a typed record later
    /// replaced does not count), a record named a turn it never saw, or a rollback dropped
    /// more turns than it holds. `false` for a builder fed from a turn's start means its turns
    /// after the first are those of the whole file: what a reader of a file's last turns from
    /// the end relies on.
    pub fn reads_earlier_items(&self) -> bool {
        self.reads_earlier
            || self.minted_handed_on().is_some()
            || self.minted_settled().next().is_some()
            || self
                .closed
                .iter()
                .chain(&self.current)
                .any(|turn| turn.highest_minted_item().is_some())
    }

    fn handle_rollout_item_at_index(&mut self, item: &RolloutItem) {
        match item {
            RolloutItem::EventMsg(event) => self.handle_event(event),
            RolloutItem::Compacted(_) => self.record_compaction_line(),
            RolloutItem::ResponseItem(response) => self.handle_response(response),
            RolloutItem::SessionMeta(meta) => {
                if let Some(recorded) = &mut self.recorded
                    && recorded.cwd.is_empty()
                {
                    recorded.cwd = meta.meta.cwd.display().to_string();
                }
            }
            RolloutItem::TurnContext(context) => {
                if let Some(recorded) = &mut self.recorded {
                    recorded.cwd = context.cwd.display().to_string();
                }
            }
            // Model memory and bookkeeping lines (a client's tools among them: Codex's thread
            // shows none): a client sees none of them.
            RolloutItem::InterAgentCommunication(_)
            | RolloutItem::InterAgentCommunicationMetadata(_)
            | RolloutItem::TokenUsageRecord(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::DynamicToolsUpdated(_)
            | RolloutItem::RetainedContext(_)
            | RolloutItem::SecurityRiskScore(_)
            | RolloutItem::RealtimeItem(_)
            | RolloutItem::Unknown(_) => {}
        }
    }

    /// A `compacted` line. Codex shows no item for it: its compaction item comes from the
    /// `context_compacted` event (or the typed `ContextCompaction` item) written beside it, and
    /// a file with neither (Codex 0.47 and 0.58) shows none (checked with 0.169's
    /// `thread/read`). The complete mode shows one there, in the open turn (none between
    /// turns), unless Codex's own item for the same compaction is next to it.
    fn record_compaction_line(&mut self) {
        if self.recorded.is_none() {
            return;
        }
        let id = format!("compaction-{}", self.item_index);
        if let Some(turn) = self.current.as_mut() {
            turn.add_recorded_compaction(id);
        }
    }

    /// Counting turns only: an item record other than the person's message marks the turn it
    /// goes to as holding something, and builds no item. `false` for any other event.
    fn note_unkept(&mut self, event: &EventMsg) -> bool {
        let turn_id = match event {
            EventMsg::ItemCompleted(done) if !matches!(done.item, TurnItem::UserMessage(_)) => {
                if is_interaction(&done.item) {
                    return true;
                }
                Some(done.turn_id.as_str())
            }
            EventMsg::AgentMessage(_)
            | EventMsg::AgentReasoning(_)
            | EventMsg::AgentReasoningRawContent(_)
            | EventMsg::WebSearchEnd(_)
            | EventMsg::ImageGenerationEnd(_)
            | EventMsg::ContextCompacted(_) => None,
            EventMsg::PatchApplyEnd(end) => Some(end.turn_id.as_str()),
            EventMsg::McpToolCallEnd(end) => Some(end.turn_id.as_str()),
            EventMsg::EnteredReviewMode(entered) => entered.turn_id.as_deref(),
            EventMsg::ExitedReviewMode(exited) => exited.turn_id.as_deref(),
            _ => return false,
        };
        self.target(turn_id).note_unkept_item();
        true
    }

    /// The turns so far, closing the open one (see the module docs for its status).
    pub fn finish(mut self) -> Vec<Turn> {
        self.close_current();
        self.closed
            .into_iter()
            .map(PendingTurn::into_turn)
            .collect()
    }

    fn start_turn(&mut self, started: &codex_protocol::event::TurnStartedEvent) {
        let id = if started.turn_id.is_empty() {
            self.implied_turn_id()
        } else {
            started.turn_id.clone()
        };
        let root_turn_id = root_turn_id(started);
        let started_at = started.started_at.as_ref().and_then(|at| at.unix_seconds());
        if let Some(recorded) = &mut self.recorded {
            recorded.turn_opened();
        }
        match self.current.take() {
            // Some cores write `task_started` just after the user message that opened it.
            Some(mut turn) if !turn.explicit && turn.holds_only_user_messages() => {
                turn.explicit = true;
                turn.turn.id = id;
                turn.turn.root_turn_id = root_turn_id;
                turn.turn.started_at = started_at;
                self.current = Some(turn);
                return;
            }
            // A turn still open when the next starts was cut short.
            Some(mut turn) => {
                if turn.explicit {
                    turn.turn.status = TurnStatus::Interrupted;
                }
                self.push_closed(turn);
            }
            None => {}
        }
        self.current = Some(PendingTurn::new(id, root_turn_id, true, started_at));
    }

    /// A user message opens a new turn, except when it steers an explicit turn, joins an
    /// implicit turn that has none yet, or is a second record of a message already there.
    ///
    /// A legacy message event carries no id (`item`'s is empty): it gets a minted one unless
    /// it merges into an item already there.
    fn record_user_message(&mut self, mut item: TimedThreadItem, origin: Origin) {
        let starts_new_turn = match &self.current {
            Some(turn) => !turn.explicit && turn.has_user_message() && !turn.absorbs(&item, origin),
            None => true,
        };
        if starts_new_turn {
            if let Some(recorded) = &mut self.recorded {
                recorded.turn_opened();
            }
            self.close_current();
            let id = self.implied_turn_id();
            self.current = Some(PendingTurn::new(id, None, false, None));
        }
        if item.id().is_empty() && !self.target(None).absorbs(&item, origin) {
            item.set_id(self.mint_item_id());
        }
        self.record(None, item, origin);
    }

    fn record_legacy(&mut self, turn_id: Option<&str>, item: ThreadItem) {
        self.record(turn_id, item.into(), Origin::LegacyEvent);
    }

    /// Records an item that has no id of its own, minting one only when it adds an item.
    fn record_minted(
        &mut self,
        turn_id: Option<&str>,
        origin: Origin,
        make: impl FnOnce(String) -> ThreadItem,
    ) {
        let mut item = make(String::new());
        if !self.target(turn_id).absorbs(&item, origin) {
            item.set_id(self.mint_item_id());
        }
        self.record(turn_id, item.into(), origin);
    }

    fn record(&mut self, turn_id: Option<&str>, item: TimedThreadItem, origin: Origin) {
        if let Some(recorded) = &mut self.recorded {
            recorded.forget(item.id());
        }
        self.target(turn_id).record(item, origin);
    }

    fn record_reasoning(&mut self, text: &str, raw: bool) {
        let minted = &mut self.minted_items;
        let named = None;
        let target = Self::target_in(
            &mut self.current,
            &mut self.closed,
            self.item_index,
            named,
            &mut self.reads_earlier,
        );
        let new_id = move || {
            *minted += 1;
            format!("item-{minted}")
        };
        target.record_reasoning(text.to_owned(), raw, new_id);
    }

    /// Where a record goes: the open turn when it names no other; a closed turn it names;
    /// otherwise the open turn, the last closed turn (a late record), or a new implicit turn.
    fn target(&mut self, turn_id: Option<&str>) -> &mut PendingTurn {
        if self.touch_settled(turn_id) {
            return self
                .sink
                .insert(PendingTurn::new(String::new(), None, true, None));
        }
        Self::target_in(
            &mut self.current,
            &mut self.closed,
            self.item_index,
            turn_id,
            &mut self.reads_earlier,
        )
    }

    /// [`Self::target`] over the fields it needs, so a caller may hold another field.
    fn target_in<'a>(
        current: &'a mut Option<PendingTurn>,
        closed: &'a mut [PendingTurn],
        item_index: u64,
        turn_id: Option<&str>,
        reads_earlier: &mut bool,
    ) -> &'a mut PendingTurn {
        let named = turn_id.filter(|id| !id.is_empty());
        let open_matches = match (&*current, named) {
            (Some(turn), Some(id)) => turn.turn.id == id,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let turn = if !open_matches
            && let Some(id) = named
            && let Some(index) = closed.iter().rposition(|turn| turn.turn.id == id)
        {
            &mut closed[index]
        } else {
            // A turn named but not here may be one that came before the items seen.
            *reads_earlier |= !open_matches && named.is_some();
            if current.is_none()
                && let Some(index) = closed.len().checked_sub(1)
            {
                &mut closed[index]
            } else {
                current.get_or_insert_with(|| {
                    *reads_earlier = true;
                    PendingTurn::new(format!("rollout-{item_index}"), None, false, None)
                })
            }
        };
        turn.last_touch = item_index;
        turn
    }

    fn close_current(&mut self) {
        if let Some(turn) = self.current.take() {
            self.push_closed(turn);
        }
    }

    fn push_closed(&mut self, mut turn: PendingTurn) {
        if !turn.explicit {
            if turn.is_empty() {
                return;
            }
            if turn.turn.status == TurnStatus::InProgress {
                turn.turn.status = TurnStatus::Completed;
            }
        }
        self.push_closed_turn(turn);
    }

    /// Pushes a closed turn; counting turns only, the turn before it sheds its items (a
    /// late record goes to the last closed turn, which keeps them); planning, the turns
    /// before those two are settled.
    fn push_closed_turn(&mut self, mut turn: PendingTurn) {
        turn.seq = self.turns_closed;
        self.turns_closed += 1;
        self.closed.push(turn);
        if self.turns_only
            && let Some(index) = self.closed.len().checked_sub(2)
        {
            self.closed[index].shed_items();
        }
        if self.planning {
            self.settle_early_turns();
        }
    }

    fn close_with(&mut self, mut turn: PendingTurn, outcome: TurnOutcome) {
        turn.turn.status = outcome.status;
        turn.turn.error = outcome.error;
        turn.turn.started_at = turn.turn.started_at.or(outcome.started_at);
        turn.turn.completed_at = outcome.completed_at;
        turn.turn.duration_ms = outcome.duration_ms;
        self.push_closed_turn(turn);
    }

    fn mint_item_id(&mut self) -> String {
        self.minted_items += 1;
        format!("item-{}", self.minted_items)
    }

    /// The id of a turn the records imply (no `task_started` named it): `rollout-<index>`
    /// after the rollout item that opened it.
    fn implied_turn_id(&mut self) -> String {
        self.reads_earlier = true;
        format!("rollout-{}", self.item_index)
    }
}

/// The root turn a `task_started` names: its own field, else its attribution's (0.160 and
/// later write it there).
fn root_turn_id(started: &codex_protocol::event::TurnStartedEvent) -> Option<String> {
    started.root_turn_id.clone().or_else(|| {
        started
            .turn_attribution
            .as_ref()?
            .get("root_turn_id")?
            .as_str()
            .map(str::to_owned)
    })
}

fn is_interaction(item: &TurnItem) -> bool {
    matches!(item, TurnItem::CommandExecution(command) if command.source == ExecCommandSource::UnifiedExecInteraction)
}

#[cfg(test)]
#[path = "thread_history_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "codex_reader_tests.rs"]
mod codex_reader_tests;
