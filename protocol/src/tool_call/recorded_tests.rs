use super::*;
use crate::models::FunctionCallOutputPayload;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn text_output(call_id: &str, text: &str) -> ResponseItem {
    ResponseItem::function_call_output(call_id, FunctionCallOutputPayload::from_text(text))
}

#[test]
fn an_exec_command_call_and_its_output_are_a_finished_command() -> TestResult {
    let call = ResponseItem::function_call(
        "exec_command",
        r#"{"cmd":"rg --files","workdir":"/repo"}"#,
        "call_7",
    );
    let started = recorded_call_item(&call, "/turn").ok_or("a command")?;
    let output = "Chunk ID: 1\nWall time: 0.2 seconds\nProcess exited with code 1\nOutput:\n";
    let TurnItem::CommandExecution(done) =
        completed_by_output(started, &text_output("call_7", output))
    else {
        panic!("a command");
    };
    assert_eq!(done.id, "call_7");
    assert_eq!(done.command, ["bash", "-lc", "rg --files"]);
    assert_eq!(done.cwd, "/repo");
    assert_eq!(done.exit_code, Some(1));
    assert_eq!(done.duration, Some(Duration::from_millis(200)));
    assert_eq!(done.status, CommandExecutionStatus::Failed);
    assert_eq!(done.aggregated_output.as_deref(), Some(output));
    Ok(())
}

#[test]
fn an_end_event_wins_over_what_the_output_says() -> TestResult {
    let call = ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "call_1");
    let started = recorded_call_item(&call, "/turn").ok_or("a command")?;
    let end: ExecCommandEndEvent = serde_json::from_value(serde_json::json!({
        "call_id": "call_1", "turn_id": "t", "completed_at_ms": 0, "command": ["ls"],
        "cwd": "/turn", "aggregated_output": "a\n", "exit_code": 0,
        "duration": {"secs": 3, "nanos": 0}
    }))?;
    let ended = completed_by_exec_end(started, &end);
    let TurnItem::CommandExecution(done) = completed_by_output(
        ended,
        &text_output("call_1", "Exit code: 9\nWall time: 1 seconds"),
    ) else {
        panic!("a command");
    };
    assert_eq!(done.cwd, "/turn");
    assert_eq!(done.exit_code, Some(0));
    assert_eq!(done.duration, Some(Duration::from_secs(3)));
    assert_eq!(done.aggregated_output.as_deref(), Some("a\n"));
    assert_eq!(done.status, CommandExecutionStatus::Completed);
    let TurnItem::CommandExecution(alone) = exec_end_item(&end) else {
        panic!("a command");
    };
    assert_eq!((alone.id.as_str(), alone.exit_code), ("call_1", Some(0)));
    Ok(())
}

#[test]
fn any_other_tool_is_a_dynamic_call_with_its_output() -> TestResult {
    let call = ResponseItem::function_call("update_plan", r#"{"plan":[]}"#, "call_2");
    let started = recorded_call_item(&call, "/turn").ok_or("a call")?;
    let TurnItem::DynamicToolCall(done) =
        completed_by_output(started, &text_output("call_2", "Plan updated"))
    else {
        panic!("a dynamic tool call");
    };
    assert_eq!(done.tool, "update_plan");
    assert_eq!(done.arguments, serde_json::json!({"plan": []}));
    assert_eq!(done.status, DynamicToolCallStatus::Completed);
    assert_eq!(
        done.content_items,
        Some(vec![DynamicToolCallOutputContentItem::InputText {
            text: "Plan updated".to_string()
        }])
    );
    Ok(())
}

#[test]
fn a_freeform_patch_is_a_file_change_and_mcp_calls_keep_their_server() -> TestResult {
    let patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";
    let call = ResponseItem::custom_tool_call("apply_patch", patch, "call_3");
    let started = recorded_call_item(&call, "/repo").ok_or("a patch")?;
    let output = ResponseItem::custom_tool_call_output("call_3", "Success.");
    let TurnItem::FileChange(done) = completed_by_output(started, &output) else {
        panic!("a file change");
    };
    assert_eq!(done.changes.keys().collect::<Vec<_>>(), ["/repo/a.txt"]);
    assert_eq!(done.status, Some(PatchApplyStatus::Completed));
    let mcp = ResponseItem::function_call("mcp__docs__search", r#"{"q":"x"}"#, "call_4");
    let Some(TurnItem::McpToolCall(call)) = recorded_call_item(&mcp, "/repo") else {
        panic!("an MCP call");
    };
    assert_eq!(
        (call.server.as_str(), call.tool.as_str()),
        ("docs", "search")
    );
    Ok(())
}

#[test]
fn items_that_call_nothing_have_no_item() -> TestResult {
    let message = ResponseItem::assistant_text("hi", None);
    assert_eq!(recorded_call_item(&message, "/repo"), None);
    let no_id = ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "");
    assert_eq!(recorded_call_item(&no_id, "/repo"), None);
    Ok(())
}
