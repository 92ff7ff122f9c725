use codex_protocol::event::{EventMsg, ThreadRolledBackEvent};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, RolloutLine};
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;
use crate::recorder::new_session_meta;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn line(item: RolloutItem) -> Result<String, serde_json::Error> {
    RolloutLine::new("2025-01-01T00:00:00.000Z", item).to_json_line()
}

fn meta_line(id: ThreadId) -> Result<String, serde_json::Error> {
    line(RolloutItem::SessionMeta(Box::new(new_session_meta(
        id, "/tmp", "test",
    ))))
}

fn kinds(problems: &[LineProblem]) -> Vec<(usize, &'static str)> {
    problems
        .iter()
        .map(|problem| (problem.line, problem.kind.as_str()))
        .collect()
}

#[test]
fn bad_lines_are_reported_with_numbers_and_skipped() -> TestResult {
    let id = ThreadId::new();
    let text = [
        meta_line(id)?,
        String::new(),
        "not json".to_string(),
        line(RolloutItem::ResponseItem(ResponseItem::user_text("hi")))?,
        "[1,2]".to_string(),
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":7}}"#
            .to_string(),
        r#"{"timestamp":"t","type":"brand_new_line","payload":{"a":1}}"#.to_string(),
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"brand_new_event"}}"#.to_string(),
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"ghost_snapshot"}}"#
            .to_string(),
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"user_mess"#.to_string(),
    ]
    .join("\n");
    let loaded = load_rollout_bytes(text.into_bytes(), "mem.jsonl")?;
    assert_eq!(loaded.thread_id(), id);
    assert_eq!(
        kinds(loaded.problems()),
        vec![
            (2, "blank"),
            (3, "malformed"),
            (5, "malformed"),
            (6, "mismatch"),
            (7, "unknown_line_type"),
            (8, "unknown_payload_type"),
            (10, "truncated"),
        ]
    );
    // Meta, user message, the unknown line, unknown event, ghost snapshot.
    assert_eq!(loaded.items().len(), 5);
    assert!(loaded.items()[2].is_unknown());
    assert_eq!(loaded.contents().line_count(), 10);
    Ok(())
}

#[test]
fn raw_lines_are_the_original_bytes() -> TestResult {
    let meta = meta_line(ThreadId::new())?;
    // Key order and spacing the typed model would not reproduce, and a CRLF terminator.
    let odd = r#"{"type":"event_msg", "timestamp":"t","payload":{"type":"thread_rolled_back","num_turns":1}}"#;
    let text = format!("{meta}\n{odd}\r\n");
    let loaded = load_rollout_bytes(text.into_bytes(), "mem.jsonl")?;
    assert!(loaded.problems().is_empty(), "{:?}", loaded.problems());
    let entries = loaded.contents().entries();
    assert_eq!(entries.len(), 2);
    assert_eq!(loaded.raw_line(&entries[0]), meta.as_bytes());
    assert_eq!(loaded.raw_line(&entries[1]), format!("{odd}\r").as_bytes());
    assert_eq!(
        loaded.items()[1],
        RolloutItem::EventMsg(EventMsg::ThreadRolledBack(ThreadRolledBackEvent {
            num_turns: 1
        }))
    );
    assert_eq!(
        loaded.contents().entry_of_item(1).map(|entry| entry.number),
        Some(2)
    );
    Ok(())
}

#[test]
fn the_first_session_meta_names_the_thread() -> TestResult {
    let first = ThreadId::new();
    let copied = ThreadId::new();
    let text = format!("{}\n{}\n", meta_line(first)?, meta_line(copied)?);
    let loaded = load_rollout_bytes(text.into_bytes(), "mem.jsonl")?;
    assert_eq!(loaded.thread_id(), first);
    assert_eq!(loaded.items().len(), 2);
    Ok(())
}

