//! The newest item shapes, as real session files hold them: images inside tool outputs (0.117
//! `function_call_output`, 0.145 `custom_tool_call_output`), an `agent_message` with an
//! `encrypted_content` part (0.144), and `item_completed` turn items, among them an agent
//! message whose phase is a string no version defines (`"[redacted]"`, 0.155). Each such item
//! must read into its typed form and write back the same JSON.
//!
//! The shape catalogue is left out: its values were replaced by `"[trimmed for fixture]"`
//! (also where an image detail or an enum is expected), so it cannot write back the same JSON.

use std::collections::BTreeMap;

use codex_protocol::items::TurnItem;
use codex_protocol::models::*;
use codex_test_support::{jsonl_files_in, real_fixtures_dir};
use pretty_assertions::assert_eq;
use serde_json::Value;

use super::TestResult;

const SHAPE_CATALOGUE: &str = "jazzyalex__agent-sessions__small.jsonl";

/// Every JSON line of every real capture (not the catalogue), with the file name.
fn real_capture_lines() -> Result<Vec<(String, Value)>, Box<dyn std::error::Error>> {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(Vec::new());
    };
    let mut lines = Vec::new();
    for path in jsonl_files_in(&dir)? {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name == SHAPE_CATALOGUE {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        for line in String::from_utf8_lossy(&bytes).lines() {
            if let Ok(value) = serde_json::from_str::<Value>(line) {
                lines.push((name.clone(), value));
            }
        }
    }
    Ok(lines)
}

/// The newest-shape labels a response item shows (none for most items).
fn newest_shapes(item: &ResponseItem) -> Vec<&'static str> {
    let mut shapes = Vec::new();
    let has_image = |output: &FunctionCallOutputPayload| {
        output.content_items().is_some_and(|items| {
            items
                .iter()
                .any(|item| matches!(item, FunctionCallOutputContentItem::InputImage { .. }))
        })
    };
    match item {
        ResponseItem::AgentMessage { content, .. }
            if content
                .iter()
                .any(|part| matches!(part, AgentMessageInputContent::EncryptedContent { .. })) =>
        {
            shapes.push("agent_message with an encrypted_content part");
        }
        ResponseItem::FunctionCallOutput { output, .. } if has_image(output) => {
            shapes.push("function_call_output with an image");
        }
        ResponseItem::CustomToolCallOutput { output, .. } if has_image(output) => {
            shapes.push("custom_tool_call_output with an image");
        }
        ResponseItem::Message {
            encrypted_content,
            status,
            content,
            phase,
            ..
        } => {
            if encrypted_content.is_some() {
                shapes.push("message.encrypted_content");
            }
            if status.is_some() {
                shapes.push("message.status");
            }
            if matches!(phase, Some(MessagePhase::PartialAnswer)) {
                shapes.push("phase partial_answer");
            }
            for part in content {
                match part {
                    ContentItem::InputImage {
                        file_id: Some(_), ..
                    } => shapes.push("input_image.file_id"),
                    ContentItem::OutputText {
                        annotations,
                        logprobs,
                        ..
                    } if annotations.is_some() || logprobs.is_some() => {
                        shapes.push("output_text annotations or logprobs");
                    }
                    _ => {}
                }
            }
        }
        ResponseItem::FunctionCall {
            encrypted_content: Some(_),
            ..
        }
        | ResponseItem::LocalShellCall {
            encrypted_content: Some(_),
            ..
        }
        | ResponseItem::ToolSearchCall {
            encrypted_content: Some(_),
            ..
        }
        | ResponseItem::CustomToolCall {
            encrypted_content: Some(_),
            ..
        }
        | ResponseItem::WebSearchCall {
            encrypted_content: Some(_),
            ..
        }
        | ResponseItem::ImageGenerationCall {
            encrypted_content: Some(_),
            ..
        } => shapes.push("encrypted_content on a call"),
        _ => {}
    }
    shapes
}

#[test]
fn real_items_with_the_newest_shapes_write_back_the_same_json() -> TestResult {
    let lines = real_capture_lines()?;
    if lines.is_empty() {
        return Ok(());
    }
    let mut seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (name, line) in &lines {
        if line.get("type").and_then(Value::as_str) != Some("response_item") {
            continue;
        }
        let Some(raw) = line.get("payload") else {
            continue;
        };
        let item: ResponseItem = serde_json::from_value(raw.clone())?;
        let shapes = newest_shapes(&item);
        if shapes.is_empty() {
            continue;
        }
        assert_eq!(
            &serde_json::to_value(&item)?,
            raw,
            "{name}: {shapes:?} item does not write back the same JSON"
        );
        for shape in shapes {
            *seen.entry(shape).or_default() += 1;
        }
    }
    // Measured on the captures; a parser change that stops recognising a shape fails here.
    let expected: BTreeMap<&str, usize> = [
        ("agent_message with an encrypted_content part", 1),
        ("custom_tool_call_output with an image", 3),
        ("function_call_output with an image", 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(seen, expected);
    Ok(())
}

#[test]
fn real_turn_items_write_back_the_same_json_including_unknown_phases() -> TestResult {
    let lines = real_capture_lines()?;
    if lines.is_empty() {
        return Ok(());
    }
    let mut by_type: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut unknown_phases = Vec::new();
    for (name, line) in &lines {
        let payload = line.get("payload");
        let event = payload
            .and_then(|payload| payload.get("type"))
            .and_then(Value::as_str);
        if line.get("type").and_then(Value::as_str) != Some("event_msg")
            || !matches!(event, Some("item_started" | "item_completed"))
        {
            continue;
        }
        let Some(raw) = payload.and_then(|payload| payload.get("item")) else {
            continue;
        };
        let item: TurnItem = serde_json::from_value(raw.clone())
            .map_err(|err| format!("{name}: turn item does not read: {err}"))?;
        assert_eq!(
            &serde_json::to_value(&item)?,
            raw,
            "{name}: {} does not write back the same JSON",
            item.type_name()
        );
        if let TurnItem::AgentMessage(message) = &item
            && let Some(MessagePhase::Unknown(phase)) = &message.phase
        {
            unknown_phases.push(phase.clone());
        }
        *by_type.entry(item.type_name()).or_default() += 1;
    }
    let expected: BTreeMap<&str, usize> = [
        ("AgentMessage", 4),
        ("Plan", 5),
        ("Reasoning", 2),
        ("UserMessage", 4),
    ]
    .into_iter()
    .collect();
    assert_eq!(by_type, expected);
    assert!(
        !unknown_phases.is_empty() && unknown_phases.iter().all(|phase| phase == "[redacted]"),
        "{unknown_phases:?}"
    );
    Ok(())
}
