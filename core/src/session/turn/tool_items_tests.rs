use std::collections::BTreeMap;

use super::*;
use crate::session::clock::SequentialIds;
use codex_protocol::items::CommandExecutionItem;
use codex_protocol::items::ExecCommandSource;
use codex_protocol::items::FileChange;
use pretty_assertions::assert_eq;
use serde_json::json;
use uuid::Uuid;

const TOOK: Duration = Duration::from_millis(1500);

fn shell_call() -> ResponseItem {
    ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "call_1")
}

fn text_output(text: &str, success: Option<bool>) -> ResponseItem {
    let mut payload = FunctionCallOutputPayload::from_text(text);
    payload.success = success;
    ResponseItem::function_call_output("call_1", payload)
}

fn started(call: &ResponseItem) -> Option<TurnItem> {
    started_tool_item(
        call,
        &ToolInvocation::of_call(call),
        "/repo",
        &SequentialIds::new(Uuid::nil()),
    )
}

fn command_item(call: &ResponseItem) -> Result<CommandExecutionItem, String> {
    match started(call) {
        Some(TurnItem::CommandExecution(command)) => Ok(command),
        other => Err(format!("expected a command, got {other:?}")),
    }
}

#[test]
fn a_call_with_neither_call_id_nor_item_id_gets_the_sessions_next_id() -> Result<(), String> {
    let call = ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "");
    assert_eq!(command_item(&call)?.id, Uuid::from_u128(1).to_string());
    Ok(())
}

#[test]
fn a_command_starts_in_progress_with_the_call_id_and_the_turn_cwd() -> Result<(), String> {
    let command = command_item(&shell_call())?;
    assert_eq!(command.id, "call_1");
    assert_eq!(command.command, vec!["ls".to_string()]);
    assert_eq!(command.cwd, "/repo");
    assert_eq!(command.source, ExecCommandSource::Agent);
    assert_eq!(command.status, CommandExecutionStatus::InProgress);
    assert_eq!(
        (
            command.exit_code,
            command.aggregated_output,
            command.duration
        ),
        (None, None, None)
    );
    Ok(())
}

#[test]
fn a_command_completes_from_what_the_run_reports_or_its_output() -> Result<(), String> {
    let start = TurnItem::CommandExecution(command_item(&shell_call())?);

    let plain = ToolRun::new(text_output("a.txt", None));
    let TurnItem::CommandExecution(done) = completed_tool_item(start.clone(), Some(&plain), TOOK)
    else {
        return Err("still a command".to_string());
    };
    assert_eq!(done.status, CommandExecutionStatus::Completed);
    assert_eq!(done.exit_code, Some(0));
    assert_eq!(done.aggregated_output.as_deref(), Some("a.txt"));
    assert_eq!(done.duration, Some(TOOK));

    let flagged = ToolRun::new(text_output("boom", Some(false)));
    let TurnItem::CommandExecution(done) = completed_tool_item(start.clone(), Some(&flagged), TOOK)
    else {
        return Err("still a command".to_string());
    };
    assert_eq!(
        (done.status, done.exit_code),
        (CommandExecutionStatus::Failed, Some(1))
    );

    let reported = ToolRun::new(text_output("for the model", None))
        .with_exit_code(2)
        .with_stdout("raw output")
        .with_duration(Duration::from_secs(3));
    let TurnItem::CommandExecution(done) =
        completed_tool_item(start.clone(), Some(&reported), TOOK)
    else {
        return Err("still a command".to_string());
    };
    assert_eq!(done.status, CommandExecutionStatus::Failed);
    assert_eq!(done.exit_code, Some(2));
    assert_eq!(done.aggregated_output.as_deref(), Some("raw output"));
    assert_eq!(done.duration, Some(Duration::from_secs(3)));

    let TurnItem::CommandExecution(done) = completed_tool_item(start, None, TOOK) else {
        return Err("still a command".to_string());
    };
    assert_eq!(done.status, CommandExecutionStatus::Failed);
    assert_eq!((done.exit_code, done.aggregated_output), (None, None));
    assert_eq!(done.duration, Some(TOOK));
    Ok(())
}

