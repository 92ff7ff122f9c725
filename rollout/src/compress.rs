//! Compressing old rollouts in place, as upstream's reader reads them: `X.jsonl` becomes
//! `X.jsonl.zst` (one zstd frame, level 3 by default, window at most 2^27), with the same
//! modification time, and nothing can be lost on the way.
//!
//! Which files ([`plan_file`], asked by `compress` and by `du`'s estimate alike): a plain
//! file whose name ends in `.jsonl`, not empty, last modified at least
//! [`CompressOptions::older_than`] ago, whose thread no running Codex holds
//! ([`crate::writer_lock`]). The thread comes from the file name (else the file's first
//! `session_meta`); the home whose locks are asked is the one the path lies in (else the one
//! the caller names). When either cannot be known the file is left alone.
//!
//! How one file is replaced (`compress::replace`): the compressed bytes go to a temporary file in
//! the same folder under a name no reader takes for a rollout
//! (`.codex-thread-compress.<pid>.<file>.tmp`, locked while it is written), which is synced,
//! given the plain file's times, then decoded again and compared byte for byte with the
//! plain file. Only then, if the plain file has not changed and its thread is still not
//! held, is it linked to `X.jsonl.zst` (a link never replaces an existing file), the
//! temporary name removed, the folder synced, and the plain file removed. At every moment a
//! kill can leave: the plain file (with or without a temporary file, which readers ignore),
//! both files with the same content (readers prefer the plain one, and the next run removes
//! it after checking again), or the compressed file alone. A later run removes temporary
//! files whose writer is gone (their lock is free).
//!
//! `docs/disk-usage.md` has the measured ratios and times.

use std::fs::Metadata;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use rayon::prelude::*;
use serde::Serialize;

use crate::layout::{COMPRESSED_SUFFIX, CodexHome, home_of_rollout_path, parse_rollout_file_name};
use crate::source::Compression;
use crate::stream::RolloutStream;
use crate::writer_lock::thread_writer_lock;

mod replace;

pub use replace::remove_stale_temporary_files;

/// The zstd level upstream writes.
pub const DEFAULT_LEVEL: i32 = 3;
/// The largest long-distance window (as a power of two) upstream's decoder reads without
/// being told to (zstd's default `window_log_max`).
pub const MAX_WINDOW_LOG: u32 = 27;
/// Upstream's age rule: files last modified at least a week ago.
pub const DEFAULT_OLDER_THAN: Duration = Duration::from_secs(7 * 24 * 3600);

/// How to encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncoderSettings {
    /// zstd level (1..=19).
    pub level: i32,
    /// Long-distance matching with a window of 2^`window_log` bytes (at most
    /// [`MAX_WINDOW_LOG`]); `None` for zstd's default matching.
    pub long_window_log: Option<u32>,
}

impl Default for EncoderSettings {
    fn default() -> Self {
        Self {
            level: DEFAULT_LEVEL,
            long_window_log: None,
        }
    }
}

impl EncoderSettings {
    /// A zstd encoder writing one frame to `sink` with these settings, a content checksum,
    /// and the content size when `size` is known.
    pub fn encoder<W: Write>(
        &self,
        sink: W,
        size: Option<u64>,
    ) -> io::Result<zstd::stream::write::Encoder<'static, W>> {
        let mut encoder = zstd::stream::write::Encoder::new(sink, self.level)?;
        encoder.include_checksum(true)?;
        encoder.set_pledged_src_size(size)?;
        if let Some(window_log) = self.long_window_log {
            encoder.long_distance_matching(true)?;
            encoder.window_log(window_log.min(MAX_WINDOW_LOG))?;
        }
        Ok(encoder)
    }
}

/// What `compress` is asked to do.
#[derive(Debug, Clone)]
pub struct CompressOptions {
    /// How to encode.
    pub encoder: EncoderSettings,
    /// Files modified more recently than this are left alone.
    pub older_than: Duration,
    /// "Now", for the age rule.
    pub now: SystemTime,
    /// Say what would be done, change nothing.
    pub dry_run: bool,
    /// The home whose writer locks are asked for files that do not lie in a home's layout.
    pub lock_home: Option<CodexHome>,
}

