//! The trash: where `prune` puts the sessions it deletes, so that a mistaken policy can be
//! undone until the grace period ends.
//!
//! Layout: `<home>/trash/<unix seconds of the deletion>/<the file's path under the home>`
//! (e.g. `trash/1796173653/sessions/2026/12/02/rollout-….jsonl`), so moving a folder's
//! contents back into the home restores the files where they were. Codex never looks there
//! (it walks `sessions/` and `archived_sessions/` only), nor do our walks.
//!
//! A delete is two steps that a kill can separate: the files are renamed into the trash (one
//! atomic rename each, on the home's filesystem), then Codex is asked to forget the thread.
//! A marker `.pending-delete-<thread id>` in the folder, written before the first rename
//! and removed after Codex has forgotten the thread, lets the next `prune` finish the second
//! step ([`pending_deletes`]): in between, Codex hides the thread from `thread/list` (its
//! file is missing) and `thread/read` fails, as it would for a deleted thread.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use serde::Serialize;

use super::PruneError;

/// Folder under the home that holds deleted sessions.
pub const TRASH_SUBDIR: &str = "trash";

const PENDING_PREFIX: &str = ".pending-delete-";

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

/// Moves `files` of `thread` into a new trash folder named for `now`, after writing the
/// pending marker; returns the folder.
pub(crate) fn move_to_trash(
    home: &CodexHome,
    thread: ThreadId,
    files: &[PathBuf],
    now: SystemTime,
) -> Result<PathBuf, PruneError> {
    let secs = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let folder = home.root().join(TRASH_SUBDIR).join(secs.to_string());
    std::fs::create_dir_all(&folder).map_err(io("create", &folder))?;
    let marker = folder.join(format!("{PENDING_PREFIX}{thread}"));
    std::fs::write(&marker, b"").map_err(io("write", &marker))?;
    for file in files {
        let relative = file.strip_prefix(home.root()).unwrap_or(file.as_path());
        let relative = relative.strip_prefix("/").unwrap_or(relative);
        let target = folder.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io("create", parent))?;
        }
        std::fs::rename(file, &target).map_err(io("move into the trash", file))?;
    }
    Ok(folder)
}

/// Removes `thread`'s pending marker from `folder`: Codex has forgotten it.
pub(crate) fn finish_delete(folder: &Path, thread: ThreadId) -> Result<(), PruneError> {
    let marker = folder.join(format!("{PENDING_PREFIX}{thread}"));
    match std::fs::remove_file(&marker) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(io("remove", &marker)(err)),
        _ => Ok(()),
    }
}

/// Deletes a kill interrupted: each trash folder and thread whose marker is still there.
pub(crate) fn pending_deletes(home: &CodexHome) -> Vec<(PathBuf, ThreadId)> {
    let mut pending = Vec::new();
    for folder in trash_folders(home) {
        let Ok(entries) = std::fs::read_dir(&folder.path) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(id) = name
                .to_str()
                .and_then(|name| name.strip_prefix(PENDING_PREFIX))
            else {
                continue;
            };
            if let Ok(thread) = ThreadId::from_string(id) {
                pending.push((folder.path.clone(), thread));
            }
        }
    }
    pending
}

/// Every folder of the trash of `home` whose name is a time, oldest first, with `expired`
/// set for those deleted at least `grace` before `now`.
fn trash_folders_at(home: &CodexHome, grace: Duration, now: SystemTime) -> Vec<TrashFolder> {
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

fn trash_folders(home: &CodexHome) -> Vec<TrashFolder> {
    let root = home.root().join(TRASH_SUBDIR);
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

/// Removes the trash folders of `home` deleted at least `grace` before `now` (with
/// `dry_run`, only says which). A folder whose delete a kill interrupted is finished first
/// by [`super::apply_prune`]'s rule: the caller runs [`super::apply_prune`] or passes the
/// report of pending deletes; here a folder with a pending marker is left for that.
pub fn empty_trash(
    home: &CodexHome,
    grace: Duration,
    now: SystemTime,
    dry_run: bool,
) -> Result<TrashReport, PruneError> {
    let folders = trash_folders_at(home, grace, now);
    let pending: Vec<PathBuf> = pending_deletes(home)
        .into_iter()
        .map(|(folder, _)| folder)
        .collect();
    if !dry_run {
        for folder in folders.iter().filter(|folder| folder.expired) {
            if pending.contains(&folder.path) {
                continue;
            }
            std::fs::remove_dir_all(&folder.path).map_err(io("remove", &folder.path))?;
        }
    }
    Ok(TrashReport {
        folders,
        removed: !dry_run,
    })
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> PruneError {
    let path = path.to_path_buf();
    move |source| PruneError::Io {
        action,
        path,
        source,
    }
}
