//! `thread/turns/list` and `thread/items/list`: a page of one thread's turns, or of its
//! items (across its turns or of one), either way.
//!
//! The turns come from the thread read in two passes (`TwoPassThread`, Codex mode), each
//! handed on once final and kept only when it falls in the page, so a page costs its
//! entries, not the thread. A cursor names an entry by its position (or the end) and whether
//! the page holds it: `turns:7`, `items:end:incl`.

use std::collections::VecDeque;
use std::fmt;

use codex_app_server_protocol::TranscriptMode;
use codex_app_server_protocol::v2::{
    SortDirection, ThreadItemEntry, ThreadItemsListParams, ThreadItemsListResponse,
    ThreadTurnsListParams, ThreadTurnsListResponse, Turn, TurnItemsView,
};

use super::{ServeError, ServedHome};
use crate::{FileInput, LeftOpen, TwoPassThread};

/// Entries a page holds when the request names no limit.
const DEFAULT_PAGE: u32 = 25;

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
        let mut window = Window::new(spec);
        let mut index = 0;
        self.each_turn(&params.thread_id, |turn| {
            window.offer(index, turn);
            index += 1;
        })?;
        let page = window.finish(index);
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
        let mut window = Window::new(spec);
        let mut index = 0;
        self.each_turn(&params.thread_id, |turn| {
            if params
                .turn_id
                .as_ref()
                .is_some_and(|wanted| *wanted != turn.id)
            {
                return;
            }
            for item in turn.items {
                let entry = ThreadItemEntry {
                    turn_id: turn.id.clone(),
                    started_at_ms: item.started_at_ms,
                    completed_at_ms: item.completed_at_ms,
                    item,
                };
                window.offer(index, entry);
                index += 1;
            }
        })?;
        let page = window.finish(index);
        Ok(ThreadItemsListResponse {
            data: page.entries,
            next_cursor: page.next_cursor,
            backwards_cursor: page.backwards_cursor,
        })
    }

    /// Hands `visit` each turn of thread `thread_id` in order, as Codex's `thread/read`
    /// shows it, as soon as it is final.
    fn each_turn(&self, thread_id: &str, mut visit: impl FnMut(Turn)) -> Result<(), ServeError> {
        let path = self.thread_path(thread_id)?;
        let input = FileInput(path);
        let planned = TwoPassThread::read(&input, Some(self.home.root()))?;
        let shown = (TranscriptMode::Codex, LeftOpen::Interrupted);
        planned.turns(&input, shown, "serving", |turn| {
            visit(turn);
            Ok::<(), ServeError>(())
        })
    }
}

/// What a cursor pages: turns or items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Turns,
    Items,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Self::Turns => "turns",
            Self::Items => "items",
        }
    }
}

/// A position among a thread's turns or items: an entry, or the last one (`None`), and
/// whether the page it starts holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PageCursor {
    pub(super) kind: Kind,
    pub(super) index: Option<usize>,
    pub(super) inclusive: bool,
}

impl PageCursor {
    /// The cursor a newest-first page starts from to hold the last entry.
    pub(super) fn at_end(kind: Kind) -> Self {
        Self {
            kind,
            index: None,
            inclusive: true,
        }
    }

    fn parse(kind: Kind, text: &str) -> Option<Self> {
        let mut parts = text.split(':');
        if parts.next()? != kind.word() {
            return None;
        }
        let index = match parts.next()? {
            "end" => None,
            number => Some(number.parse().ok()?),
        };
        let inclusive = match parts.next() {
            None => false,
            Some("incl") => true,
            Some(_) => return None,
        };
        parts.next().is_none().then_some(Self {
            kind,
            index,
            inclusive,
        })
    }
}

impl fmt::Display for PageCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.word())?;
        match self.index {
            Some(index) => write!(f, ":{index}")?,
            None => f.write_str(":end")?,
        }
        if self.inclusive {
            f.write_str(":incl")?;
        }
        Ok(())
    }
}

