//! [`Transcript`]: a thread as a terminal client shows it (seed 004 §4): stable history
//! cells, a live tail of the items still running, and a status line.
//!
//! Built from the client projection, never from raw lines: the turns the history builder
//! rebuilds from a rollout ([`Transcript::replay`], [`Transcript::sync`] for a file still
//! being written) or the notifications a live client receives ([`Transcript::apply`]). The
//! rules, one place for all three:
//! - **which cell**: the item's type decides ([`cell_for_item`]);
//! - **live tail and merge**: an item still running (a command without an exit code, a patch
//!   or tool call in progress) is a live cell; when it completes it becomes a history cell in
//!   its place; when its turn ends, whatever is still live is flushed into history, finished
//!   with the turn's status, and the turn's separator follows;
//! - **safe to replay**: a replay shows no live state. A closed turn's running items are
//!   shown finished with the turn's status; a turn left open at the end of a file that is not
//!   being followed gets no separator and the status line says it was left open;
//! - **what a file shows of a running item**: Codex 0.169 writes a tool call's
//!   `function_call` when the model makes it and nothing more until it completes, so in a
//!   file being followed a call of the running turn with no output yet is a live cell
//!   (`pending`);
//! - **status line**: the model, the thread's tokens and the running turn.

mod anchor;
mod cell;
mod facts;
mod pending;

use std::collections::BTreeMap;

use crate::common::ServerNotification;
use crate::v2::{Turn, TurnStatus};

pub use anchor::anchored_cell;
pub use cell::{
    Cell, CellBody, FileDiff, OUTPUT_FOLD_LINES, TurnTokens, cell_for_item, human_bytes,
    image_label, is_running,
};
pub use facts::ThreadFacts;
use pending::running_cell;

/// The state of the thread's last turn, for the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnState {
    /// No turn yet, or the last one ended.
    Idle,
    /// A turn is running (the file is being followed, or notifications are arriving).
    Running {
        /// The running turn.
        turn_id: String,
        /// How many of its items are still running.
        live_items: usize,
    },
    /// The file ends inside a turn and is not being followed.
    LeftOpen {
        /// The open turn.
        turn_id: String,
    },
}

/// What the bottom line shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusLine {
    /// The model of the latest turn, when known.
    pub model: Option<String>,
    /// The thread's tokens so far, when counted.
    pub tokens: Option<TurnTokens>,
    /// The last turn's state.
    pub turn: TurnState,
    /// How many turns the thread has.
    pub turns: usize,
}

/// How a snapshot of turns is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A finished file or a resume: no live state (see the module docs).
    Replay,
    /// A file still being written or a live client: the last open turn is running.
    Live,
}

/// History cells, the live tail and the status line of one thread.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    history: Vec<Cell>,
    live: Vec<Cell>,
    status: StatusLine,
    /// For [`Transcript::apply`]: the turns as notifications built them.
    turns: Vec<Turn>,
    /// For [`Transcript::apply`]: tokens per turn and the model.
    facts: LiveFacts,
}

/// What notifications say beside the turns.
#[derive(Debug, Clone, Default, PartialEq)]
struct LiveFacts {
    tokens: BTreeMap<String, TurnTokens>,
    total: Option<TurnTokens>,
    model: Option<String>,
}

/// What a [`Transcript::sync`] changed, so a view can keep its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncChange {
    /// History cells before the sync that are still there, unchanged, at the same index.
    pub kept: usize,
    /// History cells now.
    pub history: usize,
}

impl Transcript {
    /// An empty transcript: no turns, idle.
    pub fn new(model: Option<String>) -> Self {
        Self {
            history: Vec::new(),
            live: Vec::new(),
            status: StatusLine {
                model: model.clone(),
                tokens: None,
                turn: TurnState::Idle,
                turns: 0,
            },
            turns: Vec::new(),
            facts: LiveFacts {
                model,
                ..LiveFacts::default()
            },
        }
    }

    /// The transcript of a finished file or a resume: history only, nothing live.
    pub fn replay(turns: &[Turn], facts: &ThreadFacts) -> Self {
        let mut transcript = Self::new(facts.model().map(str::to_owned));
        transcript.rebuild(turns, &FactsRef::Rollout(facts), Mode::Replay);
        transcript
    }

