//! The body of a document set aside until its header is known.
//!
//! The Markdown and HTML headers count every turn (the table of contents, the images), so
//! the header can only be written after the last part was built. Rather than building the
//! whole transcript twice (once to count, once to write), `export` renders each part once,
//! as it is finished, into a [`BodySpool`]: an anonymous temporary file (removed by the
//! operating system when it is closed, even after a crash) that holds the rendered pieces.
//! Once the header is written, the pieces are handed back in order, each as it was
//! rendered, so the document is the same byte for byte. Memory stays one piece; the disk
//! holds the rendered body (about a third of the session for HTML) for the moment of the
//! export.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use crate::error::Failure;

/// Rendered pieces kept in a temporary file, each behind its length (see the module docs).
pub struct BodySpool {
    file: BufWriter<File>,
}

impl BodySpool {
    /// An empty spool in the system's temporary folder.
    pub fn new() -> Result<Self, Failure> {
        let file = tempfile::tempfile().map_err(|err| spool_failure(&err))?;
        Ok(Self {
            file: BufWriter::with_capacity(256 * 1024, file),
        })
    }

    /// Sets `piece` aside, after the ones before it.
    pub fn push(&mut self, piece: &str) -> Result<(), Failure> {
        let length = u64::try_from(piece.len()).unwrap_or(u64::MAX);
        self.file
            .write_all(&length.to_le_bytes())
            .and_then(|()| self.file.write_all(piece.as_bytes()))
            .map_err(|err| spool_failure(&err))
    }

    /// Hands `write` every piece in the order they were pushed, then removes the spool.
    /// Stops at the first error `write` returns.
    pub fn replay(self, mut write: impl FnMut(&str) -> Result<(), Failure>) -> Result<(), Failure> {
        let mut file = self
            .file
            .into_inner()
            .map_err(|err| spool_failure(err.error()))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|err| spool_failure(&err))?;
        let mut reader = BufReader::with_capacity(256 * 1024, file);
        let mut bytes = Vec::new();
        loop {
            let mut length = [0u8; 8];
            match reader.read_exact(&mut length) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
                Err(err) => return Err(spool_failure(&err)),
            }
            let length = usize::try_from(u64::from_le_bytes(length))
                .map_err(|_| spool_failure(&std::io::Error::other("piece too long")))?;
            bytes.clear();
            bytes.resize(length, 0);
            reader
                .read_exact(&mut bytes)
                .map_err(|err| spool_failure(&err))?;
            let piece = std::str::from_utf8(&bytes).map_err(|err| {
                spool_failure(&std::io::Error::new(std::io::ErrorKind::InvalidData, err))
            })?;
            write(piece)?;
        }
    }
}

fn spool_failure(err: &std::io::Error) -> Failure {
    Failure::Output(std::io::Error::new(
        err.kind(),
        format!("cannot keep the export's body in a temporary file: {err}"),
    ))
}
