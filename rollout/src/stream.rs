//! Reading a rollout a line at a time, without holding the file.
//!
//! [`RolloutStream`] is the forward reader for work whose answer does not need the whole
//! history at once (token usage, search indexing, disk usage, validation): it decodes the
//! input (plain or zstd, decided by [`crate::source`]), cuts it at `\n`, and classifies each
//! line exactly as the whole-file loader does ([`crate::load`]): the same items, the same
//! problems, the same line numbers. Memory is the read block or the longest line, whichever is
//! larger ([`window`]: lines are lent from it, not copied out), plus the decoder's buffers.
//!
//! A damaged compressed stream ends the stream with one [`crate::load::ProblemKind::Damaged`]
//! problem (the partial line at the damage is dropped), as the loader reports it; any other
//! read error is returned as an error.
//!
//! ```
//! use codex_rollout::RolloutStream;
//!
//! let jsonl = concat!(
//!     r#"{"timestamp":"2025-09-25T01:22:20.083Z","type":"event_msg","#,
//!     r#""payload":{"type":"user_message","message":"hi","kind":"plain"}}"#,
//!     "\nnot json\n",
//! );
//! let mut stream = RolloutStream::new(jsonl.as_bytes())?;
//! let first = stream.next_line()?.expect("a first line");
//! assert_eq!(first.number, 1);
//! assert_eq!(first.line().map(|line| line.timestamp.as_str()), Some("2025-09-25T01:22:20.083Z"));
//! let second = stream.next_line()?.expect("a second line");
//! assert!(second.line().is_none() && second.problem.is_some());
//! assert!(stream.next_line()?.is_none());
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;

use codex_protocol::rollout::{LineFormat, RolloutLine};

use crate::load::LineProblem;
use crate::load::lines::{LineOutcome, LineRead, line_ranges, read_line};
use crate::source::{Compression, RolloutReader, StreamDamage};

mod window;

use window::Window;

/// Decoder buffer size: large enough that reading a multi-GB file is not dominated by
/// system calls, small enough to be irrelevant next to a long line.
const BUFFER_BYTES: usize = 256 * 1024;

/// A forward reader of a rollout's lines (see the module docs).
#[derive(Debug)]
pub struct RolloutStream<R: Read> {
    window: Window<RolloutReader<R>>,
    compression: Compression,
    number: usize,
    offset: u64,
    finished: bool,
    /// The start of a line that [`RolloutStream::for_each_line_parallel`] read past the end
    /// of a chunk: the next chunk begins with it.
    carry: Vec<u8>,
}

/// One line read by a [`RolloutStream`].
#[derive(Debug)]
pub struct StreamedLine<'a> {
    /// 1-based line number, as the loader and `validate` number lines.
    pub number: usize,
    /// Offset of the line's first byte in the decoded stream.
    pub offset: u64,
    /// The line's bytes, without its `\n`.
    pub raw: &'a [u8],
    /// Whether the line ended with `\n`. Only an input's last line can lack it: in a plain
    /// file that Codex is writing, it is a line not yet complete.
    pub terminated: bool,
    /// What the line holds.
    pub content: StreamedContent,
    /// What was wrong with the line, when something was (the loader's problem for it).
    pub problem: Option<LineProblem>,
}

/// What a streamed line holds.
#[derive(Debug)]
pub enum StreamedContent {
    /// A rollout line (timestamp, ordinal, item).
    Line(Box<RolloutLine>, LineFormat),
    /// A legacy `{"record_type": ...}` marker, which carries no item.
    LegacyMarker(LineFormat),
    /// A known line kind whose payload the model cannot read: kept by rewrites, no item.
    Opaque(LineFormat),
    /// A line that is not usable (blank, not UTF-8, truncated, malformed, or the partial
    /// line at a damaged compressed stream).
    Skipped,
}

