use codex_core::parse_turn_item;
use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::RolloutItem;
use codex_test_support::{REAL_FIXTURES, real_jsonl_files};
use pretty_assertions::assert_eq;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cli/sample/session.jsonl");
pub(super) const THREAD: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a99";

pub(super) fn meta_line() -> String {
    format!(
        r#"{{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{{"id":"{THREAD}","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/w","originator":"test","cli_version":"0.1.0"}}}}"#
    )
}

fn line(time: &str, kind: &str, payload: &str) -> String {
    format!(r#"{{"timestamp":"{time}","type":"{kind}","payload":{payload}}}"#)
}

pub(super) fn user_message(text: &str) -> String {
    format!(
        r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}"#
    )
}

pub(super) fn assistant_message(text: &str) -> String {
    format!(
        r#"{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"{text}"}}]}}"#
    )
}

fn parse(lines: &[String]) -> Result<RolloutContents, Box<dyn std::error::Error>> {
    let contents = RolloutContents::parse(lines.join("\n").into_bytes());
    if !contents.problems().is_empty() {
        return Err(format!("test lines did not load: {:?}", contents.problems()).into());
    }
    Ok(contents)
}

/// The rebuilt pairs of `replay` as (item id, turn id, started_at_ms) per pair.
fn rebuilt_items(replay: &Replay) -> Vec<(String, String, i64)> {
    replay
        .events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ItemStarted(started) if event.origin == EventOrigin::Rebuilt => Some((
                started.item.id().to_string(),
                started.turn_id.clone(),
                started.started_at_ms,
            )),
            _ => None,
        })
        .collect()
}

/// What must hold of any replay: recorded events pass through in order, rebuilt events come
/// as started/completed pairs of one item, exactly for the items core would have sent.
fn check_replay(contents: &RolloutContents, replay: &Replay) -> TestResult {
    let recorded: Vec<&EventMsg> = contents
        .items()
        .iter()
        .filter_map(|item| match item {
            RolloutItem::EventMsg(msg) => Some(msg),
            _ => None,
        })
        .collect();
    let replayed: Vec<&EventMsg> = replay
        .events
        .iter()
        .filter(|event| event.origin == EventOrigin::Recorded)
        .map(|event| &event.msg)
        .collect();
    assert_eq!(
        replayed, recorded,
        "recorded events must pass through in order"
    );
    assert_eq!(
        &replay_rollout(contents),
        replay,
        "replays are reproducible"
    );
    if let Some(id) = contents.thread_id() {
        assert_eq!(replay.thread_id, id);
    }

    // Core sends a pair for every item `parse_turn_item` projects; a person's message is
    // one only where the turn index has a user turn (else it is injected context), and a turn
    // whose message item the file lost gets its pair from its event. Paginated files record
    // their items themselves.
    let records = TurnRecords::of(contents);
    let turns = all_user_turns_in_rollout(contents.items(), records);
    let expected_pairs = if records == TurnRecords::CompletedUserMessages {
        0
    } else {
        let projected = contents
            .items()
            .iter()
            .enumerate()
            .filter(|(index, item)| match item {
                RolloutItem::ResponseItem(response) => match parse_turn_item(response) {
                    Some(TurnItem::UserMessage(_)) => {
                        turns.iter().any(|turn| turn.message == Some(*index))
                    }
                    Some(_) => true,
                    None => false,
                },
                _ => false,
            })
            .count();
        let event_only = turns
            .iter()
            .filter(|turn| turn.message.is_none() && turn.event.is_some())
            .count();
        projected + event_only
    };

    let mut pairs = 0;
    let mut events = replay.events.iter().peekable();
    let mut last_index = 0;
    while let Some(event) = events.next() {
        if event.item_index < last_index {
            return Err(
                format!("event of item {} after item {last_index}", event.item_index).into(),
            );
        }
        last_index = event.item_index;
        if event.origin == EventOrigin::Recorded {
            continue;
        }
        let (EventMsg::ItemStarted(started), Some(next)) = (&event.msg, events.next()) else {
            return Err(format!("rebuilt event without its pair: {:?}", event.msg).into());
        };
        let EventMsg::ItemCompleted(completed) = &next.msg else {
            return Err(format!(
                "item_started not followed by item_completed: {:?}",
                next.msg
            )
            .into());
        };
        assert_eq!(next.item_index, event.item_index);
        if next.origin == EventOrigin::Recorded {
            // A recorded completion, announced by the start no file keeps: the item as it
            // started.
            assert_eq!(started.item, completed.item.as_started());
            assert_eq!(
                Some(started.started_at_ms),
                completed.started_at_ms.or(Some(completed.completed_at_ms))
            );
            continue;
        }
        assert_eq!(started.item, completed.item);
        assert_eq!(started.turn_id, completed.turn_id);
        assert_eq!(started.thread_id, replay.thread_id.to_string());
        assert_eq!(completed.started_at_ms, Some(started.started_at_ms));
        assert_eq!(completed.completed_at_ms, started.started_at_ms);
        if started.item.id().is_empty() {
            return Err(format!("rebuilt item without an id: {:?}", started.item).into());
        }
        pairs += 1;
    }
    assert_eq!(
        pairs, expected_pairs,
        "one rebuilt pair per client-visible item"
    );
    Ok(())
}

