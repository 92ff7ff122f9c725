//! `notifications` of a file, read twice as a stream, prints what `notifications` of the same
//! bytes loaded whole (standard input) prints, with the same exit code: on every real file, a
//! zstd copy, and generated files with compactions, rollbacks and a torn last line.

#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;
#[path = "../../rollout/benches/support/generate.rs"]
mod generate;

use std::path::Path;

use codex_test_support::real_jsonl_files;
use generate::{real_lines, streamed_equivalence_shapes, write_rollout};
use pretty_assertions::assert_eq;

/// Exit code and standard output of `codex-thread notifications ARG`, with `stdin` fed.
fn notifications(arg: &Path, stdin: Option<Vec<u8>>) -> (Option<i32>, String) {
    let mut command = assert_cmd::Command::cargo_bin("codex-thread").unwrap();
    command.env_remove("RUST_LOG").arg("notifications").arg(arg);
    if let Some(stdin) = stdin {
        command.write_stdin(stdin);
    }
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// `notifications` of `path` streamed equals `notifications` of `plain`'s bytes loaded whole.
fn check(path: &Path, plain: &Path) {
    let streamed = notifications(path, None);
    let whole = notifications(Path::new("-"), Some(std::fs::read(plain).unwrap()));
    assert_eq!(streamed.0, whole.0, "{}: exit code", path.display());
    assert_eq!(streamed.1, whole.1, "{}: messages", path.display());
}

#[test]
fn streamed_notifications_equal_the_whole_file_replay() {
    let Some(files) = real_jsonl_files().unwrap() else {
        return;
    };
    let mut messages = 0;
    for file in &files {
        check(file, file);
        messages += notifications(file, None).1.lines().count();
    }
    assert!(
        messages > 1_000,
        "the real files replay {messages} message(s)"
    );
    let dir = tempfile::tempdir().unwrap();
    // A compressed copy streams to the plain file's messages.
    let (plain, zst) = common::compressed_copy_of_largest(&files, dir.path()).unwrap();
    check(&zst, &plain);

    let Some(lines) = real_lines() else {
        return;
    };
    for (index, shape) in streamed_equivalence_shapes().iter().enumerate() {
        let path = dir.path().join(format!("generated-{index}.jsonl"));
        write_rollout(&path, &lines, shape).unwrap();
        check(&path, &path);
    }
}
