use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context_manager::cursor::TranscriptRead;
use crate::context_manager::modality::default_input_modalities;
use crate::context_manager::test_support::*;

#[test]
fn filters_non_api_messages() {
    let items = vec![
        system("system prompt"),
        reasoning("thinking"),
        ResponseItem::Other,
        ResponseItem::CompactionTrigger {},
        user("hi"),
        assistant("hello"),
    ];
    let history = history_of(&items);
    assert_eq!(
        history.raw_items(),
        &[reasoning("thinking"), user("hi"), assistant("hello")]
    );
}

#[test]
fn cloned_history_shares_items_until_mutated() {
    let big_text = "x".repeat(100_000);
    let original = history_of(&[assistant(&big_text)]);
    let snapshot = original.clone();
    assert!(snapshot.shares_items_with(&original));
    assert!(std::ptr::eq(
        snapshot.raw_items().as_ptr(),
        original.raw_items().as_ptr()
    ));

    let mut mutated = snapshot.clone();
    mutated.record_items(&[user("next")], POLICY);
    assert!(!mutated.shares_items_with(&original));
    assert!(snapshot.shares_items_with(&original));
    assert_eq!(original.len(), 1);
    assert_eq!(mutated.len(), 2);
    assert_eq!(mutated.raw_items()[0], original.raw_items()[0]);
}

#[test]
fn record_items_truncates_function_call_output_content() {
    let long = "line of tool output\n".repeat(5_000);
    let mut output = function_output("call-1", &long);
    if let ResponseItem::FunctionCallOutput {
        internal_chat_message_metadata_passthrough,
        output,
        ..
    } = &mut output
    {
        *internal_chat_message_metadata_passthrough = Some(turn_metadata("turn-7"));
        output.success = Some(true);
    }
    let output = with_id(output, "fco_keep");
    let history = history_of(&[function_call("call-1"), output]);

    let stored = &history.raw_items()[1];
    let text = output_text(stored).unwrap_or_default();
    assert!(text.contains("tokens truncated"), "no marker in {text:.80}");
    assert!(text.len() < long.len());
    assert!(text.starts_with("line of tool output"));
    assert!(text.ends_with("line of tool output\n"));
    assert_eq!(stored.turn_id(), Some("turn-7"));
    assert_eq!(stored.call_id(), Some("call-1"));
    assert_eq!(stored.id().map(|id| id.as_str()), Some("fco_keep"));
    match stored {
        ResponseItem::FunctionCallOutput { output, .. } => assert_eq!(output.success, Some(true)),
        other => panic!("unexpected item {other:?}"),
    }
}

#[test]
fn record_items_truncates_custom_tool_call_output_content() {
    let long = "patch output ".repeat(10_000);
    let history = history_of(&[custom_call("c1"), custom_output("c1", &long)]);
    let text = output_text(&history.raw_items()[1]).unwrap_or_default();
    assert!(text.contains("tokens truncated"));
    assert!(text.len() < long.len());
}

#[test]
fn record_items_respects_custom_token_limit() {
    let mut history = ContextManager::new();
    let text = "0123456789".repeat(10);
    history.record_items(&[function_output("c", &text)], TruncationPolicy::Tokens(10));
    // 10 tokens × 1.2 = 12 tokens = 48 bytes of budget for 100 bytes of text.
    assert_eq!(
        output_text(&history.raw_items()[0]),
        Some("012345678901234567890123…13 tokens truncated…678901234567890123456789")
    );
}

#[test]
fn record_items_keeps_outputs_within_budget_unchanged() {
    let items = [function_call("c"), function_output("c", "small")];
    let history = history_of(&items);
    assert_eq!(history.raw_items(), &items);
}

#[test]
fn record_owned_items_filters_and_truncates_like_record_items() {
    let long = "y".repeat(200);
    let items = vec![
        system("s"),
        user("u"),
        ResponseItem::Other,
        function_output("c", &long),
    ];
    let mut by_ref = ContextManager::new();
    by_ref.record_items(&items, TruncationPolicy::Bytes(40));
    let mut owned = ContextManager::new();
    owned.record_owned_items(items, TruncationPolicy::Bytes(40));
    assert_eq!(by_ref.raw_items(), owned.raw_items());
    assert_eq!(owned.len(), 2);
}

#[test]
fn record_items_never_bumps_version() {
    let mut history = ContextManager::new();
    history.record_items(&[user("a"), assistant("b")], POLICY);
    assert_eq!(history.history_version(), 0);
}

#[test]
fn replace_bumps_version_and_clears_world_state_only() {
    let mut history = history_of(&[user("a")]);
    history.set_world_state_baseline(Some(WorldStateSnapshot::new(json!({"cwd": "/repo"}))));
    history.set_reference_context_item(Some(reference_item()));
    history.update_token_info(&usage(10), Some(1000));
    history.replace(vec![user("b")]);
    assert_eq!(history.history_version(), 1);
    assert_eq!(history.raw_items(), &[user("b")]);
    assert_eq!(history.world_state_baseline(), None);
    assert_eq!(history.reference_context_item(), Some(reference_item()));
    assert!(history.token_info().is_some());
}

#[test]
fn replace_version_saturates() {
    let mut history = ContextManager::new();
    history.history_version = u64::MAX;
    history.replace(Vec::new());
    assert_eq!(history.history_version(), u64::MAX);
}

