//! The replacement of one file, stopped by a writer that takes the thread meanwhile.
//! (Test code: a failed setup step panics with its error.)
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use pretty_assertions::assert_eq;

use codex_test_support::old_session::write_old_session;

use super::*;
use crate::compress::{CompressOutcome, EncoderSettings, SkipReason};
use crate::layout::CodexHome;

/// A home with one old session file; returns the home folder guard, the home and the file.
fn home_with_session() -> (tempfile::TempDir, CodexHome, PathBuf, SystemTime) {
    let dir = tempfile::tempdir().unwrap();
    let (path, modified) = write_old_session(dir.path()).unwrap();
    let home = CodexHome::new(dir.path());
    (dir, home, path, modified)
}

fn target_of(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.zst", path.display()))
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
fn a_thread_taken_while_compressing_keeps_its_plain_file() {
    let (_dir, _home, path, _) = home_with_session();
    let metadata = std::fs::metadata(&path).unwrap();
    let target = target_of(&path);
    let job = Replacement {
        plain: &path,
        target: &target,
        metadata: &metadata,
        encoder: EncoderSettings::default(),
        still_free: &|| false,
        progress: &|_| {},
    };
    assert_eq!(
        job.run().unwrap(),
        CompressOutcome::Skipped {
            reason: SkipReason::OpenInCodex
        }
    );
    assert!(path.exists() && !target.exists());
    assert_eq!(
        temporary_files(path.parent().unwrap()),
        Vec::<String>::new()
    );
}
