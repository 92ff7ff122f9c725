//! The search index against its peers, in one run: index build against a plain streaming
//! parse of the same files, and a warm query against `rg -i -F -l` over the same home.
//!
//! A home is generated under the target dir (`CARGO_TARGET_TMPDIR`) and deleted at the end:
//! sessions of about 4 MiB of user and assistant messages, reasoning summaries, tool calls
//! and outputs (a few KiB to 40 KiB), token counts; `CODEX_SEARCH_BENCH_MIB` sets its size
//! (default 1024). A rare word is planted in three files.
//!
//! - before criterion, the goal's ratio: a new index of the build slice against a one-thread
//!   `serde_json::Value` parse of the same files (read a line at a time), alternated three
//!   times in the same run, medians printed with their range (goal: at most 2x);
//!   The same on one file of real lines (`rollout/benches/support/generate.rs`: compactions,
//!   rollback markers, images; `CODEX_SEARCH_BENCH_REAL_MIB`, sizes in MiB separated by
//!   commas, default `100,1024`), the shape the issue measured, and on a home of every real
//!   fixture once (no text repeated but what the real files repeat), when the real fixtures
//!   are there (said loudly when not). The generated file repeats the real files' lines over
//!   and over, so most of its texts are stored once and read many times: the home of real
//!   files is the number for texts that do not repeat; `CODEX_SEARCH_BENCH_REAL_ONLY=1` runs
//!   these real-lines ratios alone (no generated home, no criterion);
//! - `build/value_parse`: that Value parse, under criterion;
//! - `build/stream_parse`: every file through [`RolloutStream`] (typed lines), the floor of
//!   any reader;
//! - `build/index_from_scratch`: a new index built from the same files (a 64 MiB slice of
//!   the home, so that each sample stays short);
//! - `query/update_and_search`: what `codex-thread search` does on a warm index: the
//!   up-to-date check of every file (a `stat` each) and the query;
//! - `query/search_only`: the query on an open index;
//! - `query/rg`: `rg -i -F -l WORD` over the home (page cache warm), when `rg` is installed;
//!   otherwise the bench says so and skips it.

#![allow(clippy::expect_used, clippy::print_stderr, clippy::unwrap_used)]

#[path = "../../rollout/benches/support/baseline.rs"]
mod baseline;
#[path = "../../rollout/benches/support/generate.rs"]
mod generate;

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use codex_home::{Query, SearchIndex};
use codex_rollout::CodexHome;
use codex_rollout::RolloutStream;
use criterion::{Criterion, Throughput};

const NEEDLE: &str = "quetzalcoatlite";
const FILE_BYTES: usize = 4 * 1024 * 1024;
const BUILD_SLICE_BYTES: u64 = 64 * 1024 * 1024;

const WORDS: &[&str] = &[
    "parser", "config", "error", "test", "build", "cache", "thread", "request", "handler",
    "module", "function", "value", "string", "index", "buffer", "socket", "schema", "render",
    "commit", "branch", "deploy", "docker", "query", "column", "session", "token", "format",
    "output", "input", "stream", "async", "await", "future", "vector", "option", "result",
    "update", "delete", "insert", "select", "import", "export", "client", "server", "router",
];

/// A small deterministic generator, so every run writes the same home.
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn sentence(&mut self, words: usize) -> String {
        let mut text = String::new();
        for n in 0..words {
            if n > 0 {
                text.push(' ');
            }
            let word = WORDS[(self.next() % WORDS.len() as u64) as usize];
            text.push_str(word);
            if self.next().is_multiple_of(5) {
                let _ = write!(text, "_{}", self.next() % 10_000);
            }
        }
        text
    }
}

