//! What a session file is now, and what of it must be read given what the index stored
//! (the rules in the parent's module docs).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::UNIX_EPOCH;

use super::row::Stored;
use crate::list::FoundRollout;
use codex_rollout::Compression;

/// How many leading bytes of a file identify it (with its size and mtime).
pub(crate) const HEAD_BYTES: u64 = 1024;

/// What a file is now.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Identity {
    pub(crate) size: i64,
    pub(crate) mtime_ns: i64,
    pub(crate) head_len: i64,
    pub(crate) head_hash: i64,
    /// Decided by the first bytes, as every reader decides ([`Compression::of_head`]).
    pub(crate) compressed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    UpToDate,
    FromStart,
    ReadOn,
}

/// What must be read of a file, given its row (the rules in `update`'s module docs).
pub(crate) fn plan(row: Option<&Stored>, now: &Identity, path: &Path) -> std::io::Result<Plan> {
    let compressed = now.compressed;
    let Some(row) = row else {
        return Ok(Plan::FromStart);
    };
    let same_stat = row.mark.size == now.size && row.mark.mtime_ns == now.mtime_ns;
    if same_stat && row.complete {
        return Ok(Plan::UpToDate);
    }
    // `now` hashed the same number of leading bytes as the row (see `identity`).
    if now.head_hash != row.mark.head_hash || now.size < row.mark.size {
        return Ok(Plan::FromStart);
    }
    if compressed && !same_stat {
        return Ok(Plan::FromStart);
    }
    if !compressed && now.size == row.mark.size && !same_stat {
        // Same size, touched: rewritten in place, not appended to.
        return Ok(Plan::FromStart);
    }
    if !compressed && row.mark.read_bytes > 0 {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(row.mark.read_bytes as u64 - 1))?;
        let mut last = [0u8; 1];
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            return Ok(Plan::FromStart);
        }
    }
    Ok(Plan::ReadOn)
}

/// The file's size, mtime and a hash of its first `head_len` bytes (those the row hashed, so
/// the two compare; [`HEAD_BYTES`] when `None`: what is stored for a file about to be read).
pub(crate) fn identity(path: &Path, head_len: Option<i64>) -> std::io::Result<Identity> {
    let metadata = std::fs::metadata(path)?;
    let size = metadata.len();
    let mtime_ns = metadata
        .modified()
        .ok()
        .and_then(|at| at.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos() as i64);
    let head_len = head_len.map_or(HEAD_BYTES.min(size), |len| len.max(0) as u64);
    let mut head = Vec::with_capacity(head_len as usize);
    File::open(path)?.take(head_len).read_to_end(&mut head)?;
    Ok(Identity {
        size: size as i64,
        mtime_ns,
        head_len: head.len() as i64,
        head_hash: fnv1a(&head) as i64,
        compressed: Compression::of_head(&head) == Compression::Zstd,
    })
}

/// FNV-1a, 64 bits: stable across versions and platforms (the hash is stored).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One file an update reads: where, what it is now and how it is to be read.
pub(crate) struct FileJob<'a> {
    pub(crate) home: &'a str,
    pub(crate) key: String,
    pub(crate) file: &'a FoundRollout,
    pub(crate) now: Identity,
    pub(crate) read: Plan,
    /// Every line parsed and one text per entry (the tests' reference, `SearchIndex`'s
    /// `plain_build`).
    pub(crate) plain_build: bool,
}
