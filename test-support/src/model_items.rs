//! What the scripted model answers with: Responses API output items, the usage a response
//! reports, and the server-sent-event frames that carry both.
//!
//! The builders give the shapes Codex 0.169 accepts from its model (see
//! `../shared/reference/real-codex.md`); a test that needs another item writes its JSON
//! itself and passes it in the same list.

use serde_json::{Value, json};

/// The token usage a scripted response reports in `response.completed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// `input_tokens`.
    pub input: u64,
    /// `input_tokens_details.cached_tokens`.
    pub cached: u64,
    /// `output_tokens`.
    pub output: u64,
    /// `output_tokens_details.reasoning_tokens`.
    pub reasoning: u64,
    /// `total_tokens`.
    pub total: u64,
}

impl Usage {
    /// A usage whose total is `input + output`, as the Responses API reports it.
    pub fn new(input: u64, cached: u64, output: u64, reasoning: u64) -> Usage {
        Usage {
            input,
            cached,
            output,
            reasoning,
            total: input + output,
        }
    }

    /// The `usage` object of `response.completed`.
    pub fn to_json(&self) -> Value {
        json!({
            "input_tokens": self.input,
            "input_tokens_details": { "cached_tokens": self.cached },
            "output_tokens": self.output,
            "output_tokens_details": { "reasoning_tokens": self.reasoning },
            "total_tokens": self.total,
        })
    }
}

impl Default for Usage {
    /// 100 input tokens (10 cached), 20 output tokens (5 of them reasoning): small enough
    /// that Codex never compacts on its own.
    fn default() -> Usage {
        Usage::new(100, 10, 20, 5)
    }
}

/// An assistant `message` item with one `output_text` part.
pub fn assistant_message(id: &str, text: &str) -> Value {
    json!({
        "type": "message",
        "role": "assistant",
        "id": id,
        "content": [{ "type": "output_text", "text": text }],
    })
}

/// A `reasoning` item with one `summary_text` part (no encrypted content).
pub fn reasoning(id: &str, summary: &str) -> Value {
    json!({
        "type": "reasoning",
        "id": id,
        "summary": [{ "type": "summary_text", "text": summary }],
    })
}

/// A `function_call` item named `name` whose `arguments` is `arguments` serialized to a
/// string (the Responses API sends arguments as a JSON string). Its item id is
/// `fc_<call_id>`.
pub fn function_call(call_id: &str, name: &str, arguments: &Value) -> Value {
    json!({
        "type": "function_call",
        "id": format!("fc_{call_id}"),
        "call_id": call_id,
        "name": name,
        "arguments": arguments.to_string(),
    })
}

/// An `exec_command` call running `cmd` in Codex's shell (the classic tool of `gpt-5.5`).
pub fn exec_command_call(call_id: &str, cmd: &str) -> Value {
    function_call(call_id, "exec_command", &json!({ "cmd": cmd }))
}

/// `item` in the shape the request offers: an `exec_command` call becomes `shell_command
/// {command}` (Codex 0.77 to 0.99) or `shell {command: [bash, -lc, cmd]}` (before 0.77) when
/// the request's tools (`offered`, their names) hold that tool and no `exec_command`, so one
/// script runs on every release. Anything else is unchanged.
pub(crate) fn in_offered_shape(item: Value, offered: &[&str]) -> Value {
    let is_exec = item.get("type") == Some(&json!("function_call"))
        && item.get("name") == Some(&json!("exec_command"));
    if !is_exec || offered.contains(&"exec_command") {
        return item;
    }
    let arguments: Value = item
        .get("arguments")
        .and_then(Value::as_str)
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or(Value::Null);
    let cmd = arguments.get("cmd").and_then(Value::as_str).unwrap_or("");
    let call_id = item.get("call_id").and_then(Value::as_str).unwrap_or("");
    if offered.contains(&"shell_command") {
        function_call(call_id, "shell_command", &json!({ "command": cmd }))
    } else if offered.contains(&"shell") {
        function_call(
            call_id,
            "shell",
            &json!({ "command": ["bash", "-lc", cmd] }),
        )
    } else {
        item
    }
}

/// A freeform `apply_patch` call (`custom_tool_call`) whose input is `patch`, the
/// `*** Begin Patch` ... `*** End Patch` text. Its item id is `ctc_<call_id>`.
pub fn apply_patch_call(call_id: &str, patch: &str) -> Value {
    json!({
        "type": "custom_tool_call",
        "id": format!("ctc_{call_id}"),
        "call_id": call_id,
        "name": "apply_patch",
        "input": patch,
        "status": "completed",
    })
}

/// A completed `web_search_call` item that searched for `query`.
pub fn web_search_call(id: &str, query: &str) -> Value {
    json!({
        "type": "web_search_call",
        "id": id,
        "status": "completed",
        "action": { "type": "search", "query": query },
    })
}

/// The frames that open a response: `response.created`, `response.in_progress`.
pub(crate) fn opening_frames(response_id: &str) -> Vec<u8> {
    let response = json!({ "id": response_id, "status": "in_progress", "output": [] });
    let mut frames = frame(
        "response.created",
        &json!({ "type": "response.created", "response": response }),
    );
    frames.extend(frame(
        "response.in_progress",
        &json!({ "type": "response.in_progress", "response": response }),
    ));
    frames
}

/// The frames of one output item: `response.output_item.added` then `.done`, both with the
/// whole item.
pub(crate) fn item_frames(output_index: usize, item: &Value) -> Vec<u8> {
    let mut frames = frame(
        "response.output_item.added",
        &json!({ "type": "response.output_item.added", "output_index": output_index, "item": item }),
    );
    frames.extend(frame(
        "response.output_item.done",
        &json!({ "type": "response.output_item.done", "output_index": output_index, "item": item }),
    ));
    frames
}

/// The frame that ends a response: `response.completed` with its id and usage.
pub(crate) fn completed_frame(response_id: &str, usage: &Usage) -> Vec<u8> {
    frame(
        "response.completed",
        &json!({
            "type": "response.completed",
            "response": { "id": response_id, "status": "completed", "usage": usage.to_json() },
        }),
    )
}

/// One server-sent event: `event: NAME`, `data: JSON`, a blank line.
fn frame(name: &str, data: &Value) -> Vec<u8> {
    format!("event: {name}\ndata: {data}\n\n").into_bytes()
}
