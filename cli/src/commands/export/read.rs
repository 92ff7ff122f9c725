//! Reading a session for `export`, more than once: a first pass makes the [`FileIndex`], later
//! passes hand the items to the transcript builder one at a time.
//!
//! The file is streamed each time (codex-rollout's [`codex_rollout::RolloutStream`],
//! in memory bounded by the longest line), with the checks of a loaded session on the first
//! pass. Later passes stop at the last line the first pass read an item from, so a session
//! Codex is still appending to is exported as it was at the first pass; a file rewritten in
//! between (other items) is an error rather than a wrong transcript. Standard input and the
//! bundled sample are spooled into a temporary file first ([`Source::spool`]), so they are
//! read the same way.

use codex_protocol::rollout::RolloutItem;

use super::transcript::{FileIndex, IndexScan};
use crate::error::Failure;
use crate::input::Source;
use crate::progress::Progress;
use crate::streamed::{ItemsSeen, source_size, stream_again, stream_session};

/// A session `export` reads (see the module docs); `seen` is what the first pass read.
pub struct Reader {
    source: Source,
    seen: ItemsSeen,
}

impl Reader {
    /// A reader of `source` (a file, or a spooled copy of standard input or the sample).
    pub fn open(source: &Source) -> Self {
        Self {
            source: source.clone(),
            seen: ItemsSeen::default(),
        }
    }

    /// The first pass: the file's index, after the checks a loaded session gets.
    pub fn index(&mut self) -> Result<FileIndex, Failure> {
        let progress = Progress::for_bytes(source_size(&self.source), "indexing");
        let mut scan = IndexScan::new();
        self.seen = stream_session(&self.source, &progress, |line| scan.push_line(line))?;
        Ok(scan.finish())
    }

    /// A later pass: every item the first pass indexed, with its line's bytes, in order.
    /// Stops at the first error `visit` returns.
    pub fn replay(
        &self,
        mut visit: impl FnMut(&RolloutItem, &[u8]) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        stream_again(
            &self.source,
            "exporting",
            self.seen,
            ("exported", "export"),
            |_, line, rollout_line| visit(&rollout_line.item, line.raw),
        )
    }
}
