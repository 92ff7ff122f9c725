//! [`ReverseLines`]: the lines of a plain file, read from its end back to its start, a block
//! at a time, by the splitting rule of the loader (a final line without `\n` is a line, the
//! empty rest after a final `\n` is not).

use std::io::{self, Read, Seek, SeekFrom};

/// Bytes read per step backwards: large enough that a multi-GB file is not dominated by
/// system calls. A longer line grows the buffer to hold it.
const BLOCK_BYTES: usize = 1024 * 1024;

/// A backwards reader of lines (see the module docs). Memory is a block plus the longest line.
#[derive(Debug)]
pub(crate) struct ReverseLines<R> {
    reader: R,
    /// File offset of `buf[0]`.
    buf_start: u64,
    buf: Vec<u8>,
    /// `buf[..end]` is not handed out yet.
    end: usize,
    done: bool,
}

impl<R: Read + Seek> ReverseLines<R> {
    /// A reader of the lines of `reader`, whose length is found by seeking to its end.
    pub(crate) fn new(mut reader: R) -> io::Result<Self> {
        let len = reader.seek(SeekFrom::End(0))?;
        Self::ending_at(reader, len)
    }

    /// A reader of the lines of `reader`'s first `len` bytes (a line start, or its length):
    /// the lines before that offset.
    pub(crate) fn ending_at(mut reader: R, len: u64) -> io::Result<Self> {
        let mut end_offset = len;
        if len > 0 {
            reader.seek(SeekFrom::Start(len - 1))?;
            let mut last = [0u8; 1];
            reader.read_exact(&mut last)?;
            if last[0] == b'\n' {
                end_offset -= 1;
            }
        }
        Ok(Self {
            reader,
            buf_start: end_offset,
            buf: Vec::new(),
            end: 0,
            done: len == 0,
        })
    }

    /// The previous line (the last one first): its offset in the file and its bytes without
    /// `\n`; `None` once the first line was handed out.
    pub(crate) fn prev_line(&mut self) -> io::Result<Option<(u64, &[u8])>> {
        loop {
            if self.done {
                return Ok(None);
            }
            if let Some(newline) = memchr::memrchr(b'\n', &self.buf[..self.end]) {
                let line = newline + 1..self.end;
                self.end = newline;
                let offset = self.buf_start + line.start as u64;
                return Ok(Some((offset, &self.buf[line])));
            }
            if self.buf_start == 0 {
                self.done = true;
                let line = 0..self.end;
                return Ok(Some((0, &self.buf[line])));
            }
            self.read_block()?;
        }
    }

    /// Reads the block before `buf_start` in front of what is left of the buffer.
    fn read_block(&mut self) -> io::Result<()> {
        let step = usize::try_from(self.buf_start)
            .unwrap_or(usize::MAX)
            .min(BLOCK_BYTES.max(self.end));
        let start = self.buf_start - step as u64;
        let mut block = vec![0u8; step + self.end];
        self.reader.seek(SeekFrom::Start(start))?;
        self.reader.read_exact(&mut block[..step])?;
        block[step..].copy_from_slice(&self.buf[..self.end]);
        self.buf = block;
        self.buf_start = start;
        self.end = self.buf.len();
        Ok(())
    }
}
