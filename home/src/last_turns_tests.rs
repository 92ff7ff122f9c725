use std::io::Write;
use std::path::Path;

use codex_app_server_protocol::{BuiltThread, ThreadBuilder, TranscriptMode};
use codex_rollout::load_rollout_items;
use serde_json::{Value, json};

use super::last_turns_from_end;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const THREAD: &str = "01a06421-3bf7-7ed2-a618-e42b6c961905";

fn line(ordinal: usize, kind: &str, payload: Value) -> String {
    json!({
        "timestamp": "2026-09-02T21:58:23.736Z",
        "ordinal": ordinal,
        "type": kind,
        "payload": payload,
    })
    .to_string()
}

fn meta(mode: &str) -> Value {
    json!({
        "id": THREAD, "timestamp": "2026-09-02T21:58:14.945Z", "cwd": "/projects",
        "originator": "codex-tui", "cli_version": "0.152.1", "source": "cli",
        "model_provider": "openai", "history_mode": mode,
    })
}

fn event(payload: Value) -> (&'static str, Value) {
    ("event_msg", payload)
}

/// A whole paginated turn: its start, context, the person's message, an answer, a command
/// Codex shows no item of (a complete transcript does), its end.
fn turn(n: usize, text: &str) -> Vec<(&'static str, Value)> {
    let turn_id = format!("turn-{n}");
    vec![
        event(json!({"type": "task_started", "turn_id": turn_id, "started_at": 1_788_386_303})),
        (
            "turn_context",
            json!({"turn_id": turn_id, "cwd": "/projects", "approval_policy": "never",
                   "sandbox_policy": {"type": "danger-full-access"}, "model": format!("model-{n}"),
                   "summary": "auto"}),
        ),
        event(
            json!({"type": "item_completed", "thread_id": THREAD, "turn_id": turn_id,
            "item": {"type": "UserMessage", "id": format!("user-{n}"),
                     "content": [{"type": "text", "text": text, "text_elements": []}]},
            "completed_at_ms": 1_788_386_304_393_i64}),
        ),
        event(
            json!({"type": "item_completed", "thread_id": THREAD, "turn_id": turn_id,
            "item": {"type": "AgentMessage", "id": format!("agent-{n}"),
                     "content": [{"type": "Text", "text": format!("answer {n}")}]},
            "completed_at_ms": 1_788_386_305_902_i64}),
        ),
        (
            "response_item",
            json!({"type": "function_call", "name": "shell_command", "call_id": format!("call-{n}"),
                   "arguments": json!({"command": format!("echo {n}")}).to_string()}),
        ),
        (
            "response_item",
            json!({"type": "function_call_output", "call_id": format!("call-{n}"),
                   "output": format!("Exit code: 0\nWall time: 0.1 seconds\nOutput:\n{n}\n")}),
        ),
        event(json!({"type": "task_complete", "turn_id": turn_id, "completed_at": 1_788_386_306})),
    ]
}

fn rollback(turns: u32) -> (&'static str, Value) {
    event(json!({"type": "thread_rolled_back", "num_turns": turns}))
}

