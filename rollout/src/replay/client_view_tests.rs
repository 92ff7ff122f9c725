use codex_protocol::rollout::RolloutItem;
use codex_test_support::real_jsonl_files;
use pretty_assertions::assert_eq;

use super::*;
use crate::load::RolloutContents;
use crate::replay::client_view_items;
use crate::replay::tests::{THREAD, assistant_message, meta_line, user_message};
use crate::stream::RolloutStream;
use crate::turns::tests::line;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The client view of `bytes` read as a stream.
fn streamed(bytes: &[u8]) -> Result<Result<Vec<RolloutItem>, ViewRuleChanged>, std::io::Error> {
    let mut view = ClientView::streaming();
    let mut out = Vec::new();
    RolloutStream::new(bytes)?.for_each_line(|line| {
        if let Some(format) = line.format() {
            view.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            view.push(line.number, line.raw, &rollout_line.item, &mut |item| {
                out.push(item.clone());
            });
        }
    })?;
    Ok(view.finish(&mut |item| out.push(item.clone())).map(|_| out))
}

/// The view as the replay describes it: every item, each followed by the events the replay
/// rebuilt from it (what `client_view_items` was before it was made incremental).
fn replay_view(contents: &RolloutContents) -> Vec<RolloutItem> {
    use crate::replay::{EventOrigin, rebuilds_items, replay_rollout};
    if !rebuilds_items(TurnRecords::of(contents)) {
        return contents.items().to_vec();
    }
    let mut rebuilt = replay_rollout(contents)
        .events
        .into_iter()
        .filter(|event| event.origin == EventOrigin::Rebuilt)
        .peekable();
    let mut out = Vec::new();
    for (index, item) in contents.items().iter().enumerate() {
        out.push(item.clone());
        while let Some(event) = rebuilt.next_if(|event| event.item_index == index) {
            out.push(RolloutItem::EventMsg(event.msg));
        }
    }
    out
}

fn check_equal(bytes: &[u8], name: &str) -> TestResult {
    let contents = RolloutContents::parse(bytes.to_vec());
    let whole = client_view_items(&contents).into_owned();
    assert_eq!(
        whole,
        replay_view(&contents),
        "{name}: whole file vs replay"
    );
    let streamed = streamed(bytes)?.map_err(|err| format!("{name}: {err}"))?;
    assert_eq!(streamed, whole, "{name}");
    Ok(())
}

fn rebuilt_count(items: &[RolloutItem]) -> usize {
    items
        .iter()
        .filter(|item| {
            matches!(
                item,
                RolloutItem::EventMsg(EventMsg::ItemStarted(_) | EventMsg::ItemCompleted(_))
            )
        })
        .count()
}

#[test]
fn every_real_file_streams_to_its_whole_file_client_view() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    assert!(!files.is_empty());
    for path in files {
        check_equal(&std::fs::read(&path)?, &path.display().to_string())?;
    }
    Ok(())
}

#[test]
fn a_file_without_turn_records_streams_its_rebuilt_items() -> TestResult {
    let lines = [
        meta_line(),
        line("response_item", &user_message("context before any turn")),
        line("event_msg", r#"{"type":"task_started","turn_id":"turn-1"}"#),
        line("response_item", &user_message("typed")),
        line("response_item", &assistant_message("answer")),
        line(
            "event_msg",
            r#"{"type":"task_complete","turn_id":"turn-1","last_agent_message":"answer"}"#,
        ),
    ];
    let bytes = lines.join("\n").into_bytes();
    check_equal(&bytes, "no records")?;
    let view = streamed(&bytes)?.map_err(|err| err.to_string())?;
    // The message and the answer, each as a started/completed pair; the context is not shown.
    assert_eq!(rebuilt_count(&view), 4);
    Ok(())
}

#[test]
fn a_pre_envelope_file_streams_its_rebuilt_items() -> TestResult {
    let text = [
        format!(
            r#"{{"id":"{THREAD}","timestamp":"2025-09-01T10:00:00.000Z","instructions":null}}"#
        ),
        r#"{"record_type":"state"}"#.to_string(),
        user_message("hi"),
        assistant_message("hello"),
        user_message("again"),
    ]
    .join("\n");
    let contents = RolloutContents::parse(text.clone().into_bytes());
    assert!(contents.has_legacy_lines());
    check_equal(text.as_bytes(), "pre-envelope")?;
    let view = streamed(text.as_bytes())?.map_err(|err| err.to_string())?;
    assert_eq!(rebuilt_count(&view), 6);
    Ok(())
}

#[test]
fn records_within_the_first_items_decide_and_later_ones_are_reported() -> TestResult {
    let event = line("event_msg", r#"{"type":"user_message","message":"typed"}"#);
    let filler = line("response_item", &assistant_message("filler"));
    let opening = [
        meta_line(),
        line("event_msg", r#"{"type":"task_started","turn_id":"turn-1"}"#),
    ];
    // A record just inside the window: the view is the file's own items.
    let mut early: Vec<String> = opening.to_vec();
    early.extend(std::iter::repeat_n(filler.clone(), DECIDING_ITEMS - 3));
    early.push(event.clone());
    early.extend(std::iter::repeat_n(filler.clone(), 10));
    check_equal(early.join("\n").as_bytes(), "record inside the window")?;
    // The first record after the window: the stream says its view was built by another rule.
    let mut late: Vec<String> = opening.to_vec();
    late.extend(std::iter::repeat_n(filler, DECIDING_ITEMS + 5));
    late.push(event);
    let result = streamed(late.join("\n").as_bytes())?;
    assert_eq!(
        result.err(),
        Some(ViewRuleChanged {
            committed: TurnRecords::BoundaryItemsInTurns,
            file: TurnRecords::UserMessageEvents,
        })
    );
    Ok(())
}