#[test]
fn into_raw_items_and_for_prompt_do_not_copy_an_exclusive_snapshot() {
    let history = history_of(&[user("a"), assistant("b")]);
    let pointer = history.raw_items().as_ptr();
    let items = history.clone().into_raw_items();
    assert_ne!(items.as_ptr(), pointer, "a shared snapshot must copy");
    let items = history.into_raw_items();
    assert_eq!(items.as_ptr(), pointer, "an exclusive snapshot must move");

    let history = history_of(&[user("a"), assistant("b")]);
    let pointer = history.raw_items().as_ptr();
    let projected = history.for_prompt(&default_input_modalities());
    assert_eq!(projected.as_ptr(), pointer);
}

#[test]
fn for_prompt_never_changes_the_stored_history() {
    let history = history_of(&[function_call("open"), function_output("gone", "x")]);
    let before = history.raw_items().to_vec();
    let projected = history.clone().for_prompt(&[InputModality::Text]);
    assert_ne!(projected, before);
    assert_eq!(history.raw_items(), before.as_slice());
    assert_eq!(history.history_version(), 0);
}

#[test]
fn remove_first_item_removes_matching_output_for_function_call() {
    let mut history = history_of(&[
        function_call("call-1"),
        function_output("call-1", "ok"),
        user("next"),
    ]);
    assert_eq!(history.remove_first_item(), 2);
    assert_eq!(history.raw_items(), &[user("next")]);
}

#[test]
fn remove_first_item_removes_matching_call_for_output() {
    let mut history = ContextManager::new();
    history.replace(vec![
        function_output("call-1", "ok"),
        user("between"),
        function_call("call-1"),
        assistant("after"),
    ]);
    history.remove_first_item();
    assert_eq!(history.raw_items(), &[user("between"), assistant("after")]);
}

#[test]
fn remove_first_item_handles_local_shell_pair() {
    let mut history = history_of(&[
        local_shell_call(Some("shell-1")),
        function_output("shell-1", "ok"),
        user("u"),
    ]);
    history.remove_first_item();
    assert_eq!(history.raw_items(), &[user("u")]);
}

#[test]
fn remove_first_item_handles_custom_tool_pair() {
    let mut history = history_of(&[
        custom_call("tool-1"),
        custom_output("tool-1", "ok"),
        user("u"),
    ]);
    history.remove_first_item();
    assert_eq!(history.raw_items(), &[user("u")]);
}

#[test]
fn remove_first_item_clears_world_state_and_bumps_version() {
    let mut history = history_of(&[user("a"), user("b")]);
    history.set_world_state_baseline(Some(WorldStateSnapshot::new(json!(1))));
    let before = history.transcript_cursor();
    history.remove_first_item();
    assert_eq!(history.world_state_baseline(), None);
    assert_eq!(history.history_version(), 1);
    assert_eq!(
        history.transcript_cursor().read_since(before),
        TranscriptRead::Full
    );
    let mut empty = ContextManager::new();
    assert_eq!(empty.remove_first_item(), 0);
    assert_eq!(empty.history_version(), 0);
}

#[test]
fn trim_oldest_equals_repeated_remove_first_item() {
    let items = vec![
        function_call("a"),
        user("u1"),
        function_output("a", "ok"),
        custom_call("b"),
        custom_output("b", "ok"),
        user("u2"),
        function_output("orphan", "x"),
        assistant("done"),
    ];
    for count in 0..=items.len() + 1 {
        let mut one_by_one = ContextManager::new();
        one_by_one.replace(items.clone());
        let mut removed_one_by_one = 0;
        for _ in 0..count {
            removed_one_by_one += one_by_one.remove_first_item();
        }
        let mut at_once = ContextManager::new();
        at_once.replace(items.clone());
        let shared = at_once.clone();
        assert_eq!(
            at_once.trim_oldest(count),
            removed_one_by_one,
            "count {count}"
        );
        assert_eq!(at_once.raw_items(), one_by_one.raw_items(), "count {count}");
        let mut shared_trim = shared.clone();
        shared_trim.trim_oldest(count);
        assert_eq!(
            shared_trim.raw_items(),
            one_by_one.raw_items(),
            "shared, count {count}"
        );
        assert_eq!(shared.len(), items.len());
    }
}

#[test]
fn transcript_cursor_allows_delta_only_across_appends() {
    let mut history = history_of(&[user("a")]);
    let seen = history.transcript_cursor();
    history.record_items(&[assistant("b"), user("c")], POLICY);
    assert_eq!(
        history.transcript_cursor().read_since(seen),
        TranscriptRead::Delta { already_seen: 1 }
    );
    let seen = history.transcript_cursor();
    history.replace(vec![user("a"), assistant("b"), user("c"), user("d")]);
    assert_eq!(
        history.transcript_cursor().read_since(seen),
        TranscriptRead::Full
    );
    assert_eq!(
        history.transcript_cursor().read_since_opt(None),
        TranscriptRead::Full
    );
}

#[test]
fn payload_success_flag_survives_the_projection() {
    let output = ResponseItem::FunctionCallOutput {
        id: None,
        call_id: Some("c".to_string()),
        name: None,
        namespace: None,
        output: FunctionCallOutputPayload::from_text("ok").with_success(false),
        internal_chat_message_metadata_passthrough: None,
    };
    let history = history_of(&[function_call("c"), output.clone()]);
    assert_eq!(history.for_prompt(&[InputModality::Text])[1], output);
}
