use pretty_assertions::assert_eq;

use codex_protocol::rollout::{RolloutItem, parse_rollout_line};

use crate::ThreadHistoryBuilder;
use crate::transcript::{CellBody, ThreadFacts, Transcript, TurnState};

fn item(kind: &str, payload: &str) -> RolloutItem {
    let line = format!(
        r#"{{"timestamp":"2025-01-02T03:04:05.000Z","type":"{kind}","payload":{payload}}}"#
    );
    match parse_rollout_line(line.as_bytes())
        .ok()
        .and_then(|parsed| parsed.into_line())
    {
        Some(line) => line.item,
        None => panic!("not a rollout line: {line}"),
    }
}

/// The transcript of a file being written, read up to `items`.
fn followed(items: &[RolloutItem]) -> (Transcript, Transcript) {
    let mut builder = ThreadHistoryBuilder::new();
    let mut facts = ThreadFacts::new();
    for item in items {
        builder.handle_rollout_item(item);
        facts.handle(item);
    }
    let turns = builder.finish();
    let mut live = Transcript::new(None);
    live.sync(&turns, &facts);
    (live, Transcript::replay(&turns, &facts))
}

/// What Codex 0.169 writes while a command runs: the call, nothing else
/// (`cli/tests/it/real_codex_view_running.rs`).
#[test]
fn a_call_without_output_in_the_running_turn_is_a_live_command() {
    let mut items = vec![
        item(
            "session_meta",
            r#"{"id":"0199a213-81c0-7800-8aa1-bbab2a035a53","timestamp":"2025-01-02T03:04:05.000Z","cwd":"/w","originator":"t","cli_version":"0.169.0"}"#,
        ),
        item("event_msg", r#"{"type":"task_started","turn_id":"t1"}"#),
        item("event_msg", r#"{"type":"user_message","message":"run it"}"#),
        item(
            "response_item",
            r#"{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"sleep 8; echo slow-done\",\"workdir\":\"/w\"}","call_id":"call_slow"}"#,
        ),
        item(
            "response_item",
            r#"{"type":"function_call","name":"view_image","arguments":"{\"path\":\"a.png\"}","call_id":"call_img"}"#,
        ),
    ];
    let (live, replay) = followed(&items);
    let running: Vec<(String, String)> = live
        .live()
        .iter()
        .map(|cell| match &cell.body {
            CellBody::Command {
                command,
                status,
                cwd,
                ..
            } => (format!("$ {command} ({cwd})"), status.to_string()),
            CellBody::Tool { title, status, .. } => (title.clone(), status.to_string()),
            other => (format!("{other:?}"), String::new()),
        })
        .collect();
    assert_eq!(
        running,
        [
            (
                "$ bash -lc 'sleep 8; echo slow-done' (/w)".to_string(),
                "running".to_string()
            ),
            ("view_image".to_string(), "running".to_string()),
        ]
    );
    assert!(matches!(
        live.status().turn,
        TurnState::Running { live_items: 2, .. }
    ));
    // A replay of the same bytes shows nothing live.
    assert!(replay.live().is_empty());
    // The output answers the call: it is no longer running.
    items.push(item(
        "response_item",
        r#"{"type":"function_call_output","call_id":"call_slow","output":"slow-done"}"#,
    ));
    let (live, _) = followed(&items);
    assert_eq!(live.live().len(), 1);
    // The turn's end: nothing is live.
    items.push(item(
        "event_msg",
        r#"{"type":"task_complete","turn_id":"t1"}"#,
    ));
    let (live, _) = followed(&items);
    assert!(live.live().is_empty());
}
