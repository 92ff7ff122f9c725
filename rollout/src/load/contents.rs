//! [`RolloutContents`]: every line of a rollout read tolerantly, with the file's bytes kept.
//!
//! This is the layer below [`super::load_rollout_items`]: it accepts any bytes (a file without
//! session meta, half a file, random garbage) and never fails. Each line becomes an entry (an
//! item, a legacy marker, or an opaque line the model cannot read) or a skipped
//! [`LineProblem`]; nothing panics and no JSON object line is dropped.
//!
//! The whole input is kept as one buffer and every loaded line remembers its byte span, so a
//! fork can copy kept lines byte for byte (line terminators and key order included) without
//! the parser having to keep a second copy of any text.
//!
//! A compressed input (zstd, see [`crate::source`]) is decoded first and the buffer holds the
//! plain lines. When its compressed stream is damaged, the complete lines decoded before the
//! damage are read as usual, the partial line at the damage is dropped, and the damage is
//! reported as one last [`super::ProblemKind::Damaged`] problem (and by
//! [`RolloutContents::damage`]).

use std::io::Read;

use codex_protocol::rollout::{LineFormat, RolloutItem};
use codex_protocol::thread_id::ThreadId;

use super::entry::LineEntry;
use super::lines;
use super::problem::LineProblem;
use crate::source::{self, DecodedRollout, StreamDamage};

/// Inputs at least this large are read on every thread of rayon's pool: below it, starting
/// the runs costs more than it saves (a few thousand lines).
pub(crate) const PARALLEL_MIN_BYTES: usize = 4 * 1024 * 1024;

/// The threads an input of `len` decoded bytes is read on by [`RolloutContents::parse`] and
/// [`RolloutContents::from_decoded`]: 1 below [`PARALLEL_MIN_BYTES`], else the size of
/// rayon's pool (`RAYON_NUM_THREADS`, else one per core).
pub(crate) fn parallel_threads(len: usize) -> usize {
    if len < PARALLEL_MIN_BYTES {
        1
    } else {
        rayon::current_num_threads()
    }
}

/// A rollout read line by line: the items of every good line, the problems of every other
/// line, and the original bytes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RolloutContents {
    bytes: Vec<u8>,
    entries: Vec<LineEntry>,
    items: Vec<RolloutItem>,
    item_entries: Vec<usize>,
    problems: Vec<LineProblem>,
    line_count: usize,
    damage: Option<StreamDamage>,
}

impl RolloutContents {
    /// Reads every line of `bytes` (bytes that start with the zstd magic number are decoded
    /// first): on the calling thread for a small input, on every thread of rayon's pool
    /// for a large one (4 MiB or more). Never fails and
    /// never panics, whatever the bytes.
    pub fn parse(bytes: Vec<u8>) -> Self {
        Self::from_decoded(source::decode_in_memory(bytes))
    }

    /// [`RolloutContents::parse`] on up to `threads` threads, each reading a run of whole
    /// lines; the result is exactly the sequential one (the equivalence tests compare them).
    pub fn parse_with_threads(bytes: Vec<u8>, threads: usize) -> Self {
        Self::from_decoded_with_threads(source::decode_in_memory(bytes), threads)
    }

    /// Reads every line of a decoded rollout ([`crate::read_rollout_file`]'s answer). When its
    /// compressed stream was damaged, the lines before the damage are read, the partial line
    /// at the damage is dropped, and a [`super::ProblemKind::Damaged`] problem is reported after
    /// the last line kept.
    pub fn from_decoded(decoded: DecodedRollout) -> Self {
        let threads = parallel_threads(decoded.bytes.len());
        Self::from_decoded_with_threads(decoded, threads)
    }

    fn from_decoded_with_threads(decoded: DecodedRollout, threads: usize) -> Self {
        let DecodedRollout {
            mut bytes, damage, ..
        } = decoded;
        let Some(damage) = damage else {
            return Self::parse_plain(bytes, threads);
        };
        let complete = memchr::memrchr(b'\n', &bytes).map_or(0, |newline| newline + 1);
        let dropped = bytes.len() - complete;
        bytes.truncate(complete);
        let mut contents = Self::parse_plain(bytes, threads);
        let line = contents.line_count + 1;
        contents
            .problems
            .push(LineProblem::of_damage(line, &damage, dropped));
        contents.damage = Some(damage);
        contents
    }

    fn parse_plain(bytes: Vec<u8>, threads: usize) -> Self {
        let part = lines::read_lines(&bytes, threads);
        Self {
            bytes,
            entries: part.entries,
            items: part.items,
            item_entries: part.item_entries,
            problems: part.problems,
            line_count: part.line_count,
            damage: None,
        }
    }

    /// Reads everything from `reader` (a file, stdin, a socket; plain or zstd) and parses it.
    /// Fails only when reading fails: a damaged compressed stream is a
    /// [`RolloutContents::damage`], not an error.
    pub fn read(reader: impl Read) -> std::io::Result<Self> {
        source::read_rollout(reader).map(Self::from_decoded)
    }

    /// Why decoding a compressed input stopped before its end, if it did: then the contents
    /// are the complete lines before the damage (also reported as the last problem).
    pub fn damage(&self) -> Option<&StreamDamage> {
        self.damage.as_ref()
    }

    /// The items of the loaded lines, in file order (legacy markers have none).
    pub fn items(&self) -> &[RolloutItem] {
        &self.items
    }

    /// Takes the items out.
    pub fn into_items(self) -> Vec<RolloutItem> {
        self.items
    }

    /// Every line that loaded, in file order.
    pub fn entries(&self) -> &[LineEntry] {
        &self.entries
    }

    /// The line that holds item `index`.
    pub fn entry_of_item(&self, index: usize) -> Option<&LineEntry> {
        self.entries.get(*self.item_entries.get(index)?)
    }

    /// Every line that could not be used as the model intends, in file order.
    pub fn problems(&self) -> &[LineProblem] {
        &self.problems
    }

    /// The input, exactly as read (decoded when it was compressed; without the partial line at
    /// a damage).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The original bytes of a loaded line (without its `\n`).
    pub fn raw_line(&self, entry: &LineEntry) -> &[u8] {
        self.bytes.get(entry.span.clone()).unwrap_or_default()
    }

    /// Number of lines in the input (good, bad and blank), counting a final line without
    /// terminator.
    pub fn line_count(&self) -> usize {
        self.line_count
    }

    /// True when no line holds anything but whitespace.
    pub(crate) fn is_blank(&self) -> bool {
        self.bytes.iter().all(u8::is_ascii_whitespace)
    }

    /// True when some line is in the pre-envelope legacy format.
    pub(crate) fn has_legacy_lines(&self) -> bool {
        self.entries
            .iter()
            .any(|entry| matches!(entry.format, LineFormat::Legacy(_)))
    }

    /// The thread id of the first `session_meta` item, which names the thread the file
    /// records (later ones are history copied by a fork).
    pub fn thread_id(&self) -> Option<ThreadId> {
        self.first_session_meta_index()
            .and_then(|index| match self.items.get(index) {
                Some(RolloutItem::SessionMeta(meta)) => Some(meta.meta.id),
                _ => None,
            })
    }

    /// Index (into [`RolloutContents::items`]) of the first `session_meta` item.
    pub(crate) fn first_session_meta_index(&self) -> Option<usize> {
        self.items
            .iter()
            .position(|item| matches!(item, RolloutItem::SessionMeta(_)))
    }
}
