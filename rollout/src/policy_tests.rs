use std::collections::BTreeMap;

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, UnknownRolloutItem};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;

const THREAD: &str = "0199a213-81c0-7800-8aa1-bbab2a035a53";

/// One minimal, valid payload per modelled event, keyed by a label (the wire tag, or the tag
/// plus a qualifier where the decision depends on the payload).
fn event_catalogue() -> Vec<(&'static str, Value)> {
    let call = json!({"call_id": "c"});
    let with = |base: &Value, extra: Value| {
        let mut merged = base.clone();
        if let (Some(target), Value::Object(more)) = (merged.as_object_mut(), extra) {
            target.extend(more);
        }
        merged
    };
    let invocation = json!({"invocation": {"server": "s", "tool": "t", "arguments": null}});
    vec![
        ("error", json!({"type": "error", "message": "m"})),
        ("warning", json!({"type": "warning", "message": "m"})),
        ("context_compacted", json!({"type": "context_compacted"})),
        (
            "thread_rolled_back",
            json!({"type": "thread_rolled_back", "num_turns": 1}),
        ),
        ("task_started", json!({"type": "task_started"})),
        ("task_complete", json!({"type": "task_complete"})),
        ("token_count", json!({"type": "token_count"})),
        (
            "agent_message",
            json!({"type": "agent_message", "message": "m"}),
        ),
        (
            "user_message",
            json!({"type": "user_message", "message": "m"}),
        ),
        (
            "agent_reasoning",
            json!({"type": "agent_reasoning", "text": "t"}),
        ),
        (
            "agent_reasoning_raw_content",
            json!({"type": "agent_reasoning_raw_content", "text": "t"}),
        ),
        (
            "agent_reasoning_section_break",
            json!({"type": "agent_reasoning_section_break"}),
        ),
        (
            "session_configured",
            json!({"type": "session_configured", "session_id": THREAD, "model": "m", "cwd": "/"}),
        ),
        (
            "mcp_tool_call_begin",
            with(
                &with(&call, invocation.clone()),
                json!({"type": "mcp_tool_call_begin"}),
            ),
        ),
        (
            "mcp_tool_call_end",
            with(
                &with(&call, invocation),
                json!({"type": "mcp_tool_call_end", "duration": {"secs": 0, "nanos": 0}, "result": {"Ok": {"content": []}}}),
            ),
        ),
        (
            "web_search_begin",
            with(&call, json!({"type": "web_search_begin"})),
        ),
        (
            "web_search_end",
            with(&call, json!({"type": "web_search_end"})),
        ),
        (
            "image_generation_begin",
            with(&call, json!({"type": "image_generation_begin"})),
        ),
        (
            "image_generation_end",
            with(
                &call,
                json!({"type": "image_generation_end", "status": "completed", "result": ""}),
            ),
        ),
        (
            "exec_command_begin",
            with(
                &call,
                json!({"type": "exec_command_begin", "command": [], "cwd": "/"}),
            ),
        ),
        (
            "exec_command_output_delta",
            with(
                &call,
                json!({"type": "exec_command_output_delta", "stream": "stdout", "chunk": ""}),
            ),
        ),
        (
            "exec_command_end",
            with(
                &call,
                json!({"type": "exec_command_end", "command": [], "cwd": "/", "exit_code": 0,
                       "duration": {"secs": 0, "nanos": 0}}),
            ),
        ),
        (
            "view_image_tool_call",
            with(
                &call,
                json!({"type": "view_image_tool_call", "path": "/i.png"}),
            ),
        ),
        (
            "exec_approval_request",
            with(
                &call,
                json!({"type": "exec_approval_request", "command": [], "cwd": "/"}),
            ),
        ),
        (
            "apply_patch_approval_request",
            with(
                &call,
                json!({"type": "apply_patch_approval_request", "changes": {}}),
            ),
        ),
        (
            "stream_error",
            json!({"type": "stream_error", "message": "m"}),
        ),
        (
            "patch_apply_begin",
            with(&call, json!({"type": "patch_apply_begin", "changes": {}})),
        ),
        (
            "patch_apply_end",
            with(
                &call,
                json!({"type": "patch_apply_end", "stdout": "", "stderr": "", "success": true}),
            ),
        ),
        (
            "turn_diff",
            json!({"type": "turn_diff", "unified_diff": ""}),
        ),
        ("plan_update", json!({"type": "plan_update", "plan": []})),
        (
            "turn_aborted",
            json!({"type": "turn_aborted", "reason": "interrupted"}),
        ),
        ("shutdown_complete", json!({"type": "shutdown_complete"})),
        (
            "entered_review_mode",
            json!({"type": "entered_review_mode"}),
        ),
        ("exited_review_mode", json!({"type": "exited_review_mode"})),
        (
            "raw_response_item",
            json!({"type": "raw_response_item", "item": {"type": "message", "role": "user", "content": []}}),
        ),
        (
            "item_started",
            json!({"type": "item_started", "thread_id": THREAD, "turn_id": "t",
                   "item": {"type": "Plan", "id": "p", "text": "x"}}),
        ),
        (
            "item_completed(Plan)",
            json!({"type": "item_completed", "thread_id": THREAD, "turn_id": "t",
                   "item": {"type": "Plan", "id": "p", "text": "x"}}),
        ),
        (
            "item_completed(AgentMessage)",
            json!({"type": "item_completed", "thread_id": THREAD, "turn_id": "t",
                   "item": {"type": "AgentMessage", "id": "a", "content": []}}),
        ),
        (
            "agent_message_content_delta",
            delta("agent_message_content_delta"),
        ),
        ("plan_delta", delta("plan_delta")),
        ("reasoning_content_delta", delta("reasoning_content_delta")),
        (
            "reasoning_raw_content_delta",
            delta("reasoning_raw_content_delta"),
        ),
        (
            "item_completed(FunctionCallOutput)",
            json!({"type": "item_completed", "thread_id": THREAD, "turn_id": "t",
                   "item": {"type": "FunctionCallOutput", "id": "f", "name": "view_image",
                            "output": "ok"}}),
        ),
        (
            "item_completed(UserMessage)",
            json!({"type": "item_completed", "thread_id": THREAD, "turn_id": "t",
                   "item": {"type": "UserMessage", "id": "u", "content": []}}),
        ),
        (
            "item_completed(SubAgentActivity completed)",
            json!({"type": "item_completed", "thread_id": THREAD, "turn_id": "t",
                   "item": {"type": "SubAgentActivity", "id": "s", "kind": "completed",
                            "agent_thread_id": THREAD, "agent_path": "/root/a"}}),
        ),
        (
            "thread_settings_applied",
            json!({"type": "thread_settings_applied", "thread_settings": {"model": "m"}}),
        ),
        (
            "thread_name_updated",
            json!({"type": "thread_name_updated", "thread_id": THREAD, "thread_name": "n"}),
        ),
        (
            "thread_goal_updated",
            json!({"type": "thread_goal_updated", "threadId": THREAD, "goal": {}}),
        ),
        (
            "guardian_assessment",
            json!({"type": "guardian_assessment", "id": "g", "status": "in_progress"}),
        ),
        (
            "sub_agent_activity",
            json!({"type": "sub_agent_activity", "event_id": "e", "agent_thread_id": THREAD,
                   "agent_path": "/root/a", "kind": "started"}),
        ),
        (
            "collab_agent_spawn_begin",
            json!({"type": "collab_agent_spawn_begin", "call_id": "c"}),
        ),
        (
            "collab_agent_spawn_end",
            json!({"type": "collab_agent_spawn_end", "call_id": "c"}),
        ),
        (
            "collab_agent_interaction_begin",
            json!({"type": "collab_agent_interaction_begin", "call_id": "c"}),
        ),
        (
            "collab_agent_interaction_end",
            json!({"type": "collab_agent_interaction_end", "call_id": "c"}),
        ),
        (
            "collab_waiting_begin",
            json!({"type": "collab_waiting_begin", "call_id": "c"}),
        ),
        (
            "collab_waiting_end",
            json!({"type": "collab_waiting_end", "call_id": "c"}),
        ),
        (
            "collab_close_begin",
            json!({"type": "collab_close_begin", "call_id": "c"}),
        ),
        (
            "collab_close_end",
            json!({"type": "collab_close_end", "call_id": "c"}),
        ),
        (
            "collab_resume_begin",
            json!({"type": "collab_resume_begin", "call_id": "c"}),
        ),
        (
            "collab_resume_end",
            json!({"type": "collab_resume_end", "call_id": "c"}),
        ),
        (
            "auth_recovery_started",
            json!({"type": "auth_recovery_started"}),
        ),
        (
            "auth_recovery_completed",
            json!({"type": "auth_recovery_completed"}),
        ),
        (
            "elicitation_abandoned",
            json!({"type": "elicitation_abandoned"}),
        ),
        (
            "other (unmodelled tag)",
            json!({"type": "brand_new_event", "name": "n"}),
        ),
    ]
}

