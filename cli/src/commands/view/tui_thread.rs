//! The thread pane of the terminal UI: a transcript's cells drawn as wrapped lines, a selected
//! cell (Enter folds it), scrolling, find in thread, and following the file.
//!
//! The pane keeps one fold flag per cell (history, then the live tail); a follow keeps the
//! flags of the cells a sync kept. Lines are wrapped to the pane's width here, before drawing,
//! so the scroll position counts the rows the screen shows.

use std::path::{Path, PathBuf};

use codex_app_server_protocol::transcript::{Cell, CellBody, Transcript, anchored_cell};
use codex_home::HitAnchor;
use crossterm::event::KeyCode;

use codex_app_server_protocol::transcript::human_bytes;

use super::line::{Line, plain};
use super::plain::header;
use super::render::{render_cell, status_text};
use super::wrap::wrap;
use crate::error::Failure;
use codex_home::{LoadedThread, ThreadFollower, TurnWindow};

/// One row on screen: the cell it belongs to (none for the gap after a cell) and its spans.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub cell: Option<usize>,
    pub spans: Line,
}

/// The state of an open thread.
#[derive(Debug)]
pub(crate) struct ThreadPane {
    pub header: Vec<String>,
    pub thread_id: Option<String>,
    transcript: Transcript,
    folded: Vec<bool>,
    rows: Vec<Row>,
    /// The first row of each cell.
    starts: Vec<usize>,
    width: usize,
    dirty: bool,
    /// The selected cell.
    pub selected: usize,
    /// The first row shown.
    pub top: usize,
    /// Rows the pane showed last.
    pub height: usize,
    /// The text `n`/`N` look for.
    pub find: Option<String>,
    follower: Option<ThreadFollower>,
    /// Stay at the bottom as the followed file grows.
    stick: bool,
    /// A turn to show once the pane knows its size.
    pending_turn: Option<u32>,
    /// The item within that turn (a search hit's), selected once the cells are built.
    pending_anchor: Option<HitAnchor>,
    /// The pages held of a large file, read on demand (`None`: the whole thread is held).
    window: Option<TurnWindow>,
    /// After a page was read: the cell to keep in view (its turn and item) and the rows
    /// to show above it.
    pending_keep: Option<(String, String, usize)>,
    path: PathBuf,
}

impl ThreadPane {
    /// A pane of the loaded thread at `path`; following it when `follower` is given.
    pub(crate) fn new(
        path: &Path,
        loaded: &LoadedThread,
        follower: Option<ThreadFollower>,
    ) -> Self {
        let transcript = match &follower {
            Some(_) => {
                let mut transcript = Transcript::new(None);
                transcript.sync(&loaded.turns, &loaded.facts);
                transcript
            }
            None => Transcript::replay(&loaded.turns, &loaded.facts),
        };
        let folded = cells(&transcript).map(Cell::folded_by_default).collect();
        let header = header(loaded.meta.as_ref(), path);
        Self {
            header,
            thread_id: loaded.thread_id(),
            transcript,
            folded,
            rows: Vec::new(),
            starts: Vec::new(),
            width: 0,
            dirty: true,
            selected: 0,
            top: 0,
            height: 0,
            find: None,
            stick: follower.is_some(),
            follower,
            pending_turn: None,
            pending_anchor: None,
            window: None,
            pending_keep: None,
            path: path.to_path_buf(),
        }
    }

    /// A pane over a large file, holding the pages of `window` (its end first).
    pub(crate) fn paged(path: &Path, window: TurnWindow) -> Self {
        let loaded = window.loaded();
        let mut pane = Self::new(path, &loaded, None);
        pane.header = paged_header(&loaded, path);
        pane.window = Some(window);
        pane.stick = true;
        pane
    }

    /// Whether the pane follows its file.
    pub(crate) fn following(&self) -> bool {
        self.follower.is_some()
    }

    /// Whether part of the file before what is held is not read.
    pub(crate) fn has_before(&self) -> bool {
        self.window
            .as_ref()
            .is_some_and(|window| window.start() > 0)
    }

