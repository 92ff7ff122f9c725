//! The history boundary: what happens to items before they are recorded.
//!
//! In this order (the order matters: history keeps the *prepared* content, not the temporary
//! objects a request was built from):
//! 1. media preparation ([`super::media`]): images by detail or unified budget, then audio;
//! 2. [`stamp_response_item_for_history`]: turn id and create time, each only when missing;
//! 3. [`assign_missing_response_item_ids`]: a fresh `{prefix}_{uuid v7}` id for every item that
//!    lacks a non-empty id and has an id prefix. Present non-empty ids are never replaced, so a
//!    resume or a retry never changes an external reference.

use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use codex_protocol::models::ResponseItem;
use codex_protocol::response_item_id::ResponseItemId;

use super::media::ImagePreparationMetadata;
use super::media::MediaSettings;
use super::media::prepare_media_items;

/// Items ready for history, and what media preparation did to their images.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedItems {
    pub items: Vec<ResponseItem>,
    pub image_preparations: Vec<ImagePreparationMetadata>,
}

/// Prepares a copy of `items` for history: media, then stamping with `turn_id`, then ids.
///
/// Media preparation may insert items (an image resize notice after the item it concerns), so
/// the result can be longer than the input.
pub fn prepare_conversation_items_for_history(
    items: &[ResponseItem],
    turn_id: &str,
    media: &MediaSettings,
) -> PreparedItems {
    let mut items = items.to_vec();
    let image_preparations = prepare_media_items(&mut items, media);
    for item in &mut items {
        stamp_response_item_for_history(item, turn_id);
    }
    assign_missing_response_item_ids(&mut items);
    PreparedItems {
        items,
        image_preparations,
    }
}

/// Stamps the harness metadata of an item: the turn that recorded it and, for items the
/// harness authors (user and developer messages, agent messages, tool outputs), the time it was
/// recorded. Both only when missing: a resumed or replayed item keeps its original turn and
/// time.
pub fn stamp_response_item_for_history(item: &mut ResponseItem, turn_id: &str) {
    item.set_turn_id_if_missing(turn_id);
    item.set_create_time_if_missing(response_item_create_time());
}

/// Now, as the JSON number of fractional Unix seconds the metadata stores.
pub(crate) fn response_item_create_time() -> serde_json::Number {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs_f64())
        .unwrap_or_default();
    serde_json::Number::from_f64(seconds).unwrap_or_else(|| serde_json::Number::from(0))
}

/// Gives every item without a non-empty id a fresh id with its variant's prefix. Items whose
/// variant has no prefix (`compaction_trigger`, unknown types) stay without an id.
pub fn assign_missing_response_item_ids(items: &mut [ResponseItem]) {
    for item in items {
        assign_missing_response_item_id(item);
    }
}

/// [`assign_missing_response_item_ids`] for one item.
pub fn assign_missing_response_item_id(item: &mut ResponseItem) {
    if item.id().is_some_and(|id| !id.is_empty()) {
        return;
    }
    let Some(prefix) = item.id_prefix() else {
        return;
    };
    item.set_id(Some(ResponseItemId::new(prefix)));
}

#[cfg(test)]
#[path = "prepare_tests.rs"]
mod tests;
