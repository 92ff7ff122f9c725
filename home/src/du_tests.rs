//! (Test code: a failed setup step panics with its error.)
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::time::Duration;

use pretty_assertions::assert_eq;

use super::*;

/// A data URL long enough that the lines holding it are compared across files.
fn image() -> String {
    format!("data:image/png;base64,iVBORw0KGgo{}", "A".repeat(600))
}
const PARENT: &str = "019f4efb-ae76-7e30-b44e-3fa464c16193";
const CHILD: &str = "019f4efd-0137-7790-9622-c175e1415048";

fn meta(id: &str) -> String {
    format!(
        r#"{{"timestamp":"2026-07-11T10:23:56.000Z","type":"session_meta","payload":{{"id":"{id}","timestamp":"2026-07-11T10:23:56.000Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.144.0","base_instructions":{{"text":"be brief"}}}}}}"#
    )
}

fn lines() -> Vec<String> {
    let image = image();
    vec![
        meta(CHILD),
        format!(
            r#"{{"timestamp":"2026-07-11T10:23:57.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_image","image_url":"{image}"}}]}}}}"#
        ),
        r#"{"timestamp":"2026-07-11T10:23:58.000Z","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"gAAAAABencrypted"}}"#.to_string(),
        format!(
            r#"{{"timestamp":"2026-07-11T10:23:59.000Z","type":"response_item","payload":{{"type":"function_call_output","call_id":"c1","output":[{{"type":"input_image","image_url":"{image}"}}]}}}}"#
        ),
        format!(
            r#"{{"timestamp":"2026-07-11T10:24:00.000Z","type":"compacted","payload":{{"message":"","replacement_history":[{{"type":"message","role":"user","content":[{{"type":"input_image","image_url":"{image}"}}]}}]}}}}"#
        ),
        r#"{"timestamp":"2026-07-11T10:24:01.000Z","type":"event_msg","payload":{"type":"agent_message","message":"done"}}"#.to_string(),
        "not json".to_string(),
    ]
}

fn write(dir: &std::path::Path, name: &str, lines: &[String]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    path
}

fn quoted(text: &str) -> u64 {
    text.len() as u64 + 2
}

#[test]
fn every_byte_is_counted_once_under_its_kind() {
    let dir = tempfile::tempdir().unwrap();
    let lines = lines();
    let path = write(dir.path(), "a.jsonl", &lines);
    let usage = measure_file(&path, &DuOptions::default());
    let len = |i: usize| lines[i].len() as u64 + 1;
    assert_eq!(usage.error, None);
    assert_eq!(usage.decoded_bytes, std::fs::metadata(&path).unwrap().len());
    assert_eq!(usage.bytes.total(), usage.decoded_bytes);
    assert_eq!(usage.lines, 7);
    assert_eq!(usage.problem_lines, 1);
    assert_eq!(usage.bytes.get(ByteKind::Images), 3 * quoted(&image()));
    assert_eq!(
        usage.bytes.get(ByteKind::Encrypted),
        quoted("gAAAAABencrypted")
    );
    assert_eq!(usage.bytes.get(ByteKind::MetaAndInstructions), len(0));
    assert_eq!(
        usage.bytes.get(ByteKind::Conversation),
        len(1) + len(2) - quoted(&image()) - quoted("gAAAAABencrypted")
    );
    assert_eq!(
        usage.bytes.get(ByteKind::ToolOutputs),
        len(3) - quoted(&image())
    );
    assert_eq!(
        usage.bytes.get(ByteKind::Compacted),
        len(4) - quoted(&image())
    );
    assert_eq!(usage.bytes.get(ByteKind::Events), len(5));
    assert_eq!(usage.bytes.get(ByteKind::Other), len(6));
    assert_eq!(usage.images.count, 3);
    assert_eq!(
        usage.images.bytes.get(ImagePlace::Message),
        quoted(&image())
    );
    assert_eq!(
        usage.images.bytes.get(ImagePlace::ToolOutput),
        quoted(&image())
    );
    assert_eq!(
        usage.images.bytes.get(ImagePlace::Compacted),
        quoted(&image())
    );
    // The same image three times: two copies are duplicates.
    assert_eq!(usage.images.duplicate_count, 2);
    assert_eq!(usage.images.duplicate_bytes, 2 * quoted(&image()));
    assert_eq!(usage.day.as_deref(), Some("2026-07-11"));
    assert_eq!(usage.copied_prefix_bytes, 0);
}