#[test]
fn rebuilds_item_pairs_with_stable_ids_turns_and_line_times() -> TestResult {
    let contents = parse(&[
        meta_line(),
        line(
            "2025-06-02T09:00:01.000Z",
            "event_msg",
            r#"{"type":"task_started","turn_id":"turn-1"}"#,
        ),
        line(
            "2025-06-02T09:00:02.500Z",
            "response_item",
            &user_message("hi"),
        ),
        line(
            "2025-06-02T09:00:03.000Z",
            "response_item",
            r#"{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}"#,
        ),
        line(
            "2025-06-02T09:00:04.000Z",
            "response_item",
            r#"{"type":"message","id":"msg_9","role":"assistant","content":[{"type":"output_text","text":"hello"}]}"#,
        ),
        line(
            "2025-06-02T09:00:05.000Z",
            "event_msg",
            r#"{"type":"task_complete","turn_id":"turn-1","last_agent_message":"hello"}"#,
        ),
    ])?;
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    assert_eq!(replay.thread_id.to_string(), THREAD);
    assert_eq!(
        rebuilt_items(&replay),
        vec![
            (
                "line-3".to_string(),
                "turn-1".to_string(),
                1_748_854_802_500
            ),
            ("msg_9".to_string(), "turn-1".to_string(), 1_748_854_804_000),
        ]
    );
    let kinds: Vec<&str> = replay
        .events
        .iter()
        .map(|event| match &event.msg {
            EventMsg::TurnStarted(_) => "task_started",
            EventMsg::ItemStarted(_) => "item_started",
            EventMsg::ItemCompleted(_) => "item_completed",
            EventMsg::TurnComplete(_) => "task_complete",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "task_started",
            "item_started",
            "item_completed",
            "item_started",
            "item_completed",
            "task_complete"
        ]
    );
    Ok(())
}

#[test]
fn recorded_turn_ids_win_and_items_outside_turns_get_none() -> TestResult {
    let tagged = r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}],"internal_chat_message_metadata_passthrough":{"turn_id":"turn-9"}}"#;
    let contents = parse(&[
        meta_line(),
        line(
            "2025-06-02T09:00:01.000Z",
            "response_item",
            &assistant_message("before"),
        ),
        line(
            "2025-06-02T09:00:02.000Z",
            "event_msg",
            r#"{"type":"task_started","turn_id":"turn-1"}"#,
        ),
        line("2025-06-02T09:00:03.000Z", "response_item", tagged),
        line(
            "2025-06-02T09:00:04.000Z",
            "event_msg",
            r#"{"type":"turn_aborted","turn_id":"turn-1","reason":"interrupted"}"#,
        ),
        line(
            "2025-06-02T09:00:05.000Z",
            "response_item",
            &assistant_message("after"),
        ),
    ])?;
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    let turns: Vec<String> = rebuilt_items(&replay)
        .into_iter()
        .map(|(_, turn, _)| turn)
        .collect();
    assert_eq!(turns, ["", "turn-9", ""]);
    Ok(())
}

