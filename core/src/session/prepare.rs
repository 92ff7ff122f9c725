//! The history boundary: what happens to items before they are recorded.
//!
//! In this order (the order matters: history keeps the *prepared* content, not the temporary
//! objects a request was built from):
//! 1. media preparation ([`super::media`]): images by detail or unified budget, then audio;
//! 2. [`stamp_response_item_for_history`]: turn id and create time, each only when missing;
//! 3. [`assign_missing_response_item_ids`]: a fresh `{prefix}_{uuid v7}` id for every item that
//!    lacks a non-empty id and has an id prefix. Present non-empty ids are never replaced, so a
//!    resume or a retry never changes an external reference.

use codex_protocol::models::ResponseItem;
use codex_protocol::response_item_id::ResponseItemId;

use super::clock::{Clock, IdSource, unix_seconds_f64};
use super::media::ImagePreparationMetadata;
use super::media::MediaSettings;
use super::media::prepare_media_items;

/// Items ready for history, and what media preparation did to their images.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedItems {
    /// The items, ready to be recorded.
    pub items: Vec<ResponseItem>,
    /// What happened to each image the items held, in order.
    pub image_preparations: Vec<ImagePreparationMetadata>,
}

/// Prepares a copy of `items` for history: media, then stamping with `turn_id` and the time
/// by `clock`, then ids from `ids`.
///
/// Media preparation may insert items (an image resize notice after the item it concerns), so
/// the result can be longer than the input.
pub fn prepare_conversation_items_for_history(
    items: &[ResponseItem],
    turn_id: &str,
    media: &MediaSettings,
    clock: &dyn Clock,
    ids: &dyn IdSource,
) -> PreparedItems {
    let mut items = items.to_vec();
    let image_preparations = prepare_media_items(&mut items, media);
    let create_time = create_time_of(clock);
    for item in &mut items {
        stamp_response_item_for_history(item, turn_id, &create_time);
    }
    assign_missing_response_item_ids(&mut items, ids);
    PreparedItems {
        items,
        image_preparations,
    }
}

/// Stamps the harness metadata of an item: the turn that recorded it and, for items the
/// harness authors (user and developer messages, agent messages, tool outputs), the time it was
/// recorded. Both only when missing: a resumed or replayed item keeps its original turn and
/// time.
pub fn stamp_response_item_for_history(
    item: &mut ResponseItem,
    turn_id: &str,
    create_time: &serde_json::Number,
) {
    item.set_turn_id_if_missing(turn_id);
    item.set_create_time_if_missing(create_time.clone());
}

/// Now by `clock`, as the JSON number of fractional Unix seconds the metadata stores.
pub fn create_time_of(clock: &dyn Clock) -> serde_json::Number {
    serde_json::Number::from_f64(unix_seconds_f64(clock.now()))
        .unwrap_or_else(|| serde_json::Number::from(0))
}

/// Gives every item without a non-empty id a fresh id with its variant's prefix. Items whose
/// variant has no prefix (`compaction_trigger`, unknown types) stay without an id.
pub fn assign_missing_response_item_ids(items: &mut [ResponseItem], ids: &dyn IdSource) {
    for item in items {
        assign_missing_response_item_id(item, ids);
    }
}

/// [`assign_missing_response_item_ids`] for one item.
pub fn assign_missing_response_item_id(item: &mut ResponseItem, ids: &dyn IdSource) {
    if item.id().is_some_and(|id| !id.is_empty()) {
        return;
    }
    let Some(prefix) = item.id_prefix() else {
        return;
    };
    item.set_id(Some(ResponseItemId::with_suffix(prefix, ids.next_uuid())));
}

#[cfg(test)]
#[path = "prepare_tests.rs"]
mod tests;
