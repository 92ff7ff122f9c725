//! The replacement of one file, stopped by a writer that takes the thread meanwhile.
//! (Test code: a failed setup step panics with its error.)
#![allow(clippy::unwrap_used)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use pretty_assertions::assert_eq;

use super::*;
use crate::compress::{CompressOutcome, EncoderSettings, SkipReason};
use crate::layout::CodexHome;

const THREAD: &str = "019f4efd-0137-7790-9622-c175e1415048";
const NAME: &str = "rollout-2026-07-11T10-23-56-019f4efd-0137-7790-9622-c175e1415048.jsonl";
const WEEKS_AGO: Duration = Duration::from_secs(30 * 24 * 3600);

fn content() -> String {
    let mut text = format!(
        r#"{{"timestamp":"2026-07-11T10:23:56.000Z","type":"session_meta","payload":{{"id":"{THREAD}","timestamp":"2026-07-11T10:23:56.000Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.144.0"}}}}"#
    );
    text.push('\n');
    for i in 0..200 {
        text.push_str(&format!(
            r#"{{"timestamp":"2026-07-11T10:24:{:02}.000Z","type":"event_msg","payload":{{"type":"user_message","message":"message number {i}","kind":"plain"}}}}"#,
            i % 60
        ));
        text.push('\n');
    }
    text
}

/// A home with one old session file; returns the home folder guard, the home and the file.
fn home_with_session() -> (tempfile::TempDir, CodexHome, PathBuf, SystemTime) {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let folder = home.sessions_dir().join("2026/07/11");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(NAME);
    std::fs::write(&path, content()).unwrap();
    let old = SystemTime::now() - WEEKS_AGO;
    File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
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
