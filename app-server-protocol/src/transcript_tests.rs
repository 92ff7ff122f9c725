use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;
use crate::v2::{ThreadItem, Turn, TurnItemsView, TurnStatus};

fn item(value: Value) -> ThreadItem {
    match serde_json::from_value(value) {
        Ok(item) => item,
        Err(error) => panic!("bad test item: {error}"),
    }
}

fn user(id: &str, text: &str) -> ThreadItem {
    item(json!({"type": "userMessage", "id": id, "clientId": null,
        "content": [{"type": "text", "text": text, "text_elements": []}]}))
}

fn agent(id: &str, text: &str) -> ThreadItem {
    item(json!({"type": "agentMessage", "id": id, "text": text}))
}

fn command(id: &str, status: &str, exit: Option<i32>, output: Option<&str>) -> ThreadItem {
    item(
        json!({"type": "commandExecution", "id": id, "pluginId": null, "scriptPath": null,
        "command": "echo hi", "cwd": "/w", "processId": null, "status": status,
        "commandActions": [], "aggregatedOutput": output, "exitCode": exit,
        "durationMs": exit.map(|_| 12)}),
    )
}

fn turn(id: &str, status: TurnStatus, items: Vec<ThreadItem>) -> Turn {
    let mut turn = Turn::in_progress(id, Some(100));
    turn.items_view = TurnItemsView::Full;
    turn.status = status;
    if status != TurnStatus::InProgress {
        turn.completed_at = Some(103);
    }
    turn.items = items.into_iter().map(Into::into).collect();
    turn
}

/// One line per cell: `kind item-id status`, live cells marked `~`, then the status line.
#[track_caller]
fn check(transcript: &Transcript, expect: &[&str]) {
    let mut got: Vec<String> = Vec::new();
    for cell in transcript.history().iter().chain(transcript.live()) {
        let mark = if cell.live { "~" } else { "" };
        let what = match &cell.body {
            CellBody::User { text, .. } => format!("user {text}"),
            CellBody::Agent { markdown } => format!("agent {markdown}"),
            CellBody::Command {
                status, exit_code, ..
            } => format!("command {} {status} {exit_code:?}", cell.item_id),
            CellBody::TurnEnd {
                status,
                tokens,
                duration_ms,
                ..
            } => format!(
                "end {} {status:?} {duration_ms:?} {:?}",
                cell.turn_id,
                tokens.map(|tokens| tokens.output)
            ),
            CellBody::Marker { text } => format!("marker {text}"),
            other => format!("{other:?}"),
        };
        got.push(format!("{mark}{what}"));
    }
    got.push(format!("status {:?}", transcript.status().turn));
    assert_eq!(got, expect);
}

#[test]
fn replay_puts_every_item_in_history_and_ends_each_closed_turn() {
    let turns = vec![turn(
        "t1",
        TurnStatus::Completed,
        vec![
            user("u1", "hi"),
            command("c1", "completed", Some(0), Some("hi\n")),
            agent("a1", "done"),
        ],
    )];
    check(
        &Transcript::replay(&turns, &ThreadFacts::new()),
        &[
            "user hi",
            "command c1 completed Some(0)",
            "agent done",
            "end t1 Completed Some(3000) None",
            "status Idle",
        ],
    );
}

#[test]
fn replay_shows_no_live_state_for_a_turn_left_open() {
    let turns = vec![turn(
        "t1",
        TurnStatus::InProgress,
        vec![user("u1", "go"), command("c1", "inProgress", None, None)],
    )];
    check(
        &Transcript::replay(&turns, &ThreadFacts::new()),
        &[
            "user go",
            "command c1 no result None",
            "status LeftOpen { turn_id: \"t1\" }",
        ],
    );
}

#[test]
fn a_closed_turn_flushes_its_running_items_with_its_status() {
    let turns = vec![turn(
        "t1",
        TurnStatus::Interrupted,
        vec![user("u1", "go"), command("c1", "inProgress", None, None)],
    )];
    let mut transcript = Transcript::new(None);
    transcript.sync(&turns, &ThreadFacts::new());
    check(
        &transcript,
        &[
            "user go",
            "command c1 interrupted None",
            "end t1 Interrupted Some(3000) None",
            "status Idle",
        ],
    );
}

#[test]
fn following_moves_items_from_the_live_tail_into_history() {
    let mut transcript = Transcript::new(None);
    let facts = ThreadFacts::new();
    let running = vec![turn(
        "t1",
        TurnStatus::InProgress,
        vec![
            user("u1", "go"),
            command("c1", "inProgress", None, Some("par")),
        ],
    )];
    let change = transcript.sync(&running, &facts);
    assert_eq!(
        change,
        SyncChange {
            kept: 0,
            history: 1
        }
    );
    check(
        &transcript,
        &[
            "user go",
            "~command c1 running None",
            "status Running { turn_id: \"t1\", live_items: 1 }",
        ],
    );
    let completed_item = vec![turn(
        "t1",
        TurnStatus::InProgress,
        vec![
            user("u1", "go"),
            command("c1", "completed", Some(0), Some("partial\n")),
        ],
    )];
    let change = transcript.sync(&completed_item, &facts);
    assert_eq!(
        change,
        SyncChange {
            kept: 1,
            history: 2
        }
    );
    check(
        &transcript,
        &[
            "user go",
            "command c1 completed Some(0)",
            "status Running { turn_id: \"t1\", live_items: 0 }",
        ],
    );
    let mut done = completed_item.clone();
    done[0].status = TurnStatus::Completed;
    done[0].completed_at = Some(103);
    done[0].items.push(agent("a1", "ok").into());
    let change = transcript.sync(&done, &facts);
    assert_eq!(
        change,
        SyncChange {
            kept: 2,
            history: 4
        }
    );
    check(
        &transcript,
        &[
            "user go",
            "command c1 completed Some(0)",
            "agent ok",
            "end t1 Completed Some(3000) None",
            "status Idle",
        ],
    );
    // The followed file, finished, replays to the same history.
    assert_eq!(
        Transcript::replay(&done, &facts).history(),
        transcript.history()
    );
}

