//! The stream's buffer: the input read a block at a time, lines handed out as slices of it.
//!
//! A line that lies inside the block read is never copied: [`Window::next_line`] finds its
//! end (the `memchr` crate's scan) and lends it. Only the start of a line cut by the end of a
//! block moves, to the front of the buffer, before the next read fills the rest; a line
//! longer than the buffer doubles it. Memory is the longest line or the block, whichever is
//! larger.
//!
//! The buffer is made at the first read: the input's size when it is known and smaller than
//! a block, else a small start that doubles with each read that fills it, up to the block's
//! size. A window that ends leaves its buffer (when not larger than a block) to the next
//! window its thread makes: a reader of thousands of small files (usage over a home) would
//! otherwise allocate and zero fresh memory for each, and fault its pages in, which costs more
//! than reading the file.

use std::cell::RefCell;
use std::io::{self, Read};

/// The input and the bytes read from it that no line has taken yet.
#[derive(Debug)]
pub(super) struct Window<R> {
    reader: R,
    /// Always initialised to its full length; `start..filled` is unread.
    bytes: Vec<u8>,
    start: usize,
    filled: usize,
    /// The size the buffer grows to by reads alone (a longer line grows it further).
    block: usize,
    /// The size of the input, when known: the buffer's size at the first read.
    expected: Option<u64>,
    /// Whether the last read filled all the room it had (so the input may hold more).
    last_read_full: bool,
}

/// A read error, with the number of bytes of the line it cut that were read before it.
#[derive(Debug)]
pub(super) struct CutLine {
    pub(super) error: io::Error,
    pub(super) read: usize,
}

/// The buffer's size at its first read (it holds nothing before).
const FIRST_BYTES: usize = 16 * 1024;

thread_local! {
    /// The buffer the last window of this thread left (see the module docs).
    static SPARE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

impl<R> Drop for Window<R> {
    fn drop(&mut self) {
        if self.bytes.len() <= self.block {
            let bytes = std::mem::take(&mut self.bytes);
            // `try_with`: a thread that is ending has no spare to keep.
            let _ = SPARE.try_with(|spare| {
                if let Ok(mut spare) = spare.try_borrow_mut()
                    && spare.len() < bytes.len()
                {
                    *spare = bytes;
                }
            });
        }
    }
}

impl<R: Read> Window<R> {
    /// A window over `reader` that reads up to `block` bytes (at least one) at a time;
    /// `expected` is the input's size, when known.
    pub(super) fn new(reader: R, block: usize, expected: Option<u64>) -> Self {
        Self {
            reader,
            bytes: Vec::new(),
            start: 0,
            filled: 0,
            block: block.max(1),
            expected,
            last_read_full: false,
        }
    }

    /// The next line, without its `\n`, and whether it had one (only the input's last line
    /// can lack it); `None` at the end of the input.
    pub(super) fn next_line(&mut self) -> Result<Option<(&[u8], bool)>, CutLine> {
        let mut scanned = self.start;
        loop {
            let unread = self.bytes.get(scanned..self.filled).unwrap_or_default();
            if let Some(at) = memchr::memchr(b'\n', unread) {
                let (start, end) = (self.start, scanned + at);
                self.start = end + 1;
                return Ok(Some((self.bytes.get(start..end).unwrap_or_default(), true)));
            }
            let read = self.fill().map_err(|error| CutLine {
                error,
                read: self.pending(),
            })?;
            // Everything before the bytes just read was scanned (`fill` moved it to the
            // front of the buffer).
            scanned = self.filled - read;
            if read == 0 {
                if self.start == self.filled {
                    return Ok(None);
                }
                let (start, end) = (self.start, self.filled);
                self.start = end;
                return Ok(Some((
                    self.bytes.get(start..end).unwrap_or_default(),
                    false,
                )));
            }
        }
    }

    /// Bytes read from the input that no line has taken.
    fn pending(&self) -> usize {
        self.filled - self.start
    }

    /// Reads more of the input after the unread bytes, moving them to the front of the buffer
    /// first (and doubling the buffer when they fill it or it is still smaller than a block);
    /// the number of bytes read, 0 at the end of the input. Retries a read the operating
    /// system interrupted.
    fn fill(&mut self) -> io::Result<usize> {
        if self.start > 0 {
            self.bytes.copy_within(self.start..self.filled, 0);
            self.filled -= self.start;
            self.start = 0;
        }
        if self.bytes.is_empty() {
            self.bytes = SPARE
                .try_with(|spare| {
                    spare
                        .try_borrow_mut()
                        .map(|mut spare| std::mem::take(&mut *spare))
                })
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default();
        }
        let size = self.bytes.len();
        let grown = if size == 0 {
            // One more byte than expected, so that the read that finds the end needs no room.
            let first = self.expected.map_or(FIRST_BYTES as u64, |bytes| bytes + 1);
            first.clamp(1, self.block as u64) as usize
        } else if self.filled == size {
            size * 2
        } else if size < self.block && self.last_read_full {
            (size * 2).min(self.block)
        } else {
            size
        };
        if grown != size {
            // A new buffer holding the unread bytes, not a reallocation copying all of it.
            let mut bytes = vec![0; grown];
            if let (Some(to), Some(from)) =
                (bytes.get_mut(..self.filled), self.bytes.get(..self.filled))
            {
                to.copy_from_slice(from);
            }
            self.bytes = bytes;
        }
        loop {
            let free = self.bytes.get_mut(self.filled..).unwrap_or_default();
            let room = free.len();
            match self.reader.read(free) {
                Ok(read) => {
                    self.filled += read;
                    self.last_read_full = read == room;
                    return Ok(read);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }

    /// Appends up to `wanted` bytes of the input to `out`, fewer only at its end; the number
    /// appended. The unread bytes of the window come first, the rest is read straight into
    /// `out` (no byte is copied twice). Bytes read before an error stay appended.
    pub(super) fn read_into(&mut self, out: &mut Vec<u8>, wanted: usize) -> io::Result<usize> {
        let taken = self.pending().min(wanted);
        out.extend_from_slice(
            self.bytes
                .get(self.start..self.start + taken)
                .unwrap_or_default(),
        );
        self.start += taken;
        let rest = (wanted - taken) as u64;
        let read = (&mut self.reader).take(rest).read_to_end(out)?;
        Ok(taken + read)
    }
}

#[cfg(test)]
#[path = "window_tests.rs"]
mod tests;
