//! Whether a `.jsonl.zst` file is whole, told from its frame and block headers without
//! decoding it (RFC 8878, sections 3.1.1 and 3.1.2): each frame's header, then each block's
//! three-byte header and a skip over its content, to the last block and its checksum; a
//! skippable frame is skipped by its size. A file that ends inside a frame, or holds bytes
//! that start no frame, is not whole. A block whose content is corrupt is not seen here (only
//! decoding sees it): this is the quick test a listing can afford for every file.

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};

/// A zstd frame's magic number, little-endian.
const FRAME_MAGIC: u32 = 0xFD2F_B528;

/// Whether the zstd stream `reader` holds ends where its last frame ends.
pub(crate) fn frames_whole<R: Read + Seek>(mut reader: R) -> io::Result<bool> {
    let len = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(0))?;
    let mut stream = Frames {
        reader: BufReader::new(reader),
        len,
    };
    let mut frames = 0;
    loop {
        if stream.reader.fill_buf()?.is_empty() {
            return Ok(frames > 0);
        }
        let Some(magic) = stream.read::<4>()? else {
            return Ok(false);
        };
        frames += 1;
        let magic = u32::from_le_bytes(magic);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            let Some(size) = stream.read::<4>()? else {
                return Ok(false);
            };
            if !stream.skip(u64::from(u32::from_le_bytes(size)))? {
                return Ok(false);
            }
            continue;
        }
        if magic != FRAME_MAGIC || !stream.frame_whole()? {
            return Ok(false);
        }
    }
}

/// A zstd stream being walked, and its length (taken once).
struct Frames<R> {
    reader: BufReader<R>,
    len: u64,
}

impl<R: Read + Seek> Frames<R> {
    /// Reads one frame after its magic number; `false` when the input ends inside it.
    fn frame_whole(&mut self) -> io::Result<bool> {
        let Some([descriptor]) = self.read::<1>()? else {
            return Ok(false);
        };
        let single_segment = descriptor & 0x20 != 0;
        let checksum = descriptor & 0x04 != 0;
        let window = if single_segment { 0 } else { 1 };
        let dictionary = [0, 1, 2, 4][usize::from(descriptor & 0x03)];
        let content_size = match descriptor >> 6 {
            0 => u64::from(single_segment),
            1 => 2,
            2 => 4,
            _ => 8,
        };
        if !self.skip(window + dictionary + content_size)? {
            return Ok(false);
        }
        loop {
            let Some(header) = self.read::<3>()? else {
                return Ok(false);
            };
            let header =
                u32::from(header[0]) | u32::from(header[1]) << 8 | u32::from(header[2]) << 16;
            let last = header & 1 != 0;
            let size = match (header >> 1) & 0x03 {
                1 => 1,
                3 => return Ok(false),
                _ => u64::from(header >> 3),
            };
            if !self.skip(size)? {
                return Ok(false);
            }
            if last {
                return Ok(!checksum || self.skip(4)?);
            }
        }
    }

    /// The next `N` bytes; `None` when the input ends first.
    fn read<const N: usize>(&mut self) -> io::Result<Option<[u8; N]>> {
        let mut bytes = [0u8; N];
        match self.reader.read_exact(&mut bytes) {
            Ok(()) => Ok(Some(bytes)),
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Skips `bytes`; `false` when the input ends first.
    fn skip(&mut self, bytes: u64) -> io::Result<bool> {
        if bytes == 0 {
            return Ok(true);
        }
        let at = self.reader.stream_position()?;
        if self.len.saturating_sub(at) < bytes {
            return Ok(false);
        }
        self.reader
            .seek_relative(i64::try_from(bytes).map_err(io::Error::other)?)?;
        Ok(true)
    }
}

#[cfg(test)]
#[path = "frames_tests.rs"]
mod tests;
