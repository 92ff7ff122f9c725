//! `thread/turns/list` and `thread/items/list`: a page of one thread's turns, or of its
//! items (across its turns or of one), either way (the paging is `window.rs`'s).
//!
//! A page counted from the end (newest first, as a client resuming a thread asks) is read
//! from the file's end when its last turns stand alone (`last_turns_from_end`: a paginated
//! file), so it costs those turns, not the file. Otherwise the turns come from the thread
//! read in two passes (`TwoPassThread`, Codex mode), each handed on once final and kept only
//! when the page may hold it, so a page costs its entries, not the thread.

use std::path::Path;

use codex_app_server_protocol::v2::{
    SortDirection, ThreadItemEntry, ThreadItemsListParams, ThreadItemsListResponse,
    ThreadTurnsListParams, ThreadTurnsListResponse, Turn, TurnItemsView,
};
use codex_app_server_protocol::{BuiltThread, TranscriptMode};

use super::window::{Kind, Page, PageSpec, Window};
use super::{ServeError, ServedHome};
use crate::{FileInput, LeftOpen, ReadError, TwoPassThread, continues_another};

impl ServedHome {
    /// `thread/turns/list`: a page of the thread's turns, each in the items view asked for
    /// (a summary when none is).
    pub fn thread_turns_list(
        &self,
        params: &ThreadTurnsListParams,
    ) -> Result<ThreadTurnsListResponse, ServeError> {
        let direction = params.sort_direction.unwrap_or(SortDirection::Desc);
        let spec = PageSpec::of(
            Kind::Turns,
            params.cursor.as_deref(),
            params.limit,
            direction,
        )?;
        let view = params.items_view.unwrap_or(TurnItemsView::Summary);
        let path = self.thread_path(&params.thread_id)?;
        let from_end = match spec.last_entries_needed() {
            Some(needed) => last_turns(&path, needed)?,
            None => None,
        };
        let page = match from_end {
            Some((turns, whole)) => {
                let mut window = Window::new(spec);
                let total = turns.len();
                turns
                    .into_iter()
                    .enumerate()
                    .for_each(|(index, turn)| window.offer(index, turn));
                window.finish(total, whole)
            }
            None => {
                let mut window = Window::new(spec);
                let mut index = 0;
                self.each_turn(&path, |turn| {
                    window.offer(index, turn);
                    index += 1;
                })?;
                window.finish(index, true)
            }
        };
        Ok(ThreadTurnsListResponse {
            data: page
                .entries
                .into_iter()
                .map(|turn| turn.in_items_view(view))
                .collect(),
            next_cursor: page.next_cursor,
            backwards_cursor: page.backwards_cursor,
        })
    }

    /// `thread/items/list`: a page of the thread's items (of one turn when `turnId` is
    /// given), oldest first unless asked otherwise.
    pub fn thread_items_list(
        &self,
        params: &ThreadItemsListParams,
    ) -> Result<ThreadItemsListResponse, ServeError> {
        let direction = params.sort_direction.unwrap_or(SortDirection::Asc);
        let spec = PageSpec::of(
            Kind::Items,
            params.cursor.as_deref(),
            params.limit,
            direction,
        )?;
        let path = self.thread_path(&params.thread_id)?;
        let turn_id = params.turn_id.as_deref();
        let page = match spec.last_entries_needed() {
            Some(needed) => match last_items(&path, needed, turn_id)? {
                Some((items, whole)) => window_of(spec, items, whole),
                None => self.items_page(&path, spec, turn_id)?,
            },
            None => self.items_page(&path, spec, turn_id)?,
        };
        Ok(ThreadItemsListResponse {
            data: page.entries,
            next_cursor: page.next_cursor,
            backwards_cursor: page.backwards_cursor,
        })
    }

