//! Every rollout file under a home or a folder, for work over whole homes (disk usage,
//! compression, token usage, search): no page, no head reading, just the files, each session
//! file once.
//!
//! The same rules as the listing: live sessions under `sessions/YYYY/MM/DD/`, archived ones
//! flat in `archived_sessions/`, plain and compressed names, and of `X.jsonl` and
//! `X.jsonl.zst` only the plain file (the newer copy while a file is being compressed).

use std::path::{Path, PathBuf};

use tracing::warn;

use codex_rollout::Result;
use codex_rollout::{
    CodexHome, RolloutFileName, SessionsFolder, folder_files, parse_rollout_file_name,
};

/// A rollout file found by a walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundRollout {
    /// Where it is.
    pub path: PathBuf,
    /// What its name says (creation time, thread id, compression).
    pub name: RolloutFileName,
    /// Whether it sits in `archived_sessions/`.
    pub archived: bool,
}

/// Every rollout file of `home`, live then archived, oldest first within each (by creation
/// time, thread id, rollout id). A missing folder has none; an unreadable sub-folder is
/// skipped with a warning.
pub fn all_rollout_files(home: &CodexHome) -> Result<Vec<FoundRollout>> {
    let mut found = Vec::new();
    for folder in [SessionsFolder::Live, SessionsFolder::Archived] {
        let archived = folder == SessionsFolder::Archived;
        let mut files: Vec<FoundRollout> = folder
            .file_folders(home, None)?
            .iter()
            .flat_map(|dir| folder_files(dir, None))
            .map(|(name, path)| FoundRollout {
                path,
                name,
                archived,
            })
            .collect();
        files.sort_by_key(|file| file.name);
        found.extend(files);
    }
    Ok(found)
}

/// The rollout files of `home` (live then archived, as [`all_rollout_files`]) whose thread id,
/// in its hyphenated lower-case form, starts with `prefix` (any case; found by file name,
/// no file is opened): what a thread id prefix on the command line can mean.
pub fn find_rollouts_by_thread_prefix(home: &CodexHome, prefix: &str) -> Result<Vec<FoundRollout>> {
    let prefix = prefix.to_ascii_lowercase();
    let mut found = all_rollout_files(home)?;
    found.retain(|file| {
        file.name
            .thread_id
            .hyphenated()
            .to_string()
            .starts_with(&prefix)
    });
    Ok(found)
}

/// Every rollout file (by name: `rollout-….jsonl` or `.jsonl.zst`) anywhere under `dir`, in
/// path order, each session once as in a home. Other files are ignored; unreadable folders
/// are skipped with a warning. Symbolic links to folders are not followed (a home never
/// needs them, and a loop would never end).
pub fn rollout_files_under(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    // Fail loudly when the folder itself cannot be read: the caller named it.
    std::fs::read_dir(dir)?;
    let mut folders = vec![dir.to_path_buf()];
    let mut found = Vec::new();
    while let Some(folder) = folders.pop() {
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(err) => {
                warn!(path = %folder.display(), error = %err, "skipping unreadable folder");
                continue;
            }
        };
        for entry in entries.filter_map(|entry| entry.ok()) {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                folders.push(entry.path());
            }
        }
        found.extend(
            folder_files(&folder, None)
                .into_iter()
                .map(|(_, path)| path),
        );
    }
    found.sort();
    Ok(found)
}

/// Whether `path`'s file name is a rollout file name.
pub fn is_rollout_file_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .and_then(parse_rollout_file_name)
        .is_some()
}

#[cfg(test)]
#[path = "walk_tests.rs"]
mod tests;
