use codex_protocol::call_pairing::OutputChannel;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::ContextManager;
use crate::context_manager::TruncationPolicy;
use crate::context_manager::test_support::*;

fn aborted_function_output(call_id: &str) -> ResponseItem {
    function_output(call_id, SYNTHETIC_OUTPUT_TEXT)
}

#[test]
fn normalize_adds_missing_output_for_function_call() {
    let projected = project(vec![function_call("call-x"), user("next")], ALL);
    assert_eq!(
        projected,
        vec![
            function_call("call-x"),
            aborted_function_output("call-x"),
            user("next")
        ]
    );
}

#[test]
fn normalize_adds_missing_output_for_function_call_inserts_output() {
    let projected = project(vec![user("u"), function_call("a"), assistant("x")], ALL);
    assert_eq!(projected[2], aborted_function_output("a"));
    assert_eq!(projected.len(), 4);
}

#[test]
fn normalize_adds_missing_output_for_custom_tool_call() {
    let projected = project(vec![custom_call("tool-x")], ALL);
    assert_eq!(
        projected,
        vec![custom_call("tool-x"), custom_output("tool-x", "aborted")]
    );
}

#[test]
fn normalize_adds_missing_output_for_local_shell_call_with_id() {
    let projected = project(vec![local_shell_call(Some("shell-1")), user("u")], ALL);
    assert_eq!(
        projected,
        vec![
            local_shell_call(Some("shell-1")),
            aborted_function_output("shell-1"),
            user("u")
        ]
    );
}

#[test]
fn normalize_ignores_local_shell_call_without_id() {
    let items = vec![local_shell_call(None), user("u")];
    assert_eq!(project(items.clone(), ALL), items);
}

#[test]
fn normalization_retains_local_shell_outputs() {
    let items = vec![local_shell_call(Some("s")), function_output("s", "listing")];
    assert_eq!(project(items.clone(), ALL), items);
}

#[test]
fn normalize_adds_missing_output_for_tool_search_call() {
    let projected = project(vec![tool_search_call(Some("ts-1"), "client")], ALL);
    assert_eq!(
        projected,
        vec![
            tool_search_call(Some("ts-1"), "client"),
            tool_search_output(Some("ts-1"), "client")
        ]
    );
}

#[test]
fn normalize_removes_orphan_function_call_output() {
    let projected = project(
        vec![user("u"), function_output("orphan", "x"), assistant("a")],
        ALL,
    );
    assert_eq!(projected, vec![user("u"), assistant("a")]);
}

#[test]
fn normalize_removes_orphan_custom_tool_call_output() {
    let projected = project(vec![custom_output("orphan", "x"), user("u")], ALL);
    assert_eq!(projected, vec![user("u")]);
}

#[test]
fn normalize_removes_orphan_client_tool_search_output() {
    let projected = project(
        vec![tool_search_output(Some("lost"), "client"), user("u")],
        ALL,
    );
    assert_eq!(projected, vec![user("u")]);
}

#[test]
fn normalize_keeps_server_tool_search_output_without_matching_call() {
    let items = vec![
        tool_search_output(Some("srv"), "server"),
        tool_search_output(None, "client"),
        user("u"),
    ];
    assert_eq!(project(items.clone(), ALL), items);
}

#[test]
fn normalize_pairs_server_tool_search_call_with_its_output() {
    let items = vec![
        tool_search_call(Some("srv"), "server"),
        tool_search_output(Some("srv"), "server"),
    ];
    assert_eq!(project(items.clone(), ALL), items);
}

#[test]
fn normalize_preserves_named_function_call_output_without_call_id() {
    let items = vec![user("u"), named_output("calendar.today", "Tuesday")];
    assert_eq!(project(items.clone(), ALL), items);
}

#[test]
fn normalize_mixed_inserts_and_removals() {
    let items = vec![
        function_call("a"),
        function_output("orphan-1", "x"),
        custom_call("b"),
        user("u"),
        function_call("c"),
        function_output("c", "ok"),
        custom_output("orphan-2", "y"),
        local_shell_call(Some("d")),
    ];
    let projected = project(items, ALL);
    assert_eq!(
        projected,
        vec![
            function_call("a"),
            aborted_function_output("a"),
            custom_call("b"),
            custom_output("b", "aborted"),
            user("u"),
            function_call("c"),
            function_output("c", "ok"),
            local_shell_call(Some("d")),
            aborted_function_output("d"),
        ]
    );
}

