//! A fork found from the end of the file and streamed (`fork_file_dropping_turns`) is the
//! fork of the loaded file (`fork_bytes` at `fork_point_dropping_turns`): the same lines,
//! byte for byte but the rewritten meta, the same counts; on every real file (read backwards
//! in small batches, so that small files take the backward path) and on generated files with
//! compactions, rollbacks and a torn last line.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::print_stderr)]

#[path = "../benches/support/generate.rs"]
mod generate;

use std::path::Path;

use codex_rollout::fork::{fork_bytes, fork_file_dropping_turns_in_batches};
use codex_rollout::load::load_rollout_items;
use codex_rollout::turns::{fork_point_dropping_turns, user_turns};
use codex_test_support::real_jsonl_files;
use generate::{Shape, real_lines, write_rollout};
use pretty_assertions::assert_eq;
use serde_json::Value;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The meta line without what a fork sets anew (its time).
fn meta_without_times(line: &[u8]) -> Result<Value, serde_json::Error> {
    let mut value: Value = serde_json::from_slice(line)?;
    if let Some(object) = value.as_object_mut() {
        object.remove("timestamp");
    }
    if let Some(payload) = value.get_mut("payload").and_then(Value::as_object_mut) {
        payload.remove("timestamp");
    }
    Ok(value)
}

fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
        .collect()
}

/// Forks `path` without each number of its last turns both ways; how many the backward path
/// took, and how many of those it decided before reaching the file's start.
fn check(
    path: &Path,
    scratch: &Path,
    first_batch: u64,
) -> Result<(usize, usize), Box<dyn std::error::Error>> {
    let Ok(source) = load_rollout_items(path) else {
        return Ok((0, 0));
    };
    let len = std::fs::metadata(path)?.len();
    let turns = user_turns(source.contents());
    let mut backward = 0;
    let mut from_a_suffix = 0;
    for drop in 1..=turns.len().min(4) {
        let out = scratch.join(format!("fork-{drop}.jsonl"));
        let _ = std::fs::remove_file(&out);
        let Some(streamed) = fork_file_dropping_turns_in_batches(path, drop, &out, first_batch)?
        else {
            continue;
        };
        backward += 1;
        from_a_suffix += usize::from(streamed.bytes_read_backwards < len);
        let point = fork_point_dropping_turns(&turns, drop)?;
        let (expected, summary) = fork_bytes(&source, point, streamed.forked.thread_id)?;
        let written = std::fs::read(&out)?;
        let (written, expected) = (lines(&written), lines(&expected));
        let name = format!("{} drop {drop}", path.display());
        assert_eq!(written.len(), expected.len(), "{name}: lines");
        for (number, (got, want)) in written.iter().zip(&expected).enumerate() {
            if got != want {
                assert_eq!(
                    meta_without_times(got)?,
                    meta_without_times(want)?,
                    "{name}: line {}",
                    number + 1
                );
            }
        }
        assert_eq!(streamed.forked.kept_items, summary.kept_items, "{name}");
        assert_eq!(
            streamed.forked.lines_written, summary.lines_written,
            "{name}"
        );
        assert_eq!(
            streamed.forked.skipped_problem_lines, summary.skipped_problem_lines,
            "{name}"
        );
        assert_eq!(streamed.forked.forked_from_id, source.thread_id(), "{name}");
        assert_eq!(
            streamed.kept_turns,
            turns.len() - drop,
            "{name}: kept turns"
        );
    }
    Ok((backward, from_a_suffix))
}

#[test]
fn every_real_file_forks_from_its_end_as_from_the_whole_file() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let scratch = tempfile::tempdir()?;
    let (mut backward, mut from_a_suffix) = (0, 0);
    for path in &files {
        for first_batch in [512, 4096, 1 << 20] {
            let (taken, early) = check(path, scratch.path(), first_batch)?;
            backward += taken;
            from_a_suffix += early;
        }
    }
    eprintln!("{backward} forks found from the end, {from_a_suffix} from a suffix alone");
    assert!(
        backward >= 20,
        "the backward path was taken {backward} times"
    );
    assert!(
        from_a_suffix >= 20,
        "a suffix decided {from_a_suffix} times"
    );
    Ok(())
}

#[test]
fn generated_files_fork_from_their_end_as_from_the_whole_file() -> TestResult {
    let Some(real) = real_lines() else {
        return Ok(());
    };
    let scratch = tempfile::tempdir()?;
    let shapes = [
        Shape {
            bytes: 3 << 20,
            compactions: vec![0.5, 0.95],
            ..Shape::default()
        },
        Shape {
            bytes: 3 << 20,
            compactions: vec![0.3],
            rollbacks: vec![(0.9, 2), (0.97, 1)],
            ..Shape::default()
        },
        Shape {
            bytes: 2 << 20,
            torn_last_line: true,
            ..Shape::default()
        },
    ];
    let mut from_a_suffix = 0;
    for (index, shape) in shapes.iter().enumerate() {
        let path = scratch.path().join(format!("generated-{index}.jsonl"));
        write_rollout(&path, &real, shape)?;
        from_a_suffix += check(&path, scratch.path(), 64 << 10)?.1;
        std::fs::remove_file(&path)?;
    }
    assert!(from_a_suffix >= 6, "a suffix decided {from_a_suffix} times");
    Ok(())
}