    /// Whether part of the file after what is held is not read.
    pub(crate) fn has_after(&self) -> bool {
        self.window
            .as_ref()
            .is_some_and(|window| window.bytes_after() > 0)
    }

    /// The paging key `code` asks for in a large file, when it moves past the part held:
    /// g and G read the file's ends; a move up from the top (down from the bottom) reads the
    /// page before (after). `None` when the key moves within what is held.
    pub(crate) fn page_for_key(&mut self, code: KeyCode) -> Option<Result<(), Failure>> {
        let upward = matches!(
            code,
            KeyCode::Char('g') | KeyCode::Home | KeyCode::PageUp | KeyCode::Char('k') | KeyCode::Up
        );
        let downward = matches!(
            code,
            KeyCode::Char('G')
                | KeyCode::End
                | KeyCode::PageDown
                | KeyCode::Char(' ')
                | KeyCode::Char('j')
                | KeyCode::Down
        );
        let page_key = matches!(
            code,
            KeyCode::PageUp | KeyCode::PageDown | KeyCode::Char(' ')
        );
        if upward && self.has_before() {
            if matches!(code, KeyCode::Char('g') | KeyCode::Home) {
                return Some(self.file_start());
            }
            if self.top == 0 && (page_key || self.selected_first()) {
                return Some(self.page_back());
            }
        }
        if downward && self.has_after() {
            if matches!(code, KeyCode::Char('G') | KeyCode::End) {
                return Some(self.file_end());
            }
            if self.at_bottom() && (page_key || self.selected_last()) {
                return Some(self.page_forward());
            }
        }
        None
    }

    /// The paging a wheel move of `delta` rows asks for past the part held.
    pub(crate) fn page_for_wheel(&mut self, delta: isize) -> Option<Result<(), Failure>> {
        if delta < 0 && self.top == 0 && self.has_before() {
            Some(self.page_back())
        } else if delta > 0 && self.at_bottom() && self.has_after() {
            Some(self.page_forward())
        } else {
            None
        }
    }

    /// Whether the first cell is selected.
    pub(crate) fn selected_first(&self) -> bool {
        self.selected == 0
    }

    /// Whether the last cell is selected.
    pub(crate) fn selected_last(&self) -> bool {
        self.selected + 1 >= self.cell_count()
    }

    /// Whether the last row is on screen.
    pub(crate) fn at_bottom(&self) -> bool {
        self.top + self.height >= self.rows.len()
    }

    /// Reads the page before what is held; the first cell held before stays in view, a
    /// screen of the new page above it.
    pub(crate) fn page_back(&mut self) -> Result<(), Failure> {
        let keep = cells(&self.transcript)
            .next()
            .map(|cell| (cell.turn_id.clone(), cell.item_id.clone()));
        let Some(window) = &mut self.window else {
            return Ok(());
        };
        if window.page_back()? {
            self.reload();
            self.pending_keep = keep.map(|(turn, item)| (turn, item, self.height.max(2) - 1));
        }
        Ok(())
    }

    /// Reads the page after what is held; the last cell held before stays in view.
    pub(crate) fn page_forward(&mut self) -> Result<(), Failure> {
        let keep = cells(&self.transcript)
            .last()
            .map(|cell| (cell.turn_id.clone(), cell.item_id.clone()));
        let Some(window) = &mut self.window else {
            return Ok(());
        };
        if window.page_forward()? {
            self.reload();
            self.pending_keep = keep.map(|(turn, item)| (turn, item, self.height / 2));
        }
        Ok(())
    }

    /// Holds the file's first page and shows its top.
    pub(crate) fn file_start(&mut self) -> Result<(), Failure> {
        if let Some(window) = &mut self.window {
            window.hold_start()?;
            self.reload();
        }
        self.top_of_thread();
        Ok(())
    }

    /// Holds the file's last page and shows its end.
    pub(crate) fn file_end(&mut self) -> Result<(), Failure> {
        if let Some(window) = &mut self.window {
            window.hold_end()?;
            self.reload();
        }
        self.stick = true;
        Ok(())
    }

