//! Reading a session for `export`, more than once: a first pass makes the [`FileIndex`], later
//! passes hand the lines to the transcript builder one at a time. Each pass parses only the
//! lines it needs ([`IndexScan::reads`], [`TranscriptBuilder::reads`]), and every line is
//! read by one of them.
//!
//! The file is streamed each time (codex-rollout's [`codex_rollout::RolloutStream`],
//! in memory bounded by the longest line), with the checks of a loaded session on the first
//! pass. Later passes stop at the last line the first pass read an item from, so a session
//! Codex is still appending to is exported as it was at the first pass; a file rewritten in
//! between (other items) is an error rather than a wrong transcript. Standard input and the
//! bundled sample are spooled into a temporary file first ([`Source::spool`]), so they are
//! read the same way.

use codex_protocol::rollout::RolloutItem;

use super::transcript::{FileIndex, IndexScan, TranscriptBuilder};
use crate::error::Failure;
use crate::input::Source;
use crate::progress::Progress;
use crate::streamed::{
    FirstPass, LineTest, Passes, source_size, stream_again_lines, stream_session_where,
};

/// What each pass reads.
const PASSES: Passes<LineTest, LineTest> = Passes {
    first: IndexScan::reads,
    later: TranscriptBuilder::reads,
};

/// A session `export` reads (see the module docs); `first` is what the first pass read.
pub struct Reader {
    source: Source,
    first: FirstPass,
}

impl Reader {
    /// A reader of `source` (a file, or a spooled copy of standard input or the sample).
    pub fn open(source: &Source) -> Self {
        Self {
            source: source.clone(),
            first: FirstPass::default(),
        }
    }

    /// The first pass: the file's index, after the checks a loaded session gets.
    pub fn index(&mut self) -> Result<FileIndex, Failure> {
        let progress = Progress::for_bytes(source_size(&self.source), "indexing");
        let mut scan = IndexScan::new();
        self.first = stream_session_where(&self.source, &progress, &PASSES, |line| {
            scan.push_line(line);
        })?;
        Ok(scan.finish())
    }

    /// A later pass: every line up to the last the first pass read an item from, in order,
    /// with its number (what items are numbered by), its item when the pass read one (`None`
    /// for a line it passed over), and its bytes. Unreadable lines are not handed on. Stops
    /// at the first error `visit` returns.
    pub fn replay(
        &self,
        mut visit: impl FnMut(usize, Option<&RolloutItem>, &[u8]) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        stream_again_lines(
            &self.source,
            "exporting",
            &self.first,
            &PASSES,
            ("exported", "export"),
            |line| match line.line() {
                Some(rollout_line) => visit(line.number, Some(&rollout_line.item), line.raw),
                None if line.passed_over() => visit(line.number, None, line.raw),
                None => Ok(()),
            },
        )
    }
}
