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
    assert_eq!(loaded.thread_id, id);
    assert_eq!(
        kinds(loaded.contents.problems()),
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
    assert_eq!(loaded.contents.items().len(), 5);
    assert!(loaded.contents.items()[2].is_unknown());
    assert_eq!(loaded.contents.line_count(), 10);
    Ok(())
}

#[test]
fn raw_lines_are_the_original_bytes() -> TestResult {
    let meta = meta_line(ThreadId::new())?;
    // Key order and spacing the typed model would not reproduce, and a CRLF terminator.
    let odd = r#"{"type":"event_msg", "timestamp":"t","payload":{"type":"thread_rolled_back","num_turns":1}}"#;
    let text = format!("{meta}\n{odd}\r\n");
    let loaded = load_rollout_bytes(text.into_bytes(), "mem.jsonl")?;
    assert!(
        loaded.contents.problems().is_empty(),
        "{:?}",
        loaded.contents.problems()
    );
    let entries = loaded.contents.entries();
    assert_eq!(entries.len(), 2);
    assert_eq!(loaded.contents.raw_line(&entries[0]), meta.as_bytes());
    assert_eq!(
        loaded.contents.raw_line(&entries[1]),
        format!("{odd}\r").as_bytes()
    );
    assert_eq!(
        loaded.contents.items()[1],
        RolloutItem::EventMsg(EventMsg::ThreadRolledBack(ThreadRolledBackEvent {
            num_turns: 1
        }))
    );
    assert_eq!(
        loaded.contents.entry_of_item(1).map(|entry| entry.number),
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
    assert_eq!(loaded.thread_id, first);
    assert_eq!(loaded.contents.items().len(), 2);
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
    assert_eq!(loaded.thread_id, id);
    assert!(
        loaded.contents.problems().is_empty(),
        "{:?}",
        loaded.contents.problems()
    );
    assert!(loaded.contents.has_legacy_lines());
    assert_eq!(loaded.contents.entries().len(), 3);
    assert_eq!(loaded.contents.items().len(), 2);
    assert_eq!(
        loaded.contents.entries()[1].content,
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
    let loaded = LoadedRollout::from_contents("<stdin>", RolloutContents::read(text.as_bytes())?)?;
    assert_eq!(loaded.path, Path::new("<stdin>"));
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

/// A small session: meta, three messages, a torn last line.
fn session_text(id: ThreadId) -> Result<String, serde_json::Error> {
    let mut text = meta_line(id)?;
    for message in ["one", "two", "three"] {
        text.push('\n');
        text.push_str(&line(RolloutItem::ResponseItem(ResponseItem::user_text(
            message,
        )))?);
    }
    text.push_str("\n{\"timestamp\":\"t\",\"ty");
    Ok(text)
}

/// `text` split at `cuts`, each part compressed as a frame of its own.
fn zstd_frames(text: &[u8], cuts: &[usize]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in cuts.iter().copied().chain([text.len()]) {
        out.extend(zstd::encode_all(&text[start..end], 3)?);
        start = end;
    }
    Ok(out)
}

#[test]
fn compressed_files_load_exactly_as_plain_ones() -> TestResult {
    let text = session_text(ThreadId::new())?.into_bytes();
    let plain = load_rollout_bytes(text.clone(), "s.jsonl")?;
    let dir = tempfile::tempdir()?;
    // One frame, and frames cut mid-line and mid-character of JSON.
    for (index, cuts) in [vec![], vec![10, 200, 201]].into_iter().enumerate() {
        let compressed = zstd_frames(&text, &cuts)?;
        let path = dir.path().join(format!("s{index}.jsonl.zst"));
        std::fs::write(&path, &compressed)?;
        for loaded in [
            load_rollout_bytes(compressed.clone(), "s.jsonl.zst")?,
            LoadedRollout::from_contents("<stdin>", RolloutContents::read(&compressed[..])?)?,
            load_rollout_items(&path)?,
        ] {
            assert_eq!(loaded.contents.bytes(), plain.contents.bytes());
            assert_eq!(loaded.contents.items(), plain.contents.items());
            assert_eq!(loaded.contents.problems(), plain.contents.problems());
            assert_eq!(loaded.contents.entries(), plain.contents.entries());
            assert_eq!(loaded.contents.damage(), None);
        }
    }
    assert_eq!(kinds(plain.contents.problems()), vec![(5, "truncated")]);
    Ok(())
}

#[test]
fn a_damaged_stream_is_an_error_that_keeps_the_complete_lines_before_it() -> TestResult {
    let id = ThreadId::new();
    let text = session_text(id)?.into_bytes();
    let newlines: Vec<usize> = memchr::memchr_iter(b'\n', &text).collect();
    // Three frames: line 1, the first 5 bytes of line 2, the rest of line 2 cut inside its
    // frame header. Line 1 and 5 bytes of line 2 are decoded; line 2 is the damage.
    let first = newlines[0] + 1;
    let mut compressed = zstd_frames(&text[..first + 5], &[first])?;
    let rest_of_line = zstd::encode_all(&text[first + 5..newlines[1] + 1], 3)?;
    compressed.extend_from_slice(&rest_of_line[..5]);
    let err = load_rollout_bytes(compressed, "/x/cut.jsonl.zst")
        .err()
        .ok_or("a damaged file must not load")?;
    let message = err.to_string();
    assert!(
        message.starts_with("rollout /x/cut.jsonl.zst is damaged: "),
        "{message}"
    );
    assert!(
        message.contains("(1 complete line(s) before the damage were read)"),
        "{message}"
    );
    let LoadError::Damaged {
        path,
        damage,
        partial,
    } = err
    else {
        return Err(format!("not a damage: {message}").into());
    };
    assert_eq!(path, Path::new("/x/cut.jsonl.zst"));
    assert_eq!(damage.decoded_bytes, first as u64 + 5);
    assert_eq!(partial.bytes(), &text[..first]);
    assert_eq!(partial.thread_id(), Some(id));
    assert_eq!(partial.line_count(), 1);
    assert_eq!(kinds(partial.problems()), vec![(2, "damaged")]);
    assert_eq!(partial.damage(), Some(&damage));
    let problem = partial.problems().first().ok_or("no problem")?;
    assert!(
        problem
            .to_string()
            .starts_with("line 2: damaged (skipped): the zstd stream is damaged after"),
        "{problem}"
    );
    assert!(
        problem
            .message
            .contains("the 5 byte(s) decoded of this line were dropped")
    );

    // Damage right after a complete line loses no part of a line; nothing decoded at all is
    // a damage too, not an empty file.
    let mut after_line = zstd_frames(&text[..first], &[])?;
    after_line.extend_from_slice(b"garbage");
    let contents = RolloutContents::parse(after_line);
    assert_eq!(contents.bytes(), &text[..first]);
    assert!(
        contents.problems()[0]
            .message
            .contains("the line that starts here is lost")
    );
    let cut_at_start = zstd_frames(&text, &[])?[..6].to_vec();
    assert!(matches!(
        load_rollout_bytes(cut_at_start, "x"),
        Err(LoadError::Damaged { partial, .. }) if partial.line_count() == 0
    ));
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