    /// Builds the cells again from the pages held.
    fn reload(&mut self) {
        let Some(window) = &self.window else { return };
        let loaded = window.loaded();
        self.transcript = Transcript::replay(&loaded.turns, &loaded.facts);
        self.folded = cells(&self.transcript)
            .map(Cell::folded_by_default)
            .collect();
        self.header = paged_header(&loaded, &self.path);
        self.dirty = true;
        self.stick = false;
        self.top = 0;
        self.selected = 0;
    }

    /// Shows the kept cell after a page was read.
    fn apply_keep(&mut self, (turn, item, above): (String, String, usize)) {
        if let Some(index) =
            cells(&self.transcript).position(|cell| cell.turn_id == turn && cell.item_id == item)
        {
            self.selected = index;
            let start = self.starts.get(index).copied().unwrap_or(0);
            let max_top = self.rows.len().saturating_sub(self.height);
            self.top = start.saturating_sub(above).min(max_top);
        }
    }

    /// The status line.
    pub(crate) fn status(&self) -> String {
        status_text(self.transcript.status())
    }

    /// Reads the followed file again; whether anything changed.
    pub(crate) fn poll(&mut self) -> Result<bool, Failure> {
        let Some(follower) = &mut self.follower else {
            return Ok(false);
        };
        let Some(loaded) = follower.poll()? else {
            return Ok(false);
        };
        if self.header.len() < 3 && loaded.meta.is_some() {
            self.header = header(loaded.meta.as_ref(), follower.path());
            self.thread_id = loaded.thread_id();
        }
        let at_bottom = self.stick || self.top + self.height >= self.rows.len();
        let change = self.transcript.sync(&loaded.turns, &loaded.facts);
        let mut folded: Vec<bool> = cells(&self.transcript)
            .map(Cell::folded_by_default)
            .collect();
        for (index, flag) in self.folded.iter().take(change.kept).enumerate() {
            if let Some(slot) = folded.get_mut(index) {
                *slot = *flag;
            }
        }
        self.folded = folded;
        self.dirty = true;
        self.stick = at_bottom;
        Ok(true)
    }

    /// The rows for a pane `width` columns wide (rebuilt when the width or the cells changed).
    pub(crate) fn rows(&mut self, width: usize) -> &[Row] {
        if self.dirty || width != self.width {
            self.width = width;
            self.rebuild();
            self.dirty = false;
            if let Some(keep) = self.pending_keep.take() {
                self.apply_keep(keep);
            } else if let Some(turn) = self.pending_turn.take() {
                let anchor = self.pending_anchor.take();
                self.jump_to_turn(turn, anchor.as_ref());
            } else if self.stick {
                self.bottom();
            }
        }
        &self.rows
    }

    fn rebuild(&mut self) {
        self.rows.clear();
        self.starts.clear();
        let mut turn = 0;
        let width = self.width.max(10);
        for (index, cell) in cells(&self.transcript).enumerate() {
            if matches!(cell.body, CellBody::TurnEnd { .. }) {
                turn += 1;
            }
            self.starts.push(self.rows.len());
            let folded = self.folded.get(index).copied().unwrap_or(false);
            for line in render_cell(cell, folded, turn) {
                for wrapped in wrap(line, width.saturating_sub(2)) {
                    self.rows.push(Row {
                        cell: Some(index),
                        spans: wrapped,
                    });
                }
            }
            self.rows.push(Row {
                cell: None,
                spans: Vec::new(),
            });
        }
    }

    fn cell_count(&self) -> usize {
        self.starts.len()
    }

    /// Selects cell `index` and scrolls so its first row is visible.
    pub(crate) fn select(&mut self, index: usize) {
        if self.cell_count() == 0 {
            return;
        }
        self.selected = index.min(self.cell_count() - 1);
        let start = self.starts[self.selected];
        let end = self
            .starts
            .get(self.selected + 1)
            .copied()
            .unwrap_or(self.rows.len());
        if start < self.top {
            self.top = start;
        } else if end > self.top + self.height {
            self.top = start.min(end.saturating_sub(self.height));
        }
        self.stick = false;
    }

    /// Moves the selection by `delta` cells.
    pub(crate) fn step(&mut self, delta: isize) {
        let next = self.selected.saturating_add_signed(delta);
        self.select(next);
    }

