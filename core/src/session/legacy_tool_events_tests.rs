use std::collections::BTreeMap;
use std::time::Duration;

use super::*;
use codex_protocol::items::CommandExecutionItem;
use codex_protocol::items::ExecCommandSource;
use codex_protocol::items::FileChange;
use codex_protocol::items::FileChangeItem;
use codex_protocol::items::McpToolCallError;
use codex_protocol::items::McpToolCallStatus;
use codex_protocol::items::UserMessageItem;
use codex_protocol::mcp::CallToolResult;
use pretty_assertions::assert_eq;

fn command(status: CommandExecutionStatus) -> CommandExecutionItem {
    CommandExecutionItem {
        id: "call_1".to_string(),
        plugin_id: None,
        script_path: None,
        process_id: None,
        command: vec!["ls".to_string()],
        cwd: "/repo".to_string(),
        parsed_cmd: Vec::new(),
        source: ExecCommandSource::Agent,
        interaction_input: None,
        status,
        aggregated_output: None,
        exit_code: None,
        duration: None,
    }
}

fn file_change(status: Option<PatchApplyStatus>) -> FileChangeItem {
    FileChangeItem {
        id: "call_p".to_string(),
        changes: BTreeMap::from([(
            "a.txt".to_string(),
            FileChange::Add {
                content: "hi\n".to_string(),
            },
        )]),
        status,
        auto_approved: None,
        stdout: Some("Success.".to_string()),
        stderr: None,
    }
}

fn mcp_call() -> McpToolCallItem {
    McpToolCallItem {
        id: "call_m".to_string(),
        server: "docs".to_string(),
        tool: "search".to_string(),
        arguments: serde_json::Value::Null,
        connector_id: None,
        mcp_app_resource_uri: None,
        mcp_app_ui: None,
        link_id: None,
        app_name: None,
        action_name: None,
        plugin_id: None,
        read_only_hint: None,
        template_id: None,
        status: McpToolCallStatus::InProgress,
        result: None,
        error: None,
        duration: None,
    }
}

#[test]
fn a_command_begins_and_ends_with_the_item_s_facts() {
    let started = TurnItem::CommandExecution(command(CommandExecutionStatus::InProgress));
    let Some(EventMsg::ExecCommandBegin(begin)) = legacy_begin_event(&started, "turn-1", 10) else {
        panic!("expected exec_command_begin");
    };
    assert_eq!(
        (
            begin.call_id.as_str(),
            begin.turn_id.as_str(),
            begin.started_at_ms
        ),
        ("call_1", "turn-1", 10)
    );
    assert_eq!(
        (begin.command, begin.cwd),
        (vec!["ls".to_string()], "/repo".to_string())
    );
    assert_eq!(
        legacy_end_event(&started, "turn-1", 20),
        None,
        "still running"
    );

    let mut done = command(CommandExecutionStatus::Failed);
    done.exit_code = Some(2);
    done.aggregated_output = Some("boom".to_string());
    done.duration = Some(Duration::from_millis(5));
    let Some(EventMsg::ExecCommandEnd(end)) =
        legacy_end_event(&TurnItem::CommandExecution(done), "turn-1", 20)
    else {
        panic!("expected exec_command_end");
    };
    assert_eq!(end.status, Some(ExecCommandStatus::Failed));
    assert_eq!(
        (end.exit_code, end.aggregated_output.as_str(), end.duration),
        (2, "boom", Duration::from_millis(5))
    );
    assert_eq!(end.completed_at_ms, 20);

    let interrupted = TurnItem::CommandExecution(command(CommandExecutionStatus::Failed));
    let Some(EventMsg::ExecCommandEnd(end)) = legacy_end_event(&interrupted, "turn-1", 20) else {
        panic!("expected exec_command_end");
    };
    assert_eq!(end.exit_code, NO_EXIT_CODE);
}

#[test]
fn a_patch_begins_and_ends_once_it_has_a_status() {
    let started = TurnItem::FileChange(file_change(None));
    let Some(EventMsg::PatchApplyBegin(begin)) = legacy_begin_event(&started, "turn-1", 0) else {
        panic!("expected patch_apply_begin");
    };
    assert_eq!(begin.call_id, "call_p");
    assert!(!begin.auto_approved);
    assert_eq!(begin.changes.len(), 1);
    assert_eq!(legacy_end_event(&started, "turn-1", 0), None);

    let done = TurnItem::FileChange(file_change(Some(PatchApplyStatus::Completed)));
    let Some(EventMsg::PatchApplyEnd(end)) = legacy_end_event(&done, "turn-1", 0) else {
        panic!("expected patch_apply_end");
    };
    assert!(end.success);
    assert_eq!((end.stdout.as_str(), end.stderr.as_str()), ("Success.", ""));
    assert_eq!(end.status, Some(PatchApplyStatus::Completed));
    assert_eq!(end.changes.len(), 1);
}

#[test]
fn an_mcp_call_ends_only_with_a_result_or_an_error() {
    let started = TurnItem::McpToolCall(mcp_call());
    let Some(EventMsg::McpToolCallBegin(begin)) = legacy_begin_event(&started, "turn-1", 0) else {
        panic!("expected mcp_tool_call_begin");
    };
    assert_eq!(begin.invocation.arguments, None, "null arguments are none");
    assert_eq!(legacy_end_event(&started, "turn-1", 0), None);

    let mut answered = mcp_call();
    answered.status = McpToolCallStatus::Completed;
    answered.result = Some(CallToolResult::from_error_text("no"));
    let Some(EventMsg::McpToolCallEnd(end)) =
        legacy_end_event(&TurnItem::McpToolCall(answered), "turn-1", 0)
    else {
        panic!("expected mcp_tool_call_end");
    };
    assert!(end.result.is_ok());

    let mut failed = mcp_call();
    failed.status = McpToolCallStatus::Failed;
    failed.error = Some(McpToolCallError {
        message: "gone".to_string(),
    });
    let Some(EventMsg::McpToolCallEnd(end)) =
        legacy_end_event(&TurnItem::McpToolCall(failed), "turn-1", 0)
    else {
        panic!("expected mcp_tool_call_end");
    };
    assert_eq!(end.result, Err("gone".to_string()));
}

#[test]
fn other_items_have_no_tool_events() {
    let user = TurnItem::UserMessage(UserMessageItem::new(&[]));
    assert_eq!(legacy_begin_event(&user, "turn-1", 0), None);
    assert_eq!(legacy_end_event(&user, "turn-1", 0), None);
}
