//! What a recorded tool output says of its run: the text a person reads, the exit code and
//! the duration.
//!
//! Where each fact is varies by version: the JSON the output holds
//! (`{"output", "metadata": {"exit_code", "duration_seconds"}}`, 0.40), or the first lines of
//! the output text (`Exit code: 0`, `Process exited with code 0`, `Wall time: 1.2 seconds`).
//! A command's end event, where a file has one, says the same more surely; its reader prefers
//! it.

use serde_json::Value;

use crate::models::FunctionCallOutputPayload;
use crate::models::ResponseItem;

/// Lines at the top of an output text read for its status.
const STATUS_LINES: usize = 6;

/// The facts of one output item.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutputFacts {
    /// The text a person reads (a 0.40 JSON output's `output` field; empty when the output
    /// holds only images).
    pub text: String,
    /// Whether the output holds no text at all (only images, or nothing).
    pub textless: bool,
    /// The exit code it reports.
    pub exit_code: Option<i64>,
    /// The duration it reports, in milliseconds.
    pub duration_ms: Option<u64>,
    /// Whether the tool said it succeeded (`None` when the output does not say).
    pub success: Option<bool>,
}

/// The facts of `output` when it is a function or custom tool output; `None` for any other
/// item.
pub fn output_facts(output: &ResponseItem) -> Option<OutputFacts> {
    let payload: &FunctionCallOutputPayload = match output {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => output,
        _ => return None,
    };
    let text = payload.body.to_text();
    let mut facts = OutputFacts {
        textless: text.is_none(),
        success: payload.success,
        ..OutputFacts::default()
    };
    let text = text.unwrap_or_default();
    facts.text = unwrap_json_output(&mut facts, text);
    read_status_lines(&mut facts);
    Some(facts)
}

/// The 0.40 shape: the output is JSON `{"output": "...", "metadata": {...}}`.
fn unwrap_json_output(facts: &mut OutputFacts, text: String) -> String {
    if !text.starts_with('{') {
        return text;
    }
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        return text;
    };
    let Some(output) = value.get("output").and_then(Value::as_str) else {
        return text;
    };
    if let Some(metadata) = value.get("metadata") {
        facts.exit_code = metadata.get("exit_code").and_then(Value::as_i64);
        facts.duration_ms = metadata
            .get("duration_seconds")
            .and_then(Value::as_f64)
            .and_then(seconds_to_ms);
    }
    output.to_string()
}

/// `Exit code: N`, `Process exited with code N`, `Wall time: X seconds` in the first lines.
fn read_status_lines(facts: &mut OutputFacts) {
    for line in facts.text.lines().take(STATUS_LINES) {
        let line = line.trim();
        let code = line
            .strip_prefix("Exit code: ")
            .or_else(|| line.strip_prefix("Process exited with code "));
        if let Some(code) = code.and_then(|code| code.trim().parse::<i64>().ok()) {
            facts.exit_code = facts.exit_code.or(Some(code));
        }
        let wall = line
            .strip_prefix("Wall time: ")
            .and_then(|rest| rest.strip_suffix(" seconds"));
        if let Some(seconds) = wall.and_then(|seconds| seconds.trim().parse::<f64>().ok()) {
            facts.duration_ms = facts.duration_ms.or_else(|| seconds_to_ms(seconds));
        }
    }
}

fn seconds_to_ms(seconds: f64) -> Option<u64> {
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as u64)
}

#[cfg(test)]
#[path = "output_tests.rs"]
mod tests;
