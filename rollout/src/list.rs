//! Listing the sessions under a home: newest first, a page at a time, each with a preview.
//!
//! The order comes from the file names alone (creation time, then thread id, both
//! descending), so a page is found by walking the dated folders newest first and opening only
//! the files that make the page, plus one look-ahead to know whether another page exists. Of
//! each file only the head is read: the session meta and the first user message (the
//! preview) sit near the top.
//!
//! A file is listed when its head has a session meta and a user message: a session nobody
//! spoke in yet is not worth resuming (the upstream rule). Files that cannot be read are
//! skipped with a warning; one bad file never fails the listing.
//!
//! The cursor is the last listed file's `<creation time>|<thread id>`; the next page holds
//! files strictly after it in the order. Because the thread id is part of the key, sessions
//! created in the same second are neither repeated nor skipped across pages.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use codex_protocol::rollout::{SessionMetaLine, parse_rollout_line};
use tracing::warn;
use uuid::Uuid;

use crate::error::{Result, RolloutError};
use crate::layout::{CodexHome, RolloutFileName, parse_rollout_file_name};

mod preview;

pub use preview::{HeadSummary, read_head_summary};

/// At most this many files are opened per request; a page cut short by it says so
/// ([`SessionsPage::reached_scan_cap`]) and its cursor continues after the last file looked at.
pub const MAX_SCAN_FILES: usize = 10_000;

/// A position in the listing order: everything strictly older comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cursor {
    created: DateTime<Utc>,
    thread_id: Uuid,
}

impl Cursor {
    /// The cursor just after the file `name` in the listing order.
    pub fn after(name: RolloutFileName) -> Self {
        Self {
            created: name.created,
            thread_id: name.thread_id,
        }
    }

    fn key(&self) -> RolloutFileName {
        RolloutFileName {
            created: self.created,
            thread_id: self.thread_id,
        }
    }
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}|{}",
            self.created.to_rfc3339_opts(SecondsFormat::Secs, true),
            self.thread_id.hyphenated()
        )
    }
}

impl FromStr for Cursor {
    type Err = RolloutError;

    /// Parses the `<RFC 3339 time>|<uuid>` form [`Cursor`] displays as.
    fn from_str(text: &str) -> Result<Self> {
        let invalid = || RolloutError::InvalidCursor(text.to_string());
        let (time, id) = text.split_once('|').ok_or_else(invalid)?;
        let created = DateTime::parse_from_rfc3339(time)
            .map_err(|_| invalid())?
            .with_timezone(&Utc);
        let thread_id = Uuid::parse_str(id).map_err(|_| invalid())?;
        Ok(Self { created, thread_id })
    }
}

/// One listed session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    /// The rollout file.
    pub path: PathBuf,
    /// Creation time and thread id, from the file name.
    pub name: RolloutFileName,
    /// When the file was last written (its modification time), if the filesystem says.
    pub updated_at: Option<DateTime<Utc>>,
    /// The first thing the person said, as one line of text (`[Image]` for an image-only
    /// message).
    pub preview: String,
    /// The session meta at the head of the file.
    pub session_meta: SessionMetaLine,
}

/// A page of the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionsPage {
    /// Sessions, newest first.
    pub items: Vec<SessionSummary>,
    /// Where the next page starts; `None` when this page is the last.
    pub next_cursor: Option<Cursor>,
    /// How many files were opened to build the page.
    pub num_scanned_files: usize,
    /// Whether [`MAX_SCAN_FILES`] stopped the scan early.
    pub reached_scan_cap: bool,
}

