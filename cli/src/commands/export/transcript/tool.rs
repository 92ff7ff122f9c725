//! A tool call as a reader sees it: its input, command line, patch, output text, images,
//! exit code and duration, from the call item, its output item and the command's end event.
//!
//! Where each fact is in a file varies by version: the exit code and duration are in an
//! `exec_command_end` event (newer files) or in what the output says (codex-protocol's
//! `output_facts`); the event wins when there is one.

use codex_protocol::event::ExecCommandEndEvent;
use codex_protocol::models::{FunctionCallOutputBody, FunctionCallOutputContentItem, ResponseItem};
use serde_json::Value;

use super::ToolCall;
use super::image::Image;
use codex_protocol::tool_call::{output_facts, tool_name};

/// The entry of a call item (its output comes later).
pub(crate) fn call_entry(item: &ResponseItem, call_id: Option<&str>) -> ToolCall {
    let name = tool_name(item).unwrap_or_else(|| item.item_type().to_string());
    let (input, command, patch) = match item {
        ResponseItem::FunctionCall { arguments, .. } => {
            match serde_json::from_str::<Value>(arguments) {
                Ok(value) => {
                    let command = command_of(&value);
                    let patch = patch_of(&value);
                    let input = readable_json(&value).unwrap_or_else(|| arguments.clone());
                    (input, command, patch)
                }
                Err(_) => (arguments.clone(), None, None),
            }
        }
        ResponseItem::CustomToolCall { input, .. } => {
            let patch =
                (name == "apply_patch" || input.contains("*** Begin Patch")).then(|| input.clone());
            (input.clone(), None, patch)
        }
        ResponseItem::LocalShellCall { action, .. } => {
            let value = serde_json::to_value(action).unwrap_or_default();
            let input = readable_json(&value).unwrap_or_default();
            (input, command_of(&value), patch_of(&value))
        }
        other => {
            let input = serde_json::to_value(other)
                .ok()
                .and_then(|value| value.get("arguments").or(value.get("query")).cloned())
                .map(|value| value.to_string())
                .unwrap_or_default();
            (input, None, None)
        }
    };
    ToolCall {
        name,
        call_id: call_id.map(str::to_string),
        input,
        command,
        patch,
        ..ToolCall::default()
    }
}

/// Fills in what an output item says (codex-protocol's [`output_facts`]): its text,
/// images, exit code and duration.
pub(crate) fn apply_output(call: &mut ToolCall, item: &ResponseItem) {
    if let ResponseItem::ToolSearchOutput { tools, .. } = item {
        call.output = Some(format!("{} tool(s) found", tools.len()));
        return;
    }
    let Some(facts) = output_facts(item) else {
        call.output = Some(String::new());
        return;
    };
    let images: Vec<Image> = match item {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => match &output.body {
            FunctionCallOutputBody::ContentItems(parts) => parts
                .iter()
                .filter_map(|part| match part {
                    FunctionCallOutputContentItem::InputImage { image_url, .. } => {
                        Some(image_url.as_deref().map_or_else(
                            || Image::from_url("(no image_url: a file id)"),
                            Image::from_url,
                        ))
                    }
                    _ => None,
                })
                .collect(),
            FunctionCallOutputBody::Text(_) => Vec::new(),
        },
        _ => Vec::new(),
    };
    call.exit_code = call.exit_code.or(facts.exit_code);
    call.duration_ms = call.duration_ms.or(facts.duration_ms);
    call.output = Some(if facts.textless && images.is_empty() {
        "[non-text output]".to_string()
    } else {
        facts.text
    });
    call.output_images.extend(images);
}

/// Fills in what the command's end event says (it wins over what the output text says).
pub(crate) fn apply_exec_end(call: &mut ToolCall, end: &ExecCommandEndEvent) {
    call.exit_code = Some(i64::from(end.exit_code));
    call.duration_ms = u64::try_from(end.duration.as_millis()).ok();
    if call.command.is_none() && !end.command.is_empty() {
        call.command = Some(join_command(&end.command));
    }
}

/// The command line of shell-like arguments (`command` as a list or a string, or `cmd`).
fn command_of(value: &Value) -> Option<String> {
    let command = value.get("command").or_else(|| value.get("cmd"))?;
    match command {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => {
            let parts: Vec<String> = parts
                .iter()
                .map(|part| {
                    part.as_str()
                        .map_or_else(|| part.to_string(), str::to_string)
                })
                .collect();
            Some(join_command(&parts))
        }
        _ => None,
    }
}

/// `["apply_patch", "*** Begin Patch ..."]` as a shell command, or an `input` holding a patch.
fn patch_of(value: &Value) -> Option<String> {
    if let Some(Value::Array(parts)) = value.get("command") {
        let is_patch = parts
            .first()
            .and_then(Value::as_str)
            .is_some_and(|program| program == "apply_patch" || program == "applypatch");
        if is_patch {
            return parts.get(1).and_then(Value::as_str).map(str::to_string);
        }
    }
    value
        .get("input")
        .and_then(Value::as_str)
        .filter(|input| input.contains("*** Begin Patch"))
        .map(str::to_string)
}

/// Program and arguments as one line; arguments with spaces or quotes are quoted.
fn join_command(parts: &[String]) -> String {
    parts
        .iter()
        .map(|part| {
            let plain = !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                part.clone()
            } else {
                format!("'{}'", part.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Short JSON on one line, longer JSON pretty-printed.
fn readable_json(value: &Value) -> Option<String> {
    let compact = serde_json::to_string(value).ok()?;
    if compact.chars().count() <= COMPACT_JSON_WIDTH {
        return Some(compact);
    }
    serde_json::to_string_pretty(value).ok()
}

/// Widest call input kept on one line (fits an 80-column code block).
const COMPACT_JSON_WIDTH: usize = 76;