#[test]
fn agent_messages_recorded_without_an_id_are_named_by_their_line() -> TestResult {
    let contents = parse(&[
        meta_line(),
        line(
            "2025-06-02T09:00:01.000Z",
            "response_item",
            r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}]}"#,
        ),
        line(
            "2025-06-02T09:00:02.000Z",
            "response_item",
            r#"{"type":"message","id":"","role":"assistant","content":[{"type":"output_text","text":"b"}]}"#,
        ),
    ])?;
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    let ids: Vec<String> = rebuilt_items(&replay)
        .into_iter()
        .map(|(id, _, _)| id)
        .collect();
    assert_eq!(ids, ["line-2", "line-3"]);
    Ok(())
}

#[test]
fn recorded_item_events_are_not_rebuilt() -> TestResult {
    let contents = parse(&[
        meta_line(),
        line(
            "2025-06-02T09:00:01.000Z",
            "response_item",
            &user_message("hi"),
        ),
        line(
            "2025-06-02T09:00:01.000Z",
            "event_msg",
            &format!(
                r#"{{"type":"item_completed","thread_id":"{THREAD}","turn_id":"t","item":{{"type":"UserMessage","id":"u1","content":[]}},"completed_at_ms":5}}"#
            ),
        ),
    ])?;
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    // The recorded completion, announced by its start (which no file keeps); the message
    // item is not rebuilt a second time.
    let origins: Vec<EventOrigin> = replay.events.iter().map(|event| event.origin).collect();
    assert_eq!(origins, [EventOrigin::Rebuilt, EventOrigin::Recorded]);
    let messages = replay.into_messages();
    assert!(matches!(
        &messages[0],
        EventMsg::ItemStarted(started) if started.started_at_ms == 5
    ));
    Ok(())
}

#[test]
fn clock_carries_over_lines_without_a_readable_time() -> TestResult {
    let contents = parse(&[
        meta_line(),
        line("not a time", "response_item", &assistant_message("hi")),
        line(
            "later",
            "event_msg",
            r#"{"type":"task_started","turn_id":"turn-1"}"#,
        ),
    ])?;
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    let meta_ms = 1_748_854_800_000;
    let clocks: Vec<Option<i64>> = replay.events.iter().map(|event| event.at_ms).collect();
    assert_eq!(clocks, [Some(meta_ms); 3]);
    // The rebuilt item has no time of its own: 0, as old records without one read.
    assert_eq!(rebuilt_items(&replay)[0].2, 0);
    Ok(())
}

#[test]
fn file_without_session_meta_replays_under_the_nil_thread() -> TestResult {
    let contents = parse(&[line(
        "2025-06-02T09:00:01.000Z",
        "response_item",
        &user_message("hi"),
    )])?;
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    assert!(replay.thread_id.as_uuid().is_nil());
    Ok(())
}

#[test]
fn bundled_sample_replays_every_event_in_order() -> TestResult {
    let contents = RolloutContents::parse(std::fs::read(SAMPLE)?);
    assert!(contents.problems().is_empty());
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    let rebuilt = rebuilt_items(&replay);
    assert!(!rebuilt.is_empty(), "the sample records no item events");
    // Every client-visible item of the sample belongs to a turn.
    assert!(
        rebuilt
            .iter()
            .all(|(_, turn, at)| !turn.is_empty() && *at > 0)
    );
    let user_messages = replay
        .events
        .iter()
        .filter(|event| {
            matches!(&event.msg, EventMsg::ItemStarted(started)
                if matches!(started.item, TurnItem::UserMessage(_)))
        })
        .count();
    assert!(user_messages >= 5, "5 turns, each opened by a user message");
    Ok(())
}

#[test]
fn real_files_replay_their_events_and_rebuild_item_pairs() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    assert!(
        !files.is_empty(),
        "no real fixture files in {REAL_FIXTURES}"
    );
    for path in files {
        let contents = RolloutContents::parse(std::fs::read(&path)?);
        let replay = replay_rollout(&contents);
        check_replay(&contents, &replay).map_err(|err| format!("{}: {err}", path.display()))?;
    }
    Ok(())
}

