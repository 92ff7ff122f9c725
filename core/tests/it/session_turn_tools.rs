//! The items a client sees for tool calls: one scripted turn per tool kind, through core's
//! turn driver, asserting the event order around each call and the items' facts.

use std::sync::Arc;

use codex_core::InMemoryEventSink;
use codex_core::InMemoryRolloutSink;
use codex_core::ModelResponse;
use codex_core::ModelSettings;
use codex_core::ScriptedModel;
use codex_core::ScriptedTools;
use codex_core::Session;
use codex_core::SessionConfiguration;
use codex_core::TurnInterrupt;
use codex_core::TurnRunner;
use codex_protocol::event::EventMsg;
use codex_protocol::event::ExecCommandStatus;
use codex_protocol::items::CommandExecutionStatus;
use codex_protocol::items::FileChange;
use codex_protocol::items::McpToolCallStatus;
use codex_protocol::items::PatchApplyStatus;
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// What one turn with a single tool call emitted and handed to the rollout sink.
struct Ran {
    events: Vec<EventMsg>,
    rollout: Vec<RolloutItem>,
}

impl Ran {
    /// The event names from the call's `raw_response_item` to the output's, both included.
    fn around_the_call(&self) -> Vec<&'static str> {
        let names: Vec<&'static str> = self.events.iter().map(EventMsg::type_name).collect();
        let call = self.events.iter().position(
            |event| matches!(event, EventMsg::RawResponseItem(raw) if raw.item.is_tool_call()),
        );
        let output = self.events.iter().position(
            |event| matches!(event, EventMsg::RawResponseItem(raw) if raw.item.is_tool_output()),
        );
        match (call, output) {
            (Some(call), Some(output)) => names[call..=output].to_vec(),
            _ => names,
        }
    }

    /// The items of `item_started` and `item_completed` events whose item is not a message
    /// or reasoning, in order, tagged `started` / `completed`.
    fn tool_items(&self) -> Vec<(&'static str, TurnItem)> {
        self.events
            .iter()
            .filter_map(|event| match event {
                EventMsg::ItemStarted(started) => Some(("started", started.item.clone())),
                EventMsg::ItemCompleted(done) => Some(("completed", done.item.clone())),
                _ => None,
            })
            .filter(|(_, item)| {
                matches!(
                    item,
                    TurnItem::CommandExecution(_)
                        | TurnItem::FileChange(_)
                        | TurnItem::McpToolCall(_)
                )
            })
            .collect()
    }
}

/// Runs one turn whose model calls `call` once, then answers; `tools` answers the call.
async fn run_one_call(
    call: ResponseItem,
    tools: ScriptedTools,
) -> Result<Ran, Box<dyn std::error::Error>> {
    let rollout = InMemoryRolloutSink::new();
    let events = InMemoryEventSink::new();
    let session = Session::new(
        SessionConfiguration::new(ThreadId::new(), ModelSettings::new("gpt-test", "Be Codex.")),
        Some(Arc::new(rollout.clone())),
        Arc::new(events.clone()),
    );
    let model = ScriptedModel::new(vec![
        ModelResponse::new(vec![call]),
        ModelResponse::new(vec![ResponseItem::assistant_text("Done.", None)]),
    ]);
    let turn = session.new_turn_context("turn-1").await;
    TurnRunner::new(&model, &tools)
        .with_cwd("/repo")
        .run(
            &session,
            &turn,
            &[UserInput::text("go")],
            &TurnInterrupt::new(),
        )
        .await?;
    Ok(Ran {
        events: events
            .snapshot()
            .into_iter()
            .map(|event| event.msg)
            .collect(),
        rollout: rollout.snapshot(),
    })
}

