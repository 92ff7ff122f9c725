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
//! The cursor is the last listed file's `<creation time>|<thread id>` (with `_<rollout id>` for
//! a revert copy); the next page holds files strictly after it in the order. Because the ids
//! are part of the key, sessions created in the same second are neither repeated nor skipped
//! across pages.
//!
//! Live sessions (`sessions/YYYY/MM/DD/`, [`list_sessions`]) and archived ones
//! (`archived_sessions/`, flat, [`list_archived_sessions`]) are listed separately, as upstream
//! does. Compressed files (`.jsonl.zst`) are listed like plain ones; when a folder holds both
//! `X.jsonl` and `X.jsonl.zst`, the plain file is the one listed (upstream's rule: it is the
//! newer copy while a file is being compressed or written back). A thread continued in more
//! files (a revert writes `…_<rollout id>.jsonl`, which goes on from the file before through
//! its `history_base`) is listed once, by its newest piece, with the thread's first message as
//! preview, as Codex 0.169 lists it.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Timelike, Utc};
use codex_app_server_protocol::v2::{SOURCE_KINDS, SessionSource};
use codex_app_server_protocol::{session_source, thread_from_session_meta};
use codex_protocol::rollout::{SessionMetaLine, parse_rollout_line};
use codex_protocol::thread_id::ThreadId;
use tracing::warn;
use uuid::Uuid;

use codex_rollout::{
    CodexHome, RolloutFileName, SessionsFolder, find_first_rollout, folder_files, order_key,
    parse_rollout_file_name,
};
use codex_rollout::{Result, RolloutError};
use codex_rollout::{RolloutReader, open_rollout};

mod listed;
mod nesting;
mod order;
mod preview;
mod walk;

pub use listed::ListedSession;
pub use nesting::nest_sub_agents;
pub use order::{Cursor, ListKey, ListOrder};

use order::{listed_key, ordered_files};

pub use preview::{HEAD_RECORD_LIMIT, HeadSummary, USER_EVENT_SCAN_LIMIT, read_head_summary};
pub use walk::{
    FoundRollout, all_rollout_files, find_rollouts_by_thread_prefix, is_rollout_file_name,
    rollout_files_under,
};

/// At most this many files are opened per request; a page cut short by it says so
/// ([`SessionsPage::reached_scan_cap`]) and its cursor continues after the last file looked at.
pub const MAX_SCAN_FILES: usize = 10_000;

/// One listed session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    /// The rollout file.
    pub path: PathBuf,
    /// Creation time, thread id, rollout id and compression, from the file name.
    pub name: RolloutFileName,
    /// Whether the file is under `archived_sessions/`.
    pub archived: bool,
    /// When the file was last written (its modification time), if the filesystem says.
    pub updated_at: Option<DateTime<Utc>>,
    /// The first thing the person said, as one line of text (`[Image]` for an image-only
    /// message).
    pub preview: String,
    /// The model of the first turn context or settings change near the top of the file
    /// (`None` when the head names none, e.g. a session written before turn contexts).
    pub model: Option<String>,
    /// The session meta at the head of the file.
    pub session_meta: SessionMetaLine,
    /// The file's damage ([`crate::file_damage`]: its end tested, read whole only when the
    /// test fails).
    pub damage: Option<crate::Damage>,
}

impl SessionSummary {
    /// The thread the file holds: its session meta's id (a listed file always has one), the
    /// one answer every command gives, whatever the file is called.
    pub fn thread_id(&self) -> ThreadId {
        self.session_meta.meta.id
    }

    /// Which kind of client started the thread, and the thread that spawned it (a
    /// sub-agent's parent), as Codex's thread shows them (app-server-protocol's
    /// `thread_from_session_meta`, the one reading of a meta's source).
    pub fn source(&self) -> (SessionSource, Option<String>) {
        let thread = thread_from_session_meta(&self.session_meta);
        (thread.source, thread.parent_thread_id)
    }
}

/// Which threads a listing (or a prune policy) takes: all, or those whose source is of one of
/// these kinds (app-server-protocol's `SOURCE_KINDS`, the spelling of `SessionSource::kind`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceFilter {
    kinds: Vec<String>,
}

