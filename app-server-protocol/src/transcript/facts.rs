//! [`ThreadFacts`]: what a transcript shows beside the items, read from the same rollout
//! items the turns are built from: the model, each turn's tokens, where the history was
//! rolled back, and the tool calls written and not answered yet (running).
//!
//! Why here: the history builder keeps turns and items only (a resume carries no tokens and
//! drops rolled-back turns silently); a transcript's separators and status line need the rest,
//! and taking it from the rollout items, as the builder does, keeps one source.

use std::collections::BTreeMap;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;

use super::cell::TurnTokens;
use super::pending::{PendingCall, PendingCalls};

/// The facts gathered so far (feed every rollout item, in file order, with [`Self::handle`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadFacts {
    model: Option<String>,
    /// The turn the next token counts belong to.
    current_turn: Option<String>,
    /// Tokens per turn id.
    tokens: BTreeMap<String, TurnTokens>,
    /// The thread's running total, as the last token count said.
    total: Option<TurnTokens>,
    /// The running total when the current turn started: a turn's tokens are the difference,
    /// so a token count written twice is not counted twice.
    baseline: TurnTokens,
    /// A rollback seen and not yet placed: it is shown before the next turn.
    pending_rollback: Option<u32>,
    /// Rollbacks by the id of the turn that followed them.
    rollbacks: BTreeMap<String, u32>,
    /// A rollback after the last turn.
    trailing_rollback: Option<u32>,
    /// Tool calls written and not answered yet (running, in a file being written).
    calls: PendingCalls,
    /// The items start inside the thread (a page of a large file): the running total
    /// before the first turn is not known, so neither are that turn's own tokens.
    mid_thread: bool,
    /// The turn whose tokens are not known (the first one of items read mid-thread).
    untallied: Option<String>,
}

impl ThreadFacts {
    /// No facts yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Facts of items that start inside a thread, not at its start (a page read from the
    /// middle of a large file): the first turn's tokens are left unknown, since the running
    /// total before it was not read.
    pub fn mid_thread() -> Self {
        Self {
            mid_thread: true,
            ..Self::default()
        }
    }

    /// Takes one rollout item into account.
    pub fn handle(&mut self, item: &RolloutItem) {
        self.calls.handle(item, self.current_turn.as_ref());
        match item {
            RolloutItem::TurnContext(context) if !context.model.is_empty() => {
                self.model = Some(context.model.clone());
            }
            RolloutItem::EventMsg(event) => self.handle_event(event),
            _ => {}
        }
    }

    fn handle_event(&mut self, event: &EventMsg) {
        match event {
            EventMsg::TurnStarted(started) => {
                self.current_turn = Some(started.turn_id.clone());
                self.baseline = self.total.unwrap_or_default();
                if self.mid_thread && self.total.is_none() {
                    self.untallied = Some(started.turn_id.clone());
                }
                if let Some(turns) = self.pending_rollback.take() {
                    self.trailing_rollback = None;
                    self.rollbacks.insert(started.turn_id.clone(), turns);
                }
            }
            EventMsg::ThreadRolledBack(rolled) => {
                let turns = self.pending_rollback.unwrap_or(0) + rolled.num_turns;
                self.pending_rollback = Some(turns);
                self.trailing_rollback = Some(turns);
            }
            EventMsg::TokenCount(count) => {
                let Some(info) = &count.info else { return };
                let total = &info.total_token_usage;
                let total = TurnTokens {
                    input: total.input_tokens,
                    cached_input: total.cached_input_tokens,
                    output: total.output_tokens,
                };
                self.total = Some(total);
                if let Some(turn) = &self.current_turn
                    && self.untallied.as_ref() != Some(turn)
                {
                    let base = self.baseline;
                    self.tokens.insert(
                        turn.clone(),
                        TurnTokens {
                            input: total.input.saturating_sub(base.input),
                            cached_input: total.cached_input.saturating_sub(base.cached_input),
                            output: total.output.saturating_sub(base.output),
                        },
                    );
                }
            }
            _ => {}
        }
    }

    /// The model of the latest turn context.
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    /// The tokens turn `turn_id` used, when the file counted them.
    pub fn turn_tokens(&self, turn_id: &str) -> Option<TurnTokens> {
        self.tokens.get(turn_id).copied()
    }

    /// The thread's running total of tokens, as last counted.
    pub fn total_tokens(&self) -> Option<TurnTokens> {
        self.total
    }

    /// How many turns were rolled back just before turn `turn_id` started.
    pub fn rollback_before(&self, turn_id: &str) -> Option<u32> {
        self.rollbacks.get(turn_id).copied()
    }

    /// The calls of turn `turn_id` written and not answered yet.
    pub(crate) fn running_calls<'a>(
        &'a self,
        turn_id: &'a str,
    ) -> impl Iterator<Item = &'a PendingCall> {
        self.calls.of_turn(turn_id)
    }

    /// How many turns were rolled back after the last turn (no turn has started since).
    pub fn trailing_rollback(&self) -> Option<u32> {
        self.trailing_rollback
    }
}

#[cfg(test)]
#[path = "facts_tests.rs"]
mod tests;
