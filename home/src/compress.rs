//! Deciding which rollouts of a home to compress, and compressing them: old plain files whose
//! thread no running Codex holds, each replaced by `codex-rollout`'s verified
//! [`Replacement`] (one file; see `codex_rollout::compress` for the order that keeps every
//! moment readable).
//!
//! Which files ([`plan_file`], asked by `compress` and by `du`'s estimate alike): a plain
//! file whose name ends in `.jsonl`, not empty, last modified at least
//! [`CompressOptions::older_than`] ago, whose thread no running Codex holds
//! ([`crate::writer_lock`]). The thread is the one every command names
//! (`codex_rollout::thread_id_of_file`: the file's session meta's, else its name's); the home
//! whose locks are asked is the one the path lies in (else the one
//! the caller names). When either cannot be known the file is left alone.
//!
//! `docs/disk-usage.md` has the measured ratios and times.

use std::collections::BTreeMap;
use std::fs::Metadata;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use codex_protocol::thread_id::ThreadId;
use codex_rollout::Compression;
use codex_rollout::{COMPRESSED_SUFFIX, CodexHome, home_of_rollout_path};
use codex_rollout::{
    CompressError, CompressOutcome, EncoderSettings, Replacement, SkipReason,
    remove_stale_temporary_files,
};
use rayon::prelude::*;
use serde::Serialize;

use crate::writer_lock::thread_writer_lock;

/// Upstream's age rule: files last modified at least a week ago.
pub const DEFAULT_OLDER_THAN: Duration = Duration::from_secs(7 * 24 * 3600);

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

/// One file's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileResult {
    /// The file asked about.
    pub path: PathBuf,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: CompressOutcome,
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
    let Some(thread_id) = codex_rollout::thread_id_of_file(path)? else {
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

/// `X.jsonl` and `X.jsonl.zst`, named by either; `None` for another name.
pub(crate) fn compression_pair(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let name = path.file_name()?.to_str()?;
    let plain = match name.strip_suffix(COMPRESSED_SUFFIX) {
        Some(plain) => path.with_file_name(plain),
        None => path.to_path_buf(),
    };
    let copy = compressed_name(&plain)?;
    Some((plain, copy))
}

/// Whether the file at `path` starts as a zstd frame does.
pub(crate) fn is_zstd(path: &Path) -> io::Result<bool> {
    let mut head = Vec::with_capacity(4);
    std::fs::File::open(path)?.take(4).read_to_end(&mut head)?;
    Ok(Compression::of_head(&head) == Compression::Zstd)
}

/// Compresses (or, with `dry_run`, plans) one file.
pub fn compress_file(
    path: &Path,
    options: &CompressOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> FileResult {
    let outcome = match compress_one(path, options, progress, |job| job.run()) {
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
    run: impl FnOnce(&Replacement<'_>) -> Result<CompressOutcome, CompressError>,
) -> Result<CompressOutcome, CompressError> {
    let io = |source| CompressError::Io {
        path: path.to_path_buf(),
        source,
    };
    let metadata = std::fs::metadata(path).map_err(io)?;
    let plan = plan_file(path, &metadata, options).map_err(io)?;
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
    let job = Replacement {
        plain: path,
        target: &target,
        metadata: &metadata,
        encoder: options.encoder,
        still_free: &still_free,
        progress,
    };
    run(&job)
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

impl CompressRun {
    /// How many files were left alone for each reason (by the reason's words, sorted).
    pub fn skip_reasons(&self) -> BTreeMap<String, usize> {
        let mut reasons = BTreeMap::new();
        for result in &self.files {
            if let CompressOutcome::Skipped { reason } = &result.outcome {
                *reasons.entry(reason.to_string()).or_insert(0) += 1;
            }
        }
        reasons
    }
}

/// A run's totals: what `compress` sums up last.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CompressSummary {
    /// Whether the run only planned (`--dry-run`).
    pub dry_run: bool,
    /// Files asked about.
    pub files: usize,
    /// Files compressed (or, planning, that would be).
    pub compressed: usize,
    /// Their size before.
    pub plain_bytes: u64,
    /// Their size after (zero when planning).
    pub compressed_bytes: u64,
    /// Files left alone ([`CompressRun::skip_reasons`] says why).
    pub skipped: usize,
    /// Files whose compression failed.
    pub failed: usize,
    /// Temporary files of interrupted runs found (removed unless planning).
    pub stale_temporary_files: usize,
}

impl CompressSummary {
    /// The totals of `run`; `dry_run` when it only planned.
    pub fn of(run: &CompressRun, dry_run: bool) -> Self {
        let mut summary = Self {
            dry_run,
            files: run.files.len(),
            stale_temporary_files: run.stale_temporary_files,
            ..Self::default()
        };
        for result in &run.files {
            if let Some((plain, compressed)) = result.outcome.sizes() {
                summary.compressed += 1;
                summary.plain_bytes += plain;
                summary.compressed_bytes += compressed;
                continue;
            }
            match &result.outcome {
                CompressOutcome::WouldCompress { plain_bytes, .. } => {
                    summary.compressed += 1;
                    summary.plain_bytes += plain_bytes;
                }
                CompressOutcome::Skipped { .. } => summary.skipped += 1,
                CompressOutcome::Failed { .. } => summary.failed += 1,
                // Counted above, by their sizes.
                CompressOutcome::Compressed { .. } | CompressOutcome::Finished { .. } => {}
            }
        }
        summary
    }
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
