//! `codex-thread usage daily` beside its peer, `ccusage codex daily` (the pinned npm release),
//! on one generated Codex home of 2,000 sessions (one in ten a sub-agent child that copies its
//! parent's lines, as real children do), in the same run.
//!
//! Both are run as the person runs them: a process over the home, `--json`, UTC, ccusage
//! `--offline`. Before criterion runs, an interleaved measurement (the two alternate, median
//! of 5 rounds) prints the time ratio and each one's peak memory (maximum resident set, from
//! `/usr/bin/time`), robust to the load of a shared machine drifting during the run; the
//! totals of both are checked to be equal first, so the two do the same work.
//!
//! Goal: at least 3x faster than ccusage, with no more memory. The generated home (about
//! 110 MB) lives under the target directory (`usage-bench-home`) and is deleted at the end,
//! unless `CODEX_USAGE_BENCH_KEEP_HOME=1` keeps it for runs by hand.
//!
//! Then a scale pass: `codex-thread usage session` on one file of real lines
//! (`rollout/benches/support/generate.rs`, as the `large` bench writes them: compactions,
//! rollback markers, images, repeated token counts) at each size of
//! `CODEX_USAGE_BENCH_SCALE_MIB` (comma-separated MiB, default `100,1024`; `10240` for the
//! 10 GiB point), whole process, wall time as a ratio to a one-thread `serde_json::Value`
//! parse of the same file measured just before, and peak memory, which must not grow with
//! the file. One file at a time is on disk, deleted after its measurement.
//! `CODEX_USAGE_BENCH_SCALE_ONLY=1` runs the scale pass alone.

#![allow(clippy::expect_used, clippy::print_stderr, clippy::unwrap_used)]

#[path = "../../rollout/benches/support/baseline.rs"]
mod baseline;
#[path = "../tests/it/common/ccusage.rs"]
mod ccusage;
#[path = "../../rollout/benches/support/generate.rs"]
mod generate;
#[path = "../tests/it/common/usage_home.rs"]
mod usage_home;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use criterion::{Criterion, criterion_group};
use usage_home::{Generated, Plan, generate};

/// Sessions in the home when benchmarking (`cargo bench`); `cargo test --all-targets` runs
/// this file once as a check, on a small home.
const SESSIONS: usize = 2_000;
const SESSIONS_WHEN_TESTED: usize = 40;

/// Whether criterion is measuring (`cargo bench` passes `--bench`), not just checking.
fn measuring() -> bool {
    std::env::args().any(|arg| arg == "--bench")
}

fn build_home(home: &Path, sessions: usize) -> usize {
    let start = Utc.with_ymd_and_hms(2026, 5, 1, 8, 0, 0).single().unwrap();
    let mut parents: Vec<Generated> = Vec::new();
    let mut bytes = 0;
    for index in 0..sessions {
        let plan = Plan {
            seed: index as u64 + 1,
            start: start + chrono::Duration::minutes(97 * index as i64),
            model: ["gpt-5.5", "gpt-5.6-sol", "gpt-5.1-codex"][index % 3].to_string(),
            turns: 4,
            responses_per_turn: 5,
            output_bytes: 1_500,
        };
        let session = if index % 10 == 9 {
            generate(&plan, parents.last(), false)
        } else {
            generate(&plan, None, false)
        };
        session.write_in(home, false).unwrap();
        bytes += session.text().len();
        if index % 10 != 9 {
            parents.clear();
            parents.push(session);
        }
    }
    bytes
}

fn ours_command(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codex-thread"));
    command
        .args(["--json", "usage", "daily", "--timezone", "UTC", "--home"])
        .arg(home);
    command
}

fn ccusage_command(binary: &Path, home: &Path, scratch: &Path) -> Command {
    let mut command = Command::new(binary);
    command
        .args(["codex", "daily", "--json", "--offline", "--timezone", "UTC"])
        .env("CODEX_HOME", home)
        .env("HOME", scratch)
        .env("NO_COLOR", "1");
    command
}