impl StreamedContent {
    fn of(outcome: LineOutcome) -> Self {
        match outcome {
            LineOutcome::Line(line, format) => StreamedContent::Line(Box::new(line), format),
            LineOutcome::LegacyMarker(format) => StreamedContent::LegacyMarker(format),
            LineOutcome::Opaque(format) => StreamedContent::Opaque(format),
            LineOutcome::Skipped => StreamedContent::Skipped,
        }
    }
}

impl StreamedLine<'_> {
    /// The rollout line, when the line holds one.
    pub fn line(&self) -> Option<&RolloutLine> {
        match &self.content {
            StreamedContent::Line(line, _) => Some(line),
            _ => None,
        }
    }

    /// The format of a line that loaded (an item, a legacy marker, a kept opaque line); `None`
    /// for a skipped one. What readers note for the turn index's rule.
    pub fn format(&self) -> Option<LineFormat> {
        match &self.content {
            StreamedContent::Line(_, format)
            | StreamedContent::LegacyMarker(format)
            | StreamedContent::Opaque(format) => Some(*format),
            StreamedContent::Skipped => None,
        }
    }

    /// Whether the line was passed over unread (a reader's `wanted` rejected it): it may hold
    /// anything ([`StreamedLine::read_in_full`] tells).
    pub fn passed_over(&self) -> bool {
        matches!(self.content, StreamedContent::Skipped) && self.problem.is_none()
    }

    /// Reads a line that was passed over, as it would have been read had it been wanted
    /// (the same content and problem); a line already read is left as it is.
    pub fn read_in_full(&mut self) {
        if self.passed_over() {
            let read = read_line(self.number, self.raw);
            self.content = StreamedContent::of(read.outcome);
            self.problem = read.problem;
        }
    }

    /// Takes the rollout line out, when the line holds one.
    pub fn into_line(self) -> Option<RolloutLine> {
        match self.content {
            StreamedContent::Line(line, _) => Some(*line),
            _ => None,
        }
    }
}

impl RolloutStream<File> {
    /// Opens the rollout file at `path`, plain or compressed. The error is the operating
    /// system's; callers name the file.
    pub fn open(path: &Path) -> io::Result<Self> {
        let file = File::open(path)?;
        // Its size sizes the buffer (a small file is read in one block of its size).
        let size = file.metadata().ok().map(|metadata| metadata.len());
        Self::with_expected(file, size)
    }
}

impl<R: Read> RolloutStream<R> {
    /// A stream over `reader` (a file, standard input, bytes). Fails only when the first
    /// read (telling plain from zstd) fails.
    pub fn new(reader: R) -> io::Result<Self> {
        Self::with_expected(reader, None)
    }

    /// [`Self::new`] over an input of `expected` bytes, when known.
    fn with_expected(reader: R, expected: Option<u64>) -> io::Result<Self> {
        let reader = RolloutReader::new(reader)?;
        let compression = reader.compression();
        Ok(Self {
            window: Window::new(reader, BUFFER_BYTES, expected),
            compression,
            number: 0,
            offset: 0,
            finished: false,
            carry: Vec::new(),
        })
    }

    /// A stream over the rest of a plain rollout whose first `lines_before` lines
    /// (`offset` bytes) were read earlier: `reader` must be positioned at `offset`, the start
    /// of a line. Line numbers and offsets continue from there, so a reader that stopped
    /// (an index that keeps where it was) resumes without reading the start again.
    pub fn resume(reader: R, lines_before: usize, offset: u64) -> io::Result<Self> {
        let mut stream = Self::new(reader)?;
        stream.number = lines_before;
        stream.offset = offset;
        Ok(stream)
    }

    /// How the input is stored.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The number of complete lines read so far.
    pub fn lines_read(&self) -> usize {
        self.number
    }

