//! The `items` rows of one file: each response item (the model's record) one row, a tool
//! call completed by what the file later says of it.
//!
//! A call's row is given, by call id: its command, exit code and duration from its
//! `exec_command_end` (or, in newer files, its `item_completed` `CommandExecution`); its
//! changed files and outcome from its `patch_apply_end` (`FileChange`); its outcome from its
//! `mcp_tool_call_end` (`McpToolCall`); and `status`: `failed` when the command exited
//! non-zero or did not complete, the patch or the MCP tool failed (or was declined), or the
//! output says `success: false`; `completed` when an output or an end event answered it
//! otherwise; `no_output` when nothing did.
//! A call's tool name is [`tool_name`], the name `inspect` counts calls by.

use std::borrow::Cow;
use std::collections::HashMap;

use codex_protocol::event::EventMsg;
use codex_protocol::items::{
    CommandExecutionStatus, McpToolCallStatus, PatchApplyStatus, TurnItem,
};
use codex_protocol::models::{
    ContentItem, FunctionCallOutputBody, FunctionCallOutputPayload, LocalShellAction,
    ReasoningItemReasoningSummary, ResponseItem,
};
use codex_protocol::rollout::{RolloutItem, RolloutLine};
use codex_protocol::tool_call::tool_name;

use super::rows::ItemRow;
use crate::redact::{RedactionReport, Redactor};

/// What the text columns hold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextOptions<'a> {
    /// Keep each item's text.
    pub with_text: bool,
    /// Mask text, commands and paths with the export's rules.
    pub redactor: Option<&'a Redactor>,
}

/// Builds one file's item rows, a line at a time.
#[derive(Debug)]
pub(crate) struct ItemScan<'a> {
    options: TextOptions<'a>,
    report: RedactionReport,
    thread_id: String,
    piece: u32,
    rows: Vec<ItemRow>,
    /// Open calls by call id: the row index of the latest call with that id.
    calls: HashMap<String, usize>,
    turn_id: Option<String>,
    model: Option<String>,
}

impl<'a> ItemScan<'a> {
    pub(crate) fn new(thread_id: String, piece: u32, options: TextOptions<'a>) -> Self {
        let report = options.redactor.map(Redactor::report).unwrap_or_default();
        Self {
            options,
            report,
            thread_id,
            piece,
            rows: Vec::new(),
            calls: HashMap::new(),
            turn_id: None,
            model: None,
        }
    }

    /// Takes line `number` (1-based); `copied` says it is part of a copied parent prefix.
    pub(crate) fn push(
        &mut self,
        number: usize,
        line: &RolloutLine,
        timestamp: Option<i64>,
        copied: bool,
    ) {
        if let Some(model) = crate::usage::model_named(&line.item) {
            self.model = Some(model.to_string());
        }
        match &line.item {
            RolloutItem::ResponseItem(item) => self.push_item(number, item, timestamp, copied),
            RolloutItem::EventMsg(event) => self.push_event(event),
            _ => {}
        }
    }

    /// The rows, and what the redaction masked.
    pub(crate) fn finish(self) -> (Vec<ItemRow>, RedactionReport) {
        (self.rows, self.report)
    }

    fn push_item(
        &mut self,
        number: usize,
        item: &ResponseItem,
        timestamp: Option<i64>,
        copied: bool,
    ) {
        let tool = tool_name(item);
        let call_id = item.call_id().map(str::to_string);
        let text = item_text(item);
        let mut row = ItemRow {
            thread_id: self.thread_id.clone(),
            piece: self.piece,
            line: number as u64,
            timestamp,
            turn_id: item
                .turn_id()
                .map(str::to_string)
                .or_else(|| self.turn_id.clone()),
            copied,
            item_type: item.item_type().to_string(),
            role: match item {
                ResponseItem::Message { role, .. } => Some(role.clone()),
                _ => None,
            },
            tool_name: tool.clone(),
            call_id: call_id.clone(),
            model: self.model.clone(),
            status: tool.as_ref().map(|_| "no_output".to_string()),
            text_chars: text.chars().count() as u64,
            ..ItemRow::default()
        };
        if let ResponseItem::LocalShellCall {
            action: LocalShellAction::Exec(exec),
            ..
        } = item
        {
            row.command = Some(exec.command.join(" "));
        }
        if self.options.with_text {
            row.text = Some(text.into_owned());
        }
        if let Some(redactor) = self.options.redactor {
            for value in [&mut row.text, &mut row.command].into_iter().flatten() {
                redactor.mask(value, &mut self.report);
            }
        }
        let index = self.rows.len();
        self.rows.push(row);
        match (tool, call_id, output_payload(item)) {
            (Some(_), Some(call_id), _) => {
                self.calls.insert(call_id, index);
            }
            (None, Some(call_id), Some(output)) => {
                let failed = output.success == Some(false);
                self.settle(&call_id, |call| {
                    if failed {
                        call.status = Some("failed".to_string());
                    } else if call.status.as_deref() == Some("no_output") {
                        call.status = Some("completed".to_string());
                    }
                });
            }
            _ => {}
        }
    }

