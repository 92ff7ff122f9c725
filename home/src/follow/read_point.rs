//! Where a reader of a growing session file stopped, and reading on from there: the one
//! path both followers take ([`super::ThreadFollower`] and the notification replay's
//! `follow`).

use std::fs::File;
use std::io::{self, Seek, SeekFrom};

use codex_rollout::{RolloutStream, StreamedLine};

/// A line start in a file's decoded bytes: the bytes and the lines before it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ReadPoint {
    /// Where the next line starts.
    pub(crate) offset: u64,
    /// The lines before it.
    pub(crate) lines: usize,
}

impl ReadPoint {
    /// The start of the line after `line`, a complete (terminated) line.
    pub(crate) fn after(line: &StreamedLine<'_>) -> Self {
        Self {
            offset: line.offset + line.raw.len() as u64 + 1,
            lines: line.number,
        }
    }

    /// Hands `visit` each complete line of `file` after this point, in order, and moves past
    /// it; whether any was read. A last line without its `\n` (Codex is still writing it) is
    /// left for the next read. `file` must be plain unless this point is its start (a
    /// compressed file can only be read from there).
    pub(crate) fn read_on(
        &mut self,
        mut file: File,
        mut visit: impl FnMut(&StreamedLine<'_>),
    ) -> io::Result<bool> {
        file.seek(SeekFrom::Start(self.offset))?;
        let mut stream = RolloutStream::resume(file, self.lines, self.offset)?;
        let mut read = false;
        while let Some(line) = stream.next_line()? {
            if !line.terminated {
                break;
            }
            visit(&line);
            *self = Self::after(&line);
            read = true;
        }
        Ok(read)
    }
}
