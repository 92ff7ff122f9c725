//! The baseline every whole-file ratio in `docs/benchmarks.md` is measured against: a
//! one-thread `serde_json::Value` parse of every line, read from the file a line at a time
//! through a 1 MiB buffer, as the simplest honest reader of a rollout would.
//!
//! One definition for every benchmark. Reading the whole file into memory first (as one
//! bench once did) is not the baseline: at 1 GiB the allocation and its page faults added a
//! quarter to the parse (2.7 s → 3.5 s on the same machine), which flattered every ratio.

#![allow(dead_code)]

use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::{Duration, Instant};

/// Parses every line of `bytes` into a `Value` and counts the objects (for inputs already in
/// memory, such as a criterion group's or a piped chunk).
pub(crate) fn value_parse_bytes(bytes: &[u8]) -> u64 {
    bytes.split(|byte| *byte == b'\n').map(value_of_line).sum()
}

/// Parses every line of the files at `paths` into a `Value`, a line at a time, and counts the
/// objects.
pub(crate) fn value_parse_files<P: AsRef<Path>>(paths: &[P]) -> u64 {
    let mut objects = 0;
    let mut line = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let file = std::fs::File::open(path)
            .unwrap_or_else(|err| panic!("cannot open {}: {err}", path.display()));
        let mut reader = BufReader::with_capacity(1 << 20, file);
        loop {
            line.clear();
            let read = reader.read_until(b'\n', &mut line);
            if read.unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display())) == 0 {
                break;
            }
            objects += value_of_line(&line);
        }
    }
    objects
}

/// How long [`value_parse_files`] takes on the one file at `path`.
pub(crate) fn time_value_parse(path: &Path) -> Duration {
    let started = Instant::now();
    black_box(value_parse_files(&[path]));
    started.elapsed()
}

fn value_of_line(line: &[u8]) -> u64 {
    serde_json::from_slice::<serde_json::Value>(line)
        .map(|value| u64::from(value.is_object()))
        .unwrap_or(0)
}
