//! `codex-thread prune` over a generated home of 2,000 sessions, and `rescue` of one large
//! session: wall time and peak memory (maximum resident set, `/usr/bin/time`) of each run, as
//! a person runs them.
//!
//! Prune: the plan (dry run), then `--apply` of compress, archive and delete over every
//! session, then `--empty-trash`; the home has no Codex state (`state_5.sqlite`), so archive
//! and delete are the file moves alone (with Codex state each thread adds one `codex
//! archive` / `codex delete` run, about 60 ms in Codex 0.169). Rescue: a session of
//! `RESCUE_GIB` GiB (default 10 when measuring) of turns with long tool outputs and, every
//! 500 turns, a compaction whose replacement history repeats a 1 MiB inline image.
//!
//! `cargo bench -p codex-thread --bench prune` measures (`RESCUE_GIB=1` for a smaller
//! session; `CODEX_THREAD_BIN` measures another build of the binary); outside `cargo bench`
//! it measures nothing. The generated files live under the target directory and are deleted
//! at the end.

#![allow(clippy::expect_used, clippy::print_stderr, clippy::unwrap_used)]

#[path = "../tests/it/common/large_session.rs"]
mod large_session;
#[path = "../tests/it/common/usage_home.rs"]
mod usage_home;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use large_session::large_session;
use usage_home::{Plan, generate};

const SESSIONS: usize = 2_000;

/// Wall time and peak resident memory (KiB) of one run.
fn measure(args: &[&str]) -> (Duration, u64, String) {
    // `CODEX_THREAD_BIN` measures another build (a release binary) with this harness.
    let binary = std::env::var("CODEX_THREAD_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_codex-thread").to_owned());
    let time = Path::new("/usr/bin/time");
    let mut command = if time.exists() {
        let mut command = Command::new(time);
        command.args(["-f", "%M", binary.as_str()]);
        command
    } else {
        Command::new(binary)
    };
    command.args(args).env_remove("CODEX_HOME");
    let started = Instant::now();
    let output = command.output().expect("run");
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    let peak = stderr
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or(0);
    (
        elapsed,
        peak,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn report(label: &str, (elapsed, peak, _): &(Duration, u64, String)) {
    eprintln!(
        "{label:<40} {:>8.3} s {:>8.1} MiB",
        elapsed.as_secs_f64(),
        *peak as f64 / 1024.0
    );
}

fn build_home(home: &Path, sessions: usize) -> u64 {
    let start = Utc.with_ymd_and_hms(2026, 5, 1, 8, 0, 0).single().unwrap();
    let mut bytes = 0;
    for index in 0..sessions {
        let plan = Plan {
            seed: index as u64 + 1,
            start: start + chrono::Duration::minutes(97 * index as i64),
            model: "gpt-5.5".to_string(),
            turns: 4,
            responses_per_turn: 5,
            output_bytes: 1_500,
        };
        let path = generate(&plan, None, false).write_in(home, false).unwrap();
        bytes += std::fs::metadata(&path).unwrap().len();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(std::time::SystemTime::now() - Duration::from_secs(30 * 86_400))
            .unwrap();
    }
    bytes
}

fn count_lines(out: &str, needle: &str) -> usize {
    out.lines().filter(|line| line.contains(needle)).count()
}

fn bench_prune(root: &Path, sessions: usize) {
    let home = root.join("home");
    let bytes = build_home(&home, sessions);
    let home_arg = home.to_str().unwrap();
    eprintln!(
        "prune over {sessions} sessions, {:.1} MB",
        bytes as f64 / 1e6
    );
    let plan = measure(&["--json", "prune", "--home", home_arg, "--action", "delete"]);
    assert_eq!(count_lines(&plan.2, "\"type\":\"thread\""), sessions);
    report("plan (dry run, delete)", &plan);
    let keep = measure(&[
        "--json",
        "prune",
        "--home",
        home_arg,
        "--keep-last",
        "3",
        "--larger-than",
        "10K",
    ]);
    report("plan (--keep-last 3 --larger-than 10K)", &keep);
    for action in ["compress", "archive", "delete"] {
        let run = measure(&[
            "--json", "prune", "--home", home_arg, "--action", action, "--apply",
        ]);
        assert_eq!(
            count_lines(&run.2, "\"outcome\":\"done\""),
            sessions,
            "{action}"
        );
        report(&format!("--apply --action {action}"), &run);
    }
    let empty = measure(&[
        "prune",
        "--home",
        home_arg,
        "--empty-trash",
        "--grace",
        "0",
        "--apply",
    ]);
    report("--empty-trash --grace 0 --apply", &empty);
    assert!(
        !home.join("trash").exists() || std::fs::read_dir(home.join("trash")).unwrap().count() == 0
    );
}

fn bench_rescue(root: &Path, gib: f64) {
    let home = root.join("rescue-home");
    // A compaction every 500 turns (100 MB).
    let original = large_session(&home, (gib * (1u64 << 30) as f64) as u64, 500, u64::MAX);
    let size = std::fs::metadata(&original).unwrap().len();
    let run = measure(&[
        "--json",
        "rescue",
        original.to_str().unwrap(),
        "--home",
        home.to_str().unwrap(),
    ]);
    let rescued: serde_json::Value = serde_json::from_str(run.2.trim()).unwrap();
    eprintln!(
        "rescue of {:.2} GiB: {:.1} MiB kept ({} lines)",
        size as f64 / (1u64 << 30) as f64,
        rescued["rescued_bytes"].as_f64().unwrap() / (1u64 << 20) as f64,
        rescued["lines"]
    );
    report("rescue", &run);
}

fn main() {
    if !codex_test_support::under_cargo_bench("prune") {
        return;
    }
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prune-bench");
    let _ = std::fs::remove_dir_all(&root);
    let gib = std::env::var("RESCUE_GIB")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(10.0);
    bench_prune(&root, SESSIONS);
    bench_rescue(&root, gib);
    let _ = std::fs::remove_dir_all(&root);
}
