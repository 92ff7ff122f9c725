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
use codex_rollout::output_call_id;

use super::transcript::{FileIndex, IndexScan, TranscriptBuilder};
use crate::error::Failure;
use crate::input::Source;
use crate::progress::Progress;
use crate::streamed::{
    FirstPass, LineTest, Passes, source_size, stream_again_lines, stream_session_where,
};

/// What each pass reads, when the first reads tool outputs by their call ids.
const PASSES: Passes<LineTest, LineTest> = Passes {
    first: IndexScan::reads,
    later: TranscriptBuilder::reads,
};

/// What each pass reads, when the first parses tool outputs.
const PASSES_PARSING_OUTPUTS: Passes<LineTest, LineTest> = Passes {
    first: IndexScan::reads_outputs,
    later: TranscriptBuilder::reads,
};

/// How the first pass reads tool outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outputs {
    /// By their call ids alone, where Codex writes them ([`IndexScan::reads`]): a later pass
    /// may end [`Replayed::OutputUnreadable`].
    ByCallId,
    /// Parsed, as every other line: a later pass always ends [`Replayed::Done`].
    Parsed,
}

/// How a later pass ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replayed {
    /// Every line was handed on.
    Done,
    /// A tool output the first pass read by its call id alone does not parse: the index may
    /// pair it with a call the file does not, so what was built is wrong. The pass stopped
    /// there; index the file again with [`Outputs::Parsed`].
    OutputUnreadable,
}

/// A session `export` reads (see the module docs); `first` is what the first pass read.
pub(crate) struct Reader {
    source: Source,
    outputs: Outputs,
    first: FirstPass,
}

impl Reader {
    /// A reader of `source` (a file, or a spooled copy of standard input or the sample) whose
    /// first pass reads tool outputs as `outputs` says.
    pub(crate) fn open(source: &Source, outputs: Outputs) -> Self {
        Self {
            source: source.clone(),
            outputs,
            first: FirstPass::default(),
        }
    }

    /// What each pass reads.
    fn passes(&self) -> &'static Passes<LineTest, LineTest> {
        match self.outputs {
            Outputs::ByCallId => &PASSES,
            Outputs::Parsed => &PASSES_PARSING_OUTPUTS,
        }
    }

    /// The first pass: the file's index, after the checks a loaded session gets.
    pub(crate) fn index(&mut self) -> Result<FileIndex, Failure> {
        let progress = Progress::for_bytes(source_size(&self.source), "indexing");
        let mut scan = IndexScan::new();
        self.first = stream_session_where(&self.source, &progress, self.passes(), |line| {
            scan.push_line(line);
        })?;
        Ok(scan.finish())
    }

    /// A later pass: every line up to the last the first pass read an item from, in order,
    /// with its number (what items are numbered by), its item when the pass read one (`None`
    /// for a line it passed over), and its bytes. Unreadable lines are not handed on; one that
    /// the first pass read as a tool output by its call id ends the pass
    /// ([`Replayed::OutputUnreadable`]). Stops at the first error `visit` returns.
    pub(crate) fn replay(
        &self,
        mut visit: impl FnMut(usize, Option<&RolloutItem>, &[u8]) -> Result<(), Failure>,
    ) -> Result<Replayed, Failure> {
        let mut replayed = Replayed::Done;
        let passed = stream_again_lines(
            &self.source,
            "exporting",
            &self.first,
            self.passes(),
            ("exported", "export"),
            |line| match line.line() {
                Some(rollout_line) => visit(line.number, Some(&rollout_line.item), line.raw),
                None if line.passed_over() => visit(line.number, None, line.raw),
                None if self.outputs == Outputs::ByCallId && output_call_id(line.raw).is_some() => {
                    replayed = Replayed::OutputUnreadable;
                    Err(Failure::Content(String::new()))
                }
                None => Ok(()),
            },
        );
        match (passed, replayed) {
            (_, Replayed::OutputUnreadable) => Ok(Replayed::OutputUnreadable),
            (passed, Replayed::Done) => passed.map(|()| Replayed::Done),
        }
    }
}
