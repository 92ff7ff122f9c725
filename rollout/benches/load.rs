//! Loading and reconstructing a large rollout, against the cheapest generic reading of the
//! same lines.
//!
//! The input is built at start: the first real session meta, then the lines of the real
//! fixtures (enveloped lines, without session metas and compactions so that replay covers the
//! whole file) repeated until the file has more than 100 000 lines. Without the real folder,
//! lines written by our own types are used instead.
//!
//! - `value_baseline`: every line parsed into a `serde_json::Value` (no typing, no checks),
//!   each dropped at once;
//! - `value_collect`: the same, all values kept in a vector until the end (what a loader
//!   that returns every line as a `Value` would do);
//! - `parse_lines_typed`: every line through the protocol's typed line parser alone (the
//!   share of the cost that is the parser's);
//! - `load`: [`load_rollout_bytes`] (typed items, problems, spans);
//! - `load_and_reconstruct`: the above plus [`reconstruct_history_with`] (the path
//!   resume takes: the loaded items are moved into history);
//! - `load_and_reconstruct_two_threads`: the same with the loader reading on two threads
//!   (opt-in [`RolloutContents::parse_with_threads`]);
//! - `reconstruct_borrowed`: reconstruction alone from borrowed items (clones what it keeps).
//!
//! Every variant drops what it built inside the timed section, as the baseline does.
//!
//! Target: `load_and_reconstruct` within 1.5x of `value_baseline`. Before criterion runs, an
//! interleaved measurement prints the ratios (median of 7 back-to-back rounds), which are
//! robust to the load of a shared machine drifting during the run.

#![allow(clippy::expect_used, clippy::print_stderr)]

#[path = "support/baseline.rs"]
mod baseline;
#[path = "support/generate.rs"]
mod generate;

use std::hint::black_box;

use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, RolloutLine, parse_rollout_line_typed};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::new_session_meta;
use codex_rollout::{LoadedRollout, RolloutContents, load_rollout_bytes};
use codex_rollout::{
    ReconstructOptions, reconstruct_history_from_rollout, reconstruct_history_with,
};
use std::time::Instant;

use codex_test_support::REAL_FIXTURES;
use criterion::{BatchSize, Criterion, Throughput, criterion_group};
use generate::real_lines;

const MIN_LINES: usize = 100_000;

fn own_lines() -> (Vec<u8>, Vec<Vec<u8>>) {
    let line = |item| {
        RolloutLine::new("2025-01-01T00:00:00.000Z", item)
            .to_json_line()
            .expect("serialize")
            .into_bytes()
    };
    let meta = line(RolloutItem::SessionMeta(Box::new(new_session_meta(
        ThreadId::new(),
        "/repo",
        "bench",
    ))));
    let body = vec![
        line(RolloutItem::ResponseItem(ResponseItem::user_text(
            "please do the task",
        ))),
        line(RolloutItem::ResponseItem(ResponseItem::function_call(
            "shell",
            r#"{"command":["ls"]}"#,
            "c1",
        ))),
        line(RolloutItem::ResponseItem(
            ResponseItem::function_call_output("c1", "a.txt\nb.txt\n".repeat(50)),
        )),
        line(RolloutItem::ResponseItem(ResponseItem::assistant_text(
            "Done.", None,
        ))),
    ];
    (meta, body)
}

/// A rollout of more than [`MIN_LINES`] lines.
fn build_rollout() -> Vec<u8> {
    let (meta, body) = real_lines()
        .map(|real| (real.meta, real.body))
        .unwrap_or_else(|| {
            eprintln!(
                "!!! no real fixture lines in {REAL_FIXTURES}: benchmarking our own lines !!!"
            );
            own_lines()
        });
    let mut bytes = meta;
    bytes.push(b'\n');
    let mut lines = 1;
    while lines <= MIN_LINES {
        for line in &body {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
            lines += 1;
        }
    }
    eprintln!(
        "bench input: {lines} lines, {:.1} MiB",
        bytes.len() as f64 / (1024.0 * 1024.0)
    );
    bytes
}