/// The kinds a sub-agent's thread can have.
const SUB_AGENT_KINDS: &[&str] = &[
    "subAgent",
    "subAgentReview",
    "subAgentCompact",
    "subAgentThreadSpawn",
    "subAgentOther",
];

impl SourceFilter {
    /// Sessions of the `kinds` given; every session when there are none. An unknown kind is
    /// an error naming the known ones.
    pub fn of_kinds(kinds: &[String]) -> std::result::Result<Self, String> {
        if let Some(unknown) = kinds
            .iter()
            .find(|kind| !SOURCE_KINDS.contains(&kind.as_str()))
        {
            return Err(format!(
                "unknown source kind `{unknown}` (known: {})",
                SOURCE_KINDS.join(", ")
            ));
        }
        Ok(Self {
            kinds: kinds.to_vec(),
        })
    }

    /// A kind as a prune policy writes it (`source=KIND`): a kind of `SOURCE_KINDS`, or
    /// `mcp` (Codex as a server: `appServer`) and `subagent` (every sub-agent kind).
    pub fn of_policy_word(word: &str) -> std::result::Result<Self, String> {
        match word {
            "mcp" => Self::of_kinds(&["appServer".to_string()]),
            "subagent" => Ok(Self {
                kinds: SUB_AGENT_KINDS
                    .iter()
                    .map(|kind| (*kind).to_string())
                    .collect(),
            }),
            kind => Self::of_kinds(&[kind.to_string()]),
        }
    }

    /// Whether a thread of `source` is taken.
    pub fn keeps_source(&self, source: &SessionSource) -> bool {
        self.kinds.is_empty() || self.kinds.iter().any(|kind| kind == source.kind())
    }

    /// Whether the listing shows `summary` (its meta's source read alone: no thread is
    /// built to filter).
    pub fn keeps(&self, summary: &SessionSummary) -> bool {
        self.keeps_source(&session_source(&summary.session_meta.meta.source))
    }
}

/// A page of the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionsPage {
    /// Sessions, in the listing's order.
    pub items: Vec<SessionSummary>,
    /// Where the next page starts; `None` when this page is the last.
    pub next_cursor: Option<Cursor>,
    /// Where a listing the other way starts to hold this page's first session again; `None`
    /// for an empty page.
    pub backwards_cursor: Option<Cursor>,
    /// How many files were opened to build the page.
    pub num_scanned_files: usize,
    /// Whether [`MAX_SCAN_FILES`] stopped the scan early.
    pub reached_scan_cap: bool,
}

/// Lists up to `page_size` live sessions (`<home>/sessions`) under `home`, newest first,
/// strictly after `cursor`.
///
/// Blocking (it reads folders and file heads); from async code use [`list_sessions_async`].
pub fn list_sessions(
    home: &CodexHome,
    page_size: usize,
    cursor: Option<&Cursor>,
) -> Result<SessionsPage> {
    list_sessions_of(home, false, page_size, cursor, &SourceFilter::default())
}

/// [`list_sessions`] (or [`list_archived_sessions`] when `archived`) of the sessions
/// `filter` keeps: a page holds `page_size` of them, however many others were passed over.
pub fn list_sessions_of(
    home: &CodexHome,
    archived: bool,
    page_size: usize,
    cursor: Option<&Cursor>,
    filter: &SourceFilter,
) -> Result<SessionsPage> {
    let page = (ListOrder::default(), page_size, cursor);
    list_sessions_where(home, archived, page, &|summary| filter.keeps(summary))
}

/// The first `limit` sessions of [`list_sessions_of`], each thread once: a thread id that
/// more than one file carries (copies, not continuations, which the listing folds already)
/// is listed by the first of them, the newest.
pub fn list_threads_of(
    home: &CodexHome,
    archived: bool,
    limit: usize,
    filter: &SourceFilter,
) -> Result<Vec<SessionSummary>> {
    let page = list_sessions_of(home, archived, limit, None, filter)?;
    let mut seen = std::collections::HashSet::new();
    Ok(page
        .items
        .into_iter()
        .filter(|summary| seen.insert(summary.thread_id()))
        .collect())
}

