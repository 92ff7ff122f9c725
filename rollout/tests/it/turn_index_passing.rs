//! The turn index built by a reader that passes over lines by their type tags
//! ([`StreamedTurnIndex::may_pass_over`], reading a line whole when
//! [`StreamedTurnIndex::reads_next_item`]) equals the index of a reader that parses every
//! line: the same rule and the same turns, rolled-back ones marked, their positions (line
//! numbers for the fast reader) naming the same items. On every real file, on generated
//! files (compactions, rollbacks before and after them, images, repeated metas, torn lines)
//! and on crafted lines where a passed-over line falls between a message item and its event.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::print_stderr)]

use crate::generate::{Shape, real_lines, streamed_equivalence_shapes, write_rollout};
use codex_rollout::{RolloutStream, StreamedTurnIndex, TurnRecords, UserTurn};
use codex_test_support::real_jsonl_files;
use pretty_assertions::assert_eq;

/// The index of every line parsed, its positions turned into the items' line numbers.
fn full_index(bytes: &[u8]) -> (TurnRecords, Vec<UserTurn>) {
    let mut index = StreamedTurnIndex::default();
    let mut item_lines = Vec::new();
    RolloutStream::new(bytes)
        .unwrap()
        .for_each_line(|line| {
            if let Some(format) = line.format() {
                index.note_format(format);
            }
            if let Some(rollout_line) = line.line() {
                index.push(&rollout_line.item);
                item_lines.push(line.number);
            }
        })
        .unwrap();
    let (records, turns) = index.finish();
    let line_of = |item: usize| item_lines[item];
    let turns = turns
        .into_iter()
        .map(|turn| UserTurn {
            event: turn.event.map(line_of),
            message: turn.message.map(line_of),
            start: line_of(turn.start),
            rolled_back: turn.rolled_back,
        })
        .collect();
    (records, turns)
}

/// The index of the lines the turn index cannot pass over, numbered by line, and how many
/// lines it passed over.
fn fast_index(bytes: &[u8]) -> ((TurnRecords, Vec<UserTurn>), usize) {
    let mut index = StreamedTurnIndex::default();
    let mut passed_over = 0;
    RolloutStream::new(bytes)
        .unwrap()
        .for_each_line_parallel_where(
            |raw| !StreamedTurnIndex::may_pass_over(raw),
            |mut line| {
                if line.passed_over() && index.reads_next_item() {
                    line.read_in_full();
                }
                passed_over += usize::from(line.passed_over());
                if let Some(format) = line.format() {
                    index.note_format(format);
                }
                if let Some(rollout_line) = line.line() {
                    index.push_at(line.number, &rollout_line.item);
                }
            },
        )
        .unwrap();
    (index.finish(), passed_over)
}

/// Checks `bytes` and says how many lines were passed over.
fn agree(name: &str, bytes: &[u8]) -> usize {
    let (fast, passed_over) = fast_index(bytes);
    assert_eq!(fast, full_index(bytes), "{name}");
    passed_over
}

#[test]
fn passing_over_lines_keeps_the_index_on_real_files() {
    let Some(files) = real_jsonl_files().unwrap() else {
        return;
    };
    let mut passed_over = 0;
    let mut turns = 0;
    for file in &files {
        let mut bytes = Vec::new();
        let mut stream = RolloutStream::open(file).unwrap();
        while let Some(line) = stream.next_line().unwrap() {
            bytes.extend_from_slice(line.raw);
            if line.terminated {
                bytes.push(b'\n');
            }
        }
        passed_over += agree(&file.display().to_string(), &bytes);
        turns += full_index(&bytes).1.len();
    }
    eprintln!(
        "{} real files: {passed_over} lines passed over, {turns} turns",
        files.len()
    );
    assert!(
        passed_over > 0 && turns > 0,
        "the real files exercise nothing"
    );
}

#[test]
fn passing_over_lines_keeps_the_index_on_generated_files() {
    let Some(lines) = real_lines() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut shapes = streamed_equivalence_shapes().to_vec();
    shapes.push(Shape {
        bytes: 4 << 20,
        compactions: vec![0.4, 0.97],
        rollbacks: vec![(0.2, 1), (0.6, 3), (0.99, 1), (0.995, 1)],
        torn_last_line: true,
        ..Shape::default()
    });
    for (number, shape) in shapes.iter().enumerate() {
        let path = dir.path().join(format!("generated-{number}.jsonl"));
        write_rollout(&path, &lines, shape).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let passed_over = agree(&path.display().to_string(), &bytes);
        let all = bytes.split(|byte| *byte == b'\n').count();
        assert!(
            passed_over * 3 > all,
            "{passed_over} of {all} lines passed over"
        );
    }
}

const MESSAGE: &str = r#"{"timestamp":"2025-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#;
const EVENT: &str = r#"{"timestamp":"2025-01-01T00:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"hi","kind":"plain"}}"#;
const REASONING: &str = r#"{"timestamp":"2025-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"reasoning","summary":[],"content":null,"encrypted_content":"x"}}"#;
const AGENT: &str = r#"{"timestamp":"2025-01-01T00:00:02.000Z","type":"event_msg","payload":{"type":"agent_message","message":"ok"}}"#;
const TORN: &str = r#"{"timestamp":"2025-01-01T00:00:02.000Z","type":"event_msg","payload":{"type":"agent_message","mess"#;

#[test]
fn a_line_passed_over_between_a_message_and_its_event_is_read() {
    let cases: [&[&str]; 5] = [
        &[MESSAGE, EVENT, REASONING, AGENT],
        &[MESSAGE, AGENT, EVENT],
        &[MESSAGE, TORN, EVENT, AGENT],
        &[MESSAGE, REASONING, EVENT, MESSAGE, TORN, AGENT, EVENT],
        &[AGENT, TORN, MESSAGE, TORN, TORN, EVENT, TORN],
    ];
    for lines in cases {
        let text = lines.join("\n") + "\n";
        let (fast, _) = fast_index(text.as_bytes());
        let full = full_index(text.as_bytes());
        assert_eq!(fast, full, "{lines:#?}");
        assert!(!full.1.is_empty(), "{lines:#?}");
    }
}