fn delta(tag: &str) -> Value {
    json!({"type": tag, "thread_id": THREAD, "turn_id": "t", "item_id": "i", "delta": "d"})
}

fn label(durability: Durability) -> &'static str {
    match durability {
        Durability::Durable => "durable",
        Durability::Transient => "transient",
    }
}

/// One row of the table as the snapshot shows it: `legacy / paginated`.
fn row(event: &EventMsg) -> String {
    let row = event_persistence(event);
    format!("{} / {}", label(row.legacy), label(row.paginated))
}

const LEGACY: HistoryMode = HistoryMode::Legacy;
const PAGINATED: HistoryMode = HistoryMode::Paginated;

#[test]
fn event_policy_table() -> Result<(), Box<dyn std::error::Error>> {
    let mut table = BTreeMap::new();
    let mut tags_seen = std::collections::BTreeSet::new();
    for (name, payload) in event_catalogue() {
        let event: EventMsg = serde_json::from_value(payload.clone())
            .map_err(|err| format!("catalogue entry {name} does not parse: {err}"))?;
        // The catalogue must exercise the modelled variant, not the fallback (except the one
        // entry that is there to exercise the fallback).
        if !name.starts_with("other") {
            assert_eq!(Some(event.type_name()), payload["type"].as_str(), "{name}");
        }
        tags_seen.insert(event.type_name());
        table.insert(name, row(&event));
    }
    // Every variant of EventMsg is in the catalogue (59 modelled tags + `other`).
    assert_eq!(tags_seen.len(), 60, "{tags_seen:?}");
    insta::assert_json_snapshot!("event_policy_table", table);
    Ok(())
}

