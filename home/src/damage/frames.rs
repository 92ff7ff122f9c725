//! Whether a `.jsonl.zst` file is whole, told from its frame and block headers without
//! decoding it (RFC 8878, sections 3.1.1 and 3.1.2): each frame's header, then each block's
//! three-byte header and a skip over its content, to the last block and its checksum; a
//! skippable frame is skipped by its size. A file that ends inside a frame, or holds bytes
//! that start no frame, is not whole. A block whose content is corrupt is not seen here (only
//! decoding sees it): this is the quick test a listing can afford for every file.

use std::io::{self, BufReader, Read, Seek, SeekFrom};

/// A zstd frame's magic number, little-endian.
const FRAME_MAGIC: u32 = 0xFD2F_B528;

/// Whether the zstd stream `reader` holds ends where its last frame ends.
pub(crate) fn frames_whole<R: Read + Seek>(reader: R) -> io::Result<bool> {
    let mut reader = BufReader::new(reader);
    let mut frames = 0;
    loop {
        let mut magic = [0u8; 4];
        match read_full(&mut reader, &mut magic)? {
            0 if frames > 0 => return Ok(true),
            4 => {}
            _ => return Ok(false),
        }
        frames += 1;
        let magic = u32::from_le_bytes(magic);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            let mut size = [0u8; 4];
            if read_full(&mut reader, &mut size)? != 4
                || !skip(&mut reader, u64::from(u32::from_le_bytes(size)))?
            {
                return Ok(false);
            }
            continue;
        }
        if magic != FRAME_MAGIC || !frame_whole(&mut reader)? {
            return Ok(false);
        }
    }
}

/// Reads one frame after its magic number; `false` when the input ends inside it.
fn frame_whole<R: Read + Seek>(reader: &mut BufReader<R>) -> io::Result<bool> {
    let mut descriptor = [0u8; 1];
    if read_full(reader, &mut descriptor)? != 1 {
        return Ok(false);
    }
    let descriptor = descriptor[0];
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
    if !skip(reader, window + dictionary + content_size)? {
        return Ok(false);
    }
    loop {
        let mut header = [0u8; 3];
        if read_full(reader, &mut header)? != 3 {
            return Ok(false);
        }
        let header = u32::from(header[0]) | u32::from(header[1]) << 8 | u32::from(header[2]) << 16;
        let last = header & 1 != 0;
        let size = match (header >> 1) & 0x03 {
            1 => 1,
            3 => return Ok(false),
            _ => u64::from(header >> 3),
        };
        if !skip(reader, size)? {
            return Ok(false);
        }
        if last {
            return Ok(!checksum || skip(reader, 4)?);
        }
    }
}

/// Fills `buffer` as far as the input goes; the number of bytes read.
fn read_full(reader: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// Skips `bytes`; `false` when the input ends first.
fn skip<R: Read + Seek>(reader: &mut BufReader<R>, bytes: u64) -> io::Result<bool> {
    if bytes == 0 {
        return Ok(true);
    }
    let at = reader.stream_position()?;
    let end = reader.seek(SeekFrom::End(0))?;
    if end.saturating_sub(at) < bytes {
        return Ok(false);
    }
    reader.seek(SeekFrom::Start(at + bytes))?;
    Ok(true)
}

#[cfg(test)]
#[path = "frames_tests.rs"]
mod tests;
