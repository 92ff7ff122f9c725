//! The trash: where `prune` puts the sessions it deletes, so that a mistaken policy can be
//! undone until the grace period ends.
//!
//! Layout: `<home>/trash/<unix seconds of the deletion>/<the file's path under the home>`
//! (e.g. `trash/1796173653/sessions/2026/12/02/rollout-….jsonl`), so moving a folder's
//! contents back into the home restores the files where they were. Codex never looks there
//! (it walks `sessions/` and `archived_sessions/` only), nor do our walks.
//!
//! How a thread gets here, in two steps a kill can separate, is [`super::delete`]'s.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use codex_rollout::CodexHome;
use serde::Serialize;

/// Folder under the home that holds deleted sessions.
pub const TRASH_SUBDIR: &str = "trash";

/// One folder of the trash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrashFolder {
    /// The folder.
    pub path: PathBuf,
    /// When its sessions were deleted (Unix seconds, its name).
    pub deleted_at: u64,
    /// The bytes of the files in it.
    pub bytes: u64,
    /// Whether the grace period is over (it is, or would be, removed).
    pub expired: bool,
}

/// What `empty_trash` found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TrashReport {
    /// Every folder of the trash, oldest first.
    pub folders: Vec<TrashFolder>,
    /// Whether expired folders were removed (false for a dry run).
    pub removed: bool,
}

/// Every folder of the trash of `home` whose name is a time, oldest first, with `expired`
/// set for those deleted at least `grace` before `now`.
pub(super) fn trash_folders_at(
    home: &CodexHome,
    grace: Duration,
    now: SystemTime,
) -> Vec<TrashFolder> {
    let now = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let mut folders = trash_folders(home);
    for folder in &mut folders {
        folder.expired = folder.deleted_at.saturating_add(grace.as_secs()) <= now;
    }
    folders
}

pub(super) fn trash_folders(home: &CodexHome) -> Vec<TrashFolder> {
    let root = home.root.join(TRASH_SUBDIR);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut folders: Vec<TrashFolder> = entries
        .flatten()
        .filter_map(|entry| {
            let deleted_at = entry.file_name().to_str()?.parse().ok()?;
            let path = entry.path();
            let bytes = bytes_under(&path);
            Some(TrashFolder {
                path,
                deleted_at,
                bytes,
                expired: false,
            })
        })
        .collect();
    folders.sort_by_key(|folder| folder.deleted_at);
    folders
}

fn bytes_under(path: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(path) else {
        return 0;
    };
    entries
        .flatten()
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => bytes_under(&entry.path()),
            Ok(_) => entry.metadata().map(|meta| meta.len()).unwrap_or(0),
            Err(_) => 0,
        })
        .sum()
}
