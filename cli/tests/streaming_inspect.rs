//! `inspect` read as a stream (what the command does) equals `inspect` of the whole loaded
//! file (the loader, parallel for large inputs), on every real file and on generated large
//! files with compactions, rollbacks and a torn last line.

#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "../../rollout/benches/support/generate.rs"]
mod generate;

use std::path::Path;

use codex_rollout::load::RolloutContents;
use codex_test_support::real_jsonl_files;
use codex_thread::commands::inspect::{inspect, inspect_source};
use codex_thread::input::Source;
use codex_thread::progress::Progress;
use generate::{real_lines, streamed_equivalence_shapes, write_rollout};
use pretty_assertions::assert_eq;

fn check(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let whole = inspect(&RolloutContents::parse(bytes.clone()));
    let parallel = inspect(&RolloutContents::parse_with_threads(bytes, 3));
    assert_eq!(parallel, whole, "{}: parallel", path.display());
    // A file the command refuses (no readable line) has no streamed inspection to compare.
    if let Ok(streamed) = inspect_source(&Source::File(path.to_path_buf()), &Progress::hidden()) {
        assert_eq!(streamed, whole, "{}: streamed", path.display());
    }
}

#[test]
fn streaming_inspect_equals_the_whole_file_inspect() {
    let Some(files) = real_jsonl_files().unwrap() else {
        return;
    };
    for file in &files {
        check(file);
    }
    let Some(lines) = real_lines() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (index, shape) in streamed_equivalence_shapes().iter().enumerate() {
        let path = dir.path().join(format!("generated-{index}.jsonl"));
        write_rollout(&path, &lines, shape).unwrap();
        check(&path);
    }
}
