//! A session read as Codex writes it: [`ThreadFollower`], over [`load_thread_file`]'s reading
//! (or, for a large file, [`TurnWindow`]'s pages read from its end) of the file into what a
//! reader shows ([`LoadedThread`]: its turns, app-server-protocol's
//! history builder over codex-rollout's client view in the complete mode, and the facts beside
//! them, [`ThreadFacts`]: model, tokens, rollbacks). A file that continues another's history
//! (`history_base`) is read with its base resolved through the home, so a continuation file
//! shows as one thread.
//!
//! The follower:
//!
//! each [`ThreadFollower::poll`] reads on from where the last one stopped when the file's size or
//! modification time changed, up to its last complete line (a torn last line waits for the
//! rest): the client view and the thread built so far are kept, so a long session costs its
//! new lines per change, not the file. A file that shrank is read again from its start, a
//! compressed one is read whole (Codex never appends to one), and when the end of the file
//! says its turns are counted by another rule than its first lines did, it is read once more
//! with the rule known. The file is looked for
//! again where Codex puts it when it goes away: compressed beside itself (`.zst`) or written
//! back plain, or in the home's `archived_sessions/`. When the thread goes on in a
//! continuation file (`rollout-…-<thread id>_<rollout id>.jsonl`, written when a thread is
//! reverted or continued), the follower moves to that file and reads it with its history
//! base, so the thread stays one.
//!
//! A file caught between a person's message and the record of it (Codex writes the
//! `response_item` first, the `user_message` event a moment later) does not yet say how it
//! records its turns: read then, it would be shown by the rule of files without records and
//! shown again, differently, once the record comes. While the file says nothing of its rule,
//! a change is held back until the file has been still for [`HOLD_UNDECIDED_POLLS`] polls, so
//! a file that never records its turns (older formats) is still shown, a moment late.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use codex_app_server_protocol::transcript::ThreadFacts;
use codex_app_server_protocol::v2::Turn;
use codex_app_server_protocol::{ThreadHistoryBuilder, TranscriptMode};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{ClientView, Compression, RolloutReader, TurnRecords};
use codex_rollout::{home_of_rollout_path, parse_rollout_file_name};

mod read_point;
mod window;

pub(crate) use read_point::ReadPoint;
pub use window::TurnWindow;

use crate::{
    FileInput, ReadError, continues_another, feed_with_base, find_rollout_by_thread_id,
    stream_client_view,
};

/// A thread read from its file.
#[derive(Debug, Default)]
pub struct LoadedThread {
    /// The first session meta, when the file has one.
    pub meta: Option<SessionMetaLine>,
    /// The turns, the last one `inProgress` when the file ends inside it.
    pub turns: Vec<Turn>,
    /// Model, tokens, rollbacks.
    pub facts: ThreadFacts,
    /// Bytes at the start of the file not read (a large file opened from its end).
    pub skipped_bytes: u64,
    /// Bytes at the end of the file not read (a large file paged back from its end).
    pub bytes_after: u64,
}

impl LoadedThread {
    /// The thread id, when the file has a session meta.
    pub fn thread_id(&self) -> Option<String> {
        self.meta.as_ref().map(|meta| meta.meta.id.to_string())
    }
}

/// What the builder and the facts are fed, item by item. The turns are the complete
/// transcript (every call the file records, Codex's items among them).
#[derive(Debug, Clone)]
pub struct ThreadFeed {
    meta: Option<SessionMetaLine>,
    builder: ThreadHistoryBuilder,
    facts: ThreadFacts,
}

impl Default for ThreadFeed {
    fn default() -> Self {
        Self {
            meta: None,
            builder: ThreadHistoryBuilder::in_mode(TranscriptMode::Complete),
            facts: ThreadFacts::default(),
        }
    }
}

impl ThreadFeed {
    /// A feed of items that start inside a thread ([`ThreadFacts::mid_thread`]).
    pub fn mid_thread() -> Self {
        Self {
            facts: ThreadFacts::mid_thread(),
            ..Self::default()
        }
    }

