//! The item of a call as a session file records it: the call item, its output item and, in
//! some versions, the command's end event. What a transcript that shows every recorded call
//! builds (app-server-protocol's complete mode), for calls Codex's own records show no item
//! of.
//!
//! A call becomes the item its tool announces ([`call_item`]): a command, a patch or an MCP
//! call; any other tool is a dynamic tool call named as the file names it ([`tool_name`]).
//! Its output then completes it with what the output reports ([`output_facts`]); an
//! `exec_command_end` event, more sure of the exit code and duration, completes a command
//! too, or stands for one whose call the file does not hold.

use std::time::Duration;

use crate::event::ExecCommandEndEvent;
use crate::items::CommandExecutionItem;
use crate::items::CommandExecutionStatus;
use crate::items::DynamicToolCallItem;
use crate::items::DynamicToolCallOutputContentItem;
use crate::items::DynamicToolCallStatus;
use crate::items::McpToolCallStatus;
use crate::items::PatchApplyStatus;
use crate::items::TurnItem;
use crate::mcp::CallToolResult;
use crate::models::FunctionCallOutputBody;
use crate::models::FunctionCallOutputContentItem;
use crate::models::ResponseItem;

use super::{
    OutputFacts, ToolInvocation, call_item, call_item_id, json_arguments, output_facts, tool_name,
};

/// The in-progress item of a recorded call (a function, custom tool or local shell call),
/// its id the call id (else the item id); `None` for any other item or a call with neither
/// id. A command runs in `turn_cwd` unless it names a directory.
pub fn recorded_call_item(call: &ResponseItem, turn_cwd: &str) -> Option<TurnItem> {
    if !matches!(
        call,
        ResponseItem::FunctionCall { .. }
            | ResponseItem::CustomToolCall { .. }
            | ResponseItem::LocalShellCall { .. }
    ) {
        return None;
    }
    let id = call_item_id(call)?.to_string();
    let invocation = ToolInvocation::of_call(call);
    if let Some(item) = call_item(&invocation, id.clone(), turn_cwd) {
        return Some(item);
    }
    let (namespace, arguments) = match call {
        ResponseItem::FunctionCall {
            namespace,
            arguments,
            ..
        } => (namespace.clone(), json_arguments(arguments)),
        ResponseItem::CustomToolCall { input, .. } => {
            (None, serde_json::Value::from(input.clone()))
        }
        _ => (None, serde_json::Value::Null),
    };
    let tool = match call {
        ResponseItem::FunctionCall { name, .. } => name.clone(),
        other => tool_name(other).unwrap_or_default(),
    };
    Some(TurnItem::DynamicToolCall(DynamicToolCallItem {
        id,
        namespace,
        tool,
        arguments,
        status: DynamicToolCallStatus::InProgress,
        content_items: None,
        success: None,
        error: None,
        duration: None,
    }))
}

