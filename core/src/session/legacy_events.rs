//! The legacy events that accompany a completed turn item.
//!
//! Before turn items existed, clients (and session files) learned about messages from flat
//! events: `user_message`, `agent_message`, `agent_reasoning`, `context_compacted`. Real
//! session files still carry them and readers of older files rely on them, so after every
//! `item_completed` the session also emits the legacy form of the item. A rollout persistence
//! policy then decides which of the two forms is durable.

use codex_protocol::event::AgentMessageEvent;
use codex_protocol::event::AgentReasoningEvent;
use codex_protocol::event::AgentReasoningRawContentEvent;
use codex_protocol::event::ContextCompactedEvent;
use codex_protocol::event::EventMsg;
use codex_protocol::event::UserMessageEvent;
use codex_protocol::items::AgentMessageContent;
use codex_protocol::items::TurnItem;
use codex_protocol::items::UserMessageItem;
use codex_protocol::user_input::ByteRange;
use codex_protocol::user_input::TextElement;
use codex_protocol::user_input::UserInput;

/// The legacy events of a completed turn item, in emission order (empty for items that have
/// none).
pub(crate) fn legacy_events_for_completed_item(
    item: &TurnItem,
    show_raw_reasoning: bool,
) -> Vec<EventMsg> {
    match item {
        TurnItem::UserMessage(user) => vec![EventMsg::UserMessage(user_message_event(user))],
        TurnItem::AgentMessage(agent) => agent
            .content
            .iter()
            .map(|part| {
                let AgentMessageContent::Text { text } = part;
                EventMsg::AgentMessage(AgentMessageEvent {
                    message: text.clone(),
                    phase: agent.phase.clone(),
                    memory_citation: agent.memory_citation.clone(),
                    delivery: agent.delivery,
                    questions: agent.questions.clone(),
                })
            })
            .collect(),
        TurnItem::Reasoning(reasoning) => {
            let mut events: Vec<EventMsg> = reasoning
                .summary_text
                .iter()
                .map(|text| EventMsg::AgentReasoning(AgentReasoningEvent { text: text.clone() }))
                .collect();
            if show_raw_reasoning {
                events.extend(reasoning.raw_content.iter().map(|text| {
                    EventMsg::AgentReasoningRawContent(AgentReasoningRawContentEvent {
                        text: text.clone(),
                    })
                }));
            }
            events
        }
        TurnItem::ContextCompaction(_) => {
            vec![EventMsg::ContextCompacted(ContextCompactedEvent {})]
        }
        _ => Vec::new(),
    }
}

/// The flat `user_message` event of a user message: text parts concatenated (their UI
/// elements shifted to the concatenated offsets) and media listed by kind.
fn user_message_event(user: &UserMessageItem) -> UserMessageEvent {
    let mut event = UserMessageEvent {
        client_id: user.client_id.clone(),
        ..UserMessageEvent::default()
    };
    let mut images = Vec::new();
    let mut audio = Vec::new();
    for input in &user.content {
        match input {
            UserInput::Text {
                text,
                text_elements,
            } => {
                let offset = event.message.len();
                event
                    .text_elements
                    .extend(text_elements.iter().map(|element| {
                        TextElement::new(
                            ByteRange {
                                start: element.byte_range.start + offset,
                                end: element.byte_range.end + offset,
                            },
                            element.placeholder.clone(),
                        )
                    }));
                event.message.push_str(text);
            }
            UserInput::Image { image_url, .. } => images.push(image_url.clone()),
            UserInput::LocalImage { path, .. } => event.local_images.push(path.clone()),
            UserInput::Audio { audio_url } => audio.push(audio_url.clone()),
            UserInput::LocalAudio { path } => event.local_audio.push(path.clone()),
            UserInput::Skill { .. } | UserInput::Mention { .. } => {}
        }
    }
    event.images = (!images.is_empty()).then_some(images);
    event.audio = (!audio.is_empty()).then_some(audio);
    event
}

#[cfg(test)]
#[path = "legacy_events_tests.rs"]
mod tests;