    /// Takes one rollout item.
    pub fn push(&mut self, item: &RolloutItem) {
        if let (None, Some(meta)) = (&self.meta, item.session_meta()) {
            self.meta = Some(meta.clone());
        }
        self.builder.handle_rollout_item(item);
        self.facts.handle(item);
    }

    /// The thread fed so far.
    pub fn finish(self) -> LoadedThread {
        LoadedThread {
            meta: self.meta,
            turns: self.builder.finish(),
            facts: self.facts,
            skipped_bytes: 0,
            bytes_after: 0,
        }
    }
}

/// Reads the session at `path` (plain or `.zst`) into what a reader shows of it; `home`
/// resolves a history base.
pub fn load_thread_file(path: &Path, home: Option<&Path>) -> Result<LoadedThread, ReadError> {
    let mut based = ThreadFeed::default();
    if feed_with_base(path, home, |item| based.push(item))? {
        return Ok(based.finish());
    }
    let input = FileInput(path.to_path_buf());
    let feed = stream_client_view(&input, ThreadFeed::default, |feed, item| {
        feed.push(item);
    })?;
    Ok(feed.finish())
}

/// Polls without a change after which the home is asked for a continuation file.
const LOOK_FOR_CONTINUATION_AFTER: u32 = 10;

/// Polls without a change after which a file that has not said how it records its turns is
/// shown anyway (see the module docs); fewer than
/// [`LOOK_FOR_CONTINUATION_AFTER`], which starts the count again.
const HOLD_UNDECIDED_POLLS: u32 = 8;

/// A session file followed as it grows (see the module docs).
#[derive(Debug)]
pub struct ThreadFollower {
    path: PathBuf,
    seen: Option<(u64, SystemTime)>,
    /// What was read of the file so far (`None` before the first read, and for a file that
    /// continues another's history, which is read whole).
    reading: Option<Reading>,
    /// The thread, once the file said.
    thread_id: Option<ThreadId>,
    /// Polls since the file last changed.
    idle: u32,
    /// A change held back while its rule is undecided (see the module docs).
    held: Option<LoadedThread>,
}

impl ThreadFollower {
    /// A follower of `path` that has read nothing yet.
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            seen: None,
            reading: None,
            thread_id: None,
            idle: 0,
            held: None,
        }
    }

    /// The file followed now (it changes when the file moved or the thread went on in a
    /// continuation file).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The thread as the file holds it now, when it changed since the last poll; `None` when
    /// it did not (or only a torn line grew).
    pub fn poll(&mut self) -> Result<Option<LoadedThread>, ReadError> {
        if !self.path.exists()
            && let Some(moved) = moved_to(&self.path)
        {
            tracing::debug!(from = %self.path.display(), to = %moved.display(), "followed file moved");
            self.switch_to(moved);
        }
        if self.idle >= LOOK_FOR_CONTINUATION_AFTER {
            self.idle = 0;
            if let Some(next) = self.continuation() {
                tracing::debug!(from = %self.path.display(), to = %next.display(), "thread continued");
                self.switch_to(next);
            }
        }
        let name = self.path.display().to_string();
        let unreadable = |source: std::io::Error| ReadError::Io {
            name: name.clone(),
            source,
        };
        let metadata = std::fs::metadata(&self.path).map_err(unreadable)?;
        let stamp = (
            metadata.len(),
            metadata.modified().unwrap_or(std::time::UNIX_EPOCH),
        );
        if self.seen == Some(stamp) {
            self.idle += 1;
            if self.idle >= HOLD_UNDECIDED_POLLS {
                return Ok(self.held.take());
            }
            return Ok(None);
        }
        self.seen = Some(stamp);
        self.idle = 0;
        let (loaded, undecided) = if continues_another(&self.path) {
            self.reading = None;
            (load_thread_file(&self.path, None)?, false)
        } else {
            let reading = self.reading.get_or_insert_with(Reading::streaming);
            if stamp.0 < reading.point.offset {
                *reading = Reading::streaming();
            }
            let read = reading.read_on(&self.path).map_err(unreadable)?;
            if !read && reading.point.lines > 0 {
                return Ok(None);
            }
            self.held = None;
            let (loaded, records) = match reading.snapshot() {
                Ok(snapshot) => snapshot,
                Err(changed) => {
                    tracing::debug!(%changed, path = %self.path.display(), "reading the file again");
                    let thread = reading.thread_id.unwrap_or_else(ThreadId::unrecorded);
                    let mut again = Reading::new(ClientView::for_rule(changed.file, thread));
                    again.read_on(&self.path).map_err(unreadable)?;
                    // The rule is known now, so the view cannot find that another was needed.
                    let snapshot = match again.snapshot() {
                        Ok(snapshot) => snapshot,
                        Err(_) => (load_thread_file(&self.path, None)?, changed.file),
                    };
                    *reading = again;
                    snapshot
                }
            };
            let undecided = matches!(
                records,
                TurnRecords::BoundaryItems | TurnRecords::BoundaryItemsInTurns
            );
            (loaded, undecided)
        };
        if let Some(meta) = &loaded.meta {
            self.thread_id = Some(meta.meta.id);
        }
        if undecided {
            self.held = Some(loaded);
            return Ok(None);
        }
        Ok(Some(loaded))
    }

    fn switch_to(&mut self, path: PathBuf) {
        self.path = path;
        self.seen = None;
        self.reading = None;
    }

    /// The thread's newest continuation file in the home, when it is not the one followed.
    fn continuation(&self) -> Option<PathBuf> {
        let home = home_of_rollout_path(&self.path)?;
        let found = find_rollout_by_thread_id(&home, self.thread_id?).ok()??;
        let name = found.file_name()?.to_str()?;
        let continues = parse_rollout_file_name(name)?.rollout_id.is_some();
        (continues && found != self.path).then_some(found)
    }
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

