//! Deleting a thread is two steps a kill can separate: its files renamed into a trash folder
//! ([`move_to_trash`]), then Codex asked to forget it. A marker
//! `.pending-delete-<thread id>` in the folder, written (and synced) before the first rename
//! and removed once Codex has forgotten the thread, names each file's old and new path, so
//! the next prune can tell how far an interrupted delete got ([`resume_delete`]):
//!
//! - no file reached the trash: the delete never started; the marker goes and Codex is not
//!   asked anything (the thread is as it was, and the next plan sees it again);
//! - some did: the rest are moved too, then Codex forgets the thread;
//! - a file is in neither place, or in both: something else changed the home; the marker
//!   stays, nothing more is done, and the warning names the file. Asking Codex to forget the
//!   thread then could remove a file that is nowhere else (`codex delete --force` removes the
//!   file its row names when it is still there).
//!
//! Between the steps Codex hides the thread from `thread/list` (its file is missing) and
//! `thread/read` fails, as for a deleted thread.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use serde::{Deserialize, Serialize};

use super::PruneError;
use super::io;
use super::trash::{TRASH_SUBDIR, trash_folders};

const PENDING_PREFIX: &str = ".pending-delete-";

/// What the marker records: each file's path before and after the move.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    files: Vec<Move>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Move {
    from: PathBuf,
    to: PathBuf,
}

/// Moves `files` of `thread` into a new trash folder named for `now`, after writing the
/// pending marker; returns the folder. Files already moved are moved back, and the marker
/// removed, when one cannot be (a file that is no longer where it was planned).
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
    let folder = home.root.join(TRASH_SUBDIR).join(secs.to_string());
    let moves: Vec<Move> = files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(&home.root).unwrap_or(file.as_path());
            let relative = relative.strip_prefix("/").unwrap_or(relative);
            Move {
                from: file.clone(),
                to: folder.join(relative),
            }
        })
        .collect();
    for one in &moves {
        std::fs::symlink_metadata(&one.from).map_err(io("move into the trash", &one.from))?;
    }
    std::fs::create_dir_all(&folder).map_err(io("create", &folder))?;
    let marker = marker_path(&folder, thread);
    let written = Marker { files: moves };
    write_marker(&marker, &written)?;
    for (done, one) in written.files.iter().enumerate() {
        if let Err(err) = rename_into(&one.from, &one.to) {
            let back = written.files[..done]
                .iter()
                .all(|moved| std::fs::rename(&moved.to, &moved.from).is_ok());
            if back {
                let _ = std::fs::remove_file(&marker);
            }
            return Err(err);
        }
    }
    Ok(folder)
}

/// How far an interrupted delete got, and what is left to do.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// Every file is in the trash: Codex is to forget the thread, then the marker goes.
    Forget,
    /// No file had moved: the marker is gone and the thread is as it was.
    Dropped,
    /// Something else changed the home; the marker stays.
    Stuck(String),
}

/// Finishes the moves of the delete of `thread` whose marker is in `folder`, or drops it
/// when none had happened (see the module docs).
pub(crate) fn resume_delete(folder: &Path, thread: ThreadId) -> Result<Resume, PruneError> {
    let marker = marker_path(folder, thread);
    let Some(Marker { files }) = read_marker(&marker) else {
        // A marker from before the marker named its files: written empty, before any
        // rename. The thread's files are those named for it.
        let id = thread.to_string();
        let moved = files_under(folder)
            .iter()
            .filter_map(|file| {
                file.file_name()
                    .map(|name| name.to_string_lossy().into_owned())
            })
            .any(|name| !name.starts_with(PENDING_PREFIX) && name.contains(&id));
        return if moved {
            Ok(Resume::Forget)
        } else {
            finish_delete(folder, thread)?;
            Ok(Resume::Dropped)
        };
    };
    let exists = |path: &Path| std::fs::symlink_metadata(path).is_ok();
    let mut any_moved = false;
    for one in &files {
        match (exists(&one.from), exists(&one.to)) {
            (true, true) => {
                return Ok(Resume::Stuck(format!(
                    "{} is both in the trash and at {}",
                    one.to.display(),
                    one.from.display()
                )));
            }
            (false, false) => {
                return Ok(Resume::Stuck(format!(
                    "{} is neither in the trash nor where it was",
                    one.from.display()
                )));
            }
            (false, true) => any_moved = true,
            (true, false) => {}
        }
    }
    if !any_moved {
        finish_delete(folder, thread)?;
        return Ok(Resume::Dropped);
    }
    for one in files.iter().filter(|one| exists(&one.from)) {
        rename_into(&one.from, &one.to)?;
    }
    Ok(Resume::Forget)
}

/// Removes `thread`'s pending marker from `folder`: Codex has forgotten it.
pub(crate) fn finish_delete(folder: &Path, thread: ThreadId) -> Result<(), PruneError> {
    let marker = marker_path(folder, thread);
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

fn marker_path(folder: &Path, thread: ThreadId) -> PathBuf {
    folder.join(format!("{PENDING_PREFIX}{thread}"))
}

/// Written and synced, so that no rename can reach the disk before it.
fn write_marker(path: &Path, marker: &Marker) -> Result<(), PruneError> {
    use std::io::Write;
    let bytes = serde_json::to_vec(marker).map_err(|err| PruneError::Io {
        action: "write",
        path: path.to_path_buf(),
        source: std::io::Error::other(err),
    })?;
    let mut file = std::fs::File::create(path).map_err(io("write", path))?;
    file.write_all(&bytes).map_err(io("write", path))?;
    file.sync_all().map_err(io("sync", path))
}

fn read_marker(path: &Path) -> Option<Marker> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn rename_into(from: &Path, to: &Path) -> Result<(), PruneError> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(io("create", parent))?;
    }
    std::fs::rename(from, to).map_err(io("move into the trash", from))
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => files_under(&entry.path()),
            _ => vec![entry.path()],
        })
        .collect()
}

#[cfg(test)]
#[path = "delete_tests.rs"]
mod tests;
