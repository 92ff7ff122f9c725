//! Every way of reading a rollout gives the answer of a plain forward load: the parallel
//! loader (any number of runs), the forward stream, and resume from the end (backwards for a
//! plain file, a forward stream keeping the live suffix for a compressed one), on every real
//! file and on generated files with compactions, rollbacks (one reaching back past a
//! compaction) and a torn last line.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::print_stderr)]

use std::path::{Path, PathBuf};

use crate::generate::{Shape, real_lines, write_rollout};
use codex_protocol::rollout::{RolloutItem, TurnContextItem};
use codex_rollout::RolloutContents;
use codex_rollout::RolloutStream;
use codex_rollout::resume_rollout_tail;
use codex_rollout::{ReconstructOptions, ReconstructedHistory, reconstruct_history_with};
use codex_test_support::real_jsonl_files;
use pretty_assertions::assert_eq;

/// What history and prompt take from a reconstruction.
#[derive(Debug, PartialEq)]
struct Answer {
    history: Vec<codex_protocol::models::ResponseItem>,
    previous_turn_settings: Option<codex_rollout::PreviousTurnSettings>,
    reference: Option<TurnContextItem>,
    window: codex_rollout::ContextWindow,
    token_info: Option<codex_protocol::event::TokenUsageInfo>,
    rollbacks_applied: usize,
    compactions_undone: usize,
    legacy_compaction: bool,
    newest_turn_context: Option<TurnContextItem>,
}

fn answer(items: &[RolloutItem]) -> Answer {
    let rebuilt = reconstruct_history_with(items, &ReconstructOptions::default());
    let newest_turn_context = items.iter().rev().find_map(|item| match item {
        RolloutItem::TurnContext(context) => Some(context.as_ref().clone()),
        _ => None,
    });
    answer_of(rebuilt, newest_turn_context)
}

fn answer_of(
    rebuilt: ReconstructedHistory,
    newest_turn_context: Option<TurnContextItem>,
) -> Answer {
    Answer {
        history: rebuilt.history.raw_items().to_vec(),
        previous_turn_settings: rebuilt.previous_turn_settings,
        reference: rebuilt.reference_context_item,
        window: rebuilt.window,
        token_info: rebuilt.token_info,
        rollbacks_applied: rebuilt.stats.rollbacks_applied,
        compactions_undone: rebuilt.stats.compactions_undone,
        legacy_compaction: rebuilt.stats.legacy_compaction,
        newest_turn_context,
    }
}

type Line = (
    usize,
    u64,
    Option<codex_rollout::LineProblem>,
    Option<RolloutItem>,
);

fn lines_of(bytes: &[u8], parallel: bool) -> Vec<Line> {
    let mut lines = Vec::new();
    let stream = RolloutStream::new(bytes).unwrap();
    let visit = |line: codex_rollout::StreamedLine<'_>| {
        lines.push((
            line.number,
            line.offset,
            line.problem.clone(),
            line.into_line().map(|line| line.item),
        ));
    };
    if parallel {
        stream.for_each_line_parallel(visit).unwrap();
    } else {
        stream.for_each_line(visit).unwrap();
    }
    lines
}

/// How the tail answered a file.
#[derive(Debug, Default)]
struct Tally {
    files: usize,
    tail_partial: usize,
    tail_whole: usize,
    whole_load: usize,
}

