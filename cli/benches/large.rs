//! Large rollouts: the streaming, parallel and backwards readers against a `serde_json::Value`
//! parse of the same lines, measured side by side in one run.
//!
//! Input: real lines repeated (`rollout/benches/support/generate.rs`: their rollback markers,
//! images and torn lines kept) with a compaction at 99 % of the file and rollback markers
//! after it (2 turns at 99.5 %, 1 at 99.8 %), written under the target folder and deleted at
//! the end (at most one file on disk at a time). The scale pass also measures `history` and
//! `prompt` on the same file with a rollback at 99.5 % reaching back past the compaction (no
//! compaction applies: the history is the whole conversation), and on a file whose
//! compactions have no window number (the window counts them all). Sizes: `CODEX_BENCH_MIB`
//! (default 128) for the criterion group; the scale pass measures 100 MiB and 1 GiB files (and
//! 10 GiB through a pipe, without disk, when `CODEX_BENCH_10G=1`).
//!
//! Criterion group `large_rollout` (each beside its baseline):
//! - `value_one_thread`: every line parsed into a `Value` on one thread and dropped (the
//!   baseline);
//! - `load_one_thread` / `load_all_threads`: the whole-file loader (typed items, problems,
//!   spans) on a rayon pool of one thread / of every core;
//! - `stream`: a forward [`RolloutStream`] pass (what `inspect` and `validate` read);
//! - `history_full`: whole load + reconstruction (resume without the tail);
//! - `history_tail`: [`resume_rollout_tail`] (resume from the end).
//!
//! Scale pass (printed, once per size): the `codex-thread` release binary's `inspect` and
//! `history` as whole processes, their wall time as a ratio of a one-thread `Value` parse of
//! the same file measured just before, and their peak RSS (`/usr/bin/time -f %M`, the
//! child's maximum resident set), and `thread` from standard input (spooled into a temporary
//! file first), streamed (a file) and `--last 1`, `notifications` whole and streamed (read twice), and
//! `fork --drop-turns 1` from standard input, from the end and from the end by reference;
//! `thread` and `thread --last 1` / `--last 10` of a paginated file of the same shape (its
//! last turns read from the end).
//! `export --format markdown` and `--format html` of the file are measured the same way.
//! With `CODEX_BENCH_10G=1 CODEX_BENCH_10G_REPLAY=1` the 10 GiB pipe also feeds
//! `notifications`, both exports and `thread` (text and `--json`; each spools it into one
//! temporary file), against a
//! one-thread `Value` parse of the same bytes a chunk at a time.
//! `CODEX_BENCH_WRITE=PATH:MIB` only writes the scale pass's input of that size to `PATH` (for
//! profiling by hand); `CODEX_BENCH_VALUE=PATH` only times the one-thread `Value` parse of
//! `PATH`. `CODEX_BENCH_SCALE_ONLY=1` runs the scale pass alone, at the sizes of
//! `CODEX_BENCH_SCALE_MIB` (comma-separated MiB, default `100,1024`).
//! `CODEX_BENCH_SHAPES=1` runs the shapes pass alone (`shapes/pass.rs`): every one-session
//! command on every hard shape of the generator at those sizes, printed as a Markdown table.

#![allow(clippy::expect_used, clippy::print_stderr, clippy::unwrap_used)]

#[path = "../../rollout/benches/support/baseline.rs"]
mod baseline;
#[path = "../../rollout/benches/support/generate.rs"]
mod generate;
#[path = "shapes/pass.rs"]
mod shapes;

use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use baseline::{time_value_parse, value_parse_bytes};
use codex_rollout::RolloutStream;
use codex_rollout::load_rollout_bytes;
use codex_rollout::resume_rollout_tail;
use codex_rollout::{ReconstructOptions, reconstruct_history_with};
use criterion::{Criterion, Throughput, criterion_group};
use generate::{RealLines, Shape, real_lines, write_rollout};

const MIB: u64 = 1024 * 1024;