#[test]
fn a_patch_starts_with_its_changes_and_completes_with_stdout_or_stderr() -> Result<(), String> {
    let call = ResponseItem::custom_tool_call(
        "apply_patch",
        "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch",
        "call_p",
    );
    let start = started(&call).ok_or("expected a file change")?;
    let TurnItem::FileChange(change) = &start else {
        return Err("expected a file change".to_string());
    };
    assert_eq!(change.id, "call_p");
    assert_eq!(change.status, None);
    assert_eq!(
        change.changes,
        BTreeMap::from([(
            "/repo/old.txt".to_string(),
            FileChange::Delete {
                content: String::new()
            }
        )]),
        "relative to the turn's cwd"
    );

    let ok = ToolRun::new(ResponseItem::custom_tool_call_output("call_p", "Success."));
    let TurnItem::FileChange(done) = completed_tool_item(start.clone(), Some(&ok), TOOK) else {
        return Err("still a file change".to_string());
    };
    assert_eq!(done.status, Some(PatchApplyStatus::Completed));
    assert_eq!(
        (done.stdout.as_deref(), done.stderr.as_deref()),
        (Some("Success."), Some(""))
    );

    let refused = ToolRun::new(text_output("no such file", Some(false)));
    let TurnItem::FileChange(done) = completed_tool_item(start.clone(), Some(&refused), TOOK)
    else {
        return Err("still a file change".to_string());
    };
    assert_eq!(done.status, Some(PatchApplyStatus::Failed));
    assert_eq!(
        (done.stdout.as_deref(), done.stderr.as_deref()),
        (Some(""), Some("no such file"))
    );

    let TurnItem::FileChange(done) = completed_tool_item(start, None, TOOK) else {
        return Err("still a file change".to_string());
    };
    assert_eq!(done.status, Some(PatchApplyStatus::Failed));
    Ok(())
}

#[test]
fn an_mcp_call_completes_with_a_result_or_an_error() -> Result<(), String> {
    let call = ResponseItem::function_call("mcp__docs__search", r#"{"q":"x"}"#, "call_m");
    let start = started(&call).ok_or("expected an MCP call")?;
    let TurnItem::McpToolCall(item) = &start else {
        return Err("expected an MCP call".to_string());
    };
    assert_eq!(
        (item.server.as_str(), item.tool.as_str(), &item.arguments),
        ("docs", "search", &json!({"q": "x"}))
    );
    assert_eq!(item.status, McpToolCallStatus::InProgress);

    let answered = ToolRun::new(text_output("3 hits", None));
    let TurnItem::McpToolCall(done) = completed_tool_item(start.clone(), Some(&answered), TOOK)
    else {
        return Err("still an MCP call".to_string());
    };
    assert_eq!(done.status, McpToolCallStatus::Completed);
    assert_eq!(
        done.result.map(|result| result.content),
        Some(vec![json!({"type": "text", "text": "3 hits"})])
    );
    assert_eq!(done.duration, Some(TOOK));

    let server_error = ToolRun::new(text_output("bad query", None))
        .with_mcp_result(Ok(CallToolResult::from_error_text("bad query")));
    let TurnItem::McpToolCall(done) = completed_tool_item(start.clone(), Some(&server_error), TOOK)
    else {
        return Err("still an MCP call".to_string());
    };
    assert_eq!(done.status, McpToolCallStatus::Failed);

    let TurnItem::McpToolCall(done) = completed_tool_item(start, None, TOOK) else {
        return Err("still an MCP call".to_string());
    };
    assert_eq!(done.status, McpToolCallStatus::Failed);
    assert_eq!(
        done.error.map(|error| error.message),
        Some(INTERRUPTED_MCP_CALL.to_string())
    );
    Ok(())
}

#[test]
fn other_tools_have_no_item() {
    let call = ResponseItem::function_call("view_image", r#"{"path":"a.png"}"#, "call_1");
    assert_eq!(started(&call), None);
}
