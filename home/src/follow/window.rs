//! A large session read from its end, a few pages at a time: [`TurnWindow`].
//!
//! [`TurnWindow::at_end`] decides whether a file opens this way: a plain file (not zstd) of
//! at least [`TAIL_FROM_BYTES`] that continues no other file's history (`history_base`) and
//! records its turns for clients (`item_completed` or `user_message` events in the part
//! read); anything else is read whole ([`crate::load_thread_file`]). Its last page of turns
//! is read backwards, so the last screen shows without reading the whole file; the part read
//! starts at a turn's `task_started` line, so the turns held are whole.
//!
//! The window then holds a few pages of whole turns (codex-rollout's [`TurnPage`]s), read on
//! demand in either direction, so scrolling through a session of any size holds at most
//! [`WINDOW_PAGES`] pages (and [`WINDOW_MAX_BYTES`] of file) at once. Reading back past the
//! top reads the previous page backwards ([`turns_before`]), past the bottom the next page
//! forwards ([`turns_from`]); a page beyond the bound is dropped at the other end and read
//! again when scrolled back to.

use std::collections::VecDeque;
use std::io;
use std::path::{Path, PathBuf};

use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_rollout::{TurnPage, turns_before, turns_from};

use super::{LoadedThread, ThreadFeed};
use crate::compress::is_zstd;
use crate::{ReadError, read_head_summary};

/// Files at least this large open from their end.
pub(crate) const TAIL_FROM_BYTES: u64 = 32 * 1024 * 1024;
/// Turns per page.
pub(crate) const PAGE_TURNS: usize = 20;
/// File bytes per page read backwards at most (the page ends at a turn start past it).
pub(crate) const PAGE_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Pages held at most.
pub(crate) const WINDOW_PAGES: usize = 4;
/// File bytes held at most (one page is always held, whatever its size).
pub(crate) const WINDOW_MAX_BYTES: u64 = 128 * 1024 * 1024;

/// A run of adjacent pages of one plain session file (see the module docs).
#[derive(Debug)]
pub struct TurnWindow {
    path: PathBuf,
    /// The file's length when it was opened.
    size: u64,
    meta: SessionMetaLine,
    pages: VecDeque<TurnPage>,
    page_turns: usize,
    max_pages: usize,
}

impl TurnWindow {
    /// The last page of the session at `path`, when it is large enough and fit to be read
    /// from its end (see the module docs); `None` when it should be read whole.
    pub fn at_end(path: &Path) -> Result<Option<Self>, ReadError> {
        Self::at_end_from(path, TAIL_FROM_BYTES)
    }

    /// [`Self::at_end`] for files of at least `from_bytes`.
    pub(crate) fn at_end_from(path: &Path, from_bytes: u64) -> Result<Option<Self>, ReadError> {
        let unreadable = |source| ReadError::Io {
            name: path.display().to_string(),
            source,
        };
        let size = std::fs::metadata(path).map_err(unreadable)?.len();
        if size < from_bytes || is_zstd(path).map_err(unreadable)? {
            return Ok(None);
        }
        let Ok(head) = read_head_summary(path) else {
            return Ok(None);
        };
        let Some(meta) = head.session_meta else {
            return Ok(None);
        };
        if meta.meta.history_base.is_some() {
            return Ok(None);
        }
        let window = Self::with_bounds(path, size, meta, PAGE_TURNS, WINDOW_PAGES)?;
        if window.start() == 0 {
            // The last page is the whole file: it is not large after all.
            return Ok(None);
        }
        let client_records = window.items().any(RolloutItem::records_client_items);
        Ok(client_records.then_some(window))
    }

    /// The last page of the file at `path` (`size` bytes, whose head has `meta`), with
    /// `page_turns` turns per page and `max_pages` pages held.
    pub(crate) fn with_bounds(
        path: &Path,
        size: u64,
        meta: SessionMetaLine,
        page_turns: usize,
        max_pages: usize,
    ) -> Result<Self, ReadError> {
        let mut window = Self {
            path: path.to_path_buf(),
            size,
            meta,
            pages: VecDeque::new(),
            page_turns: page_turns.max(1),
            max_pages: max_pages.max(1),
        };
        window.hold_end()?;
        Ok(window)
    }

    fn unreadable(&self, source: io::Error) -> ReadError {
        ReadError::Io {
            name: self.path.display().to_string(),
            source,
        }
    }

    /// Offset of the first line held.
    pub fn start(&self) -> u64 {
        self.pages.front().map_or(0, |page| page.start)
    }

    /// Offset just past the last line held.
    fn end(&self) -> u64 {
        self.pages.back().map_or(0, |page| page.end)
    }

    /// Bytes of the file after the part held.
    pub fn bytes_after(&self) -> u64 {
        self.size.saturating_sub(self.end())
    }

    /// The items held, in file order.
    fn items(&self) -> impl Iterator<Item = &RolloutItem> {
        self.pages.iter().flat_map(|page| page.items.iter())
    }

    /// The turns held, as a reader shows them ([`LoadedThread::skipped_bytes`] and
    /// [`LoadedThread::bytes_after`] say what is not held).
    pub fn loaded(&self) -> LoadedThread {
        let mut feed = if self.start() > 0 {
            ThreadFeed::mid_thread()
        } else {
            ThreadFeed::default()
        };
        feed.push(&RolloutItem::from(self.meta.clone()));
        for item in self.items() {
            feed.push(item);
        }
        let mut loaded = feed.finish();
        loaded.skipped_bytes = self.start();
        loaded.bytes_after = self.bytes_after();
        loaded
    }

    /// The page before the part held, read backwards; the last page is dropped when the
    /// window is full. `false` when the file's start is held already.
    pub fn page_back(&mut self) -> Result<bool, ReadError> {
        let start = self.start();
        if start == 0 {
            return Ok(false);
        }
        let page = turns_before(&self.path, start, self.page_turns, PAGE_MAX_BYTES)
            .map_err(|error| self.unreadable(error))?;
        self.pages.push_front(page);
        while self.too_big() {
            self.pages.pop_back();
        }
        Ok(true)
    }

    /// The page after the part held, read forwards; the first page is dropped when the
    /// window is full. `false` when the end is held already.
    pub fn page_forward(&mut self) -> Result<bool, ReadError> {
        let end = self.end();
        if end >= self.size {
            return Ok(false);
        }
        let page =
            turns_from(&self.path, end, self.page_turns).map_err(|error| self.unreadable(error))?;
        if page.end <= end {
            return Ok(false);
        }
        self.pages.push_back(page);
        while self.too_big() {
            self.pages.pop_front();
        }
        Ok(true)
    }

    /// Holds the file's first page only.
    pub fn hold_start(&mut self) -> Result<(), ReadError> {
        let page =
            turns_from(&self.path, 0, self.page_turns).map_err(|error| self.unreadable(error))?;
        self.pages = VecDeque::from([page]);
        Ok(())
    }

    /// Holds the file's last page only.
    pub fn hold_end(&mut self) -> Result<(), ReadError> {
        let page = turns_before(&self.path, self.size, self.page_turns, PAGE_MAX_BYTES)
            .map_err(|error| self.unreadable(error))?;
        self.pages = VecDeque::from([page]);
        Ok(())
    }

    fn too_big(&self) -> bool {
        self.pages.len() > 1
            && (self.pages.len() > self.max_pages || self.end() - self.start() > WINDOW_MAX_BYTES)
    }
}

#[cfg(test)]
#[path = "window_tests.rs"]
mod tests;
