use codex_protocol::items::HookPromptFragment;
use codex_protocol::models::{ContentItem, MessagePhase, ResponseItem};
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::contextual::{ContextFragment, build_hook_prompt_message};
use crate::event_mapping::parse_turn_item;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const INTER_AGENT_JSON: &str = r#"{"author":"/root","recipient":"/root/worker","other_recipients":[],"content":"run the tests","trigger_turn":true}"#;

/// One row of the consumer table of seed 000 section 7, plus the rows that table implies.
struct Row {
    name: &'static str,
    item: ResponseItem,
    /// `TurnItem` variant name `parse_turn_item` gives, or `None`.
    turn_item: Option<&'static str>,
    boundary: bool,
    /// The `type` tag the item is persisted under in a rollout `response_item` line.
    rollout_type: &'static str,
}

fn item(value: serde_json::Value) -> Result<ResponseItem, serde_json::Error> {
    serde_json::from_value(value)
}

fn consumer_table() -> Result<Vec<Row>, Box<dyn std::error::Error>> {
    let hook =
        build_hook_prompt_message(&[HookPromptFragment::from_single_hook("try again", "run-1")])
            .ok_or("no hook prompt message")?;
    let environment = ContextFragment::environment_context("\n  <cwd>/repo</cwd>\n").into_message();
    let mut inter_agent = ResponseItem::message(
        "assistant",
        vec![ContentItem::output_text(INTER_AGENT_JSON)],
    );
    if let ResponseItem::Message { phase, .. } = &mut inter_agent {
        *phase = Some(MessagePhase::Commentary);
    }
    Ok(vec![
        Row {
            name: "plain user message",
            item: ResponseItem::user_text("fix the build"),
            turn_item: Some("UserMessage"),
            boundary: true,
            rollout_type: "message",
        },
        Row {
            name: "contextual user message",
            item: environment,
            turn_item: None,
            boundary: false,
            rollout_type: "message",
        },
        Row {
            name: "hook prompt",
            item: hook,
            turn_item: Some("HookPrompt"),
            boundary: false,
            rollout_type: "message",
        },
        Row {
            name: "assistant message",
            item: ResponseItem::assistant_text("done", Some(MessagePhase::FinalAnswer)),
            turn_item: Some("AgentMessage"),
            boundary: false,
            rollout_type: "message",
        },
        Row {
            name: "assistant inter-agent instruction",
            item: inter_agent,
            turn_item: Some("AgentMessage"),
            boundary: true,
            rollout_type: "message",
        },
        Row {
            name: "agent message",
            item: item(json!({
                "type": "agent_message", "author": "/root", "recipient": "/root/worker",
                "content": [{"type": "input_text", "text": "run the tests"}]
            }))?,
            turn_item: None,
            boundary: true,
            rollout_type: "agent_message",
        },
        Row {
            name: "reasoning",
            item: item(json!({
                "type": "reasoning", "summary": [{"type": "summary_text", "text": "s"}],
                "content": null, "encrypted_content": null
            }))?,
            turn_item: Some("Reasoning"),
            boundary: false,
            rollout_type: "reasoning",
        },
        Row {
            name: "web search call",
            item: item(json!({"type": "web_search_call", "status": "in_progress"}))?,
            turn_item: Some("WebSearch"),
            boundary: false,
            rollout_type: "web_search_call",
        },
        Row {
            name: "image generation call without id",
            item: item(json!({
                "type": "image_generation_call", "status": "completed", "result": ""
            }))?,
            turn_item: None,
            boundary: false,
            rollout_type: "image_generation_call",
        },
        Row {
            name: "compaction trigger",
            item: ResponseItem::CompactionTrigger {},
            turn_item: None,
            boundary: false,
            rollout_type: "compaction_trigger",
        },
        Row {
            name: "developer message",
            item: ResponseItem::developer_text(
                "<permissions instructions>x</permissions instructions>",
            ),
            turn_item: None,
            boundary: false,
            rollout_type: "message",
        },
        Row {
            name: "system message",
            item: ResponseItem::message("system", vec![ContentItem::input_text("be nice")]),
            turn_item: None,
            boundary: false,
            rollout_type: "message",
        },
        Row {
            name: "function call",
            item: ResponseItem::function_call("shell", "{}", "call_1"),
            turn_item: None,
            boundary: false,
            rollout_type: "function_call",
        },
    ])
}

#[test]
fn consumer_table_of_seed_000_section_7() -> TestResult {
    for row in consumer_table()? {
        let turn_item = parse_turn_item(&row.item);
        assert_eq!(
            turn_item.as_ref().map(|item| item.type_name()),
            row.turn_item,
            "parse_turn_item for {}",
            row.name
        );
        assert_eq!(
            is_user_turn_boundary(&row.item),
            row.boundary,
            "is_user_turn_boundary for {}",
            row.name
        );
        let wire = serde_json::to_value(&row.item)?;
        assert_eq!(
            wire.get("type").and_then(serde_json::Value::as_str),
            Some(row.rollout_type),
            "rollout type for {}",
            row.name
        );
    }
    Ok(())
}

#[test]
fn a_visible_user_message_is_always_a_boundary() -> TestResult {
    // The converse does not hold (agent messages, inter-agent instructions), by design.
    for row in consumer_table()? {
        if row.turn_item == Some("UserMessage") {
            assert!(is_user_turn_boundary(&row.item), "{}", row.name);
        }
    }
    Ok(())
}

#[test]
fn legacy_plaintext_inter_agent_message_is_not_a_boundary() {
    let item = ResponseItem::assistant_text("author: /root\nrecipient: /root/worker\n\nrun", None);
    assert!(!is_user_turn_boundary(&item));
}

#[test]
fn inter_agent_json_from_a_user_is_an_ordinary_user_turn() {
    // Role decides first: the same JSON typed by a person is their message.
    let item = ResponseItem::user_text(INTER_AGENT_JSON);
    assert!(is_user_turn_boundary(&item));
    assert!(matches!(
        parse_turn_item(&item),
        Some(codex_protocol::items::TurnItem::UserMessage(_))
    ));
}

#[test]
fn user_message_mixing_context_and_text_is_not_a_boundary() {
    let item = ResponseItem::message(
        "user",
        vec![
            ContentItem::input_text("<turn_aborted>\nstopped\n</turn_aborted>"),
            ContentItem::input_text("continue"),
        ],
    );
    assert!(!is_user_turn_boundary(&item));
}

#[test]
fn a_typed_lookalike_tag_is_a_boundary() {
    let item = ResponseItem::user_text("<project_context>mine</project_context>");
    assert!(is_user_turn_boundary(&item));
}
