//! The legacy begin and end events of tool items.
//!
//! Before turn items existed, clients learned about commands, patches and MCP calls from
//! begin/end events (`exec_command_begin` / `exec_command_end`, `patch_apply_begin` /
//! `patch_apply_end`, `mcp_tool_call_begin` / `mcp_tool_call_end`), and legacy session files
//! still rebuild file changes and MCP calls from the end events. So, as upstream does, the
//! session emits the begin event right after an item's `item_started` and the end event
//! right after its `item_completed`; the rollout's persistence policy decides which form a
//! file keeps.
//!
//! The events are built from the item alone (plus the turn and the time), so the two forms
//! always agree: same id (the call id), same command, changes and result.

use codex_protocol::event::EventMsg;
use codex_protocol::event::ExecCommandBeginEvent;
use codex_protocol::event::ExecCommandEndEvent;
use codex_protocol::event::ExecCommandStatus;
use codex_protocol::event::McpInvocation;
use codex_protocol::event::McpToolCallBeginEvent;
use codex_protocol::event::McpToolCallEndEvent;
use codex_protocol::event::PatchApplyBeginEvent;
use codex_protocol::event::PatchApplyEndEvent;
use codex_protocol::items::CommandExecutionStatus;
use codex_protocol::items::McpToolCallItem;
use codex_protocol::items::PatchApplyStatus;
use codex_protocol::items::TurnItem;

/// The exit code an end event carries for a command that has none (it was interrupted).
pub(crate) const NO_EXIT_CODE: i32 = -1;

/// The begin event of a started tool item of turn `turn_id`, or `None` for other items.
pub(crate) fn legacy_begin_event(
    item: &TurnItem,
    turn_id: &str,
    started_at_ms: i64,
) -> Option<EventMsg> {
    match item {
        TurnItem::CommandExecution(command) => {
            Some(EventMsg::ExecCommandBegin(ExecCommandBeginEvent {
                call_id: command.id.clone(),
                plugin_id: command.plugin_id.clone(),
                script_path: command.script_path.clone(),
                process_id: command.process_id.clone(),
                turn_id: turn_id.to_string(),
                started_at_ms,
                command: command.command.clone(),
                cwd: command.cwd.clone(),
                parsed_cmd: command.parsed_cmd.clone(),
                source: command.source,
                interaction_input: command.interaction_input.clone(),
            }))
        }
        TurnItem::FileChange(change) => Some(EventMsg::PatchApplyBegin(PatchApplyBeginEvent {
            call_id: change.id.clone(),
            turn_id: turn_id.to_string(),
            auto_approved: change.auto_approved.unwrap_or(false),
            changes: change.changes.clone(),
        })),
        TurnItem::McpToolCall(call) => Some(EventMsg::McpToolCallBegin(McpToolCallBeginEvent {
            call_id: call.id.clone(),
            turn_id: turn_id.to_string(),
            invocation: mcp_invocation(call),
            connector_id: call.connector_id.clone(),
            mcp_app_resource_uri: call.mcp_app_resource_uri.clone(),
            mcp_app_ui: call.mcp_app_ui.clone(),
            link_id: call.link_id.clone(),
            app_name: call.app_name.clone(),
            action_name: call.action_name.clone(),
            plugin_id: call.plugin_id.clone(),
            read_only_hint: call.read_only_hint,
        })),
        _ => None,
    }
}

/// The end event of a completed tool item of turn `turn_id`, or `None` for other items and
/// for tool items that have not ended (a command in progress, a patch without a status, an
/// MCP call without a result or an error).
pub(crate) fn legacy_end_event(
    item: &TurnItem,
    turn_id: &str,
    completed_at_ms: i64,
) -> Option<EventMsg> {
    match item {
        TurnItem::CommandExecution(command) => {
            let status = match command.status {
                CommandExecutionStatus::InProgress => return None,
                CommandExecutionStatus::Completed => ExecCommandStatus::Completed,
                CommandExecutionStatus::Failed => ExecCommandStatus::Failed,
                CommandExecutionStatus::Declined => ExecCommandStatus::Declined,
            };
            Some(EventMsg::ExecCommandEnd(ExecCommandEndEvent {
                call_id: command.id.clone(),
                plugin_id: command.plugin_id.clone(),
                script_path: command.script_path.clone(),
                process_id: command.process_id.clone(),
                turn_id: turn_id.to_string(),
                completed_at_ms,
                command: command.command.clone(),
                cwd: command.cwd.clone(),
                parsed_cmd: command.parsed_cmd.clone(),
                source: command.source,
                interaction_input: command.interaction_input.clone(),
                stdout: None,
                stderr: None,
                aggregated_output: command.aggregated_output.clone().unwrap_or_default(),
                exit_code: command.exit_code.unwrap_or(NO_EXIT_CODE),
                duration: command.duration.unwrap_or_default(),
                formatted_output: None,
                status: Some(status),
            }))
        }
        TurnItem::FileChange(change) => {
            let status = change.status?;
            Some(EventMsg::PatchApplyEnd(PatchApplyEndEvent {
                call_id: change.id.clone(),
                turn_id: turn_id.to_string(),
                stdout: change.stdout.clone().unwrap_or_default(),
                stderr: change.stderr.clone().unwrap_or_default(),
                success: status == PatchApplyStatus::Completed,
                changes: change.changes.clone(),
                status: Some(status),
            }))
        }
        TurnItem::McpToolCall(call) => {
            let result = match (&call.result, &call.error) {
                (Some(result), _) => Ok(result.clone()),
                (None, Some(error)) => Err(error.message.clone()),
                (None, None) => return None,
            };
            Some(EventMsg::McpToolCallEnd(McpToolCallEndEvent {
                call_id: call.id.clone(),
                turn_id: turn_id.to_string(),
                invocation: mcp_invocation(call),
                connector_id: call.connector_id.clone(),
                mcp_app_resource_uri: call.mcp_app_resource_uri.clone(),
                mcp_app_ui: call.mcp_app_ui.clone(),
                link_id: call.link_id.clone(),
                app_name: call.app_name.clone(),
                action_name: call.action_name.clone(),
                plugin_id: call.plugin_id.clone(),
                read_only_hint: call.read_only_hint,
                duration: call.duration.unwrap_or_default(),
                result,
            }))
        }
        _ => None,
    }
}

/// The invocation of an MCP item; JSON `null` arguments become "none", as upstream writes.
fn mcp_invocation(call: &McpToolCallItem) -> McpInvocation {
    McpInvocation {
        server: call.server.clone(),
        tool: call.tool.clone(),
        arguments: (!call.arguments.is_null()).then(|| call.arguments.clone()),
    }
}

#[cfg(test)]
#[path = "legacy_tool_events_tests.rs"]
mod tests;