impl Default for CompressOptions {
    fn default() -> Self {
        Self {
            encoder: EncoderSettings::default(),
            older_than: DEFAULT_OLDER_THAN,
            now: SystemTime::now(),
            dry_run: false,
            lock_home: None,
        }
    }
}

/// Why a file is left as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Already zstd (by its first bytes).
    AlreadyCompressed,
    /// The name does not end in `.jsonl`, so no `.jsonl.zst` name can be given to it.
    NotJsonl,
    /// Empty: nothing to compress.
    Empty,
    /// Modified within `older_than`.
    Recent,
    /// A running Codex holds the thread's writer lock (or the lock could not be probed).
    OpenInCodex,
    /// The thread or the home could not be known, so its writer lock cannot be asked.
    LockUnknown,
    /// The file changed while it was being compressed; it is left plain.
    Changed,
    /// `X.jsonl.zst` exists with other content than `X.jsonl`; both are left as they are.
    SiblingDiffers,
}

impl SkipReason {
    /// What people read.
    pub fn describe(self) -> &'static str {
        match self {
            SkipReason::AlreadyCompressed => "already compressed",
            SkipReason::NotJsonl => "name does not end in .jsonl",
            SkipReason::Empty => "empty",
            SkipReason::Recent => "modified recently",
            SkipReason::OpenInCodex => "open in a running Codex",
            SkipReason::LockUnknown => "cannot check the writer lock",
            SkipReason::Changed => "changed while compressing",
            SkipReason::SiblingDiffers => "a different .zst exists",
        }
    }
}

/// What [`plan_file`] decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Compress to `target`.
    Compress {
        /// The `.jsonl.zst` name.
        target: PathBuf,
        /// The thread whose lock was asked (asked again before anything is removed).
        thread_id: ThreadId,
        /// The home whose lock was asked.
        lock_home: CodexHome,
    },
    /// Leave it.
    Skip(SkipReason),
}

/// What became of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CompressOutcome {
    /// Replaced by its compressed copy.
    Compressed {
        /// The new file.
        target: PathBuf,
        /// Size before.
        plain_bytes: u64,
        /// Size after.
        compressed_bytes: u64,
    },
    /// An interrupted run had written and checked `target`; the plain file was removed
    /// after checking again.
    Finished {
        /// The compressed file that was already there.
        target: PathBuf,
        /// Size of the plain file removed.
        plain_bytes: u64,
        /// Size of the compressed file.
        compressed_bytes: u64,
    },
    /// `--dry-run`: would be compressed.
    WouldCompress {
        /// The name it would get.
        target: PathBuf,
        /// Its size now.
        plain_bytes: u64,
    },
    /// Left as it is.
    Skipped {
        /// Why.
        reason: SkipReason,
    },
    /// Something failed; the plain file is still there.
    Failed {
        /// What went wrong.
        error: String,
    },
}

/// One file's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileResult {
    /// The file asked about.
    pub path: PathBuf,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: CompressOutcome,
}

/// A compression failure. The plain file is never removed when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum CompressError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The compressed copy does not decode to the plain file's bytes.
    #[error("{}: the compressed copy does not reproduce the file (first difference at byte {offset}); nothing was replaced", path.display())]
    Mismatch {
        /// The plain file.
        path: PathBuf,
        /// Where the copies first differ.
        offset: u64,
    },
}

pub(crate) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> CompressError + '_ {
    move |source| CompressError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Whether `path` would be compressed now, and if not why (see the module docs). `metadata`
/// is the file's.
pub fn plan_file(path: &Path, metadata: &Metadata, options: &CompressOptions) -> io::Result<Plan> {
    if metadata.len() == 0 {
        return Ok(Plan::Skip(SkipReason::Empty));
    }
    if is_zstd(path)? {
        return Ok(Plan::Skip(SkipReason::AlreadyCompressed));
    }
    let Some(target) = compressed_name(path) else {
        return Ok(Plan::Skip(SkipReason::NotJsonl));
    };
    let modified = metadata.modified()?;
    let age = options.now.duration_since(modified).unwrap_or_default();
    if age < options.older_than {
        return Ok(Plan::Skip(SkipReason::Recent));
    }
    let Some(lock_home) = home_of_rollout_path(path).or_else(|| options.lock_home.clone()) else {
        return Ok(Plan::Skip(SkipReason::LockUnknown));
    };
    let Some(thread_id) = thread_of(path)? else {
        return Ok(Plan::Skip(SkipReason::LockUnknown));
    };
    if thread_writer_lock(&lock_home, thread_id).forbids_rewrite() {
        return Ok(Plan::Skip(SkipReason::OpenInCodex));
    }
    Ok(Plan::Compress {
        target,
        thread_id,
        lock_home,
    })
}

