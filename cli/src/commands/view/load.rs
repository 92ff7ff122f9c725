//! Reading a session file into what `view` shows: its turns (app-server-protocol's history
//! builder over codex-rollout's client view, as `thread` reads them) and the facts beside them
//! ([`ThreadFacts`]: model, tokens, rollbacks), from one pass over the file.
//!
//! A file that continues another's history (`history_base`) is read with its base resolved
//! through the home, so a continuation file shows as one thread. A file still being written
//! is read by [`Follower`]: only up to its last complete line, again when it grows.

use std::path::{Path, PathBuf};

use codex_app_server_protocol::ThreadHistoryBuilder;
use codex_app_server_protocol::transcript::ThreadFacts;
use codex_app_server_protocol::v2::Turn;
use codex_home::read_head_summary;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_rollout::CodexHome;
use codex_rollout::history_base::load_rollout_with_base;
use codex_rollout::layout::home_of_rollout_path;
use codex_rollout::load::RolloutContents;
use codex_rollout::replay::{ClientView, client_view_items};

use crate::error::Failure;
use crate::input::{Source, load_session};
use crate::progress::Progress;
use crate::streamed::stream_session;

/// A thread read from its file.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The first session meta, when the file has one.
    pub meta: Option<SessionMetaLine>,
    /// The turns, the last one `inProgress` when the file ends inside it.
    pub turns: Vec<Turn>,
    /// Model, tokens, rollbacks.
    pub facts: ThreadFacts,
    /// Bytes at the start of the file not read (a large file opened from its end).
    pub skipped_bytes: u64,
}

impl Loaded {
    /// The thread id, when the file has a session meta.
    pub fn thread_id(&self) -> Option<String> {
        self.meta.as_ref().map(|meta| meta.meta.id.to_string())
    }
}

/// What the builder and the facts are fed, item by item.
#[derive(Default)]
pub struct Feed {
    meta: Option<SessionMetaLine>,
    builder: ThreadHistoryBuilder,
    facts: ThreadFacts,
}

impl Feed {
    /// Takes one rollout item.
    pub fn push(&mut self, item: &RolloutItem) {
        if let (None, RolloutItem::SessionMeta(meta)) = (&self.meta, item) {
            self.meta = Some(meta.as_ref().clone());
        }
        self.builder.handle_rollout_item(item);
        self.facts.handle(item);
    }

    /// The thread fed so far.
    pub fn finish(self) -> Loaded {
        Loaded {
            meta: self.meta,
            turns: self.builder.finish(),
            facts: self.facts,
            skipped_bytes: 0,
        }
    }
}

/// Reads the session at `path` (plain or `.zst`); `home` resolves a history base.
pub fn load_file(path: &Path, home: Option<&Path>) -> Result<Loaded, Failure> {
    if has_history_base(path) {
        let home = home_of(path, home)?;
        let resolved = load_rollout_with_base(&home, path)
            .map_err(|error| Failure::Content(format!("{}: {error}", path.display())))?;
        let mut feed = Feed::default();
        for item in resolved.items() {
            feed.push(item);
        }
        return Ok(feed.finish());
    }
    let source = Source::File(path.to_path_buf());
    let mut view = ClientView::streaming();
    let mut feed = Feed::default();
    let mut push = |item: &RolloutItem| feed.push(item);
    stream_session(&source, &Progress::hidden(), |line| {
        if let Some(format) = line.format() {
            view.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            view.push(line.number, line.raw, &rollout_line.item, &mut push);
        }
    })?;
    match view.finish(&mut push) {
        Ok(_) => Ok(feed.finish()),
        Err(changed) => {
            tracing::debug!(%changed, path = %path.display(), "loading the whole file");
            let session = load_session(&source)?;
            Ok(load_contents(session.contents()))
        }
    }
}

/// The thread of rollout contents already in memory.
pub fn load_contents(contents: &RolloutContents) -> Loaded {
    let mut feed = Feed::default();
    for item in client_view_items(contents).iter() {
        feed.push(item);
    }
    feed.finish()
}

/// Whether the file at `path` continues another thread's history.
fn has_history_base(path: &Path) -> bool {
    read_head_summary(path).is_ok_and(|head| {
        head.session_meta
            .is_some_and(|meta| meta.meta.history_base.is_some())
    })
}

/// The home named by `home`, else the one `path` lies in, else the default one.
fn home_of(path: &Path, home: Option<&Path>) -> Result<CodexHome, Failure> {
    Ok(match home {
        Some(root) => CodexHome::new(root),
        None => match home_of_rollout_path(path) {
            Some(home) => home,
            None => CodexHome::resolve(None).map_err(|error| Failure::Usage(error.to_string()))?,
        },
    })
}

/// A session file read as it grows: each [`Follower::poll`] reads it again when its size or
/// modification time changed, up to its last complete line (a torn last line waits for the
/// rest). When the file goes away it is looked for where Codex moves it: compressed beside
/// itself (`.zst`), or archived (`archived_sessions/` of its home).
#[derive(Debug)]
pub struct Follower {
    path: PathBuf,
    seen: Option<(u64, std::time::SystemTime)>,
    /// Complete lines read at the last change.
    complete: usize,
}

impl Follower {
    /// A follower of `path` that has read nothing yet.
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            seen: None,
            complete: 0,
        }
    }

    /// The file followed now (it changes when the file was compressed or archived).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The thread as the file holds it now, when it changed since the last poll; `None` when
    /// it did not (or only a torn line grew).
    pub fn poll(&mut self) -> Result<Option<Loaded>, Failure> {
        if !self.path.exists()
            && let Some(moved) = moved_to(&self.path)
        {
            tracing::debug!(from = %self.path.display(), to = %moved.display(), "followed file moved");
            self.path = moved;
            self.seen = None;
        }
        let metadata = std::fs::metadata(&self.path)
            .map_err(|error| Failure::Unreadable(format!("{}: {error}", self.path.display())))?;
        let stamp = (
            metadata.len(),
            metadata.modified().unwrap_or(std::time::UNIX_EPOCH),
        );
        if self.seen == Some(stamp) {
            return Ok(None);
        }
        self.seen = Some(stamp);
        let decoded = codex_rollout::source::read_rollout_file(&self.path)
            .map_err(|error| Failure::Unreadable(format!("{}: {error}", self.path.display())))?;
        let mut bytes = decoded.bytes;
        let end = bytes
            .iter()
            .rposition(|byte| *byte == b'\n')
            .map_or(0, |at| at + 1);
        bytes.truncate(end);
        let complete = count_lines(&bytes);
        if complete == self.complete && complete > 0 {
            return Ok(None);
        }
        self.complete = complete;
        Ok(Some(load_contents(&RolloutContents::parse(bytes))))
    }
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|byte| **byte == b'\n').count()
}

/// Where Codex may have moved the session file `path`: compressed or written back plain
/// beside itself, or into the flat `archived_sessions/` of its home (plain or compressed).
fn moved_to(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let base = name.strip_suffix(".zst").unwrap_or(name);
    let mut folders = vec![path.parent()?.to_path_buf()];
    if let Some(home) = home_of_rollout_path(path) {
        folders.push(home.archived_sessions_dir());
    }
    folders
        .iter()
        .flat_map(|folder| [folder.join(base), folder.join(format!("{base}.zst"))])
        .find(|candidate| candidate != path && candidate.exists())
}
