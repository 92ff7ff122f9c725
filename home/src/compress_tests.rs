//! (Test code: a failed setup step panics with its error.)
#![allow(clippy::unwrap_used)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use pretty_assertions::assert_eq;

use codex_rollout::testing::Step;
use codex_rollout::{MAX_WINDOW_LOG, load_rollout_items};
use codex_test_support::old_session::{
    THREAD, WEEKS_AGO, session_text as content, write_old_session,
};

use super::*;
use crate::all_rollout_files;
use crate::writer_lock::thread_writer_lock_path;

/// A home with one old session file; returns the home folder guard, the home and the file.
fn home_with_session() -> (tempfile::TempDir, CodexHome, PathBuf, SystemTime) {
    let dir = tempfile::tempdir().unwrap();
    let (path, modified) = write_old_session(dir.path()).unwrap();
    let home = CodexHome::new(dir.path());
    (dir, home, path, modified)
}

fn options() -> CompressOptions {
    CompressOptions::default()
}

fn target_of(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.zst", path.display()))
}

/// The one file the listing finds for the session, and its items.
fn listed_items(home: &CodexHome) -> (PathBuf, Vec<codex_protocol::rollout::RolloutItem>) {
    let files = all_rollout_files(home).unwrap();
    assert_eq!(files.len(), 1, "{files:?}");
    let loaded = load_rollout_items(&files[0].path).unwrap();
    (files[0].path.clone(), loaded.contents.items().to_vec())
}

fn temporary_files(folder: &Path) -> Vec<String> {
    std::fs::read_dir(folder)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect()
}

#[test]
fn an_old_file_becomes_one_zstd_frame_with_the_same_bytes_and_mtime() {
    let (_dir, home, path, modified) = home_with_session();
    let (_, before) = listed_items(&home);
    let result = compress_file(&path, &options(), &|_| {});
    let target = target_of(&path);
    let compressed = std::fs::read(&target).unwrap();
    assert_eq!(
        result.outcome,
        CompressOutcome::Compressed {
            target: target.clone(),
            plain_bytes: content().len() as u64,
            compressed_bytes: compressed.len() as u64,
        }
    );
    assert!(!path.exists());
    // Upstream's reader: the default decoder (window limit 2^27), one frame.
    let decoded = zstd::stream::decode_all(compressed.as_slice()).unwrap();
    assert_eq!(decoded, content().as_bytes());
    assert_eq!(
        zstd::zstd_safe::find_frame_compressed_size(&compressed).unwrap(),
        compressed.len()
    );
    assert_eq!(
        std::fs::metadata(&target).unwrap().modified().unwrap(),
        modified
    );
    let (listed, after) = listed_items(&home);
    assert_eq!(listed, target);
    assert_eq!(after, before);
    assert_eq!(
        temporary_files(path.parent().unwrap()),
        Vec::<String>::new()
    );
    // A second run leaves it alone.
    let again = compress_file(&target, &options(), &|_| {});
    assert_eq!(
        again.outcome,
        CompressOutcome::Skipped {
            reason: SkipReason::AlreadyCompressed
        }
    );
}

#[test]
fn recent_files_held_threads_and_dry_runs_are_left_alone() {
    let (_dir, home, path, _) = home_with_session();
    let original = std::fs::read(&path).unwrap();
    let recent = CompressOptions {
        older_than: WEEKS_AGO * 2,
        ..options()
    };
    assert_eq!(
        compress_file(&path, &recent, &|_| {}).outcome,
        CompressOutcome::Skipped {
            reason: SkipReason::Recent
        }
    );
    let lock = thread_writer_lock_path(&home, ThreadId::from_string(THREAD).unwrap());
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let held = File::create(&lock).unwrap();
    held.lock().unwrap();
    assert_eq!(
        compress_file(&path, &options(), &|_| {}).outcome,
        CompressOutcome::Skipped {
            reason: SkipReason::OpenInCodex
        }
    );
    held.unlock().unwrap();
    let dry = CompressOptions {
        dry_run: true,
        ..options()
    };
    assert_eq!(
        compress_file(&path, &dry, &|_| {}).outcome,
        CompressOutcome::WouldCompress {
            target: target_of(&path),
            plain_bytes: original.len() as u64
        }
    );
    assert_eq!(std::fs::read(&path).unwrap(), original);
    assert!(!target_of(&path).exists());
    // The lock file left by a killed Codex (nobody holds it) does not stop compression.
    assert!(matches!(
        compress_file(&path, &options(), &|_| {}).outcome,
        CompressOutcome::Compressed { .. }
    ));
}

#[test]
fn a_file_outside_a_home_needs_a_home_to_ask_and_a_jsonl_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("loose.jsonl");
    std::fs::write(&path, content()).unwrap();
    let other = dir.path().join("loose.txt");
    std::fs::write(&other, content()).unwrap();
    let now = SystemTime::now() + WEEKS_AGO;
    let no_home = CompressOptions { now, ..options() };
    assert_eq!(
        compress_file(&path, &no_home, &|_| {}).outcome,
        CompressOutcome::Skipped {
            reason: SkipReason::LockUnknown
        }
    );
    let with_home = CompressOptions {
        now,
        lock_home: Some(CodexHome::new(dir.path())),
        ..options()
    };
    assert_eq!(
        compress_file(&other, &with_home, &|_| {}).outcome,
        CompressOutcome::Skipped {
            reason: SkipReason::NotJsonl
        }
    );
    // The thread comes from the first meta when the name does not say it.
    assert!(matches!(
        compress_file(&path, &with_home, &|_| {}).outcome,
        CompressOutcome::Compressed { .. }
    ));
}