    /// The number of decoded bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.offset
    }

    /// Reads the next line; `None` at the end of the input (or after a damage was reported).
    pub fn next_line(&mut self) -> io::Result<Option<StreamedLine<'_>>> {
        self.next_line_where(|_| true)
    }

    /// [`Self::next_line`] for a reader that needs only some lines: a line whose bytes
    /// `wanted` rejects is not parsed and comes back [`StreamedContent::Skipped`] with no
    /// problem (numbers and offsets count it as usual). `wanted` must accept every line the
    /// caller could use: a byte-level test that may accept too much (a type tag found inside
    /// a message's text) but never too little.
    pub fn next_line_where(
        &mut self,
        wanted: impl FnOnce(&[u8]) -> bool,
    ) -> io::Result<Option<StreamedLine<'_>>> {
        if self.finished {
            return Ok(None);
        }
        let offset = self.offset;
        let (raw, terminated) = match self.window.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => {
                self.finished = true;
                return Ok(None);
            }
            Err(cut) => {
                let Some(damage) = StreamDamage::of_io_error(&cut.error) else {
                    return Err(cut.error);
                };
                // The damage is reported at the line it cut; that line was never read, so it
                // is not counted (as the loader counts only complete lines).
                self.finished = true;
                return Ok(Some(StreamedLine {
                    number: self.number + 1,
                    offset,
                    raw: &[],
                    terminated: false,
                    content: StreamedContent::Skipped,
                    problem: Some(LineProblem::of_damage(self.number + 1, damage, cut.read)),
                }));
            }
        };
        self.offset += (raw.len() + usize::from(terminated)) as u64;
        self.number += 1;
        if !wanted(raw) {
            return Ok(Some(StreamedLine {
                number: self.number,
                offset,
                raw,
                terminated,
                content: StreamedContent::Skipped,
                problem: None,
            }));
        }
        let read = read_line(self.number, raw);
        Ok(Some(StreamedLine {
            number: self.number,
            offset,
            raw,
            terminated,
            content: StreamedContent::of(read.outcome),
            problem: read.problem,
        }))
    }

    /// Calls `visit` with every line in order, stopping at the first read error.
    pub fn for_each_line(
        mut self,
        mut visit: impl FnMut(StreamedLine<'_>),
    ) -> io::Result<StreamSummary> {
        while let Some(line) = self.next_line()? {
            visit(line);
        }
        Ok(StreamSummary {
            lines: self.number,
            bytes: self.offset,
            compression: self.compression,
        })
    }
}

/// Bytes per chunk of [`RolloutStream::for_each_line_parallel`]: a chunk holds the whole lines
/// of this much input, at most this much unless no line ends within it, when it ends with the
/// line that reaches past it.
const CHUNK_BYTES: usize = 1024 * 1024;

/// The least [`RolloutStream::for_each_line_parallel`] reads at a time: once a chunk is
/// nearly full, a block to find the end of its last line in.
const READ_BYTES: usize = 64 * 1024;

/// One chunk of whole lines read ahead, with where it starts.
struct Chunk {
    bytes: Vec<u8>,
    offset: u64,
    lines_before: usize,
}

/// Chunks read ahead, their lines as parsed (line number, range in the chunk, reading), and
/// the damage that ended the input after them, if one did.
struct Batch {
    chunks: Vec<Chunk>,
    parsed: Vec<Vec<(usize, Range<usize>, LineRead)>>,
    damage: Option<(StreamDamage, usize)>,
}

