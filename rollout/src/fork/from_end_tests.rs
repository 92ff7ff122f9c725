//! A fork streamed from the file (`fork_file_dropping_turns`: its cut found from the end, or
//! in one forward pass where the end cannot tell) is the fork of the loaded file
//! (`fork_bytes` at `fork_point_dropping_turns`), copied or by reference: the same
//! lines, byte for byte but the rewritten meta, the same counts and base; on every real file
//! (read backwards in small batches, so that small files take the backward path), on a zstd
//! copy of each (forward only), and on generated files with compactions, rollbacks and a
//! torn last line.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::print_stderr)]

use std::path::Path;

#[path = "../../benches/support/generate.rs"]
mod generate;

use generate::{Shape, real_lines, write_rollout};

use crate::fork::{fork_bytes, fork_file_dropping_turns_in_batches, fork_point_dropping_turns};
use crate::{ForkMode, load_rollout_items, user_turns};
use codex_test_support::real_jsonl_files;
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

/// How often the backward path was taken.
#[derive(Debug, Default)]
struct Taken {
    /// Forks the backward path wrote.
    backward: usize,
    /// Forks whose cut was found in one forward pass (the end could not tell).
    forward: usize,
    /// Of those, the ones a suffix decided before the file's start was read.
    from_a_suffix: usize,
    /// Forks by reference whose base names an ordinal (a paginated source).
    with_ordinal: usize,
}

/// Forks `path` without each number of its last turns both ways, copied and by reference,
/// and compares the forks.
fn check(
    path: &Path,
    scratch: &Path,
    first_batch: u64,
) -> Result<Taken, Box<dyn std::error::Error>> {
    let mut taken = Taken::default();
    let Ok(source) = load_rollout_items(path) else {
        return Ok(taken);
    };
    let len = std::fs::metadata(path)?.len();
    let turns = user_turns(&source.contents);
    for (drop, mode) in (1..=turns.len().min(4))
        .flat_map(|drop| [(drop, ForkMode::Copy), (drop, ForkMode::ByReference)])
    {
        let out = scratch.join(format!("fork-{drop}.jsonl"));
        let _ = std::fs::remove_file(&out);
        let streamed = fork_file_dropping_turns_in_batches(path, drop, &out, mode, first_batch)?;
        let backwards = streamed.bytes_read_backwards;
        taken.backward += usize::from(backwards > 0);
        taken.forward += usize::from(backwards == 0);
        taken.from_a_suffix += usize::from(backwards > 0 && backwards < len);
        taken.with_ordinal += usize::from(
            streamed
                .forked
                .history_base
                .as_ref()
                .is_some_and(|base| base.end_ordinal_exclusive.is_some()),
        );
        let point = fork_point_dropping_turns(&turns, drop)?;
        let (expected, summary) = fork_bytes(&source, point, streamed.forked.thread_id, mode)?;
        let written = std::fs::read(&out)?;
        let (written, expected) = (lines(&written), lines(&expected));
        let name = format!("{} drop {drop} {mode:?}", path.display());
        assert_eq!(
            streamed.forked.history_base, summary.history_base,
            "{name}: the base"
        );
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
        assert_eq!(streamed.forked.forked_from_id, source.thread_id, "{name}");
        assert_eq!(
            streamed.kept_turns,
            turns.len() - drop,
            "{name}: kept turns"
        );
    }
    Ok(taken)
}

#[test]
fn every_real_file_forks_from_its_end_as_from_the_whole_file() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let scratch = tempfile::tempdir()?;
    let (mut backward, mut forward, mut from_a_suffix, mut with_ordinal) = (0, 0, 0, 0);
    let mut compressed_forward = 0;
    for path in &files {
        for first_batch in [512, 4096, 1 << 20] {
            let taken = check(path, scratch.path(), first_batch)?;
            backward += taken.backward;
            forward += taken.forward;
            from_a_suffix += taken.from_a_suffix;
            with_ordinal += taken.with_ordinal;
        }
        let zst = scratch.path().join("copy.jsonl.zst");
        std::fs::write(&zst, zstd::encode_all(std::fs::read(path)?.as_slice(), 3)?)?;
        let taken = check(&zst, scratch.path(), 1 << 20)?;
        assert_eq!(
            taken.backward,
            0,
            "{}: a zstd file is read forwards",
            path.display()
        );
        compressed_forward += taken.forward;
    }
    eprintln!(
        "{forward} plain forks found forwards (their end could not tell), {compressed_forward} of zstd copies"
    );
    assert!(compressed_forward >= 20, "zstd forks: {compressed_forward}");
    eprintln!(
        "{backward} forks found from the end, {from_a_suffix} from a suffix alone, \
         {with_ordinal} by reference naming an ordinal"
    );
    assert!(
        with_ordinal >= 3,
        "paginated sources forked by reference: {with_ordinal}"
    );
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
        from_a_suffix += check(&path, scratch.path(), 64 << 10)?.from_a_suffix;
        std::fs::remove_file(&path)?;
    }
    assert!(from_a_suffix >= 6, "a suffix decided {from_a_suffix} times");
    Ok(())
}