#[test]
fn every_interrupted_state_is_readable_and_the_next_run_finishes() {
    for step in [Step::Verified, Step::Linked, Step::TempRemoved] {
        let (_dir, home, path, modified) = home_with_session();
        let (_, before) = listed_items(&home);
        let stopped = compress_one(&path, &options(), &|_| {}, |job| {
            job.run_stopping_after(step)
        })
        .unwrap();
        assert!(
            matches!(stopped, CompressOutcome::Failed { .. }),
            "{step:?}"
        );
        // Readers see the plain file (preferred over a .zst beside it) with every item.
        let (listed, items) = listed_items(&home);
        assert_eq!(listed, path, "{step:?}");
        assert_eq!(items, before, "{step:?}");
        let folder = path.parent().unwrap().to_path_buf();
        assert_eq!(
            temporary_files(&folder).len(),
            usize::from(step < Step::TempRemoved)
        );
        let run = compress_files(std::slice::from_ref(&path), &options(), &|_| {});
        assert_eq!(
            run.stale_temporary_files,
            usize::from(step < Step::TempRemoved)
        );
        let want_finished = step >= Step::Linked;
        match &run.files[0].outcome {
            CompressOutcome::Finished { .. } => assert!(want_finished, "{step:?}"),
            CompressOutcome::Compressed { .. } => assert!(!want_finished, "{step:?}"),
            other => panic!("{step:?}: {other:?}"),
        }
        let (listed, items) = listed_items(&home);
        assert_eq!(listed, target_of(&path));
        assert_eq!(items, before);
        assert!(!path.exists());
        assert_eq!(temporary_files(&folder), Vec::<String>::new());
        assert_eq!(
            std::fs::metadata(&listed).unwrap().modified().unwrap(),
            modified
        );
    }
}

#[test]
fn a_different_compressed_sibling_is_never_replaced() {
    let (_dir, _home, path, _) = home_with_session();
    let target = target_of(&path);
    let other = zstd::encode_all(&b"{\"other\":1}\n"[..], 3).unwrap();
    std::fs::write(&target, &other).unwrap();
    assert_eq!(
        compress_file(&path, &options(), &|_| {}).outcome,
        CompressOutcome::Skipped {
            reason: SkipReason::SiblingDiffers
        }
    );
    assert_eq!(std::fs::read(&target).unwrap(), other);
    assert_eq!(std::fs::read(&path).unwrap(), content().as_bytes());
}

#[test]
fn levels_and_the_long_window_stay_readable_by_the_default_decoder() {
    for (level, long_window_log) in [
        (1, None),
        (19, None),
        (3, Some(MAX_WINDOW_LOG)),
        (19, Some(MAX_WINDOW_LOG)),
    ] {
        let (_dir, _home, path, _) = home_with_session();
        let options = CompressOptions {
            encoder: EncoderSettings {
                level,
                long_window_log,
            },
            ..options()
        };
        let result = compress_file(&path, &options, &|_| {});
        assert!(
            matches!(result.outcome, CompressOutcome::Compressed { .. }),
            "{result:?}"
        );
        let compressed = std::fs::read(target_of(&path)).unwrap();
        let decoded = zstd::stream::decode_all(compressed.as_slice()).unwrap();
        assert_eq!(decoded, content().as_bytes());
    }
}

#[test]
fn a_run_is_summed_up_with_its_reasons_to_skip() {
    let file = |outcome| FileResult {
        path: PathBuf::from("a.jsonl"),
        outcome,
    };
    let skipped = |reason| file(CompressOutcome::Skipped { reason });
    let run = CompressRun {
        files: vec![
            file(CompressOutcome::Compressed {
                target: PathBuf::from("a.jsonl.zst"),
                plain_bytes: 100,
                compressed_bytes: 10,
            }),
            file(CompressOutcome::Finished {
                target: PathBuf::from("a.jsonl.zst"),
                plain_bytes: 50,
                compressed_bytes: 5,
            }),
            skipped(SkipReason::Recent),
            skipped(SkipReason::Empty),
            skipped(SkipReason::Recent),
            file(CompressOutcome::Failed { error: "no".into() }),
        ],
        stale_temporary_files: 2,
    };
    assert_eq!(
        CompressSummary::of(&run, false),
        CompressSummary {
            dry_run: false,
            files: 6,
            compressed: 2,
            plain_bytes: 150,
            compressed_bytes: 15,
            skipped: 3,
            failed: 1,
            stale_temporary_files: 2,
        }
    );
    let reasons: Vec<(String, usize)> = run.skip_reasons().into_iter().collect();
    assert_eq!(
        reasons,
        [
            ("empty".to_string(), 1),
            ("modified recently".to_string(), 2)
        ]
    );
    let planned = CompressRun {
        files: vec![file(CompressOutcome::WouldCompress {
            target: PathBuf::from("a.jsonl.zst"),
            plain_bytes: 70,
        })],
        stale_temporary_files: 0,
    };
    let summary = CompressSummary::of(&planned, true);
    assert_eq!(
        (
            summary.compressed,
            summary.plain_bytes,
            summary.compressed_bytes
        ),
        (1, 70, 0)
    );
}
