//! `write_tables` over a home of 2,000 generated rollouts, as a ratio to a baseline measured
//! in the same run: every line of every file parsed into a `serde_json::Value` on one thread
//! (the least a tool that reads the home must do).
//!
//! Measured, each the best of [`ROUNDS`] runs (the machine is shared):
//! - `value_parse_1_thread`: the baseline;
//! - `stream_1_thread`: every line read and parsed by `codex-rollout`'s stream reader (the
//!   typed parse every reader of this workspace does), one thread: the floor of any table
//!   run;
//! - `table_1_thread`: a first run into an empty folder, rayon limited to one thread;
//! - `table`: the same on every core rayon has;
//! - `table_unchanged`: a second run over the unchanged home (writes nothing);
//! - `codex-thread table`: the whole process as a user runs it (`codex-thread table --home H
//!   -o O`, default threads), when `TABLE_BENCH_BIN` names the binary (a release build);
//! - peak memory (`VmHWM`) of the table runs, reset after the home is laid out.
//!
//! The files are made of the real fixtures' lines (a new meta each, then a slice of the
//! pool, 8 to 120 KiB, about 120 MiB), written under Cargo's target temporary folder and
//! removed at the end. Without the real folder, a few lines of our own are used.

#![allow(clippy::expect_used, clippy::print_stderr)]

#[path = "support/lines.rs"]
mod lines;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use codex_home::{TableOptions, write_tables};
use codex_rollout::CodexHome;
use codex_rollout::RolloutStream;
use codex_test_support::under_cargo_bench;
use uuid::Uuid;

/// Sessions in the home, unless `TABLE_BENCH_FILES` says another number.
const FILES: usize = 2_000;

fn files() -> usize {
    std::env::var("TABLE_BENCH_FILES")
        .ok()
        .and_then(|files| files.parse().ok())
        .unwrap_or(FILES)
}
const ROUNDS: usize = 3;

fn main() {
    if !under_cargo_bench("table") {
        return;
    }
    let root = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temporary folder");
    // `TABLE_BENCH_HOME` keeps the home there after the bench (to profile a run over it).
    let home = std::env::var_os("TABLE_BENCH_HOME")
        .map_or_else(|| root.path().join("home"), PathBuf::from);
    let (paths, total) = lay(&home);
    eprintln!(
        "table bench: {} files, {:.1} MiB",
        files(),
        total as f64 / (1024.0 * 1024.0)
    );
    reset_peak_memory();

    let baseline = best(|| {
        let mut values = 0usize;
        for path in &paths {
            let mut reader = std::io::BufReader::with_capacity(
                256 * 1024,
                std::fs::File::open(path).expect("open"),
            );
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).expect("read") > 0 {
                if serde_json::from_slice::<serde_json::Value>(&line).is_ok() {
                    values += 1;
                }
                line.clear();
            }
        }
        assert!(values > files());
    });
    let stream = best(|| {
        let mut lines = 0usize;
        for path in &paths {
            let mut stream = RolloutStream::open(path).expect("open");
            while stream.next_line().expect("read").is_some() {
                lines += 1;
            }
        }
        assert!(lines > files());
    });
    let home = CodexHome::new(&home);
    let options = TableOptions::default();
    let mut round = 0;
    let mut fresh = || {
        round += 1;
        root.path().join(format!("out-{round}"))
    };
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let table_1 = best(|| {
        let out = fresh();
        let run = one_thread
            .install(|| write_tables(&home, &out, &options, &|_| {}))
            .expect("tables");
        assert_eq!(run.threads, files());
    });
    // Each round into a fresh folder, as for one thread: a folder removed just before a
    // round makes ext4 pass over the inodes it just freed for every folder and file the
    // round creates (`recently_deleted`), a cost of the bench, not of a first run.
    let mut out = PathBuf::new();
    let table = best(|| {
        out = fresh();
        write_tables(&home, &out, &options, &|_| {}).expect("tables");
    });
    let unchanged = best(|| {
        let run = write_tables(&home, &out, &options, &|_| {}).expect("tables");
        assert!(run.wrote_nothing());
    });
    // The whole process as a user runs it, when the bench is told where the binary is.
    let binary = std::env::var_os("TABLE_BENCH_BIN").map(PathBuf::from);
    let process = binary.as_ref().map(|binary| {
        best(|| {
            let out = fresh();
            let status = std::process::Command::new(binary)
                .arg("table")
                .arg("--home")
                .arg(&home.root)
                .arg("-o")
                .arg(&out)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("run codex-thread");
            assert!(status.success(), "codex-thread table failed");
        })
    });
    let mib = total as f64 / (1024.0 * 1024.0);
    let ratio = |of: Duration, to: Duration| of.as_secs_f64() / to.as_secs_f64().max(0.01);
    let mut lines = vec![
        ("value_parse_1_thread", baseline),
        ("stream_1_thread", stream),
        ("table_1_thread", table_1),
        ("table", table),
        ("table_unchanged", unchanged),
    ];
    lines.extend(process.map(|times| ("codex-thread table", times)));
    for (name, times) in lines {
        eprintln!(
            "{name:<22}{:>9.3} s {:>8.1} MiB/s   {:.2}x the baseline   cpu {:.2} s ({:.2}x), user {:.2} s ({:.2}x)",
            times.wall.as_secs_f64(),
            mib / times.wall.as_secs_f64(),
            ratio(times.wall, baseline.wall),
            times.cpu.as_secs_f64(),
            ratio(times.cpu, baseline.cpu),
            times.user.as_secs_f64(),
            ratio(times.user, baseline.user),
        );
    }
    if let Some(peak) = peak_memory_kib() {
        eprintln!(
            "peak memory (VmHWM) since the home was laid out: {} MiB",
            peak / 1024
        );
    }
}