fn bench_load(c: &mut Criterion) {
    let bytes = build_rollout();
    let loaded = load_rollout_bytes(bytes.clone(), "bench.jsonl").expect("bench rollout loads");
    assert!(
        loaded
            .contents
            .problems()
            .iter()
            .all(|problem| problem.kind.is_kept()),
        "the bench input has skipped lines"
    );
    let rebuilt = reconstruct_history_from_rollout(loaded.contents.items());
    eprintln!(
        "bench rollout: {} items, rebuilt history of {} items",
        loaded.contents.items().len(),
        rebuilt.history.len()
    );

    // Every variant drops what it built inside the timed section, as the baseline does.
    let mut group = c.benchmark_group("load_rollout");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("value_baseline", |b| {
        b.iter(|| black_box(baseline::value_parse_bytes(&bytes)))
    });
    group.bench_function("value_collect", |b| {
        b.iter(|| black_box(value_collect(&bytes)))
    });
    group.bench_function("parse_lines_typed", |b| {
        b.iter(|| {
            let mut count = 0usize;
            for line in bytes
                .split(|byte| *byte == b'\n')
                .filter(|line| !line.is_empty())
            {
                let typed = parse_rollout_line_typed(line).expect("typed");
                count += usize::from(typed.line().is_some());
            }
            black_box(count)
        });
    });
    group.bench_function("load", |b| {
        b.iter_batched(
            || bytes.clone(),
            |input| {
                let loaded = load_rollout_bytes(input, "bench.jsonl").expect("loads");
                black_box(loaded.contents.items().len())
            },
            BatchSize::LargeInput,
        );
    });
    group.bench_function("load_and_reconstruct", |b| {
        b.iter_batched(
            || bytes.clone(),
            |input| black_box(load_and_reconstruct(input)),
            BatchSize::LargeInput,
        );
    });
    group.bench_function("load_and_reconstruct_two_threads", |b| {
        b.iter_batched(
            || bytes.clone(),
            |input| black_box(load_and_reconstruct_two_threads(input)),
            BatchSize::LargeInput,
        );
    });
    group.bench_function("reconstruct_borrowed", |b| {
        b.iter(|| {
            black_box(
                reconstruct_history_from_rollout(loaded.contents.items())
                    .history
                    .len(),
            )
        });
    });
    group.finish();
}

fn value_collect(bytes: &[u8]) -> usize {
    let values: Vec<serde_json::Value> = bytes
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).expect("json"))
        .collect();
    values.len()
}

fn load_and_reconstruct(bytes: Vec<u8>) -> usize {
    let loaded = load_rollout_bytes(bytes, "bench.jsonl").expect("loads");
    let rebuilt =
        reconstruct_history_with(loaded.contents.into_items(), &ReconstructOptions::default());
    rebuilt.history.len()
}

/// The same with the loader reading on two threads.
fn load_and_reconstruct_two_threads(bytes: Vec<u8>) -> usize {
    let contents = RolloutContents::parse_with_threads(bytes, 2);
    let loaded = LoadedRollout::from_contents("bench.jsonl", contents).expect("loads");
    let rebuilt =
        reconstruct_history_with(loaded.contents.into_items(), &ReconstructOptions::default());
    rebuilt.history.len()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The machine is shared, so load drifts over a run: measure the variants back to back in
/// each round and report the median of the per-round ratios, which drift affects least.
fn interleaved_ratios() {
    let bytes = build_rollout();
    let time = |f: &mut dyn FnMut() -> usize| {
        let start = Instant::now();
        black_box(f());
        start.elapsed().as_secs_f64()
    };
    let mut rounds = Vec::new();
    for _ in 0..7 {
        let baseline = time(&mut || baseline::value_parse_bytes(&bytes) as usize);
        let collect = time(&mut || value_collect(&bytes));
        let mut input = Some(bytes.clone());
        let ours = time(&mut || load_and_reconstruct(input.take().unwrap_or_default()));
        let mut input = Some(bytes.clone());
        let single =
            time(&mut || load_and_reconstruct_two_threads(input.take().unwrap_or_default()));
        rounds.push([baseline, collect, ours, single]);
    }
    let ratio = |over: usize, under: usize| {
        median(
            rounds
                .iter()
                .map(|round| round[over] / round[under])
                .collect(),
        )
    };
    let ms = |column: usize| median(rounds.iter().map(|round| round[column] * 1e3).collect());
    eprintln!(
        "interleaved, median of 7 rounds: value_baseline {:.0} ms, value_collect {:.0} ms, \
         load_and_reconstruct {:.0} ms ({:.2}x baseline, {:.2}x collect), two threads {:.0} ms \
         ({:.2}x baseline, {:.2}x collect)",
        ms(0),
        ms(1),
        ms(2),
        ratio(2, 0),
        ratio(2, 1),
        ms(3),
        ratio(3, 0),
        ratio(3, 1),
    );
}

criterion_group!(benches, bench_load);

codex_test_support::bench_main!("load", interleaved_ratios, benches);
