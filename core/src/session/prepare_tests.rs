use super::*;
use crate::session::clock::{RandomIds, SystemClock};
use codex_protocol::models::AgentMessageInputContent;
use codex_protocol::models::ContentItem;
use pretty_assertions::assert_eq;

fn now() -> serde_json::Number {
    create_time_of(&SystemClock::new())
}

fn agent_message() -> ResponseItem {
    ResponseItem::AgentMessage {
        id: None,
        author: "/root".to_string(),
        recipient: "/root/worker".to_string(),
        content: vec![AgentMessageInputContent::InputText {
            text: "please check the tests".to_string(),
        }],
        internal_chat_message_metadata_passthrough: None,
    }
}

fn id_of(item: &ResponseItem) -> String {
    item.id()
        .map(|id| id.as_str().to_string())
        .unwrap_or_default()
}

#[test]
fn assign_missing_response_item_ids_assigns_agent_message_ids() {
    let mut items = vec![agent_message(), ResponseItem::user_text("hi")];
    assign_missing_response_item_ids(&mut items, &RandomIds);
    assert!(
        id_of(&items[0]).starts_with("amsg_"),
        "{}",
        id_of(&items[0])
    );
    assert!(id_of(&items[1]).starts_with("msg_"), "{}", id_of(&items[1]));
    let suffix = id_of(&items[0]).trim_start_matches("amsg_").to_string();
    let parsed = uuid::Uuid::parse_str(&suffix).map(|uuid| uuid.get_version_num());
    assert_eq!(parsed, Ok(7));
}

#[test]
fn assign_missing_response_item_ids_assigns_additional_tools_ids() {
    let mut items = vec![ResponseItem::AdditionalTools {
        id: None,
        role: "developer".to_string(),
        tools: Vec::new(),
    }];
    assign_missing_response_item_ids(&mut items, &RandomIds);
    assert!(id_of(&items[0]).starts_with("at_"));
}

#[test]
fn present_ids_are_kept_and_empty_ids_replaced() {
    let mut kept = ResponseItem::user_text("a");
    kept.set_id(Some(ResponseItemId::from_server("server-legacy-id")));
    let mut empty = ResponseItem::user_text("b");
    empty.set_id(Some(ResponseItemId::from_server("")));
    let mut items = vec![
        kept,
        empty,
        ResponseItem::CompactionTrigger {},
        ResponseItem::Other,
    ];
    assign_missing_response_item_ids(&mut items, &RandomIds);
    assert_eq!(id_of(&items[0]), "server-legacy-id");
    assert!(id_of(&items[1]).starts_with("msg_"));
    assert_eq!(items[2].id(), None);
    assert_eq!(items[3].id(), None);
}

#[test]
fn stamping_sets_turn_and_time_only_when_missing() {
    let mut user = ResponseItem::user_text("hi");
    stamp_response_item_for_history(&mut user, "turn-2", &now());
    assert_eq!(user.turn_id(), Some("turn-2"));
    let first_time = user.create_time().cloned();
    assert!(first_time.is_some());
    stamp_response_item_for_history(&mut user, "turn-3", &now());
    assert_eq!(user.turn_id(), Some("turn-2"));
    assert_eq!(user.create_time().cloned(), first_time);

    let mut assistant = ResponseItem::assistant_text("done", None);
    stamp_response_item_for_history(&mut assistant, "turn-2", &now());
    assert_eq!(assistant.turn_id(), Some("turn-2"));
    assert_eq!(assistant.create_time(), None);
}

#[test]
fn empty_turn_id_stamps_nothing() {
    let mut user = ResponseItem::user_text("hi");
    stamp_response_item_for_history(&mut user, "", &now());
    assert_eq!(user.turn_id(), None);
}

#[test]
fn prepare_runs_media_then_stamp_then_ids_on_a_copy() {
    let original = vec![ResponseItem::message(
        "user",
        vec![ContentItem::input_image_url(
            "https://example.com/x.png",
            None,
        )],
    )];
    let prepared = prepare_conversation_items_for_history(
        &original,
        "turn-9",
        &MediaSettings::default(),
        &SystemClock::new(),
        &RandomIds,
    );
    assert_eq!(original[0].id(), None, "input must not change");
    let item = &prepared.items[0];
    assert!(id_of(item).starts_with("msg_"));
    assert_eq!(item.turn_id(), Some("turn-9"));
    assert_eq!(
        item.message_content().and_then(|c| c[0].text()),
        Some("image content omitted because remote image URLs are not supported")
    );
}