fn notification(method: &str, params: Value) -> crate::ServerNotification {
    match serde_json::from_value(json!({"method": method, "params": params})) {
        Ok(notification) => notification,
        Err(error) => panic!("bad test notification {method}: {error}"),
    }
}

fn turn_json(status: &str) -> Value {
    json!({"id": "t1", "rootTurnId": null, "items": [], "itemsView": "notLoaded",
        "status": status, "error": null, "startedAt": 100,
        "completedAt": if status == "inProgress" { Value::Null } else { json!(104) },
        "durationMs": if status == "inProgress" { Value::Null } else { json!(4000) }})
}

#[test]
fn notifications_stream_into_a_live_cell_that_merges_at_completion() {
    let mut transcript = Transcript::new(Some("gpt-test".to_owned()));
    transcript.apply(&notification(
        "turn/started",
        json!({"threadId": "th", "turn": turn_json("inProgress")}),
    ));
    let started = serde_json::to_value(command("c1", "inProgress", None, None)).unwrap_or_default();
    transcript.apply(&notification(
        "item/started",
        json!({"threadId": "th", "turnId": "t1", "item": started, "startedAtMs": 1}),
    ));
    transcript.apply(&notification(
        "item/commandExecution/outputDelta",
        json!({"threadId": "th", "turnId": "t1", "itemId": "c1", "delta": "line 1\n"}),
    ));
    let [live] = transcript.live() else {
        panic!("one live cell expected: {:?}", transcript.live());
    };
    assert!(matches!(&live.body, CellBody::Command { output, .. } if output == "line 1\n"));
    let done = serde_json::to_value(command("c1", "completed", Some(0), Some("line 1\n")))
        .unwrap_or_default();
    transcript.apply(&notification(
        "item/completed",
        json!({"threadId": "th", "turnId": "t1", "item": done, "completedAtMs": 2}),
    ));
    transcript.apply(&notification(
        "thread/tokenUsage/updated",
        json!({"threadId": "th", "turnId": "t1", "tokenUsage": {
            "total": {"totalTokens": 15, "inputTokens": 10, "cachedInputTokens": 0,
                "outputTokens": 5, "reasoningOutputTokens": 0},
            "last": {"totalTokens": 15, "inputTokens": 10, "cachedInputTokens": 0,
                "outputTokens": 5, "reasoningOutputTokens": 0},
            "modelContextWindow": null}}),
    ));
    check(
        &transcript,
        &[
            "command c1 completed Some(0)",
            "status Running { turn_id: \"t1\", live_items: 0 }",
        ],
    );
    transcript.apply(&notification(
        "turn/completed",
        json!({"threadId": "th", "turn": turn_json("completed")}),
    ));
    check(
        &transcript,
        &[
            "command c1 completed Some(0)",
            "end t1 Completed Some(4000) Some(5)",
            "status Idle",
        ],
    );
    assert_eq!(transcript.status().model.as_deref(), Some("gpt-test"));
}

#[test]
fn images_are_labelled_with_their_decoded_size() {
    let data = "A".repeat(4096);
    assert_eq!(
        image_label(&format!("data:image/png;base64,{data}")),
        "[image png 3.0 KiB]"
    );
    assert_eq!(image_label("https://x/y.png"), "[image https://x/y.png]");
}

#[test]
fn long_output_and_reasoning_start_folded() {
    let short = cell_for_item("t", &command("c", "completed", Some(0), Some("a\nb\n")));
    let long = cell_for_item(
        "t",
        &command(
            "c",
            "completed",
            Some(0),
            Some(&"x\n".repeat(OUTPUT_FOLD_LINES + 1)),
        ),
    );
    let reasoning = cell_for_item(
        "t",
        &item(json!({"type": "reasoning", "id": "r", "summary": ["why"], "content": []})),
    );
    assert!(!short.folded_by_default());
    assert!(long.folded_by_default());
    assert!(reasoning.folded_by_default());
}

#[test]
fn facts_count_tokens_per_turn_and_place_rollbacks() {
    let lines = [
        r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/w","approval_policy":"never","sandbox_policy":{"type":"read-only"},"model":"gpt-5","summary":"auto"}}"#,
        r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}"#,
        r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10,"cached_input_tokens":2,"output_tokens":3,"reasoning_output_tokens":0,"total_tokens":13},"last_token_usage":{"input_tokens":10,"cached_input_tokens":2,"output_tokens":3,"reasoning_output_tokens":0,"total_tokens":13},"model_context_window":null},"rate_limits":null}}"#,
        r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}"#,
        r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}"#,
    ];
    let mut facts = ThreadFacts::new();
    for line in lines {
        let parsed = codex_protocol::rollout::parse_rollout_line(line.as_bytes())
            .ok()
            .and_then(|parsed| parsed.into_line());
        let Some(parsed) = parsed else {
            panic!("bad test line {line}");
        };
        facts.handle(&parsed.item);
    }
    assert_eq!(facts.model(), Some("gpt-5"));
    assert_eq!(
        facts.turn_tokens("t1"),
        Some(TurnTokens {
            input: 10,
            cached_input: 2,
            output: 3
        })
    );
    assert_eq!(facts.rollback_before("t2"), Some(1));
    assert_eq!(facts.trailing_rollback(), None);
}
