//! The builder hands parts on as soon as nothing later changes them; what it builds must be
//! what it builds when it keeps every part to the end (the whole transcript in memory). And
//! the two passes that pass over the lines they do not need build what two passes reading
//! every line build, on every real file and on generated files with compactions, rollback
//! markers before and after the last one, and a torn last line.

use codex_protocol::rollout::RolloutItem;
use codex_rollout::RolloutStream;

#[path = "../../../../../rollout/benches/support/generate.rs"]
mod generate;

use super::super::Transcript;
use super::super::index::{FileIndex, IndexScan};
use super::{Part, TranscriptBuilder};
use crate::streamed::{LineTest, every_line};

type Failure = Box<dyn std::error::Error>;

/// The index `export`'s first pass makes of `bytes`, parsing the lines `reads` accepts.
fn index_of(bytes: &[u8], reads: LineTest) -> std::io::Result<FileIndex> {
    let mut scan = IndexScan::new();
    RolloutStream::new(bytes)?.for_each_line_parallel_where(reads, |mut line| {
        scan.push_line(&mut line);
    })?;
    Ok(scan.finish())
}

/// One line as the build pass sees it: its number, its item when read, its bytes.
struct Line {
    number: usize,
    item: Option<RolloutItem>,
    passed_over: bool,
    raw: Vec<u8>,
}

/// The lines of `bytes`, parsing those `reads` accepts.
fn lines_of(bytes: &[u8], reads: impl Fn(&[u8]) -> bool + Sync) -> std::io::Result<Vec<Line>> {
    let mut lines = Vec::new();
    RolloutStream::new(bytes)?.for_each_line_parallel_where(reads, |line| {
        let (number, passed_over, raw) = (line.number, line.passed_over(), line.raw.to_vec());
        lines.push(Line {
            number,
            passed_over,
            raw,
            item: line.into_line().map(|line| line.item),
        });
    })?;
    Ok(lines)
}

/// The parts of `lines` under `index`, and the most parts held at once.
fn parts(lines: &[Line], index: &FileIndex) -> (Vec<Part>, usize) {
    let mut builder = TranscriptBuilder::new(index);
    let mut parts = Vec::new();
    let mut most_open = 0;
    for line in lines {
        match &line.item {
            Some(item) => builder.push(line.number, item, &line.raw),
            None if line.passed_over => builder.pass(line.number, &line.raw),
            None => continue,
        }
        most_open = most_open.max(builder.open.len());
        parts.extend(builder.take_ready());
    }
    builder.finish();
    parts.extend(builder.take_ready());
    (parts, most_open)
}

#[test]
fn parts_handed_on_early_are_the_parts_of_the_whole_transcript() -> Result<(), Failure> {
    let Some(files) = codex_test_support::real_jsonl_files()? else {
        return Ok(());
    };
    assert!(!files.is_empty());
    let mut held_back = 0;
    for file in &files {
        let bytes = std::fs::read(file)?;
        let index = index_of(&bytes, every_line)?;
        let lines = lines_of(&bytes, every_line)?;
        let (streamed, most_open) = parts(&lines, &index);
        let mut whole = index.clone();
        whole.holds = vec![usize::MAX; whole.holds.len()];
        let (kept, _) = parts(&lines, &whole);
        assert_eq!(streamed, kept, "{}", file.display());
        assert_eq!(streamed.len(), index.turns.len() + 1, "{}", file.display());
        held_back = held_back.max(most_open);
    }
    // Codex's own files answer each call within its turn: at most the turn before is held.
    assert!(held_back <= 3, "{held_back} parts held at once");
    Ok(())
}

/// The header and parts of `bytes` when the index pass parses the lines `index_reads`
/// accepts and the build pass those `build_reads` accepts.
fn built(
    bytes: &[u8],
    index_reads: LineTest,
    build_reads: LineTest,
) -> Result<(Transcript, Vec<Part>), Failure> {
    let index = index_of(bytes, index_reads)?;
    let lines = lines_of(bytes, |raw| !index_reads(raw) || build_reads(raw))?;
    let (parts, _) = parts(&lines, &index);
    Ok((index.head, parts))
}

#[test]
fn passing_over_what_each_pass_ignores_builds_the_same_transcript() -> Result<(), Failure> {
    let Some(files) = codex_test_support::real_jsonl_files()? else {
        return Ok(());
    };
    let mut passed_over = 0;
    for file in &files {
        let bytes = std::fs::read(file)?;
        let read_all = built(&bytes, every_line, every_line)?;
        let passing = built(&bytes, IndexScan::reads, TranscriptBuilder::reads)?;
        assert_eq!(passing, read_all, "{}", file.display());
        passed_over += bytes
            .split(|&byte| byte == b'\n')
            .filter(|raw| !IndexScan::reads(raw) || !TranscriptBuilder::reads(raw))
            .count();
    }
    assert!(passed_over > 1000, "only {passed_over} lines passed over");
    // Generated files of real lines with compactions, rollback markers before and after the
    // last one, and a torn last line.
    let Some(lines) = generate::real_lines() else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    for (index, shape) in generate::streamed_equivalence_shapes().iter().enumerate() {
        let path = dir.path().join(format!("generated-{index}.jsonl"));
        generate::write_rollout(&path, &lines, shape)?;
        let bytes = std::fs::read(&path)?;
        let read_all = built(&bytes, every_line, every_line)?;
        let passing = built(&bytes, IndexScan::reads, TranscriptBuilder::reads)?;
        assert!(
            read_all.0.rolled_back_turns > 0,
            "generated-{index} rolls nothing back"
        );
        assert_eq!(passing, read_all, "generated-{index}");
    }
    Ok(())
}