    fn push_event(&mut self, event: &EventMsg) {
        let redactor = self.options.redactor;
        match event {
            EventMsg::TurnStarted(started) if !started.turn_id.is_empty() => {
                self.turn_id = Some(started.turn_id.clone());
            }
            EventMsg::TurnComplete(_) | EventMsg::TurnAborted(_) => self.turn_id = None,
            EventMsg::ExecCommandEnd(end) => {
                let mut command = end.command.join(" ");
                if let Some(redactor) = redactor {
                    redactor.mask(&mut command, &mut self.report);
                }
                let duration = duration_ms(end.duration);
                let exit_code = end.exit_code;
                self.settle(&end.call_id, |call| {
                    call.command = Some(command);
                    call.exit_code = Some(exit_code);
                    call.duration_ms = Some(duration);
                    mark(call, exit_code == 0);
                });
            }
            EventMsg::PatchApplyEnd(end) => {
                let mut files: Vec<String> = end.changes.keys().cloned().collect();
                if let Some(redactor) = redactor {
                    for file in &mut files {
                        redactor.mask(file, &mut self.report);
                    }
                }
                let success = end.success;
                self.settle(&end.call_id, |call| {
                    call.patch_files = files;
                    mark(call, success);
                });
            }
            EventMsg::McpToolCallEnd(end) => {
                let success = end.is_success();
                let duration = duration_ms(end.duration);
                self.settle(&end.call_id, |call| {
                    call.duration_ms = Some(duration);
                    mark(call, success);
                });
            }
            EventMsg::ItemCompleted(completed) => self.push_completed(&completed.item),
            _ => {}
        }
    }

    /// A typed item event (newer files write these instead of the end events): a command,
    /// a patch or an MCP call, named by its call id.
    fn push_completed(&mut self, item: &TurnItem) {
        let redactor = self.options.redactor;
        match item {
            TurnItem::CommandExecution(command) => {
                let mut text = command.command.join(" ");
                if let Some(redactor) = redactor {
                    redactor.mask(&mut text, &mut self.report);
                }
                let success = matches!(command.status, CommandExecutionStatus::Completed)
                    && command.exit_code.is_none_or(|code| code == 0);
                self.settle(&command.id, |call| {
                    call.command = Some(text);
                    call.exit_code = command.exit_code;
                    call.duration_ms = command.duration.map(duration_ms);
                    mark(call, success);
                });
            }
            TurnItem::FileChange(change) => {
                let mut files: Vec<String> = change.changes.keys().cloned().collect();
                if let Some(redactor) = redactor {
                    for file in &mut files {
                        redactor.mask(file, &mut self.report);
                    }
                }
                let success = !matches!(
                    change.status,
                    Some(PatchApplyStatus::Failed | PatchApplyStatus::Declined)
                );
                self.settle(&change.id, |call| {
                    call.patch_files = files;
                    mark(call, success);
                });
            }
            TurnItem::McpToolCall(mcp) => {
                let success = !matches!(mcp.status, McpToolCallStatus::Failed);
                self.settle(&mcp.id, |call| {
                    call.duration_ms = mcp.duration.map(duration_ms);
                    mark(call, success);
                });
            }
            _ => {}
        }
    }

    /// Applies `change` to the row of the call `call_id` names, when the file has it.
    fn settle(&mut self, call_id: &str, change: impl FnOnce(&mut ItemRow)) {
        if let Some(row) = self
            .calls
            .get(call_id)
            .and_then(|index| self.rows.get_mut(*index))
        {
            change(row);
        }
    }
}

/// Records an end event's outcome: a failure stays a failure.
fn mark(call: &mut ItemRow, success: bool) {
    if !success {
        call.status = Some("failed".to_string());
    } else if call.status.as_deref() == Some("no_output") {
        call.status = Some("completed".to_string());
    }
}

fn duration_ms(duration: std::time::Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

fn output_payload(item: &ResponseItem) -> Option<&FunctionCallOutputPayload> {
    match item {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => Some(output),
        _ => None,
    }
}

/// The text of an item a person could read: a message's text parts, reasoning summaries, a
/// call's arguments or input, an output's text. Borrowed when the item holds it in one piece.
fn item_text(item: &ResponseItem) -> Cow<'_, str> {
    fn joined<'a>(mut parts: impl Iterator<Item = &'a str>) -> Cow<'a, str> {
        let Some(first) = parts.next() else {
            return Cow::Borrowed("");
        };
        match parts.next() {
            None => Cow::Borrowed(first),
            Some(second) => {
                let mut text = format!("{first}\n{second}");
                for part in parts {
                    text.push('\n');
                    text.push_str(part);
                }
                Cow::Owned(text)
            }
        }
    }
    match item {
        ResponseItem::Message { content, .. } => {
            joined(content.iter().filter_map(ContentItem::text))
        }
        ResponseItem::Reasoning { summary, .. } => joined(summary.iter().map(|part| match part {
            ReasoningItemReasoningSummary::SummaryText { text } => text.as_str(),
        })),
        ResponseItem::FunctionCall { arguments, .. } => Cow::Borrowed(arguments),
        ResponseItem::CustomToolCall { input, .. } => Cow::Borrowed(input),
        ResponseItem::LocalShellCall {
            action: LocalShellAction::Exec(exec),
            ..
        } => Cow::Owned(exec.command.join(" ")),
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => match &output.body {
            FunctionCallOutputBody::Text(text) => Cow::Borrowed(text),
            body => Cow::Owned(body.to_text().unwrap_or_default()),
        },
        _ => Cow::Borrowed(""),
    }
}