/// `X.jsonl` → `X.jsonl.zst`; `None` for other names.
fn compressed_name(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    if !name.ends_with(".jsonl") {
        return None;
    }
    Some(path.with_file_name(format!("{name}{COMPRESSED_SUFFIX}")))
}

fn is_zstd(path: &Path) -> io::Result<bool> {
    let mut head = Vec::with_capacity(4);
    std::fs::File::open(path)?.take(4).read_to_end(&mut head)?;
    Ok(Compression::of_head(&head) == Compression::Zstd)
}

/// The thread a file records: its name's, else its first `session_meta`'s.
fn thread_of(path: &Path) -> io::Result<Option<ThreadId>> {
    let named = path
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(parse_rollout_file_name);
    if let Some(name) = named {
        return Ok(Some(ThreadId::from_uuid(name.thread_id)));
    }
    let mut stream = RolloutStream::open(path)?;
    // The meta is the first line Codex writes; a few lines of slack for odd files.
    for _ in 0..8 {
        let Some(line) = stream.next_line()? else {
            break;
        };
        if let Some(RolloutItem::SessionMeta(meta)) = line.line().map(|line| &line.item) {
            return Ok(Some(meta.meta.id));
        }
    }
    Ok(None)
}

/// Compresses (or, with `dry_run`, plans) one file.
pub fn compress_file(
    path: &Path,
    options: &CompressOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> FileResult {
    let outcome = match compress_one(path, options, progress, None) {
        Ok(outcome) => outcome,
        Err(err) => CompressOutcome::Failed {
            error: err.to_string(),
        },
    };
    FileResult {
        path: path.to_path_buf(),
        outcome,
    }
}

fn compress_one(
    path: &Path,
    options: &CompressOptions,
    progress: &(dyn Fn(u64) + Sync),
    stop_after: Option<replace::Step>,
) -> Result<CompressOutcome, CompressError> {
    let metadata = std::fs::metadata(path).map_err(io_error(path))?;
    let plan = plan_file(path, &metadata, options).map_err(io_error(path))?;
    let (target, thread_id, lock_home) = match plan {
        Plan::Skip(reason) => {
            // Nothing to read: the file's share of the run is done.
            progress(metadata.len());
            return Ok(CompressOutcome::Skipped { reason });
        }
        Plan::Compress {
            target,
            thread_id,
            lock_home,
        } => (target, thread_id, lock_home),
    };
    let plain_bytes = metadata.len();
    if options.dry_run {
        progress(plain_bytes);
        return Ok(CompressOutcome::WouldCompress {
            target,
            plain_bytes,
        });
    }
    let still_free = || !thread_writer_lock(&lock_home, thread_id).forbids_rewrite();
    let job = replace::Job {
        plain: path,
        target: &target,
        metadata: &metadata,
        encoder: options.encoder,
        still_free: &still_free,
        progress,
        stop_after,
    };
    job.run()
}

/// What a run over many files did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressRun {
    /// One result per file, in the order asked.
    pub files: Vec<FileResult>,
    /// Temporary files of interrupted runs found in the files' folders (removed unless
    /// `dry_run`).
    pub stale_temporary_files: usize,
}

/// Compresses (or plans) `paths` in parallel, with rayon's pool, after removing what
/// interrupted runs left in their folders. `progress` is called with the bytes read as they
/// are read (from any thread).
pub fn compress_files(
    paths: &[PathBuf],
    options: &CompressOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> CompressRun {
    let folders: std::collections::BTreeSet<PathBuf> = paths
        .iter()
        .map(|path| match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        })
        .collect();
    let stale_temporary_files = folders
        .iter()
        .map(|folder| remove_stale_temporary_files(folder, options.dry_run))
        .sum();
    let files = paths
        .par_iter()
        .map(|path| compress_file(path, options, progress))
        .collect();
    CompressRun {
        files,
        stale_temporary_files,
    }
}

#[cfg(test)]
#[path = "compress_tests.rs"]
mod tests;
