use super::*;
use codex_protocol::items::AgentMessageItem;
use codex_protocol::items::ReasoningItem;
use codex_protocol::models::MessagePhase;
use pretty_assertions::assert_eq;
use std::path::PathBuf;

#[test]
fn user_message_concatenates_text_and_shifts_elements() {
    let user = UserMessageItem::new(&[
        UserInput::text("look at "),
        UserInput::LocalImage {
            path: PathBuf::from("/tmp/a.png"),
            detail: None,
        },
        UserInput::Text {
            text: "[paste]".to_string(),
            text_elements: vec![TextElement::new(ByteRange { start: 0, end: 7 }, None)],
        },
    ]);
    let events = legacy_events_for_completed_item(&TurnItem::UserMessage(user), false);
    let [EventMsg::UserMessage(event)] = events.as_slice() else {
        panic!("expected one user_message, got {events:?}");
    };
    assert_eq!(event.message, "look at [paste]");
    assert_eq!(
        event.text_elements[0].byte_range,
        ByteRange { start: 8, end: 15 }
    );
    assert_eq!(event.local_images, vec![PathBuf::from("/tmp/a.png")]);
    assert_eq!(event.images, None);
}

#[test]
fn agent_message_keeps_phase_and_reasoning_raw_content_is_optional() {
    let mut agent = AgentMessageItem::new(
        "id",
        vec![AgentMessageContent::Text {
            text: "done".to_string(),
        }],
    );
    agent.phase = Some(MessagePhase::FinalAnswer);
    let events = legacy_events_for_completed_item(&TurnItem::AgentMessage(agent), false);
    assert!(matches!(
        events.as_slice(),
        [EventMsg::AgentMessage(AgentMessageEvent { message, phase: Some(MessagePhase::FinalAnswer), .. })] if message == "done"
    ));
    let reasoning = TurnItem::Reasoning(ReasoningItem {
        id: String::new(),
        summary_text: vec!["a".to_string(), "b".to_string()],
        raw_content: vec!["raw".to_string()],
    });
    assert_eq!(legacy_events_for_completed_item(&reasoning, false).len(), 2);
    assert_eq!(legacy_events_for_completed_item(&reasoning, true).len(), 3);
}