/// The sessions `keep` keeps, live (or archived when `archived`), in `order`, a page of
/// `page_size` strictly beyond `cursor` (or from it, when it is inclusive).
pub fn list_sessions_where(
    home: &CodexHome,
    archived: bool,
    (order, page_size, cursor): (ListOrder, usize, Option<&Cursor>),
    keep: &dyn Fn(&SessionSummary) -> bool,
) -> Result<SessionsPage> {
    let folder = if archived {
        SessionsFolder::Archived
    } else {
        SessionsFolder::Live
    };
    list_in(home, folder, (order, page_size, cursor), keep)
}

/// Lists up to `page_size` archived sessions (`<home>/archived_sessions`, flat) under `home`,
/// newest first, strictly after `cursor`. Blocking, like [`list_sessions`].
pub fn list_archived_sessions(
    home: &CodexHome,
    page_size: usize,
    cursor: Option<&Cursor>,
) -> Result<SessionsPage> {
    list_sessions_of(home, true, page_size, cursor, &SourceFilter::default())
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
/// opened): live sessions first, then archived ones; the newest if several files carry the id
/// (a revert copy is newer than the file it reverts); the plain file when both `X.jsonl` and
/// `X.jsonl.zst` exist.
pub fn find_rollout_by_thread_id(home: &CodexHome, thread_id: ThreadId) -> Result<Option<PathBuf>> {
    let thread_id = *thread_id.as_uuid();
    find_first_rollout(home, |name| name.thread_id == thread_id)
}

fn list_in(
    home: &CodexHome,
    folder: SessionsFolder,
    (order, page_size, cursor): (ListOrder, usize, Option<&Cursor>),
    keep: &dyn Fn(&SessionSummary) -> bool,
) -> Result<SessionsPage> {
    let mut page = SessionsPage {
        items: Vec::new(),
        next_cursor: None,
        backwards_cursor: None,
        num_scanned_files: 0,
        reached_scan_cap: false,
    };
    if page_size == 0 {
        return Ok(page);
    }
    let continued = ContinuedThreads::of(home, folder)?;
    let mut last_scanned = None;
    let archived = folder == SessionsFolder::Archived;
    for (key, name, path) in ordered_files(home, folder, order, cursor)? {
        if page.num_scanned_files == MAX_SCAN_FILES {
            page.reached_scan_cap = true;
            page.next_cursor = last_scanned.map(Cursor::beyond);
            return Ok(page);
        }
        page.num_scanned_files += 1;
        last_scanned = Some(key);
        let summary = match continued.pieces(&name) {
            None => summarize(&path, name, archived),
            // An older piece of a continued thread: the thread is listed by its newest.
            Some(pieces) if pieces.newest != name => None,
            Some(pieces) => summarize(&path, name, archived).or_else(|| {
                // The newest piece's head holds no user message (a revert copies none):
                // the thread's preview is its first piece's.
                let first = read_head_summary(&pieces.first).ok()?;
                let mut head = read_head_summary(&path).ok()?;
                head.preview = first.preview;
                head.model = head.model.or(first.model);
                summary_from_head(&path, name, archived, head)
            }),
        };
        let Some(summary) = summary.filter(|summary| keep(summary)) else {
            continue;
        };
        if page.items.len() == page_size {
            // The look-ahead found one more listable session: there is a next page.
            page.next_cursor = page
                .items
                .last()
                .map(|item| Cursor::beyond(listed_key(item, order.key)));
            return Ok(page);
        }
        if page.items.is_empty() {
            page.backwards_cursor = Some(Cursor::at(key));
        }
        page.items.push(summary);
    }
    Ok(page)
}

/// The summary a listing shows for the one rollout file at `path`, named by a person rather
/// than found by walking a home: what [`list_sessions`] shows for the same file (the same
/// head reading, the same rule that a session without meta or user message is not listed),
/// so a command over named files and a command paging a home agree. `Ok(None)` when the file
/// is not listable (no session meta near the top, or no user message within the scan).
///
/// The creation time and ids come from the file name; a file whose name is not a rollout
/// name (a copy, a fixture) takes them from its session meta (thread id, and its timestamp,
/// to the second as names have it). The file counts as archived when its folder is the
/// home's `archived_sessions`.
pub fn summarize_rollout_file(path: &Path) -> Result<Option<SessionSummary>> {
    let archived = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|folder| folder == codex_rollout::ARCHIVED_SESSIONS_SUBDIR);
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(parse_rollout_file_name);
    let head = read_head_summary(path).map_err(|source| RolloutError::Io {
        action: "read session file",
        path: path.to_path_buf(),
        source,
    })?;
    let name = match name {
        Some(name) => name,
        None => match &head.session_meta {
            Some(meta) => name_from_meta(path, meta),
            None => return Ok(None),
        },
    };
    Ok(summary_from_head(path, name, archived, head))
}