/// A file read up to a line start: the client view and the thread built of the lines before.
#[derive(Debug, Clone)]
struct Reading {
    /// Where the next line starts.
    point: ReadPoint,
    view: ClientView,
    /// The view as it was before the first line (to start again from).
    start: ClientView,
    feed: ThreadFeed,
    /// The thread, once a session meta was read.
    thread_id: Option<ThreadId>,
}

impl Reading {
    /// Nothing read yet, the view's rule to be found from the first items.
    fn streaming() -> Self {
        Self::new(ClientView::streaming())
    }

    fn new(view: ClientView) -> Self {
        Self {
            point: ReadPoint::default(),
            start: view.clone(),
            view,
            feed: ThreadFeed::default(),
            thread_id: None,
        }
    }

    /// Reads the complete lines of `path` after those read before (all of them, from a
    /// fresh start, when the file is compressed); says whether any was read.
    fn read_on(&mut self, path: &Path) -> io::Result<bool> {
        let mut file = File::open(path)?;
        if RolloutReader::new(&mut file)?.compression() == Compression::Zstd {
            *self = Self::new(self.start.clone());
        }
        let Self {
            point,
            view,
            feed,
            thread_id,
            ..
        } = self;
        point.read_on(file, |line| {
            if let Some(format) = line.format() {
                view.note_format(format);
            }
            if let Some(rollout_line) = line.line() {
                if let (None, Some(meta)) = (*thread_id, rollout_line.item.session_meta()) {
                    *thread_id = Some(meta.meta.id);
                }
                view.push(line.number, line.raw, &rollout_line.item, &mut |item| {
                    feed.push(item);
                });
            }
        })
    }

    /// The thread read so far (with what the view still keeps back) and the rule the file's
    /// turns are counted by; an error when the view committed to another rule than the file
    /// now calls for.
    fn snapshot(&self) -> Result<(LoadedThread, TurnRecords), codex_rollout::ViewRuleChanged> {
        let view = self.view.clone();
        let mut feed = self.feed.clone();
        let records = view.finish(&mut |item| feed.push(item))?;
        Ok((feed.finish(), records))
    }
}
