//! Fuzzing the loader: arbitrary bytes, and real (or, without the real folder, our own) lines
//! mutated by truncation, byte flips, insertions and deletions. Whatever comes in, reading
//! never panics, every line is accounted for, and whatever loads also reconstructs and forks
//! without panicking. Each test prints how many inputs it ran.
#![allow(clippy::print_stderr)]

use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, RolloutLine};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::new_session_meta;
use codex_rollout::reconstruct_history_from_rollout;
use codex_rollout::{ForkMode, ForkPoint, fork_bytes};
use codex_rollout::{ProblemKind, RolloutContents, load_rollout_bytes};
use codex_test_support::{REAL_FIXTURES, non_empty_lines, real_jsonl_files};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// Lines to mutate: every line of the real files (capped in length so a case stays fast), or
/// lines of our own when the real folder is absent.
static CORPUS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let mut lines = Vec::new();
    if let Ok(Some(files)) = real_jsonl_files() {
        for path in files {
            if let Ok(file_lines) = non_empty_lines(&path) {
                lines.extend(file_lines.into_iter().filter(|line| line.len() <= 8_192));
            }
        }
    }
    if lines.is_empty() {
        eprintln!("!!! no real fixture lines in {REAL_FIXTURES}: fuzzing our own lines only !!!");
        lines = own_lines();
    }
    lines
});

fn own_lines() -> Vec<Vec<u8>> {
    let items = [
        RolloutItem::SessionMeta(Box::new(new_session_meta(ThreadId::new(), "/repo", "fuzz"))),
        RolloutItem::ResponseItem(ResponseItem::user_text("hello")),
        RolloutItem::ResponseItem(ResponseItem::function_call("shell", r#"{"a":1}"#, "c1")),
        RolloutItem::ResponseItem(ResponseItem::function_call_output("c1", "out")),
        RolloutItem::ResponseItem(ResponseItem::assistant_text("bye", None)),
    ];
    items
        .into_iter()
        .filter_map(|item| {
            RolloutLine::new("2025-01-01T00:00:00.000Z", item)
                .to_json_line()
                .ok()
        })
        .map(String::into_bytes)
        .collect()
}

/// Everything a loaded input goes through; panics are the failure mode under test.
fn exercise(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let contents = RolloutContents::parse_with_threads(bytes.clone(), 1);
    // Reading on several threads gives exactly the sequential result.
    prop_assert_eq!(
        &RolloutContents::parse_with_threads(bytes.clone(), 3),
        &contents
    );
    // A damaged compressed stream (an input cut inside the zstd magic number, `(` alone) is
    // one problem after the last line kept, not a line.
    let (damage, lines): (Vec<_>, Vec<_>) = contents
        .problems()
        .iter()
        .partition(|problem| problem.kind == ProblemKind::Damaged);
    let skipped = lines
        .iter()
        .filter(|problem| !problem.kind.is_kept())
        .count();
    prop_assert_eq!(contents.entries().len() + skipped, contents.line_count());
    prop_assert!(damage.len() <= 1);
    if let Some(damage) = damage.first() {
        prop_assert_eq!(damage.line, contents.line_count() + 1);
    }
    for entry in contents.entries() {
        prop_assert!(entry.span.end <= bytes.len());
        prop_assert!(!contents.raw_line(entry).contains(&b'\n'));
    }
    let rebuilt = reconstruct_history_from_rollout(contents.items());
    prop_assert!(rebuilt.history.len() <= contents.items().len().saturating_add(4096));
    if let Ok(loaded) = load_rollout_bytes(bytes, "fuzz.jsonl") {
        for point in [
            ForkPoint::KeepAll,
            ForkPoint::BeforeNthLastUserMessage(1),
            ForkPoint::BeforeNthUserMessage(0),
        ] {
            let forked = fork_bytes(&loaded, point, ThreadId::new(), ForkMode::Copy);
            prop_assert!(forked.is_ok(), "{:?}", forked.err());
        }
    }
    Ok(())
}

/// One mutation of a line.
#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Splice(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(at, bits)| Mutation::Flip(at, bits)),
        (
            any::<usize>(),
            prop::sample::select(b"{}[]\":,\\ \n0aZ\xff".to_vec())
        )
            .prop_map(|(at, byte)| Mutation::Insert(at, byte)),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), any::<usize>()).prop_map(|(line, at)| Mutation::Splice(line, at)),
    ]
}