#[test]
fn only_the_turn_indexs_messages_are_shown_and_a_lost_item_comes_from_its_event() -> TestResult {
    let contents = parse(&[
        meta_line(),
        line(
            "2025-06-02T09:00:01.000Z",
            "event_msg",
            r#"{"type":"task_started","turn_id":"turn-1"}"#,
        ),
        // Context that redaction made look typed: no event follows it.
        line(
            "2025-06-02T09:00:01.500Z",
            "response_item",
            &user_message("[redacted]"),
        ),
        line(
            "2025-06-02T09:00:01.600Z",
            "response_item",
            &assistant_message("working"),
        ),
        line(
            "2025-06-02T09:00:02.000Z",
            "response_item",
            &user_message("typed"),
        ),
        line(
            "2025-06-02T09:00:02.000Z",
            "event_msg",
            r#"{"type":"user_message","message":"typed"}"#,
        ),
        // A turn whose message item its author removed.
        line(
            "2025-06-02T09:00:03.000Z",
            "event_msg",
            r#"{"type":"user_message","message":"lost","images":["data:image/png;base64,AA=="]}"#,
        ),
    ])?;
    let replay = replay_rollout(&contents);
    check_replay(&contents, &replay)?;
    let users: Vec<Vec<UserInput>> = replay
        .events
        .iter()
        .filter_map(|event| match &event.msg {
            EventMsg::ItemCompleted(done) => match &done.item {
                TurnItem::UserMessage(message) => Some(message.content.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(users.len(), 2, "{users:?}");
    assert!(matches!(&users[0][..], [UserInput::Text { text, .. }] if text == "typed"));
    assert!(matches!(
        &users[1][..],
        [UserInput::Text { text, .. }, UserInput::Image { .. }] if text == "lost"
    ));
    Ok(())
}

/// The time a replay reads off a line's bytes: what the full parse of the line's
/// `timestamp` gives (the reference the fast path must equal).
fn parsed_line_time_ms(raw: &[u8]) -> Option<i64> {
    let value: serde_json::Value = serde_json::from_slice(raw).ok()?;
    let at = chrono::DateTime::parse_from_rfc3339(value.get("timestamp")?.as_str()?).ok()?;
    Some(at.timestamp_millis())
}

#[test]
fn line_time_read_off_the_prefix_equals_the_parse() -> TestResult {
    let lines = [
        line("2025-06-02T09:00:00.123Z", "event_msg", r#"{"type":"x"}"#),
        line("2025-06-02T11:00:00+02:00", "event_msg", r#"{"type":"x"}"#),
        line("not a time", "event_msg", r#"{"type":"x"}"#),
        r#"{"timestamp":"2025-06-02T09:00:00\u002e5Z","type":"event_msg","payload":{}}"#
            .to_string(),
        r#"{"type":"event_msg","timestamp":"2025-06-02T09:00:01.000Z","payload":{}}"#.to_string(),
        r#"{"timestamp":null,"type":"event_msg","payload":{}}"#.to_string(),
        r#"{"type":"event_msg","payload":{}}"#.to_string(),
    ];
    for line in &lines {
        assert_eq!(
            raw_line_time_ms(line.as_bytes()),
            parsed_line_time_ms(line.as_bytes()),
            "{line}"
        );
    }
    assert_eq!(
        raw_line_time_ms(lines[0].as_bytes()),
        Some(1_748_854_800_123)
    );
    assert_eq!(
        raw_line_time_ms(lines[3].as_bytes()),
        Some(1_748_854_800_500)
    );
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    for path in files {
        let bytes = std::fs::read(&path)?;
        for raw in bytes.split(|byte| *byte == b'\n') {
            if serde_json::from_slice::<serde_json::Value>(raw).is_ok() {
                assert_eq!(
                    raw_line_time_ms(raw),
                    parsed_line_time_ms(raw),
                    "{}",
                    path.display()
                );
            }
        }
    }
    Ok(())
}
