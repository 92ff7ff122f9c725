//! The `Thread` a session meta line describes: its session, project and sub-agent fields.

use codex_protocol::rollout::{RolloutItem, SessionMetaLine, parse_rollout_line};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const ROOT: &str = "019a93b9-f380-7600-98ff-940e6b99603c";
const CHILD: &str = "019a93b9-f380-7600-98ff-940e6b99603d";

/// The meta of a one-line session file whose `session_meta` payload is `payload`.
fn meta(payload: Value) -> Result<SessionMetaLine, Box<dyn std::error::Error>> {
    let line = json!({"timestamp": "2026-09-01T10:00:00.000Z", "type": "session_meta",
        "payload": payload});
    let parsed = parse_rollout_line(line.to_string().as_bytes())?;
    match parsed.item() {
        Some(RolloutItem::SessionMeta(meta)) => Ok(SessionMetaLine::clone(meta)),
        other => Err(format!("not a session meta: {other:?}").into()),
    }
}

#[test]
fn a_classic_meta_gives_its_own_id_as_session_and_no_project() -> TestResult {
    let thread = thread_from_session_meta(&meta(json!({
        "id": ROOT, "timestamp": "2026-09-01T10:00:00.000Z", "cwd": "/repo",
        "originator": "codex_cli_rs", "cli_version": "0.40.0"
    }))?);
    let json = serde_json::to_value(&thread)?;
    assert_eq!(json["sessionId"], json!(ROOT));
    assert_eq!(
        json["projectId"],
        Value::Null,
        "projectId is written as null"
    );
    for unknown in [
        "parentThreadId",
        "threadSource",
        "agentNickname",
        "agentRole",
    ] {
        assert_eq!(json[unknown], Value::Null, "{unknown} is null when unknown");
    }
    Ok(())
}

#[test]
fn a_sub_agent_meta_names_its_session_parent_and_role() -> TestResult {
    let thread = thread_from_session_meta(&meta(json!({
        "session_id": ROOT, "id": CHILD, "parent_thread_id": ROOT,
        "timestamp": "2026-09-01T10:00:00.000Z", "cwd": "/repo", "originator": "codex_cli_rs",
        "cli_version": "0.152.1", "source": {"subagent": {"thread_spawn": {
            "parent_thread_id": ROOT, "depth": 1, "agent_path": "/root/scout"}}},
        "thread_source": "subagent", "agent_nickname": "Scout", "agent_role": "explorer"
    }))?);
    assert_eq!(thread.id, CHILD);
    // Codex's state keeps no session for a thread it has not loaded: it shows the thread's
    // own id (checked against the real app-server in cli/tests/it/real_codex_thread.rs).
    assert_eq!(thread.session_id, CHILD);
    assert_eq!(thread.parent_thread_id.as_deref(), Some(ROOT));
    assert_eq!(thread.thread_source, Some(ThreadSource::Subagent));
    assert_eq!(thread.agent_nickname.as_deref(), Some("Scout"));
    assert_eq!(thread.agent_role.as_deref(), Some("explorer"));
    let json = serde_json::to_value(&thread)?;
    assert_eq!(json["threadSource"], json!("subagent"));
    Ok(())
}

#[test]
fn sub_agent_fields_fall_back_to_the_thread_spawn_source() -> TestResult {
    let thread = thread_from_session_meta(&meta(json!({
        "session_id": ROOT, "id": CHILD, "timestamp": "2026-09-01T10:00:00.000Z",
        "cwd": "/repo", "originator": "codex_cli_rs", "cli_version": "0.144.0",
        "source": {"subagent": {"thread_spawn": {"parent_thread_id": ROOT, "depth": 1,
            "agent_path": "/root/worker", "agent_nickname": "Worker", "agent_role": "coder"}}}
    }))?);
    assert_eq!(thread.parent_thread_id.as_deref(), Some(ROOT));
    assert_eq!(thread.agent_nickname.as_deref(), Some("Worker"));
    assert_eq!(thread.agent_role.as_deref(), Some("coder"));
    assert_eq!(thread.thread_source, None, "not inferred from the source");
    Ok(())
}

#[test]
fn thread_source_spellings_and_unknown_values() -> TestResult {
    for (wire, expected) in [
        ("user", Some(ThreadSource::User)),
        ("subagent", Some(ThreadSource::Subagent)),
        (
            "memory_consolidation",
            Some(ThreadSource::MemoryConsolidation),
        ),
        ("[redacted]", None),
    ] {
        assert_eq!(ThreadSource::from_wire(wire), expected, "{wire}");
        if let Some(source) = expected {
            assert_eq!(serde_json::to_value(source)?, json!(wire));
        }
    }
    Ok(())
}

/// The preview is the first user message recorded, as Codex's head reading finds it: a
/// rollback that drops its turn does not change it, and a completed `UserMessage` item (all a
/// paginated file records of a person's turn) counts as a `user_message` event does.
#[test]
fn the_preview_is_the_first_user_message_even_when_rolled_back() -> TestResult {
    let line = |payload: Value| -> Result<RolloutItem, Box<dyn std::error::Error>> {
        let line = json!({"timestamp": "2026-09-01T10:00:00.000Z", "type": "event_msg",
            "payload": payload});
        parse_rollout_line(line.to_string().as_bytes())?
            .into_line()
            .map(|line| line.item)
            .ok_or_else(|| "not an item".into())
    };
    let user = |turn: &str, text: &str| {
        line(
            json!({"type": "item_completed", "thread_id": ROOT, "turn_id": turn,
            "item": {"type": "UserMessage", "id": format!("u-{turn}"),
                     "content": [{"type": "text", "text": text, "text_elements": []}]},
            "completed_at_ms": 1}),
        )
    };
    let mut builder = ThreadBuilder::new();
    let items = [
        RolloutItem::SessionMeta(Box::new(meta(json!({
            "id": ROOT, "timestamp": "2026-09-01T10:00:00.000Z", "cwd": "/repo",
            "originator": "codex-tui", "cli_version": "0.158.0", "history_mode": "paginated"
        }))?)),
        line(json!({"type": "task_started", "turn_id": "t1"}))?,
        user("t1", "  ## My request for Codex:\n first words ")?,
        line(json!({"type": "task_complete", "turn_id": "t1"}))?,
        line(json!({"type": "thread_rolled_back", "num_turns": 1}))?,
        line(json!({"type": "task_started", "turn_id": "t2"}))?,
        user("t2", "second words")?,
        line(json!({"type": "task_complete", "turn_id": "t2"}))?,
    ];
    for item in &items {
        builder.handle_rollout_item(item);
    }
    assert_eq!(builder.preview(), Some("first words"));
    let BuiltThread::Thread(thread) = builder.finish() else {
        return Err("no thread".into());
    };
    assert_eq!(thread.preview, "first words");
    assert_eq!(thread.turns.len(), 1);
    Ok(())
}
