//! The item a client sees for a tool call, and the run of one call with it.
//!
//! Upstream's tool runtime announces commands, patches and MCP calls as turn items around
//! their run. [`TurnRunner`] does the same, for each call in order:
//!
//! 1. `item_started` with the call's item in progress (`CommandExecution`, `FileChange` or
//!    `McpToolCall`, its id the call id), then its legacy begin event (`exec_command_begin`,
//!    `patch_apply_begin`, `mcp_tool_call_begin`);
//! 2. the tool runs, raced against the interrupt;
//! 3. `item_completed` with the item completed or failed (output, exit code, duration; a
//!    patch's stdout and stderr; an MCP server's result), then its legacy end event;
//! 4. the output item is recorded (`raw_response_item`).
//!
//! When the interrupt wins, step 3 still happens, with the item failed (no exit code, no
//! output), so no item a client saw start stays in progress; no output is recorded. Other
//! calls skip steps 1 and 3. Both events go through the session's sinks like any other; what
//! a session file keeps of them is the recorder's decision.

use std::time::Duration;

use codex_protocol::items::CommandExecutionStatus;
use codex_protocol::items::McpToolCallError;
use codex_protocol::items::McpToolCallStatus;
use codex_protocol::items::PatchApplyStatus;
use codex_protocol::items::TurnItem;
use codex_protocol::mcp::CallToolResult;
use codex_protocol::models::FunctionCallOutputBody;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;
use codex_protocol::tool_call::ToolInvocation;
use codex_protocol::tool_call::call_item;
use codex_protocol::tool_call::call_item_id;

use super::TurnRunner;
use super::model::ToolRun;
use super::model::TurnInterrupt;
use crate::session::clock::IdSource;
use crate::session::config::TurnContext;
use crate::session::state::Session;

/// The error of an MCP call whose turn was interrupted while it ran.
pub(crate) const INTERRUPTED_MCP_CALL: &str = "the turn was interrupted";

impl TurnRunner<'_> {
    /// Runs one recorded call with its item (see the module docs). Returns the output item,
    /// or `None` when the interrupt won.
    pub(super) async fn run_tool(
        &self,
        session: &Session,
        turn: &TurnContext,
        call: &ResponseItem,
        interrupt: &TurnInterrupt,
    ) -> Option<ResponseItem> {
        let invocation = self.tools.invocation(call);
        let item = started_tool_item(call, &invocation, &self.cwd, session.ids());
        let started_at_ms = match &item {
            Some(item) => Some(session.emit_turn_item_started(turn, item).await),
            None => None,
        };
        let clock = session.clock().monotonic();
        let run = tokio::select! {
            run = self.tools.run(call) => Some(run),
            () = interrupt.wait() => None,
        };
        if let Some(item) = item {
            let completed = completed_tool_item(
                item,
                run.as_ref(),
                session.clock().monotonic().saturating_sub(clock),
            );
            session
                .emit_turn_item_completed(turn, completed, started_at_ms)
                .await;
        }
        run.map(|run| run.output)
    }
}

/// The in-progress item of `call`, or `None` for a tool without one
/// (codex-protocol's [`call_item`]). Its id is the call id (the item id when a local shell
/// call has none), so the item and its legacy events name the same thing; a call with
/// neither gets a fresh id from `ids`, the session's source.
pub(crate) fn started_tool_item(
    call: &ResponseItem,
    invocation: &ToolInvocation,
    turn_cwd: &str,
    ids: &dyn IdSource,
) -> Option<TurnItem> {
    if *invocation == ToolInvocation::Other {
        return None;
    }
    let id = call_item_id(call).map_or_else(|| ids.next_uuid().to_string(), str::to_string);
    call_item(invocation, id, turn_cwd)
}