/// The name a rollout file would have, from its session meta: what a listing keys a file by
/// when its own name does not say.
fn name_from_meta(path: &Path, meta: &SessionMetaLine) -> RolloutFileName {
    let created = DateTime::parse_from_rfc3339(&meta.meta.timestamp)
        .map(|at| at.with_timezone(&Utc))
        .ok()
        .and_then(|at| at.with_nanosecond(0))
        .unwrap_or_default();
    let compressed = path.extension().is_some_and(|extension| extension == "zst");
    RolloutFileName {
        created,
        thread_id: *meta.meta.id.as_uuid(),
        rollout_id: None,
        compression: if compressed {
            codex_rollout::Compression::Zstd
        } else {
            codex_rollout::Compression::Plain
        },
    }
}

fn summarize(path: &Path, name: RolloutFileName, archived: bool) -> Option<SessionSummary> {
    let head = match read_head_summary(path) {
        Ok(head) => head,
        Err(err) => {
            warn!(path = %path.display(), error = %err, "skipping unreadable session file");
            return None;
        }
    };
    summary_from_head(path, name, archived, head)
}

/// The listed summary of a file whose head was read: `None` without meta or user message.
fn summary_from_head(
    path: &Path,
    name: RolloutFileName,
    archived: bool,
    head: HeadSummary,
) -> Option<SessionSummary> {
    let (Some(session_meta), Some(preview)) = (head.session_meta, head.preview) else {
        return None;
    };
    let preview = session_source(&session_meta.meta.source).shown_preview(preview);
    let updated_at = std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
        .map(DateTime::<Utc>::from);
    Some(SessionSummary {
        path: path.to_path_buf(),
        name,
        archived,
        updated_at,
        preview,
        model: head.model,
        session_meta,
        damage: crate::file_damage(path).ok().flatten(),
    })
}

/// The threads of a folder kind that continue in more than one file (a continuation file
/// `…-<thread>_<rollout>.jsonl` beside the file it continues): each is listed once, by its
/// newest piece, as Codex lists it. Found from the file names alone.
struct ContinuedThreads {
    threads: std::collections::HashMap<Uuid, ThreadPieces>,
}

/// The pieces of one continued thread.
struct ThreadPieces {
    /// The newest piece, by the listing order: the one listed.
    newest: RolloutFileName,
    /// The oldest piece, whose head has the thread's first message.
    first: PathBuf,
    first_name: RolloutFileName,
    continued: bool,
}

impl ContinuedThreads {
    /// Walks the names of every file of `folder` under `home` (no file is opened).
    fn of(home: &CodexHome, folder: SessionsFolder) -> Result<Self> {
        let mut threads: std::collections::HashMap<Uuid, ThreadPieces> =
            std::collections::HashMap::new();
        for dir in folder.file_folders(home, None)? {
            for (name, path) in folder_files(&dir, None) {
                let pieces = threads
                    .entry(name.thread_id)
                    .or_insert_with(|| ThreadPieces {
                        newest: name,
                        first: path.clone(),
                        first_name: name,
                        continued: false,
                    });
                pieces.continued |= name.rollout_id.is_some();
                if order_key(&name) > order_key(&pieces.newest) {
                    pieces.newest = name;
                }
                if order_key(&name) < order_key(&pieces.first_name) {
                    pieces.first = path;
                    pieces.first_name = name;
                }
            }
        }
        threads.retain(|_, pieces| pieces.continued);
        Ok(Self { threads })
    }

    /// The pieces of the thread `name` belongs to, when that thread is continued.
    fn pieces(&self, name: &RolloutFileName) -> Option<&ThreadPieces> {
        self.threads.get(&name.thread_id)
    }
}

/// Opens a file for head reading, plain or compressed (shared with [`preview`]).
fn open_head(path: &Path) -> std::io::Result<BufReader<RolloutReader<File>>> {
    open_rollout(path).map(BufReader::new)
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