#[test]
fn the_issue_list_is_durable_and_deltas_begins_approvals_raw_are_not()
-> Result<(), Box<dyn std::error::Error>> {
    let catalogue: BTreeMap<_, _> = event_catalogue().into_iter().collect();
    let decide = |name: &str| -> Result<Durability, Box<dyn std::error::Error>> {
        let payload = catalogue.get(name).ok_or(format!("no {name}"))?;
        Ok(event_durability(
            &serde_json::from_value(payload.clone())?,
            &LEGACY,
        ))
    };
    for durable in [
        "user_message",
        "agent_message",
        "agent_reasoning",
        "token_count",
        "task_started",
        "task_complete",
        "turn_aborted",
        "thread_rolled_back",
        "context_compacted",
        "web_search_end",
        "image_generation_end",
        "patch_apply_end",
    ] {
        assert_eq!(decide(durable)?, Durability::Durable, "{durable}");
    }
    for transient in catalogue.keys().filter(|name| {
        name.ends_with("_delta")
            || name.ends_with("_begin")
            || name.contains("approval_request")
            || **name == "raw_response_item"
            || **name == "item_started"
    }) {
        assert_eq!(decide(transient)?, Durability::Transient, "{transient}");
    }
    Ok(())
}

#[test]
fn response_items_are_durable_except_compaction_trigger_and_other()
-> Result<(), Box<dyn std::error::Error>> {
    let durable = [
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}),
        json!({"type": "reasoning", "summary": [], "encrypted_content": null}),
        json!({"type": "function_call", "name": "f", "arguments": "{}", "call_id": "c"}),
        json!({"type": "function_call_output", "call_id": "c", "output": "ok"}),
        json!({"type": "custom_tool_call", "name": "f", "input": "x", "call_id": "c"}),
        json!({"type": "custom_tool_call_output", "call_id": "c", "output": "ok"}),
        json!({"type": "compaction", "encrypted_content": "e"}),
    ];
    for value in durable {
        let item: ResponseItem = serde_json::from_value(value.clone())?;
        assert_eq!(
            response_item_durability(&item),
            Durability::Durable,
            "{value}"
        );
        let item = RolloutItem::ResponseItem(item);
        assert!(is_persisted_rollout_item(&item, &LEGACY));
        assert!(is_persisted_rollout_item(&item, &PAGINATED));
    }
    let trigger: ResponseItem = serde_json::from_value(json!({"type": "compaction_trigger"}))?;
    assert_eq!(response_item_durability(&trigger), Durability::Transient);
    let other: ResponseItem = serde_json::from_value(json!({"type": "brand_new_kind", "x": 1}))?;
    assert_eq!(other, ResponseItem::Other);
    assert_eq!(response_item_durability(&other), Durability::Transient);
    Ok(())
}

#[test]
fn unknown_line_kinds_are_kept_and_filtering_keeps_order() -> Result<(), Box<dyn std::error::Error>>
{
    let unknown = RolloutItem::Unknown(UnknownRolloutItem {
        tag: "brand_new_kind".to_string(),
        payload: None,
    });
    assert!(is_persisted_rollout_item(&unknown, &LEGACY));
    assert!(is_persisted_rollout_item(&unknown, &PAGINATED));
    let user: EventMsg = serde_json::from_value(json!({"type": "user_message", "message": "a"}))?;
    let delta: EventMsg = serde_json::from_value(delta("agent_message_content_delta"))?;
    let done: EventMsg = serde_json::from_value(json!({"type": "task_complete"}))?;
    let items = vec![
        RolloutItem::EventMsg(user.clone()),
        RolloutItem::EventMsg(delta),
        unknown.clone(),
        RolloutItem::EventMsg(done.clone()),
    ];
    assert_eq!(
        persisted_rollout_items(&items, &LEGACY),
        vec![
            RolloutItem::EventMsg(user),
            unknown,
            RolloutItem::EventMsg(done)
        ]
    );
    Ok(())
}

