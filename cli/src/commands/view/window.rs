//! The part of a large session a thread pane holds: a few pages of whole turns
//! (codex-rollout's [`TurnPage`]s), read on demand in either direction, so scrolling through a
//! session of any size holds at most [`WINDOW_PAGES`] pages (and [`WINDOW_MAX_BYTES`] of
//! file) at once. Reading back past the top reads the previous page backwards
//! ([`turns_before`]), past the bottom the next page forwards ([`turns_from`]); a page
//! beyond the bound is dropped at the other end and read again when scrolled back to.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_rollout::{TurnPage, turns_before, turns_from};

use crate::error::Failure;
use codex_home::{LoadedThread, ThreadFeed};

/// Turns per page.
pub(crate) const PAGE_TURNS: usize = 20;
/// File bytes per page read backwards at most (the page ends at a turn start past it).
pub(crate) const PAGE_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Pages held at most.
pub(crate) const WINDOW_PAGES: usize = 4;
/// File bytes held at most (one page is always held, whatever its size).
pub(crate) const WINDOW_MAX_BYTES: u64 = 128 * 1024 * 1024;

/// A run of adjacent pages of one plain session file.
#[derive(Debug)]
pub(crate) struct Window {
    path: PathBuf,
    /// The file's length when it was opened.
    size: u64,
    meta: SessionMetaLine,
    pages: VecDeque<TurnPage>,
    page_turns: usize,
    max_pages: usize,
}

impl Window {
    /// The last page of the file at `path` (`size` bytes, whose head has `meta`).
    pub(crate) fn at_end(path: &Path, size: u64, meta: SessionMetaLine) -> Result<Self, Failure> {
        Self::with_bounds(path, size, meta, PAGE_TURNS, WINDOW_PAGES)
    }

    /// [`Self::at_end`] with `page_turns` turns per page and `max_pages` pages held.
    pub(crate) fn with_bounds(
        path: &Path,
        size: u64,
        meta: SessionMetaLine,
        page_turns: usize,
        max_pages: usize,
    ) -> Result<Self, Failure> {
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

    fn unreadable(&self, error: std::io::Error) -> Failure {
        Failure::Unreadable(format!("{}: {error}", self.path.display()))
    }

    /// Offset of the first line held.
    pub(crate) fn start(&self) -> u64 {
        self.pages.front().map_or(0, |page| page.start)
    }

    /// Offset just past the last line held.
    pub(crate) fn end(&self) -> u64 {
        self.pages.back().map_or(0, |page| page.end)
    }

    /// Bytes of the file after the part held.
    pub(crate) fn bytes_after(&self) -> u64 {
        self.size.saturating_sub(self.end())
    }

    /// The items held, in file order.
    pub(crate) fn items(&self) -> impl Iterator<Item = &RolloutItem> {
        self.pages.iter().flat_map(|page| page.items.iter())
    }

    /// The turns held, as the pane shows them.
    pub(crate) fn loaded(&self) -> LoadedThread {
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
    pub(crate) fn page_back(&mut self) -> Result<bool, Failure> {
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
    pub(crate) fn page_forward(&mut self) -> Result<bool, Failure> {
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
    pub(crate) fn hold_start(&mut self) -> Result<(), Failure> {
        let page =
            turns_from(&self.path, 0, self.page_turns).map_err(|error| self.unreadable(error))?;
        self.pages = VecDeque::from([page]);
        Ok(())
    }

    /// Holds the file's last page only.
    pub(crate) fn hold_end(&mut self) -> Result<(), Failure> {
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
