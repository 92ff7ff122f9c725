//! Recording: the path one item takes into history, the rollout and the event stream.
//!
//! [`Session::record_conversation_items`], in order:
//! 1. prepare a copy (media, stamping, ids: [`super::prepare`]);
//! 2. append to history under the lock, with the model's truncation policy (history may cut a
//!    long tool output);
//! 3. hand the *untruncated* prepared items to the rollout sink (accepted, not yet on disk);
//! 4. emit one `raw_response_item` event per prepared item.
//!
//! [`Session::record_response_item_and_emit_turn_item`] records first, then emits
//! `item_started` and `item_completed` when the item has a client-visible form. Tool calls go
//! through the same path *before* the tool runs, so an interruption leaves a recorded call
//! that prompt normalization answers with an `aborted` output.

use codex_protocol::items::TurnItem;
use codex_protocol::items::UserMessageItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::user_input::UserInput;

use super::config::TurnContext;
use super::initial_context::InitialContextInputs;
use super::initial_context::compile_initial_context;
use super::prepare::prepare_conversation_items_for_history;
use super::state::Session;
use super::user_input::MediaFiles;
use super::user_input::normalize_user_submission;
use crate::event_mapping::parse_turn_item_with_ids;

impl Session {
    /// Records `items` (see the module docs) and returns them as prepared (with ids, turn id
    /// and prepared media), which is what history, the rollout and the events received.
    pub async fn record_conversation_items(
        &self,
        turn: &TurnContext,
        items: &[ResponseItem],
    ) -> Vec<ResponseItem> {
        let prepared = prepare_conversation_items_for_history(
            items,
            &turn.sub_id,
            &turn.media,
            self.clock(),
            self.ids(),
        );
        for image in &prepared.image_preparations {
            tracing::debug!(?image, "image prepared for history");
        }
        {
            let mut state = self.state.lock().await;
            state
                .history
                .record_items(prepared.items.iter(), turn.model.truncation_policy);
        }
        let rollout_items: Vec<RolloutItem> = prepared
            .items
            .iter()
            .cloned()
            .map(RolloutItem::ResponseItem)
            .collect();
        self.persist_rollout_items(&rollout_items).await;
        self.send_raw_response_items(turn, &prepared.items).await;
        prepared.items
    }

    /// Records one completed provider item, then emits its turn item (started, completed,
    /// legacy events) when it has one. Returns the turn item.
    ///
    /// The turn item is parsed from the *prepared* item, so an assistant message's turn item
    /// carries the same id as the recorded message (upstream parses the original item and gets
    /// an unrelated id; matching ids let a client correlate the two).
    pub async fn record_response_item_and_emit_turn_item(
        &self,
        turn: &TurnContext,
        item: ResponseItem,
    ) -> Option<TurnItem> {
        self.record_item_and_emit(turn, item).await.1
    }

    /// [`Session::record_response_item_and_emit_turn_item`], also returning the item as
    /// recorded (with its id), which the turn driver needs to run a tool call.
    pub(crate) async fn record_item_and_emit(
        &self,
        turn: &TurnContext,
        item: ResponseItem,
    ) -> (ResponseItem, Option<TurnItem>) {
        let recorded = self
            .record_conversation_items(turn, std::slice::from_ref(&item))
            .await;
        let recorded = recorded.into_iter().next().unwrap_or(item);
        // Every id the projection mints (a user message's own, as upstream does not reuse the
        // response item's) comes from this session's id source.
        let Some(turn_item) = parse_turn_item_with_ids(&recorded, self.ids()) else {
            return (recorded, None);
        };
        let started = self.emit_turn_item_started(turn, &turn_item).await;
        self.emit_turn_item_completed(turn, turn_item.clone(), Some(started))
            .await;
        (recorded, Some(turn_item))
    }

    /// Records a person's submission as one user message and emits its `UserMessage` turn item,
    /// built from the submitted parts (so clients keep paths and UI text elements), then flushes
    /// the rollout so a thread with a user message always exists on disk. Returns the recorded
    /// message.
    pub async fn record_user_input_and_emit_turn_item(
        &self,
        turn: &TurnContext,
        inputs: &[UserInput],
        files: &dyn MediaFiles,
    ) -> ResponseItem {
        let message = normalize_user_submission(inputs, files);
        let recorded = self
            .record_conversation_items(turn, std::slice::from_ref(&message))
            .await;
        let mut user_message = UserMessageItem::new(inputs);
        user_message.id = self.ids().next_uuid().to_string();
        let turn_item = TurnItem::UserMessage(user_message);
        let started = self.emit_turn_item_started(turn, &turn_item).await;
        self.emit_turn_item_completed(turn, turn_item, Some(started))
            .await;
        if let Err(err) = self.flush_rollout().await {
            tracing::error!(error = %err, "failed to flush rollout after user input");
        }
        recorded.into_iter().next().unwrap_or(message)
    }

    /// Compiles and records the initial context of the thread for `turn`.
    pub async fn record_initial_context(
        &self,
        turn: &TurnContext,
        inputs: &InitialContextInputs,
    ) -> Vec<ResponseItem> {
        let items = compile_initial_context(inputs, &turn.sub_id);
        if items.is_empty() {
            return items;
        }
        self.record_conversation_items(turn, &items).await
    }
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
