//! Reading a session for `export`, more than once: a first pass makes the [`FileIndex`], later
//! passes hand the items to the transcript builder one at a time.
//!
//! A file is streamed each time (codex-rollout's [`codex_rollout::stream::RolloutStream`], in
//! memory bounded by the longest line), with the checks of a loaded session on the first
//! pass. Later passes stop at the last line the first pass read an item from, so a session
//! Codex is still appending to is exported as it was at the first pass; a file rewritten in
//! between (other items) is an error rather than a wrong transcript. Standard input and the
//! bundled sample cannot be read twice: they are loaded whole, and the same passes run over
//! the items in memory.

use codex_protocol::rollout::RolloutItem;
use codex_rollout::turns::{TurnRecords, all_user_turns_in_rollout};

use super::transcript::{FileIndex, IndexScan, index_items};
use crate::error::Failure;
use crate::input::{Session, Source, load_session};
use crate::progress::Progress;
use crate::streamed::{ItemsSeen, source_size, stream_again, stream_session};

/// A session `export` reads (see the module docs).
pub enum Reader {
    /// A file, streamed on each pass; `seen` is what the first pass read.
    Stream { source: Source, seen: ItemsSeen },
    /// Standard input or the sample, loaded whole.
    Loaded(Session),
}

impl Reader {
    /// A reader of `source`: loads it when it cannot be read twice.
    pub fn open(source: &Source) -> Result<Self, Failure> {
        match source {
            Source::File(_) => Ok(Self::Stream {
                source: source.clone(),
                seen: ItemsSeen::default(),
            }),
            Source::Stdin | Source::Sample => Ok(Self::Loaded(load_session(source)?)),
        }
    }

    /// The first pass: the file's index, after the checks a loaded session gets.
    pub fn index(&mut self) -> Result<FileIndex, Failure> {
        match self {
            Self::Stream { source, seen } => {
                let progress = Progress::for_bytes(source_size(source), "indexing");
                let mut scan = IndexScan::new();
                *seen = stream_session(source, &progress, |line| {
                    if let Some(format) = line.format() {
                        scan.note_format(format);
                    }
                    if let Some(rollout_line) = line.line() {
                        scan.push(&rollout_line.item, line.raw);
                    }
                })?;
                Ok(scan.finish())
            }
            Self::Loaded(session) => {
                let contents = session.contents();
                let items = contents.items();
                let turns = all_user_turns_in_rollout(items, TurnRecords::of(contents));
                Ok(index_items(
                    items
                        .iter()
                        .enumerate()
                        .map(|(index, item)| (item, raw_line(session, index))),
                    turns,
                ))
            }
        }
    }

    /// A later pass: every item the first pass indexed, with its line's bytes, in order.
    /// Stops at the first error `visit` returns.
    pub fn replay(
        &self,
        mut visit: impl FnMut(&RolloutItem, &[u8]) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        match self {
            Self::Stream { source, seen } => stream_again(
                source,
                "exporting",
                *seen,
                ("exported", "export"),
                |_, line, rollout_line| visit(&rollout_line.item, line.raw),
            ),
            Self::Loaded(session) => {
                for (at, item) in session.contents().items().iter().enumerate() {
                    visit(item, raw_line(session, at))?;
                }
                Ok(())
            }
        }
    }
}

/// The bytes of the line item `index` of a loaded session came from.
fn raw_line(session: &Session, index: usize) -> &[u8] {
    let contents = session.contents();
    contents
        .entry_of_item(index)
        .map_or(&[][..], |entry| contents.raw_line(entry))
}