/// `started` completed by its recorded `output` (a function or custom tool output): the
/// text, images, exit code, duration and success the output reports. A fact already set (by
/// an end event) is kept.
pub fn completed_by_output(started: TurnItem, output: &ResponseItem) -> TurnItem {
    let Some(facts) = output_facts(output) else {
        return started;
    };
    let failed = facts.success == Some(false);
    match started {
        TurnItem::CommandExecution(mut command) => {
            let exit_code = command
                .exit_code
                .or_else(|| facts.exit_code.and_then(|code| i32::try_from(code).ok()));
            command.exit_code = exit_code;
            command.duration = command.duration.or_else(|| duration(&facts));
            if command.aggregated_output.is_none() {
                command.aggregated_output = Some(facts.text);
            }
            command.status = command_status(exit_code, failed);
            TurnItem::CommandExecution(command)
        }
        TurnItem::FileChange(mut change) => {
            let failed = failed || facts.exit_code.is_some_and(|code| code != 0);
            if failed {
                change.stderr = Some(facts.text);
                change.status = Some(PatchApplyStatus::Failed);
            } else {
                change.stdout = Some(facts.text);
                change.status = Some(PatchApplyStatus::Completed);
            }
            TurnItem::FileChange(change)
        }
        TurnItem::McpToolCall(mut call) => {
            call.duration = call.duration.or_else(|| duration(&facts));
            call.status = if failed {
                McpToolCallStatus::Failed
            } else {
                McpToolCallStatus::Completed
            };
            call.result = Some(CallToolResult {
                content: vec![serde_json::json!({ "type": "text", "text": facts.text })],
                structured_content: None,
                is_error: failed.then_some(true),
                meta: None,
            });
            TurnItem::McpToolCall(call)
        }
        TurnItem::DynamicToolCall(mut call) => {
            call.duration = call.duration.or_else(|| duration(&facts));
            let mut content = Vec::new();
            if !facts.textless {
                content.push(DynamicToolCallOutputContentItem::InputText { text: facts.text });
            }
            content.extend(images(output));
            call.content_items = Some(content);
            call.success = Some(!failed);
            call.status = if failed {
                DynamicToolCallStatus::Failed
            } else {
                DynamicToolCallStatus::Completed
            };
            TurnItem::DynamicToolCall(call)
        }
        other => other,
    }
}

/// `started` (a command) completed by its `exec_command_end` event: the exit code, duration,
/// output and status the event records win over what an output says.
pub fn completed_by_exec_end(started: TurnItem, end: &ExecCommandEndEvent) -> TurnItem {
    let TurnItem::CommandExecution(mut command) = started else {
        return started;
    };
    command.exit_code = Some(end.exit_code);
    command.duration = Some(end.duration);
    command.aggregated_output = Some(end.aggregated_output.clone());
    command.status = command_status(Some(end.exit_code), false);
    if command.command.is_empty() {
        command.command = end.command.clone();
    }
    TurnItem::CommandExecution(command)
}

/// The command an `exec_command_end` event records, for a file that holds no call for it.
pub fn exec_end_item(end: &ExecCommandEndEvent) -> TurnItem {
    let started = TurnItem::CommandExecution(CommandExecutionItem {
        id: end.call_id.clone(),
        plugin_id: end.plugin_id.clone(),
        script_path: end.script_path.clone(),
        process_id: end.process_id.clone(),
        command: end.command.clone(),
        cwd: end.cwd.clone(),
        parsed_cmd: end.parsed_cmd.clone(),
        source: end.source,
        interaction_input: end.interaction_input.clone(),
        status: CommandExecutionStatus::InProgress,
        aggregated_output: None,
        exit_code: None,
        duration: None,
    });
    completed_by_exec_end(started, end)
}

fn command_status(exit_code: Option<i32>, failed: bool) -> CommandExecutionStatus {
    match exit_code {
        Some(0) => CommandExecutionStatus::Completed,
        Some(_) => CommandExecutionStatus::Failed,
        None if failed => CommandExecutionStatus::Failed,
        None => CommandExecutionStatus::Completed,
    }
}

fn duration(facts: &OutputFacts) -> Option<Duration> {
    facts.duration_ms.map(Duration::from_millis)
}

fn images(output: &ResponseItem) -> Vec<DynamicToolCallOutputContentItem> {
    let (ResponseItem::FunctionCallOutput { output, .. }
    | ResponseItem::CustomToolCallOutput { output, .. }) = output
    else {
        return Vec::new();
    };
    let FunctionCallOutputBody::ContentItems(parts) = &output.body else {
        return Vec::new();
    };
    parts
        .iter()
        .filter_map(|part| match part {
            FunctionCallOutputContentItem::InputImage {
                image_url: Some(url),
                ..
            } => Some(DynamicToolCallOutputContentItem::InputImage {
                image_url: url.clone(),
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
#[path = "recorded_tests.rs"]
mod tests;
