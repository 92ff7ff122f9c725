//! Unit tests of call/output pairing: kinds, channels, keys and the partner rules.

use serde_json::json;

use super::*;
use crate::models::LocalShellAction;
use crate::models::LocalShellExecAction;
use crate::models::LocalShellStatus;

fn local_shell_call(call_id: Option<&str>) -> ResponseItem {
    ResponseItem::LocalShellCall {
        encrypted_content: None,
        id: None,
        call_id: call_id.map(str::to_string),
        status: LocalShellStatus::Completed,
        action: LocalShellAction::Exec(LocalShellExecAction::default()),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn tool_search_call(call_id: Option<&str>, execution: &str) -> ResponseItem {
    ResponseItem::ToolSearchCall {
        encrypted_content: None,
        id: None,
        call_id: call_id.map(str::to_string),
        status: None,
        execution: execution.to_string(),
        arguments: json!({}),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn tool_search_output(call_id: Option<&str>, execution: &str) -> ResponseItem {
    ResponseItem::ToolSearchOutput {
        id: None,
        call_id: call_id.map(str::to_string),
        status: "completed".to_string(),
        execution: execution.to_string(),
        tools: vec![],
        internal_chat_message_metadata_passthrough: None,
    }
}

fn standalone_output() -> ResponseItem {
    ResponseItem::FunctionCallOutput {
        id: None,
        call_id: None,
        name: Some("external".to_string()),
        namespace: None,
        output: "x".into(),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn answers(output: &ResponseItem, call: &ResponseItem) -> bool {
    match (output.call_link(), call.call_link()) {
        (Some(output), Some(call)) => output.answers(&call),
        _ => false,
    }
}

#[test]
fn classifies_every_call_and_output_variant() {
    let cases = [
        (
            ResponseItem::function_call("f", "{}", "c1"),
            ToolCallKind::Function,
            CallSide::Call,
        ),
        (
            local_shell_call(Some("c2")),
            ToolCallKind::LocalShell,
            CallSide::Call,
        ),
        (
            ResponseItem::custom_tool_call("p", "in", "c3"),
            ToolCallKind::CustomTool,
            CallSide::Call,
        ),
        (
            tool_search_call(Some("c4"), "client"),
            ToolCallKind::ToolSearch,
            CallSide::Call,
        ),
        (
            ResponseItem::function_call_output("c1", "ok"),
            ToolCallKind::Function,
            CallSide::Output,
        ),
        (
            ResponseItem::custom_tool_call_output("c3", "ok"),
            ToolCallKind::CustomTool,
            CallSide::Output,
        ),
        (
            tool_search_output(Some("c4"), "client"),
            ToolCallKind::ToolSearch,
            CallSide::Output,
        ),
    ];
    for (item, kind, side) in cases {
        let link = item.call_link();
        assert_eq!(
            link.map(|l| (l.kind, l.side)),
            Some((kind, side)),
            "{}",
            item.item_type()
        );
        assert_eq!(item.is_tool_call(), side == CallSide::Call);
        assert_eq!(item.is_tool_output(), side == CallSide::Output);
        assert!(item.call_id().is_some());
    }
}

#[test]
fn non_tool_items_have_no_link() {
    for item in [
        ResponseItem::user_text("u"),
        ResponseItem::assistant_text("a", None),
        ResponseItem::Other,
        ResponseItem::CompactionTrigger {},
    ] {
        assert_eq!(item.call_link(), None, "{}", item.item_type());
        assert!(!item.is_tool_call() && !item.is_tool_output());
    }
}

#[test]
fn function_output_answers_function_and_local_shell_calls() {
    let output = ResponseItem::function_call_output("c1", "ok");
    assert!(answers(
        &output,
        &ResponseItem::function_call("f", "{}", "c1")
    ));
    assert!(answers(&output, &local_shell_call(Some("c1"))));
    assert!(!answers(
        &output,
        &ResponseItem::custom_tool_call("p", "in", "c1")
    ));
    assert!(!answers(&output, &tool_search_call(Some("c1"), "client")));
    assert!(!answers(
        &output,
        &ResponseItem::function_call("f", "{}", "c2")
    ));
}

#[test]
fn custom_and_tool_search_outputs_answer_only_their_own_kind() {
    let custom = ResponseItem::custom_tool_call_output("c1", "ok");
    assert!(answers(
        &custom,
        &ResponseItem::custom_tool_call("p", "in", "c1")
    ));
    assert!(!answers(
        &custom,
        &ResponseItem::function_call("f", "{}", "c1")
    ));

    let search = tool_search_output(Some("c1"), "client");
    assert!(answers(&search, &tool_search_call(Some("c1"), "client")));
    assert!(!answers(
        &search,
        &ResponseItem::function_call("f", "{}", "c1")
    ));
}

#[test]
fn a_call_never_answers_and_id_less_items_never_pair() {
    let call = ResponseItem::function_call("f", "{}", "c1");
    assert!(!answers(&call, &call));
    assert!(!answers(&standalone_output(), &local_shell_call(None)));
    assert!(!answers(
        &tool_search_output(None, "client"),
        &tool_search_call(None, "client")
    ));
}

#[test]
fn pair_keys_meet_on_the_output_channel() {
    fn key(item: &ResponseItem) -> Option<PairKey<'_>> {
        item.pair_key()
    }
    assert_eq!(
        key(&ResponseItem::function_call("f", "{}", "c1")),
        key(&ResponseItem::function_call_output("c1", "ok"))
    );
    assert_eq!(
        key(&local_shell_call(Some("c1"))),
        key(&ResponseItem::function_call_output("c1", "ok"))
    );
    assert_ne!(
        key(&ResponseItem::custom_tool_call("p", "in", "c1")),
        key(&ResponseItem::function_call_output("c1", "ok"))
    );
    assert_eq!(
        key(&ResponseItem::function_call_output("c1", "ok")),
        Some(PairKey {
            channel: OutputChannel::Function,
            call_id: "c1"
        })
    );
    assert_eq!(key(&standalone_output()), None);
    assert_eq!(key(&local_shell_call(None)), None);
}

#[test]
fn server_side_tool_search_is_flagged_and_needs_no_call() {
    let server_output = tool_search_output(Some("c1"), SERVER_EXECUTION);
    let link = server_output.call_link();
    assert_eq!(link.map(|l| l.server_side), Some(true));
    assert_eq!(link.map(|l| l.requires_partner()), Some(false));

    let client_output = tool_search_output(Some("c1"), "client");
    assert_eq!(
        client_output.call_link().map(|l| l.requires_partner()),
        Some(true)
    );

    let server_call = tool_search_call(None, SERVER_EXECUTION);
    assert_eq!(server_call.call_link().map(|l| l.server_side), Some(true));
    assert_eq!(
        server_call.call_link().map(|l| l.requires_partner()),
        Some(false)
    );
}

#[test]
fn requires_partner_follows_the_call_id() {
    let requires = |item: &ResponseItem| item.call_link().map(|l| l.requires_partner());
    assert_eq!(
        requires(&ResponseItem::function_call("f", "{}", "c1")),
        Some(true)
    );
    assert_eq!(
        requires(&ResponseItem::custom_tool_call("p", "i", "c1")),
        Some(true)
    );
    assert_eq!(requires(&local_shell_call(Some("c1"))), Some(true));
    assert_eq!(requires(&local_shell_call(None)), Some(false));
    assert_eq!(
        requires(&tool_search_call(Some("c1"), "client")),
        Some(true)
    );
    assert_eq!(requires(&standalone_output()), Some(false));
    assert_eq!(
        requires(&ResponseItem::function_call_output("c1", "ok")),
        Some(true)
    );
    assert_eq!(
        requires(&ResponseItem::custom_tool_call_output("c1", "ok")),
        Some(true)
    );
}

#[test]
fn channels_name_their_output_items() {
    assert_eq!(
        ToolCallKind::LocalShell.output_channel(),
        OutputChannel::Function
    );
    assert_eq!(
        OutputChannel::Function.output_item_type(),
        "function_call_output"
    );
    assert_eq!(
        OutputChannel::CustomTool.output_item_type(),
        "custom_tool_call_output"
    );
    assert_eq!(
        OutputChannel::ToolSearch.output_item_type(),
        "tool_search_output"
    );
    assert_eq!(OutputChannel::Function.output_id_prefix(), "fco");
    assert_eq!(OutputChannel::CustomTool.output_id_prefix(), "ctco");
    assert_eq!(OutputChannel::ToolSearch.output_id_prefix(), "tso");
}