#[test]
fn the_two_modes_follow_the_current_format_lists() -> Result<(), Box<dyn std::error::Error>> {
    let catalogue: BTreeMap<_, _> = event_catalogue().into_iter().collect();
    let decide = |name: &str| -> Result<Persistence, Box<dyn std::error::Error>> {
        let payload = catalogue.get(name).ok_or(format!("no {name}"))?;
        Ok(event_persistence(&serde_json::from_value(payload.clone())?))
    };
    let both = Persistence {
        legacy: Durability::Durable,
        paginated: Durability::Durable,
    };
    let legacy_only = Persistence {
        legacy: Durability::Durable,
        paginated: Durability::Transient,
    };
    let paginated_only = Persistence {
        legacy: Durability::Transient,
        paginated: Durability::Durable,
    };
    for name in [
        "token_count",
        "thread_goal_updated",
        "thread_rolled_back",
        "turn_aborted",
        "task_started",
        "task_complete",
        "thread_settings_applied",
        "item_completed(Plan)",
        "item_completed(FunctionCallOutput)",
        "item_completed(SubAgentActivity completed)",
    ] {
        assert_eq!(decide(name)?, both, "{name}");
    }
    for name in [
        "user_message",
        "agent_message",
        "agent_reasoning",
        "agent_reasoning_raw_content",
        "entered_review_mode",
        "exited_review_mode",
        "patch_apply_end",
        "context_compacted",
        "mcp_tool_call_end",
        "web_search_end",
        "image_generation_end",
        "sub_agent_activity",
    ] {
        assert_eq!(decide(name)?, legacy_only, "{name}");
    }
    for name in [
        "item_completed(AgentMessage)",
        "item_completed(UserMessage)",
    ] {
        assert_eq!(decide(name)?, paginated_only, "{name}");
    }
    for name in [
        "exec_command_end",
        "error",
        "warning",
        "item_started",
        "session_configured",
    ] {
        assert_eq!(decide(name)?.legacy, Durability::Transient, "{name}");
        assert_eq!(decide(name)?.paginated, Durability::Transient, "{name}");
    }
    Ok(())
}

#[test]
fn realtime_items_are_paginated_only_and_other_new_lines_are_kept_in_both() {
    let raw = || codex_protocol::rollout::RawJson::from_text("{}");
    let Ok(realtime) = raw().map(RolloutItem::RealtimeItem) else {
        panic!("raw json");
    };
    assert!(!is_persisted_rollout_item(&realtime, &LEGACY));
    assert!(is_persisted_rollout_item(&realtime, &PAGINATED));
    let Ok(retained) = raw().map(RolloutItem::RetainedContext) else {
        panic!("raw json");
    };
    assert!(is_persisted_rollout_item(&retained, &LEGACY));
    assert!(is_persisted_rollout_item(&retained, &PAGINATED));
}

#[test]
fn paginated_command_output_is_cut_to_64_kib_and_legacy_is_untouched()
-> Result<(), Box<dyn std::error::Error>> {
    let output = "o".repeat(200_000);
    let event: EventMsg = serde_json::from_value(json!({
        "type": "item_completed", "thread_id": THREAD, "turn_id": "t",
        "item": {"type": "CommandExecution", "id": "c", "command": ["ls"], "cwd": "/",
                 "parsed_cmd": [], "status": "completed", "aggregated_output": output},
        "completed_at_ms": 1,
    }))?;
    let item = RolloutItem::EventMsg(event);
    assert!(matches!(
        prepare_for_persistence(&item, &LEGACY),
        std::borrow::Cow::Borrowed(_)
    ));
    let written = prepare_for_persistence(&item, &PAGINATED).into_owned();
    let RolloutItem::EventMsg(EventMsg::ItemCompleted(done)) = written else {
        return Err("not an item_completed".into());
    };
    let codex_protocol::items::TurnItem::CommandExecution(command) = done.item else {
        return Err("not a command".into());
    };
    let capped = command.aggregated_output.unwrap_or_default();
    assert!(capped.len() <= PERSISTED_OUTPUT_LIMIT);
    assert!(capped.contains(PERSISTENCE_TRUNCATION_MARKER));
    Ok(())
}
