//! [`LineEntry`]: one line the loader read, where it is in the buffer and what it holds (the
//! line loop makes them, [`super::RolloutContents`] keeps them).

use std::ops::Range;

use codex_protocol::rollout::LineFormat;

/// One line that loaded: where it is and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineEntry {
    /// 1-based line number.
    pub number: usize,
    /// The line's bytes in [`RolloutContents::bytes`](super::RolloutContents::bytes), without its `\n` (a `\r` before it, if
    /// any, is included: the span is exactly what the writer put on that line).
    pub span: Range<usize>,
    /// What the line holds.
    pub content: EntryContent,
    /// The format the line was written in.
    pub format: LineFormat,
}

/// What a loaded line holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryContent {
    /// An item: the index into [`RolloutContents::items`](super::RolloutContents::items).
    Item(usize),
    /// A legacy `{"record_type": ...}` marker, which carries no item.
    LegacyMarker,
    /// A JSON object of a known line kind whose payload the model cannot read (reported as
    /// [`super::ProblemKind::Mismatch`]). It has no item, but the line is kept so that forks and
    /// rewrites do not lose what a newer (or odder) writer put there.
    Opaque,
}

impl LineEntry {
    /// The item index, when the line holds an item.
    pub(crate) fn item(&self) -> Option<usize> {
        match self.content {
            EntryContent::Item(index) => Some(index),
            EntryContent::LegacyMarker | EntryContent::Opaque => None,
        }
    }
}