fn session(n: usize, words: &mut Words, needle: bool) -> Vec<u8> {
    let id = format!("01900000-0000-7000-8000-{n:012}");
    let mut out = Vec::with_capacity(FILE_BYTES + 64 * 1024);
    writeln!(
        out,
        r#"{{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{{"session_id":"{id}","id":"{id}","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/work/project{}","originator":"codex_cli_rs","cli_version":"0.150.0"}}}}"#,
        n % 7
    )
    .unwrap();
    let mut turn = 0;
    while out.len() < FILE_BYTES {
        turn += 1;
        let minute = turn % 60;
        let ts = format!(
            "2026-01-{:02}T{:02}:{minute:02}:00.000Z",
            1 + n % 28,
            turn / 60 % 24
        );
        let mut ask = words.sentence(20);
        if needle && turn == 7 {
            ask.push_str(&format!(" {NEEDLE}"));
        }
        writeln!(out, r#"{{"timestamp":"{ts}","type":"turn_context","payload":{{"cwd":"/work/project{}","approval_policy":"never","sandbox_policy":{{"type":"danger-full-access"}},"model":"gpt-5-codex","summary":"auto"}}}}"#, n % 7).unwrap();
        writeln!(out, r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{ask}"}}]}}}}"#).unwrap();
        writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"user_message","message":"{ask}","kind":"plain"}}}}"#).unwrap();
        for call in 0..4 {
            writeln!(out, r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"reasoning","summary":[{{"type":"summary_text","text":"{}"}}],"content":null,"encrypted_content":"{}"}}}}"#, words.sentence(30), "gAAAA".repeat(200)).unwrap();
            writeln!(out, r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"function_call","name":"shell","arguments":"{{\"command\":[\"bash\",\"-lc\",\"{}\"]}}","call_id":"call_{turn}_{call}"}}}}"#, words.sentence(6)).unwrap();
            let lines = 20 + (words.next() % 400) as usize;
            let mut output = String::new();
            for _ in 0..lines {
                output.push_str(&words.sentence(12));
                output.push_str("\\n");
            }
            writeln!(out, r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"function_call_output","call_id":"call_{turn}_{call}","output":"{output}"}}}}"#).unwrap();
            writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"token_count","info":null,"rate_limits":null}}}}"#).unwrap();
        }
        writeln!(out, r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"{}"}}]}}}}"#, words.sentence(80)).unwrap();
    }
    out
}

/// Writes a home of about `bytes` under `root`; returns the files in order.
fn generate(root: &Path, bytes: u64) -> Vec<PathBuf> {
    let mut words = Words(0x9E37_79B9_7F4A_7C15);
    let count = (bytes as usize).div_ceil(FILE_BYTES).max(4);
    let mut files = Vec::new();
    for n in 0..count {
        let day = root.join(format!("sessions/2026/01/{:02}", 1 + n % 28));
        std::fs::create_dir_all(&day).unwrap();
        let path = day.join(format!(
            "rollout-2026-01-{:02}T00-00-00-01900000-0000-7000-8000-{n:012}.jsonl",
            1 + n % 28
        ));
        let needle = n == 1 || n == count / 2 || n == count - 1;
        std::fs::write(&path, session(n, &mut words, needle)).unwrap();
        files.push(path);
    }
    files
}

fn stream_parse(files: &[PathBuf]) -> u64 {
    let mut lines = 0;
    for file in files {
        let stream = RolloutStream::open(file).unwrap();
        lines += stream
            .for_each_line(|line| {
                black_box(&line.content);
            })
            .unwrap()
            .lines as u64;
    }
    lines
}

/// A new index of `home` at `path` (any old one deleted first).
fn build_index(path: &Path, home: &CodexHome) -> codex_home::UpdateReport {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let mut index = SearchIndex::open(path).unwrap();
    index.update(home).unwrap()
}

