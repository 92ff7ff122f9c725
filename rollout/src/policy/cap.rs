//! The 64 KiB cap on tool output inside paginated `item_completed` lines.
//!
//! A paginated file stores a completed `CommandExecution` with its aggregated output and a
//! completed `McpToolCall` with its result, next to the response item that already holds the
//! whole output for the model. Upstream caps the copy for the client at 64 KiB by cutting the
//! middle (the start shows what ran, the end how it finished) and marking the cut.

use codex_protocol::items::{CommandExecutionItem, McpToolCallItem, TurnItem};
use codex_protocol::mcp::CallToolResult;
use serde_json::json;

/// Most bytes of command output (or MCP result) a paginated `item_completed` keeps.
pub(crate) const PERSISTED_OUTPUT_LIMIT: usize = 64 * 1024;

/// What replaces the cut middle of an over-long output.
pub(crate) const PERSISTENCE_TRUNCATION_MARKER: &str =
    "\n... command output truncated for persistence ...\n";

/// `text` if it is at most `limit` bytes, else its head and tail (cut at char boundaries)
/// around [`PERSISTENCE_TRUNCATION_MARKER`], at most `limit` bytes in all.
pub(crate) fn cap_middle(text: &str, limit: usize) -> Option<String> {
    if text.len() <= limit {
        return None;
    }
    let keep = limit.saturating_sub(PERSISTENCE_TRUNCATION_MARKER.len());
    let head_end = floor_char_boundary(text, keep / 2);
    let tail_start = ceil_char_boundary(text, text.len() - (keep - keep / 2));
    let mut capped = String::with_capacity(limit);
    capped.push_str(&text[..head_end]);
    capped.push_str(PERSISTENCE_TRUNCATION_MARKER);
    capped.push_str(&text[tail_start..]);
    Some(capped)
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn ceil_char_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index += 1;
    }
    index
}

/// The capped copy of `item`, or `None` when it is written as it is.
pub(crate) fn cap_turn_item(item: &TurnItem) -> Option<TurnItem> {
    match item {
        TurnItem::CommandExecution(command) => cap_command(command).map(TurnItem::CommandExecution),
        TurnItem::McpToolCall(call) => cap_mcp(call).map(TurnItem::McpToolCall),
        _ => None,
    }
}

fn cap_command(command: &CommandExecutionItem) -> Option<CommandExecutionItem> {
    let output = command.aggregated_output.as_deref()?;
    let capped = cap_middle(output, PERSISTED_OUTPUT_LIMIT)?;
    Some(CommandExecutionItem {
        aggregated_output: Some(capped),
        ..command.clone()
    })
}

/// An MCP result over the limit (measured as its JSON) becomes one text block holding the
/// middle-cut JSON of the original content; structured content, which cannot be cut and stay
/// valid, is dropped. Upstream's reference gives the limit but not the cut of a result, so
/// this keeps what a reader most needs: the start and end of what the server said.
fn cap_mcp(call: &McpToolCallItem) -> Option<McpToolCallItem> {
    let result = call.result.as_ref()?;
    let text = serde_json::to_string(result).ok()?;
    if text.len() <= PERSISTED_OUTPUT_LIMIT {
        return None;
    }
    let content = serde_json::to_string(&result.content).ok()?;
    // Leave room for the block's own JSON and the other fields.
    let capped = cap_middle(&content, PERSISTED_OUTPUT_LIMIT - 256).unwrap_or(content);
    Some(McpToolCallItem {
        result: Some(CallToolResult {
            content: vec![json!({"type": "text", "text": capped})],
            structured_content: None,
            is_error: result.is_error,
            meta: result.meta.clone(),
        }),
        ..call.clone()
    })
}

#[cfg(test)]
#[path = "cap_tests.rs"]
mod tests;
