//! Wire shapes of every `TurnItem` and every modelled `EventMsg` variant: each value is
//! serialized (and the JSON pinned by an insta snapshot), read back, and compared.

use crate::common;

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use codex_protocol::event::*;
use codex_protocol::items::*;
use codex_protocol::user_input::UserInput;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::json;
use ts_rs::TS;

mod event_samples;
mod thread_event_samples;
mod tool_event_samples;
mod turn_item_samples;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Serializes each named value, checks it reads back equal, and returns name -> JSON.
fn round_trip_all<T>(
    cases: Vec<(&str, T)>,
) -> Result<BTreeMap<String, Value>, Box<dyn std::error::Error>>
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let mut out = BTreeMap::new();
    for (name, value) in cases {
        let json = serde_json::to_value(&value)?;
        let back: T = serde_json::from_value(json.clone())?;
        assert_eq!(back, value, "{name} did not round-trip");
        assert_eq!(
            serde_json::to_value(&back)?,
            json,
            "{name} is not a fixed point"
        );
        assert!(
            out.insert(name.to_string(), json).is_none(),
            "duplicate case {name}"
        );
    }
    Ok(out)
}

#[test]
fn every_turn_item_variant_round_trips() -> TestResult {
    let items = turn_item_samples::turn_items();
    let variants: BTreeSet<&str> = items.iter().map(|(_, item)| item.type_name()).collect();
    assert_eq!(variants.len(), 19, "one case per TurnItem variant at least");
    for (name, item) in &items {
        assert!(
            name.starts_with(item.type_name()),
            "{name} is a {}",
            item.type_name()
        );
    }
    let json = round_trip_all(items)?;
    insta::assert_json_snapshot!("turn_items", json);
    Ok(())
}

/// Every modelled tag: the cases below must cover each one.
const MODELLED_TAGS: &[&str] = &[
    "error",
    "warning",
    "context_compacted",
    "thread_rolled_back",
    "task_started",
    "task_complete",
    "token_count",
    "agent_message",
    "user_message",
    "agent_reasoning",
    "agent_reasoning_raw_content",
    "agent_reasoning_section_break",
    "session_configured",
    "mcp_tool_call_begin",
    "mcp_tool_call_end",
    "web_search_begin",
    "web_search_end",
    "image_generation_begin",
    "image_generation_end",
    "exec_command_begin",
    "exec_command_output_delta",
    "exec_command_end",
    "view_image_tool_call",
    "exec_approval_request",
    "apply_patch_approval_request",
    "stream_error",
    "patch_apply_begin",
    "patch_apply_end",
    "turn_diff",
    "plan_update",
    "turn_aborted",
    "shutdown_complete",
    "entered_review_mode",
    "exited_review_mode",
    "raw_response_item",
    "item_started",
    "item_completed",
    "agent_message_content_delta",
    "plan_delta",
    "reasoning_content_delta",
    "reasoning_raw_content_delta",
    "thread_settings_applied",
    "thread_name_updated",
    "thread_goal_updated",
    "guardian_assessment",
    "sub_agent_activity",
    "collab_agent_spawn_begin",
    "collab_agent_spawn_end",
    "collab_agent_interaction_begin",
    "collab_agent_interaction_end",
    "collab_waiting_begin",
    "collab_waiting_end",
    "collab_close_begin",
    "collab_close_end",
    "collab_resume_begin",
    "collab_resume_end",
    "auth_recovery_started",
    "auth_recovery_completed",
    "elicitation_abandoned",
];

#[test]
fn every_event_variant_round_trips() -> TestResult {
    let groups = [
        ("events_turn", event_samples::turn_events()),
        ("events_items", event_samples::item_events()),
        ("events_messages", event_samples::message_events()),
        ("events_tools", tool_event_samples::tool_events()),
        (
            "events_threads_and_agents",
            thread_event_samples::thread_and_agent_events()?,
        ),
    ];
    let mut covered = BTreeSet::new();
    for (snapshot, cases) in groups {
        for (name, event) in &cases {
            assert!(
                name.starts_with(event.type_name()),
                "{name} is a {}",
                event.type_name()
            );
            covered.insert(event.type_name());
        }
        let json = round_trip_all(cases)?;
        for (name, value) in &json {
            let tag = value["type"].as_str().unwrap_or_default();
            assert!(name.starts_with(tag), "{name} wrote tag {tag}");
        }
        insta::assert_json_snapshot!(snapshot, json);
    }
    let expected: BTreeSet<&str> = MODELLED_TAGS.iter().copied().collect();
    assert_eq!(covered, expected);
    // The list above is itself checked against the schema, so a new variant cannot be added
    // without a case here (`other` is the fallback and has no case).
    let schema = serde_json::to_value(schemars::schema_for!(EventMsg))?;
    let mut declared = common::schema_tags(&schema);
    assert!(
        declared.remove("other"),
        "EventMsg keeps its `other` fallback"
    );
    let expected: BTreeSet<String> = expected.iter().map(|tag| tag.to_string()).collect();
    assert_eq!(declared, expected);
    Ok(())
}

#[test]
fn event_envelope_carries_the_submission_id() -> TestResult {
    let event = Event {
        id: "sub-1".to_string(),
        msg: EventMsg::ShutdownComplete,
    };
    let json = serde_json::to_value(&event)?;
    assert_eq!(
        json,
        json!({"id": "sub-1", "msg": {"type": "shutdown_complete"}})
    );
    assert_eq!(serde_json::from_value::<Event>(json)?, event);
    Ok(())
}

#[test]
fn schemas_and_typescript_render_for_client_types() -> TestResult {
    let config = ts_rs::Config::default();
    for decl in [
        TurnItem::decl(&config),
        EventMsg::decl(&config),
        ItemCompletedEvent::decl(&config),
        TokenUsage::decl(&config),
        ExtensionItem::decl(&config),
        CommandExecutionItem::decl(&config),
        UserInput::decl(&config),
    ] {
        assert!(
            !decl.contains("bigint"),
            "JS-safe integers are numbers: {decl}"
        );
    }
    let turn_item_schema = serde_json::to_value(schemars::schema_for!(TurnItem))?;
    let one_of = turn_item_schema["oneOf"]
        .as_array()
        .map(Vec::len)
        .unwrap_or_default();
    assert_eq!(one_of, 19, "one schema branch per TurnItem variant");
    let event_schema = serde_json::to_value(schemars::schema_for!(EventMsg))?;
    assert!(
        event_schema["oneOf"]
            .as_array()
            .is_some_and(|branches| branches.len() > 40)
    );
    Ok(())
}