/// `started` once its tool finished (`run`) or was interrupted (`None`), `measured` being the
/// time the driver saw it run. Facts the run does not report are derived as [`ToolRun`]'s
/// fields say.
pub(crate) fn completed_tool_item(
    started: TurnItem,
    run: Option<&ToolRun>,
    measured: Duration,
) -> TurnItem {
    let duration = run.and_then(|run| run.duration).unwrap_or(measured);
    match started {
        TurnItem::CommandExecution(mut command) => {
            command.duration = Some(duration);
            command.status = CommandExecutionStatus::Failed;
            if let Some(run) = run {
                let exit_code = exit_code(run);
                command.exit_code = Some(exit_code);
                command.aggregated_output = Some(
                    run.stdout
                        .clone()
                        .unwrap_or_else(|| output_text(&run.output)),
                );
                if exit_code == 0 {
                    command.status = CommandExecutionStatus::Completed;
                }
            }
            TurnItem::CommandExecution(command)
        }
        TurnItem::FileChange(mut change) => {
            change.status = Some(PatchApplyStatus::Failed);
            if let Some(run) = run {
                let succeeded = exit_code(run) == 0;
                let text = output_text(&run.output);
                let (stdout, stderr) = match (&run.stdout, &run.stderr) {
                    (None, None) if succeeded => (text, String::new()),
                    (None, None) => (String::new(), text),
                    (stdout, stderr) => (
                        stdout.clone().unwrap_or_default(),
                        stderr.clone().unwrap_or_default(),
                    ),
                };
                change.stdout = Some(stdout);
                change.stderr = Some(stderr);
                if succeeded {
                    change.status = Some(PatchApplyStatus::Completed);
                }
            }
            TurnItem::FileChange(change)
        }
        TurnItem::McpToolCall(mut call) => {
            call.duration = Some(duration);
            let result = match run {
                Some(run) => run
                    .mcp_result
                    .clone()
                    .unwrap_or_else(|| Ok(call_tool_result(&run.output))),
                None => Err(INTERRUPTED_MCP_CALL.to_string()),
            };
            match result {
                Ok(result) => {
                    call.status = if result.success() {
                        McpToolCallStatus::Completed
                    } else {
                        McpToolCallStatus::Failed
                    };
                    call.result = Some(result);
                }
                Err(message) => {
                    call.status = McpToolCallStatus::Failed;
                    call.error = Some(McpToolCallError { message });
                }
            }
            TurnItem::McpToolCall(call)
        }
        other => other,
    }
}

/// The run's exit code, else 1 when its output says it failed, else 0.
fn exit_code(run: &ToolRun) -> i32 {
    run.exit_code
        .unwrap_or_else(|| match output_payload(&run.output) {
            Some(payload) if payload.success == Some(false) => 1,
            _ => 0,
        })
}

fn output_payload(output: &ResponseItem) -> Option<&FunctionCallOutputPayload> {
    match output {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => Some(output),
        _ => None,
    }
}

/// The text of an output item (its text parts joined), empty when it has none.
fn output_text(output: &ResponseItem) -> String {
    output_payload(output)
        .and_then(|payload| payload.body.to_text())
        .unwrap_or_default()
}

/// An MCP result holding the output item's text parts as text blocks, an error when the
/// output says it failed.
fn call_tool_result(output: &ResponseItem) -> CallToolResult {
    let payload = output_payload(output);
    let texts: Vec<String> = match payload.map(|payload| &payload.body) {
        Some(FunctionCallOutputBody::Text(text)) => vec![text.clone()],
        Some(FunctionCallOutputBody::ContentItems(items)) => items
            .iter()
            .filter_map(|item| match item {
                FunctionCallOutputContentItem::InputText { text } => Some(text.clone()),
                _ => None,
            })
            .collect(),
        None => Vec::new(),
    };
    CallToolResult {
        content: texts
            .into_iter()
            .map(|text| serde_json::json!({ "type": "text", "text": text }))
            .collect(),
        structured_content: None,
        is_error: payload
            .is_some_and(|payload| payload.success == Some(false))
            .then_some(true),
        meta: None,
    }
}

#[cfg(test)]
#[path = "tool_items_tests.rs"]
mod tests;