fn mutate(mut line: Vec<u8>, mutation: &Mutation) -> Vec<u8> {
    let len = line.len().max(1);
    match *mutation {
        Mutation::Truncate(at) => line.truncate(at % len),
        Mutation::Flip(at, bits) => {
            if let Some(byte) = line.get_mut(at % len) {
                *byte ^= bits;
            }
        }
        Mutation::Insert(at, byte) => line.insert((at % len).min(line.len()), byte),
        Mutation::Delete(at, count) => {
            let start = (at % len).min(line.len());
            let end = start.saturating_add(count).min(line.len());
            line.drain(start..end);
        }
        Mutation::Splice(other, at) => {
            let donor = &CORPUS[other % CORPUS.len()];
            let cut = (at % len).min(line.len());
            line.truncate(cut);
            line.extend_from_slice(&donor[(at % donor.len().max(1)).min(donor.len())..]);
        }
    }
    line
}

/// Cases per fuzz test; `CODEX_FUZZ_CASES` raises it for a long run.
fn cases() -> u32 {
    std::env::var("CODEX_FUZZ_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(3_000)
}

/// Runs [`cases`] inputs of `strategy` through `check`; returns how many ran.
fn run<S: Strategy>(
    name: &str,
    strategy: S,
    check: impl Fn(S::Value) -> Result<(), TestCaseError>,
) -> Result<(), Box<dyn std::error::Error>> {
    let count = AtomicUsize::new(0);
    let mut runner = TestRunner::new(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    runner
        .run(&strategy, |input| {
            count.fetch_add(1, Ordering::Relaxed);
            check(input)
        })
        .map_err(|err| format!("{name}: {err}"))?;
    eprintln!(
        "fuzz {name}: {} inputs ran without a panic",
        count.load(Ordering::Relaxed)
    );
    Ok(())
}

#[test]
fn arbitrary_bytes_never_panic() -> Result<(), Box<dyn std::error::Error>> {
    run(
        "arbitrary bytes",
        proptest::collection::vec(any::<u8>(), 0..2_048),
        exercise,
    )
}

/// The inputs cut inside the zstd magic number: a damaged compressed stream, not a line.
#[test]
fn a_cut_magic_number_is_damage_not_a_line() -> Result<(), TestCaseError> {
    for cut in [&b"("[..], b"(\xb5", b"(\xb5/"] {
        exercise(cut.to_vec())?;
        let contents = RolloutContents::parse_with_threads(cut.to_vec(), 1);
        let kinds: Vec<_> = contents
            .problems()
            .iter()
            .map(|problem| problem.kind)
            .collect();
        prop_assert_eq!(kinds, vec![ProblemKind::Damaged]);
    }
    Ok(())
}

#[test]
fn arbitrary_json_shaped_text_never_panics() -> Result<(), Box<dyn std::error::Error>> {
    run(
        "JSON-shaped text",
        r#"(\{("(timestamp|type|payload|id|role|content|text)"|[0-9]+|"[a-z_]*"|[:,\[\]\{\} \n]|null|true){0,40}\}?\n?){0,6}"#,
        |text: String| exercise(text.into_bytes()),
    )
}

#[test]
fn mutated_real_lines_never_panic() -> Result<(), Box<dyn std::error::Error>> {
    let strategy = (
        proptest::collection::vec((any::<usize>(), mutation()), 1..12),
        any::<bool>(),
    );
    run("mutated corpus lines", strategy, |(picks, with_meta)| {
        let mut bytes = Vec::new();
        if with_meta {
            // Make most inputs loadable as sessions so fork and reconstruction run too.
            let meta = RolloutLine::new(
                "2025-01-01T00:00:00.000Z",
                RolloutItem::SessionMeta(Box::new(new_session_meta(
                    ThreadId::new(),
                    "/repo",
                    "fuzz",
                ))),
            );
            bytes.extend_from_slice(meta.to_json_line().unwrap_or_default().as_bytes());
            bytes.push(b'\n');
        }
        for (pick, mutation) in &picks {
            let line = CORPUS[pick % CORPUS.len()].clone();
            bytes.extend(mutate(line, mutation));
            bytes.push(b'\n');
        }
        exercise(bytes)
    })
}

/// Deterministic sweep: every corpus line cut at 16 evenly spaced points, and every line
/// unmutated, all in one file per cut position.
#[test]
fn every_corpus_line_truncated_at_sixteen_points_never_panics() -> Result<(), TestCaseError> {
    let mut inputs = 0usize;
    for step in 0..16usize {
        let mut bytes = Vec::new();
        for line in CORPUS.iter() {
            let cut = line.len() * step / 16;
            bytes.extend_from_slice(&line[..cut]);
            bytes.push(b'\n');
            inputs += 1;
        }
        exercise(bytes)?;
    }
    let mut whole = Vec::new();
    for line in CORPUS.iter() {
        whole.extend_from_slice(line);
        whole.push(b'\n');
        inputs += 1;
    }
    exercise(whole)?;
    eprintln!("fuzz: {inputs} truncated or whole corpus lines parsed without a panic");
    Ok(())
}