/// The best of [`ROUNDS`] runs of `run`: its wall time, and the least CPU time (user and
/// system, every thread) and user CPU time a round took. On a shared machine the CPU time
/// moves less than the wall time: another process's load stretches the wall, not the CPU a
/// run uses. The system time is mostly the file system's (creating partition files).
fn best(mut run: impl FnMut()) -> Times {
    let mut best = Times {
        wall: Duration::MAX,
        cpu: Duration::MAX,
        user: Duration::MAX,
    };
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let (user_started, system_started) = cpu_time();
        run();
        let (user, system) = cpu_time();
        let user = user.saturating_sub(user_started);
        let cpu = user + system.saturating_sub(system_started);
        best.wall = best.wall.min(started.elapsed());
        best.cpu = best.cpu.min(cpu);
        best.user = best.user.min(user);
    }
    best
}

#[derive(Clone, Copy)]
struct Times {
    wall: Duration,
    cpu: Duration,
    user: Duration,
}

/// This process's user and system CPU time so far (Linux `/proc/self/stat`, in clock ticks
/// of 10 ms); zero elsewhere.
fn cpu_time() -> (Duration, Duration) {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return (Duration::ZERO, Duration::ZERO);
    };
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after the
    // command's closing parenthesis.
    // The next two, cutime and cstime, are the children's this process waited for (the
    // `codex-thread` runs).
    let mut ticks = stat.rsplit_once(')').map_or(Vec::new(), |(_, rest)| {
        rest.split_whitespace()
            .skip(11)
            .take(4)
            .map(|field| field.parse::<u64>().unwrap_or(0))
            .collect()
    });
    ticks.resize(4, 0);
    (
        Duration::from_millis((ticks[0] + ticks[2]) * 10),
        Duration::from_millis((ticks[1] + ticks[3]) * 10),
    )
}

/// Writes the generated home; its files and their total size.
fn lay(home: &Path) -> (Vec<PathBuf>, u64) {
    let pool = lines::line_pool("table");
    let mut at = 0usize;
    let mut total = 0u64;
    let paths = (0..files())
        .map(|i| {
            let thread = Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0000 + i as u128);
            let day = 1 + i % 28;
            let mut bytes = format!(
                r#"{{"timestamp":"2026-02-{day:02}T10:00:00.000Z","type":"session_meta","payload":{{"id":"{thread}","timestamp":"2026-02-{day:02}T10:00:00.000Z","cwd":"/w","originator":"bench","cli_version":"0.150.0"}}}}"#
            )
            .into_bytes();
            bytes.push(b'\n');
            let target = 8 * 1024 + (i * 7919) % (112 * 1024);
            while bytes.len() < target {
                bytes.extend_from_slice(&pool[at % pool.len()]);
                bytes.push(b'\n');
                at += 1;
            }
            let folder = home.join(format!("sessions/2026/02/{day:02}"));
            std::fs::create_dir_all(&folder).expect("folder");
            let path = folder.join(format!("rollout-2026-02-{day:02}T10-00-00-{thread}.jsonl"));
            std::fs::write(&path, &bytes).expect("write");
            total += bytes.len() as u64;
            path
        })
        .collect();
    (paths, total)
}

/// Resets the process's peak resident memory (Linux), so the peak read later is the runs',
/// not the generator's.
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}