fn write(
    dir: &Path,
    mode: &str,
    records: &[(&'static str, Value)],
) -> std::io::Result<std::path::PathBuf> {
    let path = dir.join(format!("rollout-2026-09-02T15-58-14-{THREAD}.jsonl"));
    let mut file = std::fs::File::create(&path)?;
    writeln!(file, "{}", line(0, "session_meta", meta(mode)))?;
    for (index, (kind, payload)) in records.iter().enumerate() {
        writeln!(file, "{}", line(index + 1, kind, payload.clone()))?;
    }
    Ok(path)
}

/// The thread built from the whole file, with its last `last` turns.
fn whole(path: &Path, last: usize) -> Result<BuiltThread, Box<dyn std::error::Error>> {
    whole_in_mode(path, last, TranscriptMode::Codex)
}

fn whole_in_mode(
    path: &Path,
    last: usize,
    mode: TranscriptMode,
) -> Result<BuiltThread, Box<dyn std::error::Error>> {
    let mut builder = ThreadBuilder::in_mode(mode);
    for item in load_rollout_items(path)?.contents.items() {
        builder.handle_rollout_item(item);
    }
    let mut built = builder.finish();
    built.keep_last_turns(last);
    Ok(built)
}

fn turns(count: usize) -> Vec<(&'static str, Value)> {
    (1..=count)
        .flat_map(|n| turn(n, &format!("question {n}")))
        .collect()
}

#[test]
fn the_last_turns_of_a_paginated_file_are_those_of_the_whole_file() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = write(dir.path(), "paginated", &turns(6))?;
    for last in 1..=4 {
        let complete = TranscriptMode::Complete;
        let from_end = last_turns_from_end(&path, last, complete)?.ok_or("not read from end")?;
        assert_eq!(
            from_end,
            whole_in_mode(&path, last, complete)?,
            "last {last}"
        );
        let commands = from_end.turns().iter().flat_map(|turn| &turn.items);
        assert_eq!(
            commands
                .filter(|item| item.item.kind() == "commandExecution")
                .count(),
            last
        );
        let from_end = last_turns_from_end(&path, last, TranscriptMode::Codex)?
            .ok_or("not read from the end")?;
        assert_eq!(from_end, whole(&path, last)?, "last {last}");
        let BuiltThread::Thread(thread) = &from_end else {
            return Err("no identity".into());
        };
        assert_eq!(thread.preview, "question 1");
        assert_eq!(thread.model.as_deref(), Some("model-6"));
    }
    // Six turns: the last five need the first as the page's spare turn, so the whole file.
    assert_eq!(last_turns_from_end(&path, 6, TranscriptMode::Codex)?, None);
    Ok(())
}

#[test]
fn rollbacks_in_the_page_read_further_back() -> TestResult {
    let dir = tempfile::tempdir()?;
    let mut records = turns(8);
    records.push(rollback(3));
    records.extend(turn(9, "after the rollback"));
    let path = write(dir.path(), "paginated", &records)?;
    // Shown: turns 1 to 5 and 9. The last turn's page holds turn 8 and the rollback of three
    // turns: the page is doubled until it holds what the rollback drops.
    for last in 1..=3 {
        let from_end = last_turns_from_end(&path, last, TranscriptMode::Codex)?
            .ok_or("not read from the end")?;
        assert_eq!(from_end, whole(&path, last)?, "last {last}");
    }
    // Doubling the page from five turns reaches the file's start.
    assert_eq!(last_turns_from_end(&path, 4, TranscriptMode::Codex)?, None);
    Ok(())
}

#[test]
fn a_rolled_back_first_turn_still_previews_the_thread() -> TestResult {
    let dir = tempfile::tempdir()?;
    let mut records = turns(1);
    records.push(rollback(1));
    records.extend((2..=5).flat_map(|n| turn(n, &format!("question {n}"))));
    let path = write(dir.path(), "paginated", &records)?;
    let from_end =
        last_turns_from_end(&path, 2, TranscriptMode::Codex)?.ok_or("not read from the end")?;
    assert_eq!(from_end, whole(&path, 2)?);
    let BuiltThread::Thread(thread) = from_end else {
        return Err("no identity".into());
    };
    assert_eq!(thread.preview, "question 1");
    Ok(())
}

#[test]
fn records_numbered_by_position_send_the_reader_to_the_whole_file() -> TestResult {
    let dir = tempfile::tempdir()?;
    let mut records = turns(5);
    // A legacy message without an id: its `item-<n>` counts every minted id before it.
    records.insert(
        records.len() - 1,
        event(json!({"type": "agent_message", "message": "late words"})),
    );
    let path = write(dir.path(), "paginated", &records)?;
    assert_eq!(last_turns_from_end(&path, 1, TranscriptMode::Codex)?, None);
    Ok(())
}

#[test]
fn legacy_and_compressed_files_are_not_read_from_the_end() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = write(dir.path(), "legacy", &turns(5))?;
    assert_eq!(last_turns_from_end(&path, 1, TranscriptMode::Codex)?, None);
    let compressed = dir.path().join("rollout.jsonl.zst");
    std::fs::copy(&path, &compressed)?;
    assert_eq!(
        last_turns_from_end(&compressed, 1, TranscriptMode::Codex)?,
        None
    );
    Ok(())
}
