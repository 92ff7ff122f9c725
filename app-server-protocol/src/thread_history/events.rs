//! The persisted events a history is built from: what each shows of a turn.

use codex_protocol::event::EventMsg;
use tracing::debug;

use super::pending_turn::{Origin, PendingTurn};
use super::{ThreadHistoryBuilder, is_interaction};
use crate::projection::item_builders;
use crate::projection::{TurnOutcome, turn_error_for_status};
use crate::v2::{ThreadItem, TimedThreadItem};

impl ThreadHistoryBuilder {
    /// Takes one persisted event into account.
    pub fn handle_event(&mut self, event: &EventMsg) {
        if self.turns_only && self.note_unkept(event) {
            return;
        }
        match event {
            EventMsg::TurnStarted(started) => self.start_turn(started),
            EventMsg::TurnComplete(complete) => {
                if let Some(turn) = self.current.take() {
                    if !complete.turn_id.is_empty() && complete.turn_id != turn.turn.id {
                        debug!(
                            expected = %turn.turn.id,
                            got = %complete.turn_id,
                            "turn_complete names another turn; closing the open one"
                        );
                    }
                    let outcome = TurnOutcome::from_complete(complete, turn.last_error.clone());
                    self.close_with(turn, outcome);
                }
            }
            EventMsg::TurnAborted(aborted) => {
                if let Some(turn) = self.current.take() {
                    self.close_with(turn, TurnOutcome::from_aborted(aborted));
                }
            }
            EventMsg::ThreadRolledBack(rollback) => {
                self.close_current();
                let drop = usize::try_from(rollback.num_turns).unwrap_or(usize::MAX);
                self.reads_earlier |=
                    drop > self.closed.len() + self.settled.len() + self.turns_handed_on();
                let from_closed = drop.min(self.closed.len());
                self.closed.truncate(self.closed.len() - from_closed);
                self.drop_settled(drop - from_closed);
                // Codex numbers what is left as if the dropped turns had never been: the next
                // minted id follows the highest one still shown.
                self.minted_items = self
                    .closed
                    .iter()
                    .filter_map(PendingTurn::highest_minted_item)
                    .chain(self.minted_settled())
                    .chain(self.minted_handed_on())
                    .max()
                    .unwrap_or(0);
            }
            EventMsg::Error(error) => {
                if let Some(turn) = self.current.as_mut()
                    && let Some(error) = turn_error_for_status(error)
                {
                    turn.last_error = Some(error);
                }
            }
            EventMsg::UserMessage(message) => {
                let item = item_builders::user_message_from_event(String::new(), message);
                self.record_user_message(item.into(), Origin::LegacyEvent);
            }
            EventMsg::AgentMessage(message) => {
                self.record_minted(None, Origin::LegacyEvent, |id| {
                    item_builders::agent_message_from_event(id, message)
                });
            }
            EventMsg::AgentReasoning(reasoning) => self.record_reasoning(&reasoning.text, false),
            EventMsg::AgentReasoningRawContent(reasoning) => {
                self.record_reasoning(&reasoning.text, true);
            }
            EventMsg::ItemCompleted(completed) => {
                if is_interaction(&completed.item) {
                    return;
                }
                // 0 is what a record without the time reads as (old plan items say 0 or
                // nothing): Codex shows no time then.
                let item = TimedThreadItem::new(
                    ThreadItem::from(completed.item.clone()),
                    completed.started_at_ms,
                    Some(completed.completed_at_ms).filter(|at| *at != 0),
                );
                if matches!(item.item, ThreadItem::UserMessage { .. }) {
                    self.record_user_message(item, Origin::Typed);
                } else {
                    let mut item = item;
                    let turn_id = Some(completed.turn_id.as_str());
                    if item.id().is_empty() && !self.target(turn_id).absorbs(&item, Origin::Typed) {
                        item.set_id(self.mint_item_id());
                    }
                    self.record(turn_id, item, Origin::Typed);
                }
            }
            EventMsg::PatchApplyEnd(end) => {
                self.record_legacy(
                    Some(&end.turn_id),
                    item_builders::file_change_completed(end),
                );
            }
            EventMsg::WebSearchEnd(end) => {
                self.record_legacy(None, item_builders::web_search_completed(end));
            }
            EventMsg::ImageGenerationEnd(end) => {
                self.record_legacy(None, item_builders::image_generation_completed(end));
            }
            EventMsg::McpToolCallEnd(end) => {
                self.record_legacy(
                    Some(&end.turn_id),
                    item_builders::mcp_tool_call_completed(end),
                );
            }
            EventMsg::EnteredReviewMode(entered) => match &entered.item_id {
                Some(id) => self.record_legacy(
                    entered.turn_id.as_deref(),
                    item_builders::entered_review_mode(id.clone(), entered),
                ),
                None => self.record_minted(entered.turn_id.as_deref(), Origin::LegacyEvent, |id| {
                    item_builders::entered_review_mode(id, entered)
                }),
            },
            EventMsg::ExitedReviewMode(exited) => {
                let output = exited.review_output.as_ref();
                match &exited.item_id {
                    Some(id) => self.record_legacy(
                        exited.turn_id.as_deref(),
                        item_builders::exited_review_mode(id.clone(), output),
                    ),
                    None => {
                        self.record_minted(exited.turn_id.as_deref(), Origin::LegacyEvent, |id| {
                            item_builders::exited_review_mode(id, output)
                        })
                    }
                }
            }
            EventMsg::ContextCompacted(_) => {
                self.record_minted(None, Origin::LegacyEvent, |id| {
                    ThreadItem::ContextCompaction { id }
                });
            }
            EventMsg::ExecCommandEnd(end) => self.handle_exec_end(end),
            _ => {}
        }
    }
}