fn check_file(path: &Path, tally: &mut Tally) {
    let label = path.display().to_string();
    let bytes = std::fs::read(path).unwrap();
    tally.files += 1;
    // Parallel loader, any number of runs, equals one sequential pass.
    let sequential = RolloutContents::parse_with_threads(bytes.clone(), 1);
    for threads in [2, 3, 7] {
        assert_eq!(
            RolloutContents::parse_with_threads(bytes.clone(), threads),
            sequential,
            "{label}: {threads} runs"
        );
    }
    assert_eq!(
        RolloutContents::parse(bytes.clone()),
        sequential,
        "{label}: default"
    );
    // The forward stream gives the loader's items and problems.
    let mut streamed_items = Vec::new();
    let mut streamed_problems = Vec::new();
    RolloutStream::new(bytes.as_slice())
        .unwrap()
        .for_each_line(|line| {
            if let Some(problem) = line.problem.clone() {
                streamed_problems.push(problem);
            }
            if let Some(item) = line.into_line() {
                streamed_items.push(item.item);
            }
        })
        .unwrap();
    assert_eq!(streamed_items, sequential.items(), "{label}: stream items");
    assert_eq!(
        streamed_problems,
        sequential.problems(),
        "{label}: stream problems"
    );
    // Resume from the end, plain and compressed, equals the reconstruction of the items the
    // tolerant loader reads (a file without a session meta included: `history` rebuilds it).
    let expected = answer(sequential.items());
    let first_meta = sequential.items().iter().find_map(|item| match item {
        RolloutItem::SessionMeta(meta) => Some(meta.as_ref()),
        _ => None,
    });
    let compressed = path.with_extension("check.jsonl.zst");
    let zst = zstd::encode_all(bytes.as_slice(), 3).unwrap();
    // A damaged (cut) compressed stream: the parallel stream ends as the sequential one.
    let cut = &zst[..zst.len() * 3 / 5];
    assert_eq!(
        lines_of(cut, true),
        lines_of(cut, false),
        "{label}: damaged, parallel"
    );
    std::fs::write(&compressed, &zst).unwrap();
    for file in [path.to_path_buf(), compressed.clone()] {
        match resume_rollout_tail(&file, &ReconstructOptions::default()).unwrap() {
            Some(tail) => {
                let got = answer_of(tail.rebuilt.clone(), tail.newest_turn_context.clone());
                let name = file.display();
                assert_eq!(
                    got.history.len(),
                    expected.history.len(),
                    "{name}: history length"
                );
                assert_eq!(got.history, expected.history, "{name}: history");
                assert_eq!(
                    got.previous_turn_settings, expected.previous_turn_settings,
                    "{name}"
                );
                assert_eq!(got.reference, expected.reference, "{name}: reference");
                assert_eq!(got.window, expected.window, "{name}: window");
                assert_eq!(got.token_info, expected.token_info, "{name}: token info");
                assert_eq!(got, expected, "{name}: tail");
                let forked_by_reference =
                    first_meta.is_some_and(|meta| meta.meta.history_base.is_some());
                assert!(
                    !forked_by_reference,
                    "{label}: a fork by reference read alone"
                );
                assert_eq!(tail.session_meta.as_ref(), first_meta, "{label}");
                if tail.whole_file {
                    tally.tail_whole += 1;
                } else {
                    // Surveyed: a part; every other byte at most walked back over for
                    // the line types the survey lacked.
                    assert!(tail.bytes_read < bytes.len() as u64, "{label}");
                    assert!(
                        tail.bytes_read + tail.bytes_walked <= bytes.len() as u64,
                        "{label}"
                    );
                    tally.tail_partial += 1;
                }
            }
            None => tally.whole_load += 1,
        }
    }
    std::fs::remove_file(compressed).unwrap();
}

fn generated_files(dir: &Path) -> Vec<(PathBuf, bool)> {
    let Some(lines) = real_lines() else {
        return Vec::new();
    };
    let shapes = [
        // A compaction in the last 1 %: the tail reads about 1 % of the file.
        (
            Shape {
                bytes: 6 << 20,
                compactions: vec![0.99],
                ..Shape::default()
            },
            true,
        ),
        // Two compactions, and a rollback after the second reaching back past it: the base is
        // the first one.
        (
            Shape {
                bytes: 4 << 20,
                compactions: vec![0.5, 0.98],
                rollbacks: vec![(0.985, 40)],
                ..Shape::default()
            },
            false,
        ),
        // A rollback past every compaction: nothing can be left out.
        (
            Shape {
                bytes: 2 << 20,
                compactions: vec![0.9],
                rollbacks: vec![(0.95, 10_000)],
                ..Shape::default()
            },
            false,
        ),
        // Rollbacks before the last compaction and after it, not reaching it: the tail still
        // reads about 1 % of the file.
        (
            Shape {
                bytes: 8 << 20,
                compactions: vec![0.4, 0.97],
                rollbacks: vec![(0.6, 3), (0.99, 1), (0.995, 1)],
                ..Shape::default()
            },
            true,
        ),
        // A torn last line after a compaction.
        (
            Shape {
                bytes: 3 << 20,
                compactions: vec![0.97],
                torn_last_line: true,
                ..Shape::default()
            },
            true,
        ),
        // No compaction: the tail is the whole file.
        (
            Shape {
                bytes: 1 << 20,
                ..Shape::default()
            },
            false,
        ),
    ];
    shapes
        .into_iter()
        .enumerate()
        .map(|(index, (shape, partial))| {
            let path = dir.join(format!("generated-{index}.jsonl"));
            write_rollout(&path, &lines, &shape).unwrap();
            (path, partial)
        })
        .collect()
}

#[test]
fn every_read_path_agrees_with_the_forward_load_on_real_files() {
    let Some(files) = real_jsonl_files().unwrap() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut tally = Tally::default();
    for file in files {
        // Work on a copy, so the compressed sibling is written in the temp folder.
        let copy = dir.path().join(file.file_name().unwrap());
        std::fs::copy(&file, &copy).unwrap();
        check_file(&copy, &mut tally);
    }
    eprintln!("real files: {tally:?}");
    assert!(tally.files >= 10);
}

