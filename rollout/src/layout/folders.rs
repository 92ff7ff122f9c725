//! The folders of a home and the rollout files in each, by file name alone: the one walk
//! every lookup of a session file goes through.
//!
//! Why here: reading one file may need another file of the same home (a `history_base`
//! continues its parent's file, found by rollout id, [`find_rollout_by_rollout_id`]), so the
//! single-file crate owns finding a file by name. Everything over many sessions (listing pages,
//! previews, lookup by thread id or prefix, whole-home walks) is `codex-home`'s, built on
//! [`SessionsFolder`] and [`folder_files`].

use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};
use tracing::warn;
use uuid::Uuid;

use super::{CodexHome, RolloutFileName, parse_rollout_file_name};
use crate::error::{Result, RolloutError};

/// The session file whose rollout id is `rollout_id` ([`RolloutFileName::rollout`]:
/// the trailing id of a continuation file, else the thread id), live sessions first, then
/// archived ones; `None` when the home has none. This is how a `history_base` finds the file
/// it continues.
pub(crate) fn find_rollout_by_rollout_id(
    home: &CodexHome,
    rollout_id: Uuid,
) -> Result<Option<PathBuf>> {
    find_first_rollout(home, |name| name.rollout() == rollout_id)
}

/// The first session file of `home` whose name satisfies `matches`, by file name alone (no
/// file is opened): live sessions first, newest first, then archived ones; of `X.jsonl` and
/// `X.jsonl.zst` the plain file. The one walk behind every lookup of one file by an id.
pub fn find_first_rollout(
    home: &CodexHome,
    matches: impl Fn(&RolloutFileName) -> bool,
) -> Result<Option<PathBuf>> {
    for folder in [SessionsFolder::Live, SessionsFolder::Archived] {
        for dir in folder.file_folders(home, None)? {
            if let Some((_, path)) = folder_files(&dir, None)
                .into_iter()
                .find(|(name, _)| matches(name))
            {
                return Ok(Some(path));
            }
        }
    }
    Ok(None)
}

/// Which folder of the home a walk covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionsFolder {
    /// `sessions/YYYY/MM/DD/`.
    Live,
    /// `archived_sessions/`, flat.
    Archived,
}

impl SessionsFolder {
    /// The folders that hold this kind's files, newest first, skipping days after `anchor`.
    pub fn file_folders(self, home: &CodexHome, anchor: Option<OrderKey>) -> Result<Vec<PathBuf>> {
        Ok(match self {
            SessionsFolder::Live => dated_folders(&home.sessions_dir())?
                .into_iter()
                .filter(|day| anchor.is_none_or(|(created, ..)| day.date <= created.date_naive()))
                .map(|day| day.path)
                .collect(),
            SessionsFolder::Archived => vec![home.archived_sessions_dir()],
        })
    }
}

/// A `YYYY/MM/DD` folder.
struct DayFolder {
    date: NaiveDate,
    path: PathBuf,
}

/// Every `YYYY/MM/DD` folder under `sessions`, newest first. A missing `sessions` folder is
/// an empty listing; an unreadable sub-folder is skipped with a warning.
fn dated_folders(sessions: &Path) -> Result<Vec<DayFolder>> {
    let years = match numeric_children(sessions, 4) {
        Ok(years) => years,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(RolloutError::io("read sessions folder", sessions, err)),
    };
    let mut days = Vec::new();
    for (year, year_path) in years {
        for (month, month_path) in numeric_children_or_warn(&year_path, 2) {
            for (day, day_path) in numeric_children_or_warn(&month_path, 2) {
                if let Some(date) = NaiveDate::from_ymd_opt(year as i32, month, day) {
                    days.push(DayFolder {
                        date,
                        path: day_path,
                    });
                }
            }
        }
    }
    days.sort_by_key(|day| std::cmp::Reverse(day.date));
    Ok(days)
}

fn numeric_children_or_warn(dir: &Path, width: usize) -> Vec<(u32, PathBuf)> {
    numeric_children(dir, width).unwrap_or_else(|err| {
        warn!(path = %dir.display(), error = %err, "skipping unreadable session folder");
        Vec::new()
    })
}

/// Sub-folders whose name is exactly `width` digits, with their number.
fn numeric_children(dir: &Path, width: usize) -> std::io::Result<Vec<(u32, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.len() != width || !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        if let Ok(number) = name.parse() {
            out.push((number, entry.path()));
        }
    }
    Ok(out)
}

/// Where a file sits in the listing order (`codex-home`'s `list`): creation time, thread id,
/// rollout id. A plain file and its compressed sibling have the same key.
pub type OrderKey = (DateTime<Utc>, Uuid, Option<Uuid>);

/// The [`OrderKey`] of the file `name` names.
pub fn order_key(name: &RolloutFileName) -> OrderKey {
    (name.created, name.thread_id, name.rollout_id)
}

/// The rollout files of one folder strictly before `anchor`, newest first, each key once:
/// of `X.jsonl` and `X.jsonl.zst`, only the plain file. A missing folder has none.
pub fn folder_files(dir: &Path, anchor: Option<OrderKey>) -> Vec<(RolloutFileName, PathBuf)> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(err) => {
            warn!(path = %dir.display(), error = %err, "skipping unreadable session folder");
            return Vec::new();
        }
    };
    let mut files: Vec<_> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = parse_rollout_file_name(entry.file_name().to_str()?)?;
            Some((name, entry.path()))
        })
        .filter(|(name, _)| anchor.is_none_or(|anchor| order_key(name) < anchor))
        .collect();
    // Newest first; for one key the plain file first (`Compression::Plain` sorts first).
    files.sort_by(|(a, _), (b, _)| {
        order_key(b)
            .cmp(&order_key(a))
            .then(a.compression.cmp(&b.compression))
    });
    files.dedup_by_key(|(name, _)| order_key(name));
    files
}