/// Lists up to `page_size` sessions under `home`, newest first, strictly after `cursor`.
///
/// Blocking (it reads folders and file heads); from async code use [`list_sessions_async`].
pub fn list_sessions(
    home: &CodexHome,
    page_size: usize,
    cursor: Option<&Cursor>,
) -> Result<SessionsPage> {
    let mut page = SessionsPage {
        items: Vec::new(),
        next_cursor: None,
        num_scanned_files: 0,
        reached_scan_cap: false,
    };
    if page_size == 0 {
        return Ok(page);
    }
    let anchor = cursor.map(Cursor::key);
    let mut last_scanned = None;
    for day in dated_folders(&home.sessions_dir())? {
        if let Some(anchor) = anchor
            && day.date > anchor.created.date_naive()
        {
            continue;
        }
        for (name, path) in day_files(&day.path, anchor) {
            if page.num_scanned_files == MAX_SCAN_FILES {
                page.reached_scan_cap = true;
                page.next_cursor = last_scanned.map(Cursor::after);
                return Ok(page);
            }
            page.num_scanned_files += 1;
            last_scanned = Some(name);
            let Some(summary) = summarize(&path, name) else {
                continue;
            };
            if page.items.len() == page_size {
                // The look-ahead found one more listable session: there is a next page.
                page.next_cursor = page.items.last().map(|item| Cursor::after(item.name));
                return Ok(page);
            }
            page.items.push(summary);
        }
    }
    Ok(page)
}

/// [`list_sessions`] on tokio's blocking pool.
pub async fn list_sessions_async(
    home: CodexHome,
    page_size: usize,
    cursor: Option<Cursor>,
) -> Result<SessionsPage> {
    tokio::task::spawn_blocking(move || list_sessions(&home, page_size, cursor.as_ref()))
        .await
        .map_err(|_| RolloutError::NoRuntime)?
}

/// The rollout file of thread `thread_id` under `home`, found by file name (no file is
/// opened). Newest first if several files carry the id.
pub fn find_session_path(home: &CodexHome, thread_id: Uuid) -> Result<Option<PathBuf>> {
    for day in dated_folders(&home.sessions_dir())? {
        if let Some((_, path)) = day_files(&day.path, None)
            .into_iter()
            .find(|(name, _)| name.thread_id == thread_id)
        {
            return Ok(Some(path));
        }
    }
    Ok(None)
}

fn summarize(path: &Path, name: RolloutFileName) -> Option<SessionSummary> {
    let head = match read_head_summary(path) {
        Ok(head) => head,
        Err(err) => {
            warn!(path = %path.display(), error = %err, "skipping unreadable session file");
            return None;
        }
    };
    let (Some(session_meta), Some(preview)) = (head.session_meta, head.preview) else {
        return None;
    };
    let updated_at = std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
        .map(DateTime::<Utc>::from);
    Some(SessionSummary {
        path: path.to_path_buf(),
        name,
        updated_at,
        preview,
        session_meta,
    })
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

/// The rollout files of one day folder strictly before `anchor`, newest first.
fn day_files(day: &Path, anchor: Option<RolloutFileName>) -> Vec<(RolloutFileName, PathBuf)> {
    let entries = match std::fs::read_dir(day) {
        Ok(entries) => entries,
        Err(err) => {
            warn!(path = %day.display(), error = %err, "skipping unreadable session folder");
            return Vec::new();
        }
    };
    let mut files: Vec<_> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = parse_rollout_file_name(entry.file_name().to_str()?)?;
            Some((name, entry.path()))
        })
        .filter(|(name, _)| anchor.is_none_or(|anchor| *name < anchor))
        .collect();
    files.sort_by_key(|(name, _)| std::cmp::Reverse(*name));
    files
}

/// Opens a file for head reading (shared with [`preview`]).
fn open_head(path: &Path) -> std::io::Result<BufReader<File>> {
    File::open(path).map(BufReader::new)
}

/// Reads the next line (without its terminator) into `buf`; `false` at end of file.
fn next_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.clear();
    Ok(reader.read_until(b'\n', buf)? > 0)
}

/// Parses a head line, ignoring lines that do not parse (a head summary is best effort).
fn parse_head_line(line: &[u8]) -> Option<codex_protocol::rollout::RolloutItem> {
    parse_rollout_line(line)
        .ok()?
        .into_line()
        .map(|line| line.item)
}

#[cfg(test)]
#[path = "list_tests.rs"]
mod tests;