#[tokio::test]
async fn a_shell_call_is_a_command_execution_around_its_run() -> TestResult {
    let call = ResponseItem::function_call("shell", r#"{"command":["cargo","test"]}"#, "call_sh");
    let tools = ScriptedTools::new()
        .with_output("shell", "1 failed")
        .with_exit_code("shell", 101);
    let ran = run_one_call(call, tools).await?;
    assert_eq!(
        ran.around_the_call(),
        [
            "raw_response_item", // the call, recorded before it runs
            "item_started",
            "exec_command_begin",
            "item_completed",
            "exec_command_end",
            "raw_response_item", // the output
        ]
    );
    let items = ran.tool_items();
    let [
        ("started", TurnItem::CommandExecution(started)),
        ("completed", TurnItem::CommandExecution(done)),
    ] = items.as_slice()
    else {
        return Err(format!("expected one command started and completed: {items:?}").into());
    };
    assert_eq!(started.id, "call_sh");
    assert_eq!(
        started.cwd, "/repo",
        "the turn's cwd when the call names none"
    );
    assert_eq!(started.status, CommandExecutionStatus::InProgress);
    assert_eq!(done.id, "call_sh");
    assert_eq!(done.status, CommandExecutionStatus::Failed);
    assert_eq!(done.exit_code, Some(101));
    assert_eq!(done.aggregated_output.as_deref(), Some("1 failed"));
    assert!(done.duration.is_some());
    let end = ran.events.iter().find_map(|event| match event {
        EventMsg::ExecCommandEnd(end) => Some(end),
        _ => None,
    });
    assert_eq!(
        end.map(|end| (end.call_id.as_str(), end.exit_code, end.status)),
        Some(("call_sh", 101, Some(ExecCommandStatus::Failed)))
    );
    // Everything went to the rollout sink too; the recorder decides what is durable.
    let handed: Vec<&str> = ran
        .rollout
        .iter()
        .filter_map(|item| match item {
            RolloutItem::EventMsg(event) => Some(event.type_name()),
            _ => None,
        })
        .collect();
    let emitted: Vec<&str> = ran.events.iter().map(EventMsg::type_name).collect();
    assert_eq!(handed, emitted);
    Ok(())
}

#[tokio::test]
async fn an_apply_patch_call_is_a_file_change_around_its_run() -> TestResult {
    let patch = "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-old\n+new\n*** End Patch";
    let call = ResponseItem::custom_tool_call("apply_patch", patch, "call_patch");
    let tools = ScriptedTools::new().with_output("apply_patch", "Success. Updated src/lib.rs");
    let ran = run_one_call(call, tools).await?;
    assert_eq!(
        ran.around_the_call(),
        [
            "raw_response_item",
            "item_started",
            "patch_apply_begin",
            "item_completed",
            "patch_apply_end",
            "raw_response_item",
        ]
    );
    let items = ran.tool_items();
    let [
        ("started", TurnItem::FileChange(started)),
        ("completed", TurnItem::FileChange(done)),
    ] = items.as_slice()
    else {
        return Err(format!("expected one file change started and completed: {items:?}").into());
    };
    assert_eq!(started.status, None, "in progress");
    assert_eq!(
        started.changes.get("/repo/src/lib.rs"),
        Some(&FileChange::Update {
            unified_diff: "@@\n-old\n+new\n".to_string(),
            move_path: None,
        })
    );
    assert_eq!(done.id, "call_patch");
    assert_eq!(done.status, Some(PatchApplyStatus::Completed));
    assert_eq!(done.stdout.as_deref(), Some("Success. Updated src/lib.rs"));
    assert_eq!(done.changes, started.changes);
    Ok(())
}

#[tokio::test]
async fn an_mcp_call_is_an_mcp_tool_call_around_its_run() -> TestResult {
    let call = ResponseItem::function_call("mcp__docs__search", r#"{"q":"tokio"}"#, "call_mcp");
    let tools = ScriptedTools::new().with_output("mcp__docs__search", "3 results");
    let ran = run_one_call(call, tools).await?;
    assert_eq!(
        ran.around_the_call(),
        [
            "raw_response_item",
            "item_started",
            "mcp_tool_call_begin",
            "item_completed",
            "mcp_tool_call_end",
            "raw_response_item",
        ]
    );
    let items = ran.tool_items();
    let [
        ("started", TurnItem::McpToolCall(started)),
        ("completed", TurnItem::McpToolCall(done)),
    ] = items.as_slice()
    else {
        return Err(format!("expected one MCP call started and completed: {items:?}").into());
    };
    assert_eq!(
        (started.server.as_str(), started.tool.as_str()),
        ("docs", "search")
    );
    assert_eq!(started.status, McpToolCallStatus::InProgress);
    assert_eq!(done.status, McpToolCallStatus::Completed);
    assert_eq!(
        done.result.as_ref().map(|result| result.content.clone()),
        Some(vec![
            serde_json::json!({"type": "text", "text": "3 results"})
        ])
    );
    Ok(())
}

#[tokio::test]
async fn other_function_calls_keep_only_their_response_items() -> TestResult {
    let call = ResponseItem::function_call("view_image", r#"{"path":"a.png"}"#, "call_v");
    let ran = run_one_call(call, ScriptedTools::new().with_output("view_image", "ok")).await?;
    assert_eq!(
        ran.around_the_call(),
        ["raw_response_item", "raw_response_item"]
    );
    assert!(ran.tool_items().is_empty());
    Ok(())
}