/// The index build against the Value parse, alternated `rounds` times: medians and ranges.
fn build_ratio(label: &str, slice: &[PathBuf], home: &CodexHome, path: &Path, rounds: usize) {
    let mut parse = Vec::new();
    let mut build = Vec::new();
    for _ in 0..rounds {
        let started = Instant::now();
        black_box(baseline::value_parse_files(slice));
        parse.push(started.elapsed().as_secs_f64());
        let started = Instant::now();
        black_box(build_index(path, home));
        build.push(started.elapsed().as_secs_f64());
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let ratios: Vec<f64> = build.iter().zip(&parse).map(|(b, p)| b / p).collect();
    let (low, high) = ratios.iter().fold((f64::MAX, 0f64), |(low, high), r| {
        (low.min(*r), high.max(*r))
    });
    let (parse_median, build_median) = (median(&mut parse), median(&mut build));
    eprintln!(
        "search bench, {label}: index build {build_median:.2} s against a one-thread Value parse \
         {parse_median:.2} s: {:.2}x (rounds {low:.2}x to {high:.2}x; goal at most 2x)",
        build_median / parse_median
    );
}

/// [`build_ratio`] on one file of real lines of each size asked for, in a home of its own,
/// deleted after; then on a home of every real file once.
fn real_lines_ratio(dir: &Path) {
    let Some(lines) = generate::real_lines() else {
        eprintln!("search bench: NO REAL FIXTURES, the real-lines ratio is NOT MEASURED");
        return;
    };
    for mib in generate::scale_sizes_from("CODEX_SEARCH_BENCH_REAL_MIB") {
        let home_dir = dir.join("real-home");
        let day = home_dir.join("sessions/2026/01/01");
        std::fs::create_dir_all(&day).unwrap();
        let path =
            day.join("rollout-2026-01-01T00-00-00-01900000-0000-7000-8000-000000000001.jsonl");
        let shape = generate::Shape {
            bytes: mib * 1024 * 1024,
            compactions: vec![0.5, 0.99],
            rollbacks: vec![(0.995, 2), (0.998, 1)],
            ..generate::Shape::default()
        };
        generate::write_rollout(&path, &lines, &shape).unwrap();
        build_ratio(
            &format!("{mib} MiB of real lines"),
            std::slice::from_ref(&path),
            &CodexHome::new(&home_dir),
            &dir.join("real.sqlite"),
            3,
        );
        std::fs::remove_dir_all(&home_dir).unwrap();
    }
    let Ok(Some(originals)) = codex_test_support::real_jsonl_files() else {
        return;
    };
    let home_dir = dir.join("real-files");
    let day = home_dir.join("sessions/2026/01/01");
    std::fs::create_dir_all(&day).unwrap();
    let mut copies = Vec::new();
    for (n, original) in originals.iter().enumerate() {
        let copy = day.join(format!(
            "rollout-2026-01-01T00-00-00-01900000-0000-7000-8000-{:012}.jsonl",
            n + 1
        ));
        std::fs::copy(original, &copy).unwrap();
        copies.push(copy);
    }
    let bytes: u64 = copies
        .iter()
        .map(|copy| std::fs::metadata(copy).unwrap().len())
        .sum();
    build_ratio(
        &format!(
            "every real file once ({} files, {:.1} MiB)",
            copies.len(),
            bytes as f64 / 1048576.0
        ),
        &copies,
        &CodexHome::new(&home_dir),
        &dir.join("real-files.sqlite"),
        7,
    );
    std::fs::remove_dir_all(&home_dir).unwrap();
}

fn rg_path() -> Option<PathBuf> {
    let output = Command::new("rg").arg("--version").output().ok()?;
    output.status.success().then(|| PathBuf::from("rg"))
}

fn main() {
    if !codex_test_support::under_cargo_bench("search") {
        return;
    }
    if std::env::var("CODEX_SEARCH_BENCH_REAL_ONLY").as_deref() == Ok("1") {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        real_lines_ratio(dir.path());
        return;
    }
    let mib: u64 = std::env::var("CODEX_SEARCH_BENCH_MIB")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(1024);
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let home_dir = dir.path().join("home");
    let started = Instant::now();
    let files = generate(&home_dir, mib * 1024 * 1024);
    let home_bytes: u64 = files
        .iter()
        .map(|file| std::fs::metadata(file).unwrap().len())
        .sum();
    eprintln!(
        "search bench: generated {} files, {:.0} MiB, in {:.1?} under {}",
        files.len(),
        home_bytes as f64 / 1048576.0,
        started.elapsed(),
        dir.path().display()
    );

    // The build slice: the first files up to BUILD_SLICE_BYTES, in a home of their own.
    let slice_dir = dir.path().join("slice");
    let mut slice = Vec::new();
    let mut slice_bytes = 0;
    for file in &files {
        if slice_bytes >= BUILD_SLICE_BYTES {
            break;
        }
        let target = slice_dir.join(file.strip_prefix(&home_dir).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(file, &target).unwrap();
        slice_bytes += std::fs::metadata(&target).unwrap().len();
        slice.push(target);
    }
    let slice_home = CodexHome::new(&slice_dir);

    // The whole home's index, built once (timed once: the first query on a new home).
    let index_path = dir.path().join("index.sqlite");
    let home = CodexHome::new(&home_dir);
    let started = Instant::now();
    let mut index = SearchIndex::open(&index_path).unwrap();
    let report = index.update(&home).unwrap();
    let build = started.elapsed();
    let index_bytes = std::fs::metadata(&index_path).unwrap().len();
    eprintln!(
        "search bench: first index of the home: {build:.1?} ({:.1} MiB/s), {} texts, index {:.0} MiB ({:.0}% of the home)",
        home_bytes as f64 / 1048576.0 / build.as_secs_f64(),
        report.entries,
        index_bytes as f64 / 1048576.0,
        100.0 * index_bytes as f64 / home_bytes as f64
    );
    let query = Query::new(NEEDLE);
    let hits = index.search(&home, &query).unwrap();
    assert_eq!(hits.len(), 3, "the planted word is in three files");

    build_ratio(
        "generated slice",
        &slice,
        &slice_home,
        &dir.path().join("ratio.sqlite"),
        3,
    );
    real_lines_ratio(dir.path());

    let mut criterion = Criterion::default().configure_from_args().sample_size(10);
    {
        let mut group = criterion.benchmark_group("build");
        group.throughput(Throughput::Bytes(slice_bytes));
        group.bench_function("value_parse", |b| {
            b.iter(|| baseline::value_parse_files(&slice))
        });
        group.bench_function("stream_parse", |b| b.iter(|| stream_parse(&slice)));
        group.bench_function("index_from_scratch", |b| {
            b.iter_batched(
                || {
                    let path = dir.path().join("build.sqlite");
                    for suffix in ["", "-wal", "-shm"] {
                        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                    }
                    path
                },
                |path| {
                    let mut index = SearchIndex::open(&path).unwrap();
                    index.update(&slice_home).unwrap()
                },
                criterion::BatchSize::PerIteration,
            )
        });
        group.finish();
    }
    {
        let mut group = criterion.benchmark_group("query");
        group.bench_function("update_and_search", |b| {
            b.iter(|| {
                let mut index = SearchIndex::open(&index_path).unwrap();
                index.update(&home).unwrap();
                index.search(&home, &query).unwrap()
            })
        });
        group.bench_function("search_only", |b| {
            b.iter(|| index.search(&home, &query).unwrap())
        });
        match rg_path() {
            Some(rg) => {
                group.bench_function("rg", |b| {
                    b.iter(|| {
                        let output = Command::new(&rg)
                            .args(["-i", "-F", "-l", NEEDLE])
                            .arg(&home_dir)
                            .output()
                            .unwrap();
                        assert_eq!(
                            output.stdout.iter().filter(|byte| **byte == b'\n').count(),
                            3
                        );
                    })
                });
            }
            None => eprintln!(
                "search bench: rg IS MISSING, query/rg NOT MEASURED: install ripgrep \
                 (apt-get install ripgrep, or cargo install ripgrep) for the comparison"
            ),
        }
        group.finish();
    }
    criterion.final_summary();
    drop(index);
    drop(dir);
}
