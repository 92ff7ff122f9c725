use pretty_assertions::assert_eq;

use codex_protocol::rollout::{RolloutItem, parse_rollout_line};

use super::*;

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

fn count(total: i64) -> RolloutItem {
    let usage = format!(
        r#"{{"input_tokens":{total},"cached_input_tokens":0,"output_tokens":0,"reasoning_output_tokens":0,"total_tokens":{total}}}"#
    );
    item(
        "event_msg",
        &format!(
            r#"{{"type":"token_count","info":{{"total_token_usage":{usage},"last_token_usage":{usage},"model_context_window":1000}},"rate_limits":null}}"#
        ),
    )
}

/// Turns 5 and 6 of a thread, as a page read from the middle of its file holds them.
fn page() -> Vec<RolloutItem> {
    vec![
        item("event_msg", r#"{"type":"task_started","turn_id":"t5"}"#),
        count(1000),
        item("event_msg", r#"{"type":"task_complete","turn_id":"t5"}"#),
        item("event_msg", r#"{"type":"task_started","turn_id":"t6"}"#),
        count(1300),
    ]
}

#[test]
fn items_read_mid_thread_leave_the_first_turns_tokens_unknown() {
    let mut whole = ThreadFacts::new();
    let mut mid = ThreadFacts::mid_thread();
    for item in page() {
        whole.handle(&item);
        mid.handle(&item);
    }
    // From the thread's start, the running total before turn 5 is 0.
    assert_eq!(
        whole.turn_tokens("t5").map(|tokens| tokens.input),
        Some(1000)
    );
    // From its middle, turn 5's total includes the turns before it: not its own.
    assert_eq!(mid.turn_tokens("t5"), None);
    assert_eq!(mid.turn_tokens("t6").map(|tokens| tokens.input), Some(300));
    assert_eq!(mid.total_tokens().map(|tokens| tokens.input), Some(1300));
}