    /// Brings the transcript to a new snapshot of a file being written (the turns rebuilt
    /// from everything read so far): items completed since move from the live tail into
    /// history, a turn that ended is flushed and gets its separator.
    pub fn sync(&mut self, turns: &[Turn], facts: &ThreadFacts) -> SyncChange {
        let before = std::mem::take(&mut self.history);
        self.rebuild(turns, &FactsRef::Rollout(facts), Mode::Live);
        let kept = before
            .iter()
            .zip(&self.history)
            .take_while(|(old, new)| old == new)
            .count();
        SyncChange {
            kept,
            history: self.history.len(),
        }
    }

    /// Reduces one notification a live client received (the reference reducer
    /// [`ThreadState`](crate::ThreadState)'s rules for items, then the cell rules).
    pub fn apply(&mut self, notification: &ServerNotification) {
        let mut state = crate::ThreadState::from_turns(std::mem::take(&mut self.turns));
        state.apply_notification(notification);
        if let ServerNotification::ThreadTokenUsageUpdated(usage) = notification {
            let last = &usage.token_usage.last;
            let entry = self.facts.tokens.entry(usage.turn_id.clone()).or_default();
            entry.input += last.input_tokens;
            entry.cached_input += last.cached_input_tokens;
            entry.output += last.output_tokens;
            let total = &usage.token_usage.total;
            self.facts.total = Some(TurnTokens {
                input: total.input_tokens,
                cached_input: total.cached_input_tokens,
                output: total.output_tokens,
            });
        }
        self.turns = state.turns;
        let turns = std::mem::take(&mut self.turns);
        let facts = self.facts.clone();
        self.rebuild(&turns, &FactsRef::Live(&facts), Mode::Live);
        self.turns = turns;
    }

    /// The stable cells, oldest first.
    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    /// The cells of items still running, in item order.
    pub fn live(&self) -> &[Cell] {
        &self.live
    }

    /// The status line.
    pub fn status(&self) -> &StatusLine {
        &self.status
    }

    /// The history cells a replay shows for one closed or left-open `turn` of a thread
    /// whose rollout gave `facts`: the rollback marker before it, its items (running ones
    /// finished with the turn's status) and, for a closed turn, its end. What a renderer of a
    /// thread one turn at a time shows ([`Transcript::replay`] shows the same cells), so a
    /// whole thread need not be held; the marker of a rollback after the last turn is
    /// [`ThreadFacts::trailing_rollback`]'s.
    pub fn replay_turn(turn: &Turn, facts: &ThreadFacts) -> Vec<Cell> {
        let mut history = Vec::new();
        turn_cells(
            turn,
            &FactsRef::Rollout(facts),
            false,
            &mut history,
            &mut Vec::new(),
        );
        history
    }

    /// The history cells a replay shows after the last turn (`last_turn_id`; `None` when
    /// there is none): the marker of a rollback that followed it.
    pub fn replay_end(last_turn_id: Option<&str>, facts: &ThreadFacts) -> Vec<Cell> {
        end_cells(last_turn_id, &FactsRef::Rollout(facts))
    }

    /// The status line of a replay whose last turn is `last`, of `turns` turns: what
    /// [`Transcript::replay`] shows, for a renderer of one turn at a time.
    pub fn replay_status(last: Option<&Turn>, turns: usize, facts: &ThreadFacts) -> StatusLine {
        StatusLine {
            model: facts.model().map(str::to_owned),
            tokens: facts.total_tokens(),
            turn: last.map_or(TurnState::Idle, |turn| state_after(turn, false, 0)),
            turns,
        }
    }

    fn rebuild(&mut self, turns: &[Turn], facts: &FactsRef<'_>, mode: Mode) {
        self.history.clear();
        self.live.clear();
        let last_index = turns.len().checked_sub(1);
        let mut turn_state = TurnState::Idle;
        for (index, turn) in turns.iter().enumerate() {
            let open = turn.status == TurnStatus::InProgress;
            let running_here = open && mode == Mode::Live && Some(index) == last_index;
            turn_cells(turn, facts, running_here, &mut self.history, &mut self.live);
            turn_state = state_after(turn, running_here, self.live.len());
        }
        self.history
            .extend(end_cells(turns.last().map(|turn| turn.id.as_str()), facts));
        self.status = StatusLine {
            model: facts.model(),
            tokens: facts.total_tokens(),
            turn: turn_state,
            turns: turns.len(),
        };
    }
}

/// The state of the thread after `turn`: idle once it ended, running when it is the running
/// turn of a live thread (with `live_items` running), else left open.
fn state_after(turn: &Turn, running_here: bool, live_items: usize) -> TurnState {
    match (turn.status == TurnStatus::InProgress, running_here) {
        (false, _) => TurnState::Idle,
        (true, true) => TurnState::Running {
            turn_id: turn.id.clone(),
            live_items,
        },
        (true, false) => TurnState::LeftOpen {
            turn_id: turn.id.clone(),
        },
    }
}

