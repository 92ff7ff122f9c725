//! Where the bytes of rollout files go (`codex-thread du`): by kind, per file and per day,
//! the largest files, the prefixes children copied from their parents, the same image stored
//! many times, and what compression would save.
//!
//! Each file is read once, forward, by [`RolloutStream`] (plain or zstd), in parallel over
//! files. The counting rule, exact to the byte of **decoded** JSONL (a compressed file is
//! measured by what it holds; its size on disk is reported beside):
//!
//! - every line's bytes, with its `\n`, go to exactly one [`ByteKind`]: the image and
//!   encrypted spans inside it (`du/spans.rs`: the JSON string text of `"data:image/…"`
//!   values and of `encrypted_content` values, quotes included) to
//!   [`ByteKind::Images`] and [`ByteKind::Encrypted`], the rest to the line's own kind
//!   (tool outputs, compacted records, metas and turn contexts, other response items,
//!   events, other lines), as the stream classified it with the loader's rule;
//! - images are also counted by the kind of line that holds them ([`ImagePlace`]) and by
//!   content (a 64-bit hash of the data URL's text): every copy after the first one seen in
//!   the run is a duplicate;
//! - **copied** bytes are whole lines a child holds that its parent wrote: the prefix the
//!   turn index's [`ParentPrefixScan`] finds (a replayed parent meta and what follows it),
//!   and lines of at least [`MIN_SHARED_LINE`] bytes identical (same 64-bit hash of their
//!   bytes) to a line of an earlier file of the run (copied forks, which have no replayed
//!   meta). Copied bytes overlap the kinds: they say how much of them is redundant;
//! - the compression estimate encodes the plain files [`crate::compress::plan_file`] would
//!   compress with the same encoder settings, counting the output, writing nothing.

use std::hash::{Hash, Hasher};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use codex_protocol::thread_id::ThreadId;
use rayon::prelude::*;
use serde::Serialize;

use crate::compress::{CompressOptions, Plan, plan_file};
use codex_rollout::Compression;
use codex_rollout::RolloutStream;
use codex_rollout::parse_rollout_file_name;
use codex_rollout::{ParentPrefixScan, Provenance};

mod classify;
mod report;
mod spans;

pub use classify::{ByteKind, ImagePlace};
pub use report::{
    CompressEstimate, DayUsage, DuReport, ImageSummary, KindBytes, LARGEST_FILES, LargestFile,
    PlaceBytes,
};

/// Lines shorter than this are not compared across files: short lines (markers, small
/// events) can be equal by chance, and they hold few bytes.
pub const MIN_SHARED_LINE: usize = 512;

/// What to measure.
#[derive(Debug, Clone, Default)]
pub struct DuOptions {
    /// Estimate what compression would save (costs a zstd pass over the eligible files).
    pub estimate_compression: bool,
    /// Which files compression would take, and its encoder.
    pub compress: CompressOptions,
}

/// Where one file's bytes go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileDiskUsage {
    /// The file.
    pub path: PathBuf,
    /// The session's day (`YYYY-MM-DD`, UTC) from the file name, else from its first
    /// timestamp.
    pub day: Option<String>,
    /// Size on disk.
    pub disk_bytes: u64,
    /// How it is stored.
    pub compression: &'static str,
    /// Decoded JSONL bytes (the sum of `bytes`).
    pub decoded_bytes: u64,
    /// Lines read.
    pub lines: usize,
    /// Lines with a problem (counted under `other` unless typed).
    pub problem_lines: usize,
    /// Decoded bytes by kind.
    pub bytes: KindBytes,
    /// Inline images.
    pub images: ImageSummary,
    /// Whole lines copied from a parent: the replayed prefix.
    pub copied_prefix_bytes: u64,
    /// The thread the replayed prefix came from.
    pub copied_from: Option<ThreadId>,
    /// Whole lines (not in the replayed prefix) identical to a line of an earlier file.
    pub identical_line_bytes: u64,
    /// What compression would do with it.
    pub compress: CompressEstimate,
    /// Why the file could not be read (then everything else is zero).
    pub error: Option<String>,
    /// The file's damage ([`crate::Damage`]): what it could read is measured.
    #[serde(skip)]
    pub damage: Option<crate::Damage>,
}

/// One file measured, with what the run-wide merge needs.
#[derive(Debug)]
pub(crate) struct Measured {
    pub(crate) usage: FileDiskUsage,
    /// (hash, bytes) of each image, in order.
    pub(crate) images: Vec<(u64, u64)>,
    /// (hash, bytes with `\n`) of each line long enough to compare and not in the prefix.
    pub(crate) lines: Vec<(u64, u64)>,
}