#[test]
fn every_read_path_agrees_with_the_forward_load_on_generated_files() {
    let dir = tempfile::tempdir().unwrap();
    let files = generated_files(dir.path());
    if files.is_empty() {
        return;
    }
    for (path, partial) in files {
        let mut tally = Tally::default();
        check_file(&path, &mut tally);
        eprintln!("{}: {tally:?}", path.display());
        // The plain file is surveyed from its end; a compressed one cannot be read backwards
        // and is surveyed whole (only its replay starts late).
        let partial_reads = usize::from(partial);
        assert_eq!(
            tally.tail_partial,
            partial_reads,
            "{}: {tally:?}",
            path.display()
        );
        assert_eq!(
            tally.tail_whole,
            2 - partial_reads,
            "{}: {tally:?}",
            path.display()
        );
    }
}

/// The shape of a long session Codex compacted before it numbered windows: the window is the
/// whole file's first window, numbered by every compaction of the file. Resume from the end
/// surveys (parses) only the end, and walks back over the rest for `compacted` and
/// `session_meta` lines alone; its answer is the whole file's.
#[test]
fn resume_reads_back_only_the_line_types_the_end_lacks() {
    // Without the real files' own rollbacks, which may remove the late compaction's turn.
    let Some(lines) = real_lines().map(|lines| lines.without_rollbacks()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, rollbacks) in [
        // A rollback of one turn after the compaction, as the file has it, and one
        // before it.
        ("after", vec![(0.998, 1)]),
        ("before", vec![(0.98, 1)]),
    ] {
        let path = dir.path().join(format!("unnumbered-{name}.jsonl"));
        let shape = Shape {
            bytes: 40 << 20,
            compactions: vec![0.3, 0.99],
            rollbacks,
            real_compactions: true,
            ..Shape::default()
        };
        let written = write_rollout(&path, &lines, &shape).unwrap();
        let contents = RolloutContents::parse(std::fs::read(&path).unwrap());
        let expected = answer(contents.items());
        assert_eq!(expected.window.window_number, 2, "{name}: both counted");
        let last_compaction = contents
            .items()
            .iter()
            .rposition(|item| matches!(item, RolloutItem::Compacted(_)));
        let rebuilt = reconstruct_history_with(contents.items(), &ReconstructOptions::default());
        assert_eq!(
            rebuilt.stats.base_compaction, last_compaction,
            "{name}: the last compaction survives"
        );
        let tail = resume_rollout_tail(&path, &ReconstructOptions::default())
            .unwrap()
            .unwrap();
        let got = answer_of(tail.rebuilt.clone(), tail.newest_turn_context.clone());
        assert_eq!(got, expected, "{name}");
        assert!(!tail.whole_file, "{name}");
        assert!(
            tail.bytes_read * 12 < written.bytes,
            "{name}: surveyed {} of {} bytes",
            tail.bytes_read,
            written.bytes
        );
        assert_eq!(
            tail.bytes_read + tail.bytes_walked,
            written.bytes,
            "{name}: the rest walked back over to the start"
        );
    }
}

/// A suffix without token usage (none recorded in the last tenth of the file): resume walks
/// back from the surveyed end to the newest `token_count` with usage, not to the start, and
/// its answer is the whole file's.
#[test]
fn resume_walks_back_to_the_newest_token_usage_alone() {
    let Some(lines) = real_lines().map(|lines| lines.without_rollbacks()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-usage-at-the-end.jsonl");
    let shape = Shape {
        bytes: 24 << 20,
        compactions: vec![0.99],
        ..Shape::default()
    };
    write_rollout(&path, &lines, &shape).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let cut = bytes.len() * 9 / 10;
    let mut edited = Vec::with_capacity(bytes.len());
    let mut offset = 0;
    for line in bytes.split_inclusive(|byte| *byte == b'\n') {
        let usage = line.windows(13).any(|window| window == b"\"token_count\"");
        if offset < cut || !usage {
            edited.extend_from_slice(line);
        }
        offset += line.len();
    }
    std::fs::write(&path, &edited).unwrap();
    let contents = RolloutContents::parse(edited.clone());
    let expected = answer(contents.items());
    assert!(expected.token_info.is_some());
    let tail = resume_rollout_tail(&path, &ReconstructOptions::default())
        .unwrap()
        .unwrap();
    let got = answer_of(tail.rebuilt.clone(), tail.newest_turn_context.clone());
    assert_eq!(got, expected);
    assert!(!tail.whole_file);
    let len = edited.len() as u64;
    assert!(tail.bytes_walked > 0, "the usage lies before the survey");
    assert!(
        (tail.bytes_read + tail.bytes_walked) * 4 < len,
        "surveyed {} and walked {} of {len} bytes",
        tail.bytes_read,
        tail.bytes_walked
    );
}
