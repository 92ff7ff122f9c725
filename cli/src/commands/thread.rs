//! `codex-thread thread [FILE]`: the turns and their items as a client sees them on resume.
//!
//! The thread is app-server-protocol's own reconstruction from the rollout items
//! (`thread_from_rollout_items`): identity from the session meta, turns from the persisted
//! events. The items are codex-rollout's `client_view_items`: for a file that recorded no
//! client view of its turns (the pre-envelope format, files filtered by hand) they include
//! the item events a replay rebuilds, so `thread` shows the turns `notifications` does. With `--json` it is the `Thread` object of the protocol (validating against the
//! generated schema); a file without session meta gives `{"turns": [...]}` only.

use codex_app_server_protocol::build_turns_from_rollout_items;
use codex_app_server_protocol::thread_history::thread_from_rollout_items;
use codex_app_server_protocol::v2::{ThreadItem, Turn};
use codex_rollout::replay::client_view_items;
use serde_json::Value;

use crate::error::{CommandResult, Failure, Status};
use crate::input::{Source, load_session};
use crate::output::{Output, one_line};

/// Runs `thread`.
pub fn run(source: &Source, out: &mut Output) -> CommandResult {
    let session = load_session(source)?;
    let items = client_view_items(session.contents());
    let thread = thread_from_rollout_items(&items);
    let turns = match &thread {
        Some(thread) => thread.turns.clone(),
        None => build_turns_from_rollout_items(&items),
    };
    if out.is_json() {
        match &thread {
            Some(thread) => out.json_line(thread)?,
            None => out.json_line(&serde_json::json!({ "turns": turns }))?,
        }
        return Ok(Status::Ok);
    }
    let id = thread.as_ref().map_or_else(
        || "(no session meta)".to_string(),
        |thread| thread.id.clone(),
    );
    out.line(&format!("thread {id}: {} turn(s)", turns.len()))?;
    for (index, turn) in turns.iter().enumerate() {
        render_turn(index + 1, turn, out)?;
    }
    Ok(Status::Ok)
}

fn render_turn(number: usize, turn: &Turn, out: &mut Output) -> Result<(), Failure> {
    let status = serde_json::to_value(turn.status)?;
    let status = status.as_str().unwrap_or("?");
    let duration = match (turn.started_at, turn.completed_at) {
        (Some(start), Some(end)) if end >= start => format!(", {}s", end - start),
        _ => String::new(),
    };
    out.line("")?;
    out.line(&one_line(
        &format!(
            "turn {number} ({status}{duration}, {} item(s)) {}",
            turn.items.len(),
            turn.id
        ),
        78,
    ))?;
    if let Some(error) = &turn.error {
        out.line(&one_line(&format!("  error: {}", error.message), 78))?;
    }
    for item in &turn.items {
        let (label, text) = describe(item)?;
        out.line(&format!("  {label:<11}{}", one_line(&text, 65)))?;
    }
    Ok(())
}

/// A short label and one line of text for an item, read from its JSON form so every variant
/// (and any added later) renders without a case of its own here.
pub fn describe(item: &ThreadItem) -> Result<(String, String), Failure> {
    let value = serde_json::to_value(item)?;
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("item");
    let text_of = |key: &str| value.get(key).and_then(Value::as_str).unwrap_or_default();
    let joined = |key: &str| -> String {
        value
            .get(key)
            .and_then(Value::as_array)
            .map(|parts| {
                parts
                    .iter()
                    .filter_map(|part| match part {
                        Value::String(text) => Some(text.clone()),
                        Value::Object(fields) => fields
                            .get("text")
                            .or_else(|| fields.get("path"))
                            .and_then(Value::as_str)
                            .map(str::to_string)
                            .or_else(|| Some("[image]".to_string())),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default()
    };
    let status = text_of("status");
    let (label, text) = match kind {
        "userMessage" => ("user", joined("content")),
        "agentMessage" => ("agent", text_of("text").to_string()),
        "reasoning" => ("reasoning", joined("summary")),
        "plan" => ("plan", text_of("text").to_string()),
        "commandExecution" => {
            let exit = value
                .get("exitCode")
                .and_then(Value::as_i64)
                .map(|code| format!(", exit {code}"))
                .unwrap_or_default();
            (
                "command",
                format!("{} ({status}{exit})", text_of("command")),
            )
        }
        "fileChange" => ("patch", format!("{} ({status})", joined("changes"))),
        "mcpToolCall" => (
            "mcp",
            format!("{}.{} ({status})", text_of("server"), text_of("tool")),
        ),
        "dynamicToolCall" => ("tool", format!("{} ({status})", text_of("tool"))),
        "webSearch" => ("search", text_of("query").to_string()),
        "contextCompaction" => ("compaction", "context compacted".to_string()),
        other => (other, text_of("id").to_string()),
    };
    Ok((label.to_string(), text))
}
