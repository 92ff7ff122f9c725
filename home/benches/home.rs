//! `du` and `compress` over a home of 2,000 generated rollouts, each beside a baseline
//! measured in the same run:
//!
//! - `read_baseline`: every file read line by line (`read_until`), in parallel as `du`
//!   reads, nothing parsed: the cost of getting the bytes;
//! - `du` / `du_with_estimate`: [`measure_files`] without and with the compression estimate;
//! - `zstd_baseline`: every file read and `zstd::encode_all` at level 3 into memory, in
//!   parallel: the cost of the compression alone;
//! - `compress`: [`compress_files`] (temporary file, fsync, decode and compare, link, fsync
//!   the folder, remove the plain file), the home laid anew before each run, outside the
//!   timing.
//!
//! The files are made of the real fixtures' lines (a new meta each, then a slice of the
//! pool, 8 to 120 KiB, 2,000 files, about 120 MiB), written under Cargo's target temporary
//! folder and removed at the end. Without the real folder, a few lines of our own are used.

#![allow(clippy::expect_used, clippy::print_stderr)]

#[path = "support/lines.rs"]
mod lines;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Duration;

use codex_home::{CompressOptions, DuOptions, compress_files, measure_files};
use codex_rollout::CodexHome;
use codex_test_support::real_jsonl_files;
use criterion::{BatchSize, Criterion, Throughput, criterion_group};
use rayon::prelude::*;
use uuid::Uuid;

const FILES: usize = 2_000;

/// The generated files: (relative path, bytes).
fn generate() -> Vec<(PathBuf, Vec<u8>)> {
    let pool = lines::line_pool("home");
    let mut at = 0usize;
    (0..FILES)
        .map(|i| {
            let thread = Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0000 + i as u128);
            let day = 1 + i % 28;
            let name = format!("rollout-2026-02-{day:02}T10-00-00-{thread}.jsonl");
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
            (PathBuf::from(format!("sessions/2026/02/{day:02}")).join(name), bytes)
        })
        .collect()
}

fn lay(home: &Path, files: &[(PathBuf, Vec<u8>)]) -> Vec<PathBuf> {
    if home.exists() {
        std::fs::remove_dir_all(home).expect("clear home");
    }
    files
        .iter()
        .map(|(relative, bytes)| {
            let path = home.join(relative);
            std::fs::create_dir_all(path.parent().expect("folder")).expect("folder");
            std::fs::write(&path, bytes).expect("write");
            path
        })
        .collect()
}

/// Before criterion: what each level, with and without the long window, does to the real
/// fixtures (compressed size with `compress`'s own encoder, and the time of one pass).
fn real_fixture_levels() {
    use codex_rollout::{EncoderSettings, MAX_WINDOW_LOG};
    use std::io::Write;
    let Some(files) = real_jsonl_files().ok().flatten() else {
        return;
    };
    let contents: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let plain: usize = contents.iter().map(Vec::len).sum();
    eprintln!("real fixtures: {} files, {plain} bytes", contents.len());
    for level in [1, 3, 6, 9, 19] {
        for long_window_log in [None, Some(MAX_WINDOW_LOG)] {
            let settings = EncoderSettings {
                level,
                long_window_log,
            };
            let started = std::time::Instant::now();
            let mut compressed = 0;
            for bytes in &contents {
                let mut encoder = settings
                    .encoder(Vec::new(), Some(bytes.len() as u64))
                    .expect("encoder");
                encoder.write_all(bytes).expect("encode");
                compressed += encoder.finish().expect("finish").len();
            }
            let elapsed = started.elapsed();
            eprintln!(
                "level {level:>2} long {:<5} {compressed:>9} bytes  ratio {:.3}  {:.1} MiB/s",
                long_window_log.is_some(),
                compressed as f64 / plain as f64,
                plain as f64 / (1024.0 * 1024.0) / elapsed.as_secs_f64()
            );
        }
    }
}

fn bench_home(c: &mut Criterion) {
    real_fixture_levels();
    let root = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temporary folder");
    let home = root.path().join("home");
    let files = generate();
    let total: u64 = files.iter().map(|(_, bytes)| bytes.len() as u64).sum();
    eprintln!("home bench: {FILES} files, {} MiB", total / (1024 * 1024));
    let paths = lay(&home, &files);
    let compress_options = CompressOptions {
        older_than: Duration::ZERO,
        lock_home: Some(CodexHome::new(&home)),
        ..CompressOptions::default()
    };

    let mut group = c.benchmark_group("home");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Bytes(total));
    group.bench_function("read_baseline", |b| {
        b.iter(|| {
            paths
                .par_iter()
                .map(|path| {
                    let mut reader = std::io::BufReader::with_capacity(
                        256 * 1024,
                        std::fs::File::open(path).expect("open"),
                    );
                    let mut line = Vec::new();
                    let mut bytes = 0;
                    while reader.read_until(b'\n', &mut line).expect("read") > 0 {
                        bytes += line.len();
                        line.clear();
                    }
                    bytes
                })
                .sum::<usize>()
        })
    });
    for (name, estimate) in [("du", false), ("du_with_estimate", true)] {
        let options = DuOptions {
            estimate_compression: estimate,
            compress: compress_options.clone(),
        };
        group.bench_function(name, |b| {
            b.iter(|| measure_files(&paths, &options, &|_| {}).1.decoded_bytes)
        });
    }
    group.bench_function("zstd_baseline", |b| {
        b.iter(|| {
            paths
                .par_iter()
                .map(|path| {
                    let bytes = std::fs::read(path).expect("read");
                    zstd::encode_all(bytes.as_slice(), 3).expect("encode").len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("compress", |b| {
        b.iter_batched(
            || lay(&home, &files),
            |paths| {
                compress_files(&paths, &compress_options, &|_| {})
                    .files
                    .len()
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench_home);

codex_test_support::bench_main!("home", benches);