/// Measures `paths` in parallel (rayon) and merges the run-wide answers (duplicates,
/// identical lines, totals). `progress` gets the bytes read from disk as they are read.
pub fn measure_files(
    paths: &[PathBuf],
    options: &DuOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> (Vec<FileDiskUsage>, DuReport) {
    let measured: Vec<Measured> = paths
        .par_iter()
        .map(|path| measure(path, options, progress))
        .collect();
    report::merge(measured)
}

/// Measures one file alone (no cross-file answers: `identical_line_bytes` is 0 and only the
/// file's own repeated images are duplicates).
pub fn measure_file(path: &Path, options: &DuOptions) -> FileDiskUsage {
    let (mut files, _) = report::merge(vec![measure(path, options, &|_| {})]);
    files.pop().unwrap_or_else(|| empty_usage(path))
}

fn measure(path: &Path, options: &DuOptions, progress: &(dyn Fn(u64) + Sync)) -> Measured {
    match try_measure(path, options, progress) {
        Ok(measured) => measured,
        Err(err) => Measured {
            usage: FileDiskUsage {
                error: Some(err.to_string()),
                ..empty_usage(path)
            },
            images: Vec::new(),
            lines: Vec::new(),
        },
    }
}

fn empty_usage(path: &Path) -> FileDiskUsage {
    FileDiskUsage {
        path: path.to_path_buf(),
        day: None,
        disk_bytes: 0,
        compression: "plain",
        decoded_bytes: 0,
        lines: 0,
        problem_lines: 0,
        bytes: KindBytes::default(),
        images: ImageSummary::default(),
        copied_prefix_bytes: 0,
        copied_from: None,
        identical_line_bytes: 0,
        compress: CompressEstimate::default(),
        error: None,
        damage: None,
    }
}

fn try_measure(
    path: &Path,
    options: &DuOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> io::Result<Measured> {
    let metadata = std::fs::metadata(path)?;
    let plan = plan_file(path, &metadata, &options.compress)?;
    let encoder = match (&plan, options.estimate_compression) {
        (Plan::Compress { .. }, true) => Some(
            options
                .compress
                .encoder
                .encoder(CountingSink::default(), Some(metadata.len()))?,
        ),
        _ => None,
    };
    let file = std::fs::File::open(path)?;
    let mut tee = Tee {
        inner: file,
        encoder,
        progress,
    };
    let mut usage = empty_usage(path);
    usage.disk_bytes = metadata.len();
    usage.day = path
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(parse_rollout_file_name)
        .map(|name| name.created.format("%Y-%m-%d").to_string());
    let mut images = Vec::new();
    let mut lines = Vec::new();
    let mut scan = ParentPrefixScan::default();
    let mut stream = RolloutStream::new(&mut tee)?;
    usage.compression = match stream.compression() {
        Compression::Plain => "plain",
        Compression::Zstd => "zstd",
    };
    loop {
        let before = stream.bytes_read();
        let Some(line) = stream.next_line()? else {
            break;
        };
        if let Some(problem) = &line.problem {
            usage.problem_lines += 1;
            crate::note_damage(&mut usage.damage, problem);
        }
        let kind = classify::line_kind(&line);
        let place = classify::image_place(kind);
        let copied = match line.line() {
            Some(typed) => {
                if usage.day.is_none() {
                    usage.day = typed.timestamp.get(..10).map(str::to_string);
                }
                match scan.push(&typed.item) {
                    Provenance::Copied { parent_thread_id } => Some(parent_thread_id),
                    Provenance::Own => None,
                }
            }
            None => None,
        };
        let raw = line.raw;
        let mut special = 0u64;
        spans::scan_spans(raw, |span, range| {
            let len = range.len() as u64;
            special += len;
            match span {
                spans::SpanKind::Image => {
                    usage.bytes.add(ByteKind::Images, len);
                    usage.images.count += 1;
                    usage.images.bytes.add(place, len);
                    images.push((hash_of(&raw[range]), len));
                }
                spans::SpanKind::Encrypted => usage.bytes.add(ByteKind::Encrypted, len),
            }
        });
        let shared_hash =
            (line.line().is_some() && raw.len() + 1 >= MIN_SHARED_LINE).then(|| hash_of(raw));
        drop(line);
        let line_bytes = stream.bytes_read() - before;
        usage.bytes.add(kind, line_bytes.saturating_sub(special));
        if let Some(parent) = copied {
            usage.copied_prefix_bytes += line_bytes;
            usage.copied_from.get_or_insert(parent);
        } else if let Some(hash) = shared_hash {
            lines.push((hash, line_bytes));
        }
    }
    usage.lines = stream.lines_read();
    usage.decoded_bytes = stream.bytes_read();
    drop(stream);
    usage.compress = match plan {
        Plan::Compress { .. } => CompressEstimate {
            eligible: true,
            skip_reason: None,
            // `compress`'s encoder exactly (the size is pledged as it pledges it); a file
            // that changed while read has no estimate.
            estimated_bytes: tee
                .encoder
                .take()
                .and_then(|encoder| encoder.finish().ok())
                .map(|sink| sink.0),
        },
        Plan::Skip(reason) => CompressEstimate {
            eligible: false,
            skip_reason: Some(reason),
            estimated_bytes: None,
        },
    };
    Ok(Measured {
        usage,
        images,
        lines,
    })
}

/// The content hash used for images and lines: deterministic (SipHash with fixed keys), so
/// a report is the same on every run.
fn hash_of(bytes: &[u8]) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// A stream over a file, fed to the compression estimate on the way, reporting progress.
struct Tee<'a> {
    inner: std::fs::File,
    encoder: Option<zstd::stream::write::Encoder<'static, CountingSink>>,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl Read for Tee<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        if let Some(encoder) = &mut self.encoder {
            encoder.write_all(&buf[..read])?;
        }
        (self.progress)(read as u64);
        Ok(read)
    }
}

/// A writer that only counts.
#[derive(Debug, Default)]
struct CountingSink(u64);

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl std::fmt::Debug for Tee<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tee").finish_non_exhaustive()
    }
}

#[cfg(test)]
#[path = "du_tests.rs"]
mod tests;