/// Wall time and peak resident memory (KiB) of one run, its standard output checked.
/// Without `/usr/bin/time` the memory is reported as 0 (not measured).
fn measure(command: &Command) -> (Duration, u64, Vec<u8>) {
    let time = Path::new("/usr/bin/time");
    let mut timed = if time.exists() {
        let mut timed = Command::new(time);
        timed.args(["-f", "%M"]).arg(command.get_program());
        timed
    } else {
        Command::new(command.get_program())
    };
    timed.args(command.get_args());
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            timed.env(key, value);
        }
    }
    let started = Instant::now();
    let output = timed.output().expect("run");
    let elapsed = started.elapsed();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak = stderr
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or(0);
    (elapsed, peak, output.stdout)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn bench(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("usage-bench-home");
    let _ = std::fs::remove_dir_all(&root);
    let (sessions, rounds) = if measuring() {
        (SESSIONS, 5)
    } else {
        (SESSIONS_WHEN_TESTED, 1)
    };
    let bytes = build_home(&root, sessions);
    let scratch = tempfile::tempdir().unwrap();
    eprintln!(
        "usage bench: {sessions} generated sessions, {:.1} MB",
        bytes as f64 / 1e6
    );
    let ours = ours_command(&root);
    let peer = ccusage::ccusage().map(|binary| ccusage_command(&binary, &root, scratch.path()));

    if let Some(peer) = &peer {
        // Same work: the same totals.
        let (_, _, mine) = measure(&ours);
        let (_, _, theirs) = measure(peer);
        let mine: serde_json::Value = serde_json::from_slice(&mine).unwrap();
        let theirs: serde_json::Value = serde_json::from_slice(&theirs).unwrap();
        assert_eq!(
            mine["totals"]["total_tokens"], theirs["totals"]["totalTokens"],
            "the two disagree on the generated home"
        );
        let mut times = (Vec::new(), Vec::new());
        let mut peaks = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let (time, peak, _) = measure(&ours);
            times.0.push(time.as_secs_f64());
            peaks.0.push(peak as f64);
            let (time, peak, _) = measure(peer);
            times.1.push(time.as_secs_f64());
            peaks.1.push(peak as f64);
        }
        let (ours_time, peer_time) = (median(times.0), median(times.1));
        let (ours_peak, peer_peak) = (median(peaks.0), median(peaks.1));
        eprintln!(
            "usage daily: codex-thread {:.3} s, ccusage {:.3} s: {:.2}x faster; \
             peak memory codex-thread {:.1} MiB, ccusage {:.1} MiB ({:.2}x)",
            ours_time,
            peer_time,
            peer_time / ours_time,
            ours_peak / 1024.0,
            peer_peak / 1024.0,
            ours_peak / peer_peak
        );
    }

    let mut group = c.benchmark_group(format!("usage_daily_{sessions}_sessions"));
    group.sample_size(10);
    group.bench_function("codex-thread", |b| {
        b.iter(|| {
            let output = ours_command(&root).output().unwrap();
            assert!(output.status.success());
        });
    });
    if let Some(binary) = ccusage::ccusage() {
        group.bench_function("ccusage", |b| {
            b.iter(|| {
                let output = ccusage_command(&binary, &root, scratch.path())
                    .output()
                    .unwrap();
                assert!(output.status.success());
            });
        });
    }
    group.finish();
    if std::env::var("CODEX_USAGE_BENCH_KEEP_HOME").as_deref() == Ok("1") {
        eprintln!("usage bench: the home is kept at {}", root.display());
    } else {
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// The sizes of the scale pass (MiB).
fn scale_sizes() -> Vec<u64> {
    generate::scale_sizes_from("CODEX_USAGE_BENCH_SCALE_MIB")
}

/// `usage session` on one generated file per size: time against the Value parse, peak memory.
fn scale() {
    let Some(lines) = generate::real_lines() else {
        eprintln!("usage bench: NO REAL FIXTURES, scale pass NOT MEASURED");
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("usage-bench-scale");
    std::fs::create_dir_all(&dir).unwrap();
    for mib in scale_sizes() {
        let path = dir.join(format!("scale-{mib}mib.jsonl"));
        let shape = generate::Shape {
            bytes: mib * 1024 * 1024,
            compactions: vec![0.5, 0.99],
            rollbacks: vec![(0.995, 2), (0.998, 1)],
            ..generate::Shape::default()
        };
        let written = generate::write_rollout(&path, &lines, &shape).unwrap();
        let value = baseline::time_value_parse(&path);
        let mut command = Command::new(env!("CARGO_BIN_EXE_codex-thread"));
        command
            .args(["--json", "usage", "session", "--timezone", "UTC"])
            .arg(&path);
        let (usage, peak, output) = measure(&command);
        let report: serde_json::Value = serde_json::from_slice(&output).unwrap();
        eprintln!(
            "usage scale {mib} MiB ({} lines): value parse {:.2} s | usage session {:.2} s \
             ({:.3}x the parse), peak {:.1} MiB, {} tokens",
            written.lines,
            value.as_secs_f64(),
            usage.as_secs_f64(),
            usage.as_secs_f64() / value.as_secs_f64(),
            peak as f64 / 1024.0,
            report["totals"]["total_tokens"]
        );
        std::fs::remove_file(&path).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);

fn main() {
    if !codex_test_support::under_cargo_bench("usage") {
        return;
    }
    let scale_only = std::env::var("CODEX_USAGE_BENCH_SCALE_ONLY").as_deref() == Ok("1");
    if !scale_only {
        benches();
    }
    scale();
    Criterion::default().configure_from_args().final_summary();
}
