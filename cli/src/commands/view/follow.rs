//! [`Follower`]: a session file read as Codex writes it.
//!
//! Each [`Follower::poll`] reads the file again when its size or modification time changed,
//! up to its last complete line (a torn last line waits for the rest). The file is looked for
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

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use codex_home::find_rollout_by_thread_id;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::RolloutContents;
use codex_rollout::TurnRecords;
use codex_rollout::{home_of_rollout_path, parse_rollout_file_name};

use super::load::{Loaded, load_contents, load_file};
use crate::client_view::continues_another;
use crate::error::Failure;

/// Polls without a change after which the home is asked for a continuation file.
const LOOK_FOR_CONTINUATION_AFTER: u32 = 10;

/// Polls without a change after which a file that has not said how it records its turns is
/// shown anyway (see the module docs); fewer than
/// [`LOOK_FOR_CONTINUATION_AFTER`], which starts the count again.
const HOLD_UNDECIDED_POLLS: u32 = 8;

/// A session file followed as it grows (see the module docs).
#[derive(Debug)]
pub struct Follower {
    path: PathBuf,
    seen: Option<(u64, SystemTime)>,
    /// Complete lines read at the last change.
    complete: usize,
    /// The thread, once the file said.
    thread_id: Option<ThreadId>,
    /// Polls since the file last changed.
    idle: u32,
    /// A change held back while its rule is undecided (see the module docs).
    held: Option<Loaded>,
}

impl Follower {
    /// A follower of `path` that has read nothing yet.
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            seen: None,
            complete: 0,
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
    pub fn poll(&mut self) -> Result<Option<Loaded>, Failure> {
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
        let unreadable = |error: std::io::Error| {
            Failure::Unreadable(format!("{}: {error}", self.path.display()))
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
        let decoded = codex_rollout::read_rollout_file(&self.path).map_err(unreadable)?;
        let mut bytes = decoded.bytes;
        let end = bytes
            .iter()
            .rposition(|byte| *byte == b'\n')
            .map_or(0, |at| at + 1);
        bytes.truncate(end);
        let complete = bytes.iter().filter(|byte| **byte == b'\n').count();
        if complete == self.complete && complete > 0 {
            return Ok(None);
        }
        self.complete = complete;
        self.held = None;
        let (loaded, undecided) = if continues_another(&self.path) {
            (load_file(&self.path, None)?, false)
        } else {
            let contents = RolloutContents::parse(bytes);
            let undecided = matches!(
                TurnRecords::of(&contents),
                TurnRecords::BoundaryItems | TurnRecords::BoundaryItemsInTurns
            );
            (load_contents(&contents), undecided)
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
        self.complete = 0;
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