impl<R: Read> RolloutStream<R> {
    /// [`RolloutStream::for_each_line`] with the parsing spread over rayon's pool: the input
    /// is read ahead in chunks of whole lines (about 1 MiB each, one per thread, read
    /// straight from the reader and cut after their last `\n`), their lines are parsed in
    /// parallel (shared out line by line), and `visit` sees every line in file order, with
    /// the numbers, offsets, items and problems of the sequential pass. Pipelined: while
    /// `visit` takes one batch of chunks on the calling thread, the pool parses the next, so
    /// a visitor that does real work (a replay, a render) runs beside the parse instead of
    /// after it.
    /// Memory is the two batches in flight (about 2 MiB per thread, plus their items) rather
    /// than the file.
    pub fn for_each_line_parallel(
        self,
        visit: impl FnMut(StreamedLine<'_>),
    ) -> io::Result<StreamSummary> {
        self.for_each_line_parallel_where(|_| true, visit)
    }

    /// [`RolloutStream::for_each_line_parallel`] for a reader that needs only some lines, as
    /// [`RolloutStream::next_line_where`]: a line whose bytes `wanted` rejects is not parsed
    /// and comes back [`StreamedContent::Skipped`] with no problem
    /// ([`StreamedLine::passed_over`]); the visitor may still read it
    /// ([`StreamedLine::read_in_full`]).
    pub fn for_each_line_parallel_where(
        mut self,
        wanted: impl Fn(&[u8]) -> bool + Sync,
        mut visit: impl FnMut(StreamedLine<'_>),
    ) -> io::Result<StreamSummary> {
        let in_flight = rayon::current_num_threads().max(1);
        let mut previous: Option<Batch> = None;
        loop {
            let mut chunks = Vec::with_capacity(in_flight);
            let mut damage = None;
            while chunks.len() < in_flight && !self.finished {
                let (chunk, damaged) = self.read_chunk()?;
                if !chunk.bytes.is_empty() {
                    chunks.push(chunk);
                }
                if damaged.is_some() {
                    damage = damaged;
                    self.finished = true;
                }
            }
            if chunks.is_empty() && damage.is_none() {
                break;
            }
            // Parse this batch on the pool (the caller's, a task of its own, so this thread
            // is free) while the previous one is visited here.
            let mut parsed = Vec::new();
            rayon::in_place_scope(|scope| {
                let (chunks, parsed, wanted) = (&chunks, &mut parsed, &wanted);
                scope.spawn(move |_| *parsed = parse_chunks(chunks, wanted));
                if let Some(batch) = previous.take() {
                    self.visit_batch(batch, &mut visit);
                }
            });
            let ended = damage.is_some();
            previous = Some(Batch {
                chunks,
                parsed,
                damage,
            });
            if ended {
                break;
            }
        }
        if let Some(batch) = previous.take() {
            self.visit_batch(batch, &mut visit);
        }
        Ok(StreamSummary {
            lines: self.number,
            bytes: self.offset,
            compression: self.compression,
        })
    }

    /// Hands `visit` the lines of one parsed batch, in order, then the damage that ended
    /// the input after it, if one did.
    fn visit_batch(&self, batch: Batch, visit: &mut impl FnMut(StreamedLine<'_>)) {
        for (chunk, lines) in batch.chunks.iter().zip(batch.parsed) {
            for (number, range, read) in lines {
                visit(StreamedLine {
                    number,
                    offset: chunk.offset + range.start as u64,
                    terminated: chunk.bytes.get(range.end) == Some(&b'\n'),
                    raw: chunk.bytes.get(range).unwrap_or_default(),
                    content: StreamedContent::of(read.outcome),
                    problem: read.problem,
                });
            }
        }
        if let Some((damage, dropped)) = batch.damage {
            visit(StreamedLine {
                number: self.number + 1,
                offset: self.offset,
                terminated: false,
                raw: &[],
                content: StreamedContent::Skipped,
                problem: Some(LineProblem::of_damage(self.number + 1, &damage, dropped)),
            });
        }
    }
}

/// Every line of `chunks`, parsed on rayon's pool when `wanted` accepts it, in order.
///
/// The pool takes lines, not chunks: a batch holds a chunk per thread, and lines differ
/// (an image or a long tool output is a thousand times a token count), so a thread given a
/// whole chunk could finish long before the other and wait. Split by lines, an idle thread
/// takes over the rest of a busy one's lines.
fn parse_chunks(
    chunks: &[Chunk],
    wanted: &(impl Fn(&[u8]) -> bool + Sync),
) -> Vec<Vec<(usize, Range<usize>, LineRead)>> {
    chunks
        .par_iter()
        .map(|chunk| {
            let ranges: Vec<(usize, Range<usize>)> = line_ranges(&chunk.bytes).collect();
            // Collected at its exact length: the readings are large, and growing the list
            // would copy them.
            ranges
                .into_par_iter()
                .with_min_len(LINES_PER_TASK)
                .map(|(local, range)| {
                    let number = chunk.lines_before + local;
                    let raw = chunk.bytes.get(range.clone()).unwrap_or_default();
                    let read = if wanted(raw) {
                        read_line(number, raw)
                    } else {
                        LineRead::passed_over()
                    };
                    (number, range, read)
                })
                .collect()
        })
        .collect()
}

/// The fewest lines one task of [`parse_chunks`] parses: enough that handing lines to the
/// pool costs little beside parsing them.
const LINES_PER_TASK: usize = 16;

impl<R: Read> RolloutStream<R> {
    /// Reads the next chunk of whole lines (about [`CHUNK_BYTES`], more when one line is
    /// longer; less only at the input's end), and the damage that ended the input, if one
    /// did, with the bytes of the partial line it cut (dropped).
    ///
    /// The input is read straight into the chunk, a block at a time, past the reader's
    /// buffer ([`Self::read_into`]), and the chunk is cut after its last `\n`: the partial
    /// line after it starts the next chunk. Only the lines are counted here; cutting the
    /// chunk into lines is left to the pool that parses it.
    fn read_chunk(&mut self) -> io::Result<(Chunk, Option<(StreamDamage, usize)>)> {
        let mut bytes = Vec::with_capacity(CHUNK_BYTES + READ_BYTES);
        bytes.append(&mut self.carry);
        let mut line_end = memchr::memrchr(b'\n', &bytes).map(|at| at + 1);
        let mut damage = None;
        let cut = loop {
            let start = bytes.len();
            let read = match self.read_into(&mut bytes, CHUNK_BYTES.saturating_sub(start)) {
                Ok(read) => read,
                Err(error) => {
                    let Some(found) = StreamDamage::of_io_error(&error).cloned() else {
                        return Err(error);
                    };
                    damage = Some(found);
                    0
                }
            };
            if let Some(at) = memchr::memrchr(b'\n', bytes.get(start..).unwrap_or_default()) {
                line_end = Some(start + at + 1);
            }
            if damage.is_some() || read == 0 {
                // The input ended: a last line without `\n` is a line of its own, unless the
                // input broke inside it, when it is dropped.
                self.finished = true;
                break if damage.is_some() {
                    line_end.unwrap_or(0)
                } else {
                    bytes.len()
                };
            }
            if bytes.len() >= CHUNK_BYTES
                && let Some(cut) = line_end
            {
                break cut;
            }
        };
        let dropped = bytes.len() - cut;
        if damage.is_none() {
            self.carry
                .extend_from_slice(bytes.get(cut..).unwrap_or_default());
        }
        bytes.truncate(cut);
        let unterminated = bytes.last().is_some_and(|last| *last != b'\n');
        let lines = memchr::memchr_iter(b'\n', &bytes).count() + usize::from(unterminated);
        let chunk = Chunk {
            bytes,
            offset: self.offset,
            lines_before: self.number,
        };
        self.offset += chunk.bytes.len() as u64;
        self.number += lines;
        Ok((chunk, damage.map(|damage| (damage, dropped))))
    }

    /// Appends up to `wanted` bytes of the input (at least [`READ_BYTES`]) to `bytes`,
    /// fewer only at its end; the number appended. Bytes read before an error stay appended.
    /// What the window holds comes first; the rest is read past it, into `bytes`' free
    /// capacity, so no byte is copied twice.
    fn read_into(&mut self, bytes: &mut Vec<u8>, wanted: usize) -> io::Result<usize> {
        self.window.read_into(bytes, wanted.max(READ_BYTES))
    }
}

/// What a whole pass over a stream read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamSummary {
    /// Lines read (including problem lines).
    pub lines: usize,
    /// Decoded bytes read.
    pub bytes: u64,
    /// How the input was stored.
    pub compression: Compression,
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
