//! A page of a sequence read once in order (a thread's turns or items): what a request asks
//! ([`PageSpec`]), where a page starts ([`PageCursor`]), and the entries kept while the
//! sequence streams by ([`Window`]), at most a page's worth plus the entries between the page
//! and the end when it is counted from there.
//!
//! Newest-first pages count positions from the end (`turns:end`, `turns:end-7`), so a page
//! near the end of a long thread is found from the thread's last entries alone; oldest-first
//! pages count from the start (`turns:7`). A cursor that holds its entry ends in `:incl` (a
//! page's `backwardsCursor`, to turn back with the entry again).

use std::collections::VecDeque;
use std::fmt;

use codex_app_server_protocol::v2::SortDirection;

use super::ServeError;

/// Entries a page holds when the request names no limit.
const DEFAULT_PAGE: u32 = 25;

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

/// An entry's position: counted from the first (0) or back from the last (0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Position {
    FromStart(usize),
    FromEnd(usize),
}

/// A position among a thread's turns or items, and whether the page it starts holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PageCursor {
    pub(super) kind: Kind,
    pub(super) position: Position,
    pub(super) inclusive: bool,
}

impl PageCursor {
    /// The cursor a newest-first page starts from to hold the last entry.
    pub(super) fn at_end(kind: Kind) -> Self {
        Self {
            kind,
            position: Position::FromEnd(0),
            inclusive: true,
        }
    }

    fn parse(kind: Kind, text: &str) -> Option<Self> {
        let mut parts = text.split(':');
        if parts.next()? != kind.word() {
            return None;
        }
        let position = match parts.next()? {
            "end" => Position::FromEnd(0),
            back if back.starts_with("end-") => Position::FromEnd(back[4..].parse().ok()?),
            number => Position::FromStart(number.parse().ok()?),
        };
        let inclusive = match parts.next() {
            None => false,
            Some("incl") => true,
            Some(_) => return None,
        };
        parts.next().is_none().then_some(Self {
            kind,
            position,
            inclusive,
        })
    }
}

impl fmt::Display for PageCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.word())?;
        match self.position {
            Position::FromStart(index) => write!(f, ":{index}")?,
            Position::FromEnd(0) => f.write_str(":end")?,
            Position::FromEnd(back) => write!(f, ":end-{back}")?,
        }
        if self.inclusive {
            f.write_str(":incl")?;
        }
        Ok(())
    }
}

/// What a page request asks: where it starts, which way, how many.
#[derive(Debug, Clone, Copy)]
pub(super) struct PageSpec {
    kind: Kind,
    cursor: Option<PageCursor>,
    newest_first: bool,
    limit: usize,
}

impl PageSpec {
    pub(super) fn of(
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

    /// How many of the last entries hold the page, when it is counted from the end: a
    /// newest-first page without a cursor, or any page whose cursor counts from the end.
    /// One more than the page needs, to tell whether anything lies before it.
    pub(super) fn last_entries_needed(&self) -> Option<usize> {
        let back = match self.cursor {
            None if self.newest_first => 0,
            Some(PageCursor {
                position: Position::FromEnd(back),
                ..
            }) => back,
            _ => return None,
        };
        Some(back + self.limit + 2)
    }
}

/// The entries of one page, kept as they stream by.
pub(super) struct Window<T> {
    spec: PageSpec,
    kept: VecDeque<(usize, T)>,
}

/// A finished page.
pub(super) struct Page<T> {
    pub(super) entries: Vec<T>,
    pub(super) next_cursor: Option<String>,
    pub(super) backwards_cursor: Option<String>,
}

impl<T> Window<T> {
    pub(super) fn new(spec: PageSpec) -> Self {
        Self {
            spec,
            kept: VecDeque::new(),
        }
    }

    /// Offers the entry at `index` (from the first); it is kept when the page may hold it.
    pub(super) fn offer(&mut self, index: usize, entry: T) {
        if let Some(last) = self.spec.last_entries_needed() {
            self.kept.push_back((index, entry));
            if self.kept.len() > last {
                self.kept.pop_front();
            }
            return;
        }
        if self.range(None).is_some_and(|range| range.contains(&index)) {
            self.kept.push_back((index, entry));
        }
    }

    /// The indices the page holds, once `total` is known for a page counted from the end.
    fn range(&self, total: Option<usize>) -> Option<std::ops::Range<usize>> {
        let spec = self.spec;
        let (anchor, inclusive) = match spec.cursor {
            None if spec.newest_first => (total?.checked_sub(1)?, true),
            None => return Some(0..spec.limit),
            Some(cursor) => {
                let anchor = match cursor.position {
                    Position::FromStart(index) => index,
                    Position::FromEnd(back) => total?.checked_sub(back + 1)?,
                };
                (anchor, cursor.inclusive)
            }
        };
        Some(match spec.newest_first {
            true => {
                let top = match inclusive {
                    true => anchor + 1,
                    false => anchor,
                };
                top.saturating_sub(spec.limit)..top
            }
            false => {
                let first = anchor + usize::from(!inclusive);
                first..first + spec.limit
            }
        })
    }

    /// The page, once `total` entries went by: all of them, or (`whole` false) only the last
    /// ones of a longer sequence, counted from the end.
    pub(super) fn finish(self, total: usize, whole: bool) -> Page<T> {
        let spec = self.spec;
        let range = self.range(Some(total)).unwrap_or(0..0);
        let mut entries: Vec<(usize, T)> = self
            .kept
            .into_iter()
            .filter(|(index, _)| range.contains(index))
            .collect();
        if spec.newest_first {
            entries.reverse();
        }
        // A page read from the last entries only knows positions from the end.
        let from_end = spec.newest_first || spec.last_entries_needed().is_some();
        let cursor = |index: usize, inclusive| {
            let position = match from_end {
                true => Position::FromEnd(total - 1 - index),
                false => Position::FromStart(index),
            };
            PageCursor {
                kind: spec.kind,
                position,
                inclusive,
            }
            .to_string()
        };
        let backwards_cursor = entries.first().map(|(index, _)| cursor(*index, true));
        let next_cursor = entries.last().and_then(|(index, _)| {
            let more = match spec.newest_first {
                true => *index > 0 || !whole,
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
#[path = "window_tests.rs"]
mod tests;