/// What a page request asks: where it starts, which way, how many.
#[derive(Debug, Clone, Copy)]
struct PageSpec {
    kind: Kind,
    cursor: Option<PageCursor>,
    newest_first: bool,
    limit: usize,
}

impl PageSpec {
    fn of(
        kind: Kind,
        cursor: Option<&str>,
        limit: Option<u32>,
        direction: SortDirection,
    ) -> Result<Self, ServeError> {
        let cursor = cursor
            .map(|text| {
                PageCursor::parse(kind, text).ok_or_else(|| ServeError::BadCursor {
                    cursor: text.to_owned(),
                })
            })
            .transpose()?;
        Ok(Self {
            kind,
            cursor,
            newest_first: direction == SortDirection::Desc,
            limit: limit.unwrap_or(DEFAULT_PAGE).max(1) as usize,
        })
    }
}

/// The entries of one page, kept as they stream by: at most a page's worth, one more for a
/// page that starts just before the end (known only once the end is).
struct Window<T> {
    spec: PageSpec,
    kept: VecDeque<(usize, T)>,
}

/// A finished page.
struct Page<T> {
    entries: Vec<T>,
    next_cursor: Option<String>,
    backwards_cursor: Option<String>,
}

impl<T> Window<T> {
    fn new(spec: PageSpec) -> Self {
        Self {
            spec,
            kept: VecDeque::new(),
        }
    }

    /// How many of the last entries a page that starts from the end keeps while the end is
    /// not known; `None` for a page whose entries are known by position.
    fn kept_from_end(&self) -> Option<usize> {
        let spec = self.spec;
        match spec.cursor {
            None if spec.newest_first => Some(spec.limit),
            Some(PageCursor {
                index: None,
                inclusive,
                ..
            }) => Some(match spec.newest_first {
                true => spec.limit + usize::from(!inclusive),
                // Oldest first from the end: at most the last entry.
                false => 1,
            }),
            _ => None,
        }
    }

    /// Offers the entry at `index`; it is kept when the page may hold it.
    fn offer(&mut self, index: usize, entry: T) {
        let spec = self.spec;
        if let Some(last) = self.kept_from_end() {
            self.kept.push_back((index, entry));
            if self.kept.len() > last {
                self.kept.pop_front();
            }
            return;
        }
        let wanted = match spec
            .cursor
            .and_then(|cursor| cursor.index.map(|at| (at, cursor)))
        {
            None => index < spec.limit,
            Some((anchor, cursor)) if spec.newest_first => {
                let top = match cursor.inclusive {
                    true => Some(anchor),
                    false => anchor.checked_sub(1),
                };
                top.is_some_and(|top| index <= top && index + spec.limit > top)
            }
            Some((anchor, cursor)) => {
                let first = anchor + usize::from(!cursor.inclusive);
                index >= first && index < first + spec.limit
            }
        };
        if wanted {
            self.kept.push_back((index, entry));
        }
    }

    /// The page, once `total` entries went by.
    fn finish(mut self, total: usize) -> Page<T> {
        let spec = self.spec;
        if let Some(PageCursor {
            index: None,
            inclusive: false,
            ..
        }) = spec.cursor
        {
            // From just before the end (or past it, oldest first): the last entry is not
            // the page's.
            self.kept.pop_back();
        }
        let mut entries: Vec<(usize, T)> = self.kept.into_iter().collect();
        if spec.newest_first {
            entries.reverse();
        }
        let cursor = |index, inclusive| {
            PageCursor {
                kind: spec.kind,
                index: Some(index),
                inclusive,
            }
            .to_string()
        };
        let backwards_cursor = entries.first().map(|(index, _)| cursor(*index, true));
        let next_cursor = entries.last().and_then(|(index, _)| {
            let more = match spec.newest_first {
                true => *index > 0,
                false => index + 1 < total,
            };
            more.then(|| cursor(*index, false))
        });
        Page {
            entries: entries.into_iter().map(|(_, entry)| entry).collect(),
            next_cursor,
            backwards_cursor,
        }
    }
}

#[cfg(test)]
#[path = "pages_tests.rs"]
mod tests;