/// The cells after the last turn: the marker of a rollback that followed it.
fn end_cells(last_turn_id: Option<&str>, facts: &FactsRef<'_>) -> Vec<Cell> {
    facts
        .trailing_rollback()
        .map(|rolled| rollback_marker(last_turn_id.unwrap_or(""), rolled))
        .into_iter()
        .collect()
}

/// The cells of one turn: into `history`, and into `live` those of the turn running
/// (`running_here`: the last open turn of a live thread).
fn turn_cells(
    turn: &Turn,
    facts: &FactsRef<'_>,
    running_here: bool,
    history: &mut Vec<Cell>,
    live: &mut Vec<Cell>,
) {
    if let Some(rolled) = facts.rollback_before(&turn.id) {
        history.push(rollback_marker(&turn.id, rolled));
    }
    let open = turn.status == TurnStatus::InProgress;
    for timed in &turn.items {
        let mut cell = cell_for_item(&turn.id, &timed.item);
        if cell.live && running_here {
            live.push(cell);
            continue;
        }
        if cell.live {
            finish_with_turn(&mut cell, turn.status, open);
        }
        history.push(cell);
    }
    if running_here && let FactsRef::Rollout(facts) = facts {
        // Calls the file shows as made and not answered: running items Codex writes no
        // start event for.
        for pending in facts.running_calls(&turn.id) {
            let shown = turn
                .items
                .iter()
                .any(|timed| timed.item.id() == pending.call_id);
            if !shown {
                live.push(running_cell(&turn.id, pending));
            }
        }
    }
    if open {
        return;
    }
    history.push(Cell {
        item_id: turn.id.clone(),
        turn_id: turn.id.clone(),
        body: CellBody::TurnEnd {
            status: turn.status,
            duration_ms: turn
                .duration_ms
                .or_else(|| Some((turn.completed_at? - turn.started_at?).saturating_mul(1000))),
            tokens: facts.turn_tokens(&turn.id),
            error: turn.error.as_ref().map(|error| error.message.clone()),
        },
        live: false,
    });
}

/// The facts of a rollout, or those notifications carried.
enum FactsRef<'a> {
    Rollout(&'a ThreadFacts),
    Live(&'a LiveFacts),
}

impl FactsRef<'_> {
    fn rollback_before(&self, turn_id: &str) -> Option<u32> {
        match self {
            Self::Rollout(facts) => facts.rollback_before(turn_id),
            Self::Live(_) => None,
        }
    }

    fn trailing_rollback(&self) -> Option<u32> {
        match self {
            Self::Rollout(facts) => facts.trailing_rollback(),
            Self::Live(_) => None,
        }
    }

    fn turn_tokens(&self, turn_id: &str) -> Option<TurnTokens> {
        match self {
            Self::Rollout(facts) => facts.turn_tokens(turn_id),
            Self::Live(facts) => facts.tokens.get(turn_id).copied(),
        }
    }

    fn total_tokens(&self) -> Option<TurnTokens> {
        match self {
            Self::Rollout(facts) => facts.total_tokens(),
            Self::Live(facts) => facts.total,
        }
    }

    fn model(&self) -> Option<String> {
        match self {
            Self::Rollout(facts) => facts.model().map(str::to_owned),
            Self::Live(facts) => facts.model.clone(),
        }
    }
}

fn rollback_marker(turn_id: &str, turns: u32) -> Cell {
    Cell {
        item_id: format!("rollback-{turn_id}"),
        turn_id: turn_id.to_owned(),
        body: CellBody::Marker {
            text: format!("rolled back {turns} turn(s)"),
        },
        live: false,
    }
}

/// A cell whose item never finished, flushed into history: its status says how its turn
/// ended (`interrupted`, `failed`; `no result` for a turn left open).
fn finish_with_turn(cell: &mut Cell, turn: TurnStatus, open: bool) {
    let word = match (open, turn) {
        (true, _) => "no result",
        (false, TurnStatus::Failed) => "failed",
        (false, _) => "interrupted",
    };
    cell.live = false;
    match &mut cell.body {
        CellBody::Command { status, .. }
        | CellBody::FileChange { status, .. }
        | CellBody::Tool { status, .. } => *status = word,
        _ => {}
    }
}

#[cfg(test)]
#[path = "../transcript_tests.rs"]
mod tests;
