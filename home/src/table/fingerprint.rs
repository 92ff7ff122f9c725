//! A file's content identity (decoded length, lines, digests of its first and last non-empty
//! lines), built while the file is streamed: how a file that moved (archived) or was
//! compressed is recognised as one already written.
//!
//! The last line is not copied as every line goes by (a copy of the whole home, a few per
//! cent of a first run): a plain file's last line is read again from its offset once the
//! stream has ended. Only a compressed file, whose offsets are the decoded stream's, keeps a
//! copy of each line.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use codex_rollout::Compression;
use sha2::{Digest, Sha256};

use super::TableError;
use super::manifest::Fingerprint;

/// Where the last non-empty line is.
enum Last {
    /// Nothing seen yet.
    None,
    /// A plain file's line, by its offset and length in the file.
    At { offset: u64, len: usize },
    /// A compressed file's line, copied.
    Copied(Vec<u8>),
}

/// Builds a [`Fingerprint`] a line at a time.
pub(crate) struct FingerprintBuilder {
    plain: bool,
    first: Option<String>,
    last: Last,
}

impl FingerprintBuilder {
    /// A builder for a file stored as `compression`.
    pub(crate) fn new(compression: Compression) -> Self {
        Self {
            plain: compression == Compression::Plain,
            first: None,
            last: Last::None,
        }
    }

    /// Takes the line `raw` found at `offset` in the decoded stream.
    pub(crate) fn push(&mut self, offset: u64, raw: &[u8]) {
        if raw.is_empty() {
            return;
        }
        if self.first.is_none() {
            self.first = Some(digest(raw));
        }
        if self.plain {
            self.last = Last::At {
                offset,
                len: raw.len(),
            };
        } else if let Last::Copied(last) = &mut self.last {
            last.clear();
            last.extend_from_slice(raw);
        } else {
            self.last = Last::Copied(raw.to_vec());
        }
    }

    /// The fingerprint of the file at `path` once its stream has ended after `bytes`
    /// decoded bytes and `lines` lines.
    pub(crate) fn finish(
        self,
        path: &Path,
        bytes: u64,
        lines: usize,
    ) -> Result<Fingerprint, TableError> {
        let last_line = match self.last {
            Last::None => digest(&[]),
            Last::Copied(last) => digest(&last),
            Last::At { offset, len } => {
                let mut last = vec![0; len];
                File::open(path)
                    .and_then(|mut file| {
                        file.seek(SeekFrom::Start(offset))?;
                        file.read_exact(&mut last)
                    })
                    .map_err(|source| TableError::Read {
                        path: path.to_path_buf(),
                        source,
                    })?;
                digest(&last)
            }
        };
        Ok(Fingerprint {
            bytes,
            lines: lines as u64,
            first_line: self.first.unwrap_or_default(),
            last_line,
        })
    }
}

fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
