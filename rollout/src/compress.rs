//! Replacing one plain rollout by its compressed copy, as upstream's reader reads it:
//! `X.jsonl` becomes `X.jsonl.zst` (one zstd frame, level 3 by default, window at most 2^27),
//! with the same modification time, and nothing can be lost on the way.
//!
//! Which files to compress, and whether a running Codex holds their thread, is decided over a
//! home by `codex-home` (its `plan_file` and writer locks); this module is the one file's
//! replacement ([`Replacement`]), which asks the caller's `still_free` again before each
//! change.
//!
//! How one file is replaced: the compressed bytes go to a temporary file in
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

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

mod replace;

#[cfg(feature = "testing")]
pub use replace::Step;
pub use replace::{Replacement, remove_stale_temporary_files};

/// The zstd level upstream writes.
pub const DEFAULT_LEVEL: i32 = 3;
/// The largest long-distance window (as a power of two) upstream's decoder reads without
/// being told to (zstd's default `window_log_max`).
pub const MAX_WINDOW_LOG: u32 = 27;
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

/// What people read.
impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SkipReason::AlreadyCompressed => "already compressed",
            SkipReason::NotJsonl => "name does not end in .jsonl",
            SkipReason::Empty => "empty",
            SkipReason::Recent => "modified recently",
            SkipReason::OpenInCodex => "open in a running Codex",
            SkipReason::LockUnknown => "cannot check the writer lock",
            SkipReason::Changed => "changed while compressing",
            SkipReason::SiblingDiffers => "a different .zst exists",
        })
    }
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

impl CompressOutcome {
    /// `(plain_bytes, compressed_bytes)` of a file replaced by its compressed copy (compressed
    /// now, or finished after an interrupted run); `None` for the other outcomes.
    pub fn sizes(&self) -> Option<(u64, u64)> {
        match self {
            Self::Compressed {
                plain_bytes,
                compressed_bytes,
                ..
            }
            | Self::Finished {
                plain_bytes,
                compressed_bytes,
                ..
            } => Some((*plain_bytes, *compressed_bytes)),
            Self::WouldCompress { .. } | Self::Skipped { .. } | Self::Failed { .. } => None,
        }
    }
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

impl CompressError {
    /// The [`CompressError::Io`] of an operation on `path`, for `map_err`.
    pub(crate) fn io(path: &Path) -> impl FnOnce(io::Error) -> CompressError + '_ {
        move |source| CompressError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

#[cfg(test)]
#[path = "compress_tests.rs"]
mod tests;