    /// A page of the items of the file at `path` (of turn `turn_id` only, when given), its
    /// turns read in two passes.
    fn items_page(
        &self,
        path: &Path,
        spec: PageSpec,
        turn_id: Option<&str>,
    ) -> Result<Page<ThreadItemEntry>, ServeError> {
        let mut window = Window::new(spec);
        let mut index = 0;
        self.each_turn(path, |turn| {
            for entry in entries_of(turn, turn_id) {
                window.offer(index, entry);
                index += 1;
            }
        })?;
        Ok(window.finish(index, true))
    }

    /// Hands `visit` each turn of the file at `path` in order, as Codex's `thread/read` shows
    /// it, as soon as it is final.
    fn each_turn(&self, path: &Path, mut visit: impl FnMut(Turn)) -> Result<(), ServeError> {
        let input = FileInput(path.to_path_buf());
        let planned = TwoPassThread::read(&input, Some(&self.home.root))?;
        let shown = (TranscriptMode::Codex, LeftOpen::Interrupted);
        planned.turns(&input, shown, "serving", |turn| {
            visit(turn);
            Ok::<(), ServeError>(())
        })
    }
}

/// A page of `entries`, all of the sequence (`whole`) or its last ones.
fn window_of<T>(spec: PageSpec, entries: Vec<T>, whole: bool) -> Page<T> {
    let mut window = Window::new(spec);
    let total = entries.len();
    entries
        .into_iter()
        .enumerate()
        .for_each(|(index, entry)| window.offer(index, entry));
    window.finish(total, whole)
}

/// The items of `turn` as entries of a page (none unless it is turn `turn_id`, when given).
fn entries_of(turn: Turn, turn_id: Option<&str>) -> Vec<ThreadItemEntry> {
    if turn_id.is_some_and(|wanted| wanted != turn.id) {
        return Vec::new();
    }
    let id = turn.id;
    turn.items
        .into_iter()
        .map(|item| ThreadItemEntry {
            turn_id: id.clone(),
            started_at_ms: item.started_at_ms,
            completed_at_ms: item.completed_at_ms,
            item,
        })
        .collect()
}

/// The last `count` turns of the file at `path`, read from its end, and whether they are
/// all its turns; `None` when its last turns do not stand alone (the caller reads it whole).
fn last_turns(path: &Path, count: usize) -> Result<Option<(Vec<Turn>, bool)>, ServeError> {
    if continues_another(path) {
        return Ok(None);
    }
    let built =
        crate::last_turns_from_end(path, count, TranscriptMode::Codex).map_err(|source| {
            ReadError::Io {
                name: path.display().to_string(),
                source,
            }
        })?;
    Ok(built.map(|built| {
        let turns = match built {
            BuiltThread::Thread(thread) => thread.turns,
            BuiltThread::TurnsOnly(turns) => turns,
        };
        let whole = turns.len() < count;
        (turns, whole)
    }))
}

/// The last `count` items of the file at `path` (of turn `turn_id` only, when given), read
/// from its end a doubling number of turns at a time, and whether they are all its items;
/// `None` as for [`last_turns`].
fn last_items(
    path: &Path,
    count: usize,
    turn_id: Option<&str>,
) -> Result<Option<(Vec<ThreadItemEntry>, bool)>, ServeError> {
    let mut turns = count.max(1);
    loop {
        let Some((last, whole)) = last_turns(path, turns)? else {
            return Ok(None);
        };
        let found_turn = turn_id.is_none_or(|wanted| last.iter().any(|turn| turn.id == wanted));
        let items: Vec<ThreadItemEntry> = last
            .into_iter()
            .flat_map(|turn| entries_of(turn, turn_id))
            .collect();
        // A turn's items are all in the page once the turn is; a thread's once enough are.
        if whole || (found_turn && (turn_id.is_some() || items.len() >= count)) {
            let all = whole || turn_id.is_some();
            return Ok(Some((items, all)));
        }
        turns = turns.saturating_mul(2);
    }
}