fn shape(bytes: u64) -> Shape {
    Shape {
        bytes,
        compactions: vec![0.99],
        rollbacks: vec![(0.995, 2), (0.998, 1)],
        ..Shape::default()
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn bench_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("large-rollout-bench");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bench_large(c: &mut Criterion) {
    let Some(lines) = real_lines() else {
        eprintln!("!!! no real fixtures: the large-rollout bench needs them !!!");
        return;
    };
    let mib: u64 = std::env::var("CODEX_BENCH_MIB")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(128);
    let path = bench_dir().join(format!("bench-{mib}mib.jsonl"));
    let written = write_rollout(&path, &lines, &shape(mib * MIB)).unwrap();
    eprintln!(
        "criterion input: {} lines, {} MiB",
        written.lines,
        written.bytes / MIB
    );
    let bytes = std::fs::read(&path).unwrap();
    let cores = rayon::current_num_threads();
    let one = pool(1);
    let all = pool(cores);
    let mut group = c.benchmark_group("large_rollout");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("value_one_thread", |b| {
        b.iter(|| black_box(value_parse_bytes(&bytes)))
    });
    group.bench_function("load_one_thread", |b| {
        b.iter(|| {
            one.install(|| {
                let loaded = load_rollout_bytes(bytes.clone(), "bench.jsonl").unwrap();
                black_box(loaded.contents.items().len())
            })
        })
    });
    group.bench_function("load_all_threads", |b| {
        b.iter(|| {
            all.install(|| {
                let loaded = load_rollout_bytes(bytes.clone(), "bench.jsonl").unwrap();
                black_box(loaded.contents.items().len())
            })
        })
    });
    group.bench_function("stream", |b| {
        b.iter(|| {
            let mut items = 0usize;
            RolloutStream::new(bytes.as_slice())
                .unwrap()
                .for_each_line(|line| items += usize::from(line.line().is_some()))
                .unwrap();
            black_box(items)
        })
    });
    group.bench_function("history_full", |b| {
        b.iter(|| {
            let loaded = load_rollout_bytes(bytes.clone(), "bench.jsonl").unwrap();
            let rebuilt = reconstruct_history_with(
                loaded.contents.into_items(),
                &ReconstructOptions::default(),
            );
            black_box(rebuilt.history.len())
        })
    });
    group.bench_function("history_tail", |b| {
        b.iter(|| {
            let tail = resume_rollout_tail(&path, &ReconstructOptions::default())
                .unwrap()
                .expect("a tail");
            black_box(tail.rebuilt.history.len())
        })
    });
    group.finish();
    drop(bytes);
    std::fs::remove_file(&path).unwrap();
    scale(&lines);
}

/// Wall time and peak RSS (KiB) of the release binary on `args`, stdin from `stdin`.
/// Writes a child's standard input.
type Feed<'a> = &'a mut dyn FnMut(&mut dyn Write);

fn measure(args: &[&str], stdin: Option<Feed<'_>>) -> (Duration, u64) {
    let started = Instant::now();
    let mut child = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_codex-thread"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(feed) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        feed(&mut pipe);
    }
    let output = child.wait_with_output().unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak = stderr
        .lines()
        .rev()
        .find_map(|line| line.trim().parse::<u64>().ok())
        .unwrap_or(0);
    (elapsed, peak)
}

/// `fork --drop-turns 1` of the file at `path` (whose first line is `meta`): from standard
/// input (the same bytes, spooled into a temporary file first), from the end and copied, and from the end
/// by reference (the file linked into a home under its thread's name, as readers find it).
fn fork_scale(mib: u64, path: &Path, meta: &[u8], value: Duration, feed: Feed<'_>) {
    let dir = bench_dir();
    let meta: serde_json::Value = serde_json::from_slice(meta).unwrap();
    let thread = meta["payload"]["id"].as_str().unwrap().to_string();
    let day = dir.join("home/sessions/2026/01/01");
    std::fs::create_dir_all(&day).unwrap();
    let source = day.join(format!("rollout-2026-01-01T00-00-00-{thread}.jsonl"));
    let _ = std::fs::remove_file(&source);
    std::fs::hard_link(path, &source).unwrap();
    let home = dir.join("home").to_string_lossy().into_owned();
    let source_arg = source.to_string_lossy().into_owned();
    let out = |name: &str| {
        let out = dir.join(name);
        let _ = std::fs::remove_file(&out);
        out.to_string_lossy().into_owned()
    };
    let fork = ["fork", "--drop-turns", "1", "--json", "-o"];
    let whole_out = out("fork-whole.jsonl");
    let (whole, whole_rss) = measure(&[&fork[..], &[&whole_out, "-"]].concat(), Some(feed));
    let copy_out = out("fork-copy.jsonl");
    let (copy, copy_rss) = measure(&[&fork[..], &[&copy_out, &source_arg]].concat(), None);
    let reference_out = out("fork-reference.jsonl");
    let by_reference = ["--by-reference", "--home", &home];
    let (reference, reference_rss) = measure(
        &[&fork[..], &[&reference_out, &source_arg], &by_reference[..]].concat(),
        None,
    );
    eprintln!(
        "scale {mib} MiB: {} | {} | {}",
        against("fork whole", whole, value, whole_rss),
        against("from the end", copy, value, copy_rss),
        against("by reference", reference, value, reference_rss),
    );
    for out in [whole_out, copy_out, reference_out] {
        std::fs::remove_file(out).unwrap();
    }
    std::fs::remove_file(&source).unwrap();
}

/// `export --format markdown` and `--format html` of the file `file` (standard output thrown
/// away), as ratios of `value`, the one-thread `Value` parse of the same bytes.
fn export_scale(size: &str, file: &str, value: Duration) {
    let (markdown, markdown_rss) = measure(&["export", "--format", "markdown", file], None);
    let (html, html_rss) = measure(&["export", "--format", "html", file], None);
    eprintln!(
        "scale {size}: {} | {}",
        against("export markdown", markdown, value, markdown_rss),
        against("html", html, value, html_rss),
    );
}

/// `history` and `prompt` when a rollback reaches back past the only compaction: nothing can
/// be left out, the file is read forwards twice (survey, replay) holding only the history.
fn reaching_back(mib: u64, lines: &RealLines) {
    let path = bench_dir().join(format!("reaching-back-{mib}mib.jsonl"));
    let shape = Shape {
        bytes: mib * MIB,
        compactions: vec![0.99],
        rollbacks: vec![(0.995, 1_000)],
        ..Shape::default()
    };
    write_rollout(&path, lines, &shape).unwrap();
    let file = path.to_string_lossy().into_owned();
    let value = time_value_parse(&path);
    let (history, history_rss) = measure(&["history", "--json", &file], None);
    let (prompt, prompt_rss) = measure(&["prompt", "--json", &file], None);
    let (whole, whole_rss) = measure(&["validate", "--json", &file], None);
    eprintln!(
        "scale {mib} MiB, rollback past the compaction: value parse {:.2}s | {} | {} | {}",
        value.as_secs_f64(),
        against("history", history, value, history_rss),
        against("prompt", prompt, value, prompt_rss),
        against("validate (one stream)", whole, value, whole_rss),
    );
    std::fs::remove_file(&path).unwrap();
}

/// `history` and `prompt` on a file whose late compaction has no window number (as Codex
/// wrote them before 0.150; a real one copied at 30 % and 99 %, a rollback of one turn at
/// 99.8 %, the real lines' own rollbacks left out so the late compaction survives): the
/// window counts every compaction of the file, so resume walks back over the whole file for
/// `compacted` lines, and surveys only the end. The bytes surveyed and walked are the
/// library's count ([`codex_rollout::RolloutTail::bytes_walked`]).
fn unnumbered_compaction(mib: u64, lines: &RealLines) {
    let path = bench_dir().join(format!("unnumbered-{mib}mib.jsonl"));
    let shape = Shape {
        bytes: mib * MIB,
        compactions: vec![0.3, 0.99],
        rollbacks: vec![(0.998, 1)],
        real_compactions: true,
        ..Shape::default()
    };
    let written = write_rollout(&path, &lines.without_rollbacks(), &shape).unwrap();
    let file = path.to_string_lossy().into_owned();
    let value = time_value_parse(&path);
    let (history, history_rss) = measure(&["history", "--json", &file], None);
    let (prompt, prompt_rss) = measure(&["prompt", "--json", &file], None);
    let tail = resume_rollout_tail(&path, &ReconstructOptions::default())
        .unwrap()
        .unwrap();
    eprintln!(
        "scale {mib} MiB, unnumbered compactions: value parse {:.2}s | {} | {} | surveyed {} \
         MiB, walked back {} MiB of {} MiB",
        value.as_secs_f64(),
        against("history", history, value, history_rss),
        against("prompt", prompt, value, prompt_rss),
        tail.bytes_read / MIB,
        tail.bytes_walked / MIB,
        written.bytes / MIB,
    );
    std::fs::remove_file(&path).unwrap();
}

/// `thread` and `thread --last N` on a paginated file of the same shape (the real paginated
/// lines repeated, compactions written as Codex writes them there): the last turns are read
/// from the end.
fn paginated_last_turns(mib: u64) {
    let Some(lines) = generate::real_paginated_lines() else {
        eprintln!("scale {mib} MiB, paginated: no real paginated lines, skipped");
        return;
    };
    let path = bench_dir().join(format!("paginated-{mib}mib.jsonl"));
    write_rollout(&path, &lines, &shape(mib * MIB)).unwrap();
    let file = path.to_string_lossy().into_owned();
    let value = time_value_parse(&path);
    let (thread, thread_rss) = measure(&["thread", "--json", &file], None);
    let (last, last_rss) = measure(&["thread", "--json", "--last", "1", &file], None);
    let (last_ten, last_ten_rss) = measure(&["thread", "--json", "--last", "10", &file], None);
    let fine = |took: Duration| took.as_secs_f64() / value.as_secs_f64();
    eprintln!(
        "scale {mib} MiB, paginated: value parse {:.2}s | {} | --last 1 {:.3}s ({:.4}x), peak {} \
         MiB | --last 10 {:.3}s ({:.4}x), peak {} MiB",
        value.as_secs_f64(),
        against("thread", thread, value, thread_rss),
        last.as_secs_f64(),
        fine(last),
        last_rss / 1024,
        last_ten.as_secs_f64(),
        fine(last_ten),
        last_ten_rss / 1024,
    );
    std::fs::remove_file(&path).unwrap();
}

/// `label`'s time, its ratio to the Value parse `value` and its peak memory (`rss`, KiB).
fn against(label: &str, took: Duration, value: Duration, rss: u64) -> String {
    format!(
        "{label} {:.2}s ({:.2}x), peak {} MiB",
        took.as_secs_f64(),
        took.as_secs_f64() / value.as_secs_f64(),
        rss / 1024
    )
}

/// The sizes of the scale pass: `CODEX_BENCH_SCALE_MIB` (comma-separated), else 100 and 1024.
fn scale_sizes() -> Vec<u64> {
    generate::scale_sizes_from("CODEX_BENCH_SCALE_MIB")
}

fn scale(lines: &RealLines) {
    for mib in scale_sizes() {
        let path = bench_dir().join(format!("scale-{mib}mib.jsonl"));
        let written = write_rollout(&path, lines, &shape(mib * MIB)).unwrap();
        let file = path.to_string_lossy().into_owned();
        let value = time_value_parse(&path);
        let (inspect, inspect_rss) = measure(&["inspect", "--json", &file], None);
        let (history, history_rss) = measure(&["history", "--json", &file], None);
        let (prompt, prompt_rss) = measure(&["prompt", "--json", &file], None);
        let (inspect_one, _) = {
            // One thread: the stream is one thread anyway; the pool is limited for the rest.
            let started = Instant::now();
            let status = Command::new(env!("CARGO_BIN_EXE_codex-thread"))
                .env("RAYON_NUM_THREADS", "1")
                .args(["inspect", "--json", &file])
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
            (started.elapsed(), 0)
        };
        eprintln!(
            "scale {mib} MiB ({} lines): value parse {:.2}s | inspect {:.2}s ({:.2}x), one thread \
             {:.2}s ({:.2}x), peak {} MiB | history {:.2}s ({:.3}x), peak {} MiB",
            written.lines,
            value.as_secs_f64(),
            inspect.as_secs_f64(),
            inspect.as_secs_f64() / value.as_secs_f64(),
            inspect_one.as_secs_f64(),
            inspect_one.as_secs_f64() / value.as_secs_f64(),
            inspect_rss / 1024,
            history.as_secs_f64(),
            history.as_secs_f64() / value.as_secs_f64(),
            history_rss / 1024,
        );
        eprintln!(
            "scale {mib} MiB: prompt {:.2}s ({:.3}x), peak {} MiB",
            prompt.as_secs_f64(),
            prompt.as_secs_f64() / value.as_secs_f64(),
            prompt_rss / 1024,
        );
        reaching_back(mib, lines);
        unnumbered_compaction(mib, lines);
        paginated_last_turns(mib);
        // `thread`: streamed (a file), from standard input (the same bytes, spooled into a
        // temporary file first), and only the last turn.
        let (thread, thread_rss) = measure(&["thread", "--json", &file], None);
        let mut feed = |pipe: &mut dyn Write| {
            let mut input = std::fs::File::open(&path).unwrap();
            // The child may stop reading early only by failing; its status is not ours.
            let _copied = std::io::copy(&mut input, pipe);
        };
        let (whole, whole_rss) = measure(&["thread", "--json", "-"], Some(&mut feed));
        let (last, last_rss) = measure(&["thread", "--json", "--last", "1", &file], None);
        eprintln!(
            "scale {mib} MiB: {} | {} | {}",
            against("thread from standard input", whole, value, whole_rss),
            against("streamed", thread, value, thread_rss),
            against("--last 1", last, value, last_rss),
        );
        let (replayed, replayed_rss) = measure(&["notifications", &file], None);
        let (replayed_whole, replayed_whole_rss) =
            measure(&["notifications", "-"], Some(&mut feed));
        eprintln!(
            "scale {mib} MiB: {} | {}",
            against(
                "notifications whole",
                replayed_whole,
                value,
                replayed_whole_rss
            ),
            against("streamed", replayed, value, replayed_rss),
        );
        export_scale(&format!("{mib} MiB"), &file, value);
        fork_scale(mib, &path, &lines.meta, value, &mut feed);
        std::fs::remove_file(&path).unwrap();
    }
    if std::env::var("CODEX_BENCH_10G").as_deref() == Ok("1") {
        // 10 GiB streamed through a pipe: nothing on disk.
        let dir = bench_dir();
        let chunk_path = dir.join("chunk-100mib.jsonl");
        write_rollout(
            &chunk_path,
            lines,
            &Shape {
                bytes: 100 * MIB,
                ..Shape::default()
            },
        )
        .unwrap();
        let chunk = std::fs::read(&chunk_path).unwrap();
        std::fs::remove_file(&chunk_path).unwrap();
        let body_start = chunk.iter().position(|byte| *byte == b'\n').unwrap() + 1;
        let mut feed = |pipe: &mut dyn Write| {
            pipe.write_all(&chunk).unwrap();
            for _ in 1..103 {
                pipe.write_all(&chunk[body_start..]).unwrap();
            }
        };
        let (elapsed, rss) = measure(&["inspect", "--json", "-"], Some(&mut feed));
        eprintln!(
            "scale 10 GiB (piped): inspect {:.1}s, peak {} MiB",
            elapsed.as_secs_f64(),
            rss / 1024
        );
        if std::env::var("CODEX_BENCH_10G_REPLAY").as_deref() == Ok("1") {
            // The baseline: the same bytes parsed into `Value`s on one thread, a chunk at a
            // time (the whole would not fit in memory).
            let started = Instant::now();
            black_box(value_parse_bytes(&chunk));
            for _ in 1..103 {
                black_box(value_parse_bytes(&chunk[body_start..]));
            }
            let value = started.elapsed();
            // Standard input is spooled into one temporary file, then read like a file.
            let (replayed, replayed_rss) = measure(&["notifications", "-"], Some(&mut feed));
            let markdown = ["export", "--format", "markdown", "-"];
            let (markdown, markdown_rss) = measure(&markdown, Some(&mut feed));
            let (html, html_rss) = measure(&["export", "--format", "html", "-"], Some(&mut feed));
            let (thread, thread_rss) = measure(&["thread", "-"], Some(&mut feed));
            let (json, json_rss) = measure(&["thread", "--json", "-"], Some(&mut feed));
            eprintln!(
                "scale 10 GiB (piped): value parse {:.1}s | {} | {} | {} | {} | {}",
                value.as_secs_f64(),
                against("notifications", replayed, value, replayed_rss),
                against("export markdown", markdown, value, markdown_rss),
                against("html", html, value, html_rss),
                against("thread", thread, value, thread_rss),
                against("thread --json", json, value, json_rss),
            );
        }
    }
}

criterion_group!(benches, bench_large);

fn main() {
    if !codex_test_support::under_cargo_bench("large") {
        return;
    }
    // `CODEX_BENCH_WRITE=PATH:MIB`: only write the scale pass's input (for profiling by hand).
    if let Ok(target) = std::env::var("CODEX_BENCH_WRITE") {
        let (path, mib) = target.rsplit_once(':').expect("CODEX_BENCH_WRITE=PATH:MIB");
        let mib: u64 = mib.parse().expect("CODEX_BENCH_WRITE=PATH:MIB");
        if let Some(lines) = real_lines() {
            write_rollout(Path::new(path), &lines, &shape(mib * MIB)).unwrap();
        }
        return;
    }
    // `CODEX_BENCH_VALUE=PATH`: only the baseline, the one-thread Value parse of that file.
    if let Ok(path) = std::env::var("CODEX_BENCH_VALUE") {
        let took = time_value_parse(Path::new(&path));
        eprintln!("value parse of {path}: {:.2}s", took.as_secs_f64());
        return;
    }
    // `CODEX_BENCH_SHAPES=1`: every command on every hard shape, alone.
    if std::env::var("CODEX_BENCH_SHAPES").as_deref() == Ok("1") {
        match real_lines() {
            Some(lines) => shapes::shapes(&lines),
            None => eprintln!("large bench: NO REAL FIXTURES, the shapes pass is NOT MEASURED"),
        }
        return;
    }
    // `CODEX_BENCH_SCALE_ONLY=1`: the whole-process scale pass alone, without the group.
    if std::env::var("CODEX_BENCH_SCALE_ONLY").as_deref() == Ok("1") {
        if let Some(lines) = real_lines() {
            scale(&lines);
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