#[test]
fn normalize_drops_output_placed_before_its_call_and_answers_the_call() {
    let projected = project(vec![function_output("a", "early"), function_call("a")], ALL);
    assert_eq!(
        projected,
        vec![function_call("a"), aborted_function_output("a")]
    );
}

#[test]
fn normalize_keeps_only_the_first_output_of_a_call() {
    let projected = project(
        vec![
            function_call("a"),
            function_output("a", "first"),
            function_output("a", "second"),
        ],
        ALL,
    );
    assert_eq!(
        projected,
        vec![function_call("a"), function_output("a", "first")]
    );
}

#[test]
fn normalize_pairs_reused_call_ids_by_position() {
    let items = vec![
        function_call("dup"),
        function_call("dup"),
        function_output("dup", "answers the second"),
    ];
    let projected = project(items, ALL);
    assert_eq!(
        projected,
        vec![
            function_call("dup"),
            aborted_function_output("dup"),
            function_call("dup"),
            function_output("dup", "answers the second"),
        ]
    );
}

#[test]
fn normalize_keeps_channels_apart() {
    // A custom output does not answer a function call with the same call id.
    let projected = project(vec![function_call("same"), custom_output("same", "x")], ALL);
    assert_eq!(
        projected,
        vec![function_call("same"), aborted_function_output("same")]
    );
}

#[test]
fn for_prompt_assigns_stable_id_to_synthetic_output_without_reordering_history() {
    let items = vec![
        user("u"),
        with_id(function_call("call-1"), "fc_existing"),
        assistant("a"),
    ];
    let first = project(items.clone(), ALL);
    let second = project(items, ALL);
    assert_eq!(first, second);
    assert_eq!(first.len(), 4);
    assert_eq!(first[0], user("u"));
    assert_eq!(first[3], assistant("a"));
    let synthesized = &first[2];
    assert_eq!(
        synthesized.id().map(|id| id.as_str()),
        Some("fco_742749b0-3645-5d32-a172-676827826a07")
    );
    assert_eq!(synthesized.call_id(), Some("call-1"));
}

#[test]
fn synthetic_output_id_depends_on_channel_and_call_item_id() {
    let function = synthetic_output_id(OutputChannel::Function, Some("x"));
    let custom = synthetic_output_id(OutputChannel::CustomTool, Some("x"));
    assert!(function.as_deref().is_some_and(|id| id.starts_with("fco_")));
    assert!(custom.as_deref().is_some_and(|id| id.starts_with("ctco_")));
    assert_ne!(
        function.as_deref().map(|id| &id[4..]),
        custom.as_deref().map(|id| &id[5..])
    );
    assert_eq!(synthetic_output_id(OutputChannel::Function, None), None);
    assert_eq!(synthetic_output_id(OutputChannel::Function, Some("")), None);
}

#[test]
fn normalizing_twice_equals_normalizing_once() {
    let items = vec![
        function_call("a"),
        function_output("zzz", "orphan"),
        custom_call("b"),
        ResponseItem::message(
            "user",
            vec![ContentItem::input_image_url("https://x/y.png", None)],
        ),
    ];
    let once = project(items, TEXT_ONLY);
    let twice = project(once.clone(), TEXT_ONLY);
    assert_eq!(once, twice);
}

#[test]
fn for_prompt_preserves_inter_agent_assistant_messages() {
    let instruction = serde_json::json!({
        "author": "/root",
        "recipient": "/root/worker",
        "content": "go",
        "trigger_turn": true
    })
    .to_string();
    let item = ResponseItem::message("assistant", vec![ContentItem::input_text(instruction)]);
    let mut history = ContextManager::new();
    history.record_items(std::slice::from_ref(&item), TruncationPolicy::Bytes(10_000));
    assert_eq!(history.for_prompt(ALL), vec![item]);
}