#[test]
fn a_replayed_parent_prefix_and_lines_identical_to_an_earlier_file_are_copied() {
    let dir = tempfile::tempdir().unwrap();
    let own = lines();
    let parent = write(dir.path(), "parent.jsonl", &own);
    // A sub-agent child: its own meta, the parent's replayed meta and items, then its own
    // turn (a v7 turn id minted after the child).
    let mut child_lines = vec![meta(CHILD), meta(PARENT)];
    child_lines.extend(own[1..6].iter().cloned());
    child_lines.push(
        r#"{"timestamp":"2026-07-11T10:25:00.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"019f4efe-0000-7000-8000-000000000000"}}"#
            .to_string(),
    );
    let child = write(dir.path(), "child.jsonl", &child_lines);
    // A copied fork: another meta, then the parent's lines byte for byte.
    let mut fork_lines = vec![meta("019f4eff-0000-7000-8000-000000000000")];
    fork_lines.extend(own[1..].iter().cloned());
    let fork = write(dir.path(), "fork.jsonl", &fork_lines);

    let (files, report) = measure_files(&[parent, child, fork], &DuOptions::default(), &|_| {});
    let copied: u64 = child_lines[1..7].iter().map(|l| l.len() as u64 + 1).sum();
    assert_eq!(files[0].copied_prefix_bytes, 0);
    assert_eq!(files[1].copied_prefix_bytes, copied);
    assert_eq!(
        files[1].copied_from.map(|id| id.to_string()).as_deref(),
        Some(PARENT)
    );
    // The fork's long lines (the image lines are over the threshold) equal the parent's.
    let long: u64 = own[1..]
        .iter()
        .filter(|l| l.len() + 1 >= MIN_SHARED_LINE)
        .map(|l| l.len() as u64 + 1)
        .sum();
    assert!(long > 0);
    assert_eq!(files[2].identical_line_bytes, long);
    assert_eq!(files[0].identical_line_bytes, 0);
    assert_eq!(report.copied_prefix_bytes, copied);
    assert_eq!(report.identical_line_bytes, long);
    // One image in the whole run; every other copy is a duplicate.
    assert_eq!(report.distinct_images, 1);
    assert_eq!(report.images.duplicate_count, report.images.count - 1);
    assert_eq!(report.decoded_bytes, report.bytes.total());
    assert_eq!(report.files, 3);
    assert_eq!(report.largest.len(), 3);
    assert!(report.largest[0].disk_bytes >= report.largest[1].disk_bytes);
}

#[test]
fn a_compressed_file_is_measured_by_its_content_and_the_estimate_is_the_encoders() {
    let dir = tempfile::tempdir().unwrap();
    let lines = lines();
    let plain = write(
        dir.path(),
        "rollout-2026-07-11T10-23-56-019f4efd-0137-7790-9622-c175e1415048.jsonl",
        &lines,
    );
    let bytes = std::fs::read(&plain).unwrap();
    let packed = dir.path().join("packed.jsonl.zst");
    std::fs::write(&packed, zstd::encode_all(bytes.as_slice(), 3).unwrap()).unwrap();
    let options = DuOptions {
        estimate_compression: true,
        compress: CompressOptions {
            older_than: Duration::ZERO,
            lock_home: Some(codex_rollout::CodexHome::new(dir.path())),
            ..CompressOptions::default()
        },
    };
    let (files, report) = measure_files(&[plain, packed], &options, &|_| {});
    assert_eq!(files[1].compression, "zstd");
    assert_eq!(files[1].bytes, files[0].bytes);
    assert_eq!(
        files[1].compress.skip_reason,
        Some(SkipReason::AlreadyCompressed)
    );
    assert!(files[0].compress.eligible);
    let mut encoder = options
        .compress
        .encoder
        .encoder(Vec::new(), Some(bytes.len() as u64))
        .unwrap();
    encoder.write_all(&bytes).unwrap();
    let want = encoder.finish().unwrap().len() as u64;
    assert_eq!(files[0].compress.estimated_bytes, Some(want));
    assert_eq!(report.compressible_files, 1);
    assert_eq!(report.estimated_saving(), Some(bytes.len() as u64 - want));
    assert_eq!(report.not_compressible.get("already_compressed"), Some(&1));
}

#[test]
fn an_unreadable_file_is_reported_and_counted_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (files, report) = measure_files(
        &[dir.path().join("missing.jsonl")],
        &DuOptions::default(),
        &|_| {},
    );
    assert!(files[0].error.is_some());
    assert_eq!(report.unreadable_files, 1);
    assert_eq!(report.decoded_bytes, 0);
}

use codex_rollout::SkipReason;