    /// Scrolls by `delta` rows and selects the first cell that starts on screen.
    pub(crate) fn scroll(&mut self, delta: isize) {
        let max_top = self.rows.len().saturating_sub(self.height);
        self.top = self.top.saturating_add_signed(delta).min(max_top);
        if let Some(index) = self
            .starts
            .iter()
            .position(|start| *start >= self.top && *start < self.top + self.height.max(1))
        {
            self.selected = index;
        }
        self.stick = delta > 0 && self.top == max_top && self.following();
    }

    /// The first cell.
    pub(crate) fn top_of_thread(&mut self) {
        self.top = 0;
        self.selected = 0;
        self.stick = false;
    }

    /// The last screen.
    pub(crate) fn bottom(&mut self) {
        self.top = self.rows.len().saturating_sub(self.height);
        self.selected = self.cell_count().saturating_sub(1);
        self.stick = self.following();
    }

    /// Folds or unfolds the selected cell.
    pub(crate) fn toggle_fold(&mut self) {
        if let Some(flag) = self.folded.get_mut(self.selected) {
            *flag = !*flag;
            self.dirty = true;
        }
    }

    /// Shows user turn `turn` (1-based) at the next drawing.
    pub(crate) fn show_turn(&mut self, turn: u32, anchor: Option<HitAnchor>) {
        self.pending_turn = Some(turn);
        self.pending_anchor = anchor;
        self.stick = false;
    }

    /// Selects the cell of `anchor` in user turn `turn` (1-based, as the search index counts),
    /// else the turn's first cell; the selected cell is unfolded and shown at the top.
    fn jump_to_turn(&mut self, turn: u32, anchor: Option<&HitAnchor>) {
        let mut seen = 0;
        let first = cells(&self.transcript).position(|cell| {
            if matches!(cell.body, CellBody::User { .. }) {
                seen += 1;
            }
            seen >= turn
        });
        let target = match (first, anchor) {
            (Some(first), Some(anchor)) => anchored_cell(
                cells(&self.transcript),
                first,
                anchor.call_id.as_deref(),
                &anchor.text,
            )
            .or(Some(first)),
            (first, _) => first,
        };
        if let Some(index) = target {
            if index != first.unwrap_or(index)
                && let Some(flag) = self.folded.get_mut(index)
                && *flag
            {
                *flag = false;
                self.rebuild();
            }
            self.select(index);
            self.top = self.starts.get(index).copied().unwrap_or(0);
        }
    }

    /// Selects the next (or previous) cell whose text holds the find text, unfolding it.
    pub(crate) fn find_next(&mut self, forward: bool) -> bool {
        let Some(needle) = self.find.as_ref().map(|text| text.to_lowercase()) else {
            return false;
        };
        if needle.is_empty() {
            return false;
        }
        let all: Vec<&Cell> = cells(&self.transcript).collect();
        let count = all.len();
        for offset in 1..=count {
            let index = if forward {
                (self.selected + offset) % count
            } else {
                (self.selected + count * 2 - offset) % count
            };
            let matches = render_cell(all[index], false, 0)
                .iter()
                .any(|line| plain(line).to_lowercase().contains(&needle));
            if matches {
                if let Some(flag) = self.folded.get_mut(index) {
                    *flag = false;
                }
                self.dirty = true;
                let width = self.width;
                self.rows(width);
                self.select(index);
                return true;
            }
        }
        false
    }
}

/// The header of a pane over part of a large file: what is not read, and how to read it.
fn paged_header(loaded: &LoadedThread, path: &Path) -> Vec<String> {
    let mut header = header(loaded.meta.as_ref(), path);
    if loaded.skipped_bytes > 0 {
        header.push(format!(
            "… the first {} of the file are not read yet: scrolling up reads them a page at a time, g reads the start",
            human_bytes(loaded.skipped_bytes)
        ));
    }
    if loaded.bytes_after > 0 {
        header.push(format!(
            "… the last {} of the file are not held: scrolling down reads them, G reads the end",
            human_bytes(loaded.bytes_after)
        ));
    }
    header
}

fn cells(transcript: &Transcript) -> impl Iterator<Item = &Cell> {
    transcript.history().iter().chain(transcript.live())
}