#[test]
fn empty_and_meta_less_files_are_errors_naming_the_file() -> TestResult {
    for blank in ["", "\n\n  \n"] {
        let err = load_rollout_bytes(blank.as_bytes().to_vec(), "/x/empty.jsonl")
            .err()
            .ok_or("an empty file must not load")?;
        assert!(matches!(err, LoadError::Empty { .. }), "{err}");
        assert!(err.to_string().contains("/x/empty.jsonl"), "{err}");
    }
    let text = line(RolloutItem::ResponseItem(ResponseItem::user_text("hi")))?;
    let err = load_rollout_bytes(text.into_bytes(), "/x/no-meta.jsonl")
        .err()
        .ok_or("a file without meta must not load")?;
    assert!(
        matches!(err, LoadError::MissingSessionMeta { lines: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("/x/no-meta.jsonl"), "{err}");
    Ok(())
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let err = load_rollout_items("/definitely/not/here.jsonl").err();
    assert!(
        matches!(&err, Some(LoadError::Io { path, .. }) if path.ends_with("here.jsonl")),
        "{err:?}"
    );
}

#[test]
fn legacy_pre_envelope_file_loads() -> TestResult {
    let id = ThreadId::new();
    let text = format!(
        concat!(
            r#"{{"id":"{id}","timestamp":"2025-09-01T10:00:00.000Z","instructions":null,"git":null}}"#,
            "\n",
            r#"{{"record_type":"state"}}"#,
            "\n",
            r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"hi"}}]}}"#,
            "\n"
        ),
        id = id
    );
    let loaded = load_rollout_bytes(text.into_bytes(), "legacy.jsonl")?;
    assert_eq!(loaded.thread_id(), id);
    assert!(loaded.problems().is_empty(), "{:?}", loaded.problems());
    assert!(loaded.contents().has_legacy_lines());
    assert_eq!(loaded.contents().entries().len(), 3);
    assert_eq!(loaded.items().len(), 2);
    assert_eq!(
        loaded.contents().entries()[1].content,
        EntryContent::LegacyMarker
    );
    Ok(())
}

#[test]
fn reader_entry_and_initial_history() -> TestResult {
    let id = ThreadId::new();
    let text = format!(
        "{}\n{}\n",
        meta_line(id)?,
        line(RolloutItem::ResponseItem(ResponseItem::user_text("hi")))?
    );
    let loaded = load_rollout_from_reader(text.as_bytes(), "<stdin>")?;
    assert_eq!(loaded.path(), Path::new("<stdin>"));
    let InitialHistory::Resumed(resumed) = loaded.into_initial_history() else {
        return Err("expected a resumed history".into());
    };
    assert_eq!(resumed.conversation_id, id);
    assert_eq!(resumed.history.len(), 2);
    assert_eq!(resumed.rollout_path.as_deref(), Some(Path::new("<stdin>")));
    Ok(())
}

#[test]
fn reading_on_threads_gives_the_sequential_result() -> TestResult {
    let mut text = meta_line(ThreadId::new())?;
    for index in 0..50 {
        text.push('\n');
        match index % 5 {
            0 => text.push_str("garbage"),
            1 => {}
            2 => text.push_str(r#"{"record_type":"state"}"#),
            _ => text.push_str(&line(RolloutItem::ResponseItem(ResponseItem::user_text(
                format!("message {index}"),
            )))?),
        }
    }
    for terminated in [false, true] {
        let mut bytes = text.clone().into_bytes();
        if terminated {
            bytes.push(b'\n');
        }
        let sequential = RolloutContents::parse_with_threads(bytes.clone(), 1);
        for threads in 2..9 {
            let parallel = RolloutContents::parse_with_threads(bytes.clone(), threads);
            assert_eq!(parallel, sequential, "{threads} threads");
        }
        assert_eq!(sequential.line_count(), 51);
    }
    Ok(())
}

proptest::proptest! {
    #[test]
    fn line_ranges_follow_the_split_lines_rules(
        bytes in proptest::collection::vec(proptest::sample::select(b"ab\n\r".to_vec()), 0..64)
    ) {
        let ours: Vec<(usize, &[u8])> = lines::line_ranges(&bytes)
            .map(|(number, range)| (number, &bytes[range]))
            .collect();
        let protocol: Vec<(usize, &[u8])> = codex_protocol::rollout::split_lines(&bytes).collect();
        proptest::prop_assert_eq!(ours, protocol);
    }
}
