//! Recognizing an image and reading its size from the file header, without decoding pixels.
//!
//! Why headers only: this crate carries no image codec. The header tells the format (so a
//! non-image is rejected and its MIME type is known) and the dimensions (so the size limits of
//! the preparation mode can be checked); re-encoding is left to a pluggable
//! [`super::ImageResizer`].

/// An image format the model accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageFormat {
    /// The MIME type of the format.
    pub fn mime(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Gif => "image/gif",
            Self::Webp => "image/webp",
        }
    }
}

/// Format and pixel size read from an image header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageInfo {
    pub format: ImageFormat,
    pub width: u32,
    pub height: u32,
}

/// Recognizes the format from the magic bytes.
pub fn sniff_format(bytes: &[u8]) -> Option<ImageFormat> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageFormat::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(ImageFormat::Jpeg)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some(ImageFormat::Gif)
    } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        Some(ImageFormat::Webp)
    } else {
        None
    }
}

/// Reads format and dimensions; `None` when the bytes are not a recognizable image or the
/// header is truncated or reports a zero size.
pub fn read_image_info(bytes: &[u8]) -> Option<ImageInfo> {
    let format = sniff_format(bytes)?;
    let (width, height) = match format {
        ImageFormat::Png => (be32(bytes, 16)?, be32(bytes, 20)?),
        ImageFormat::Gif => (u32::from(le16(bytes, 6)?), u32::from(le16(bytes, 8)?)),
        ImageFormat::Jpeg => jpeg_size(bytes)?,
        ImageFormat::Webp => webp_size(bytes)?,
    };
    (width > 0 && height > 0).then_some(ImageInfo {
        format,
        width,
        height,
    })
}

fn byte(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at).map(|b| u32::from(*b))
}

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]))
}

fn le16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]))
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let slice = bytes.get(at..at + 4)?;
    Some(u32::from_be_bytes([slice[0], slice[1], slice[2], slice[3]]))
}

fn le24(bytes: &[u8], at: usize) -> Option<u32> {
    Some(byte(bytes, at)? | byte(bytes, at + 1)? << 8 | byte(bytes, at + 2)? << 16)
}

/// Walks JPEG segments to the first start-of-frame marker, which holds height then width.
fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let mut at = 2;
    loop {
        while *bytes.get(at)? != 0xFF {
            at += 1;
        }
        while *bytes.get(at)? == 0xFF {
            at += 1;
        }
        let marker = *bytes.get(at)?;
        at += 1;
        if (0xD0..=0xD9).contains(&marker) || marker == 0x01 {
            continue;
        }
        let length = usize::from(be16(bytes, at)?);
        let is_start_of_frame =
            (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_start_of_frame {
            let height = u32::from(be16(bytes, at + 3)?);
            let width = u32::from(be16(bytes, at + 5)?);
            return Some((width, height));
        }
        if length < 2 {
            return None;
        }
        at += length;
    }
}

fn webp_size(bytes: &[u8]) -> Option<(u32, u32)> {
    match bytes.get(12..16)? {
        b"VP8 " => Some((
            u32::from(le16(bytes, 26)? & 0x3FFF),
            u32::from(le16(bytes, 28)? & 0x3FFF),
        )),
        b"VP8L" => {
            let (b0, b1, b2, b3) = (
                byte(bytes, 21)?,
                byte(bytes, 22)?,
                byte(bytes, 23)?,
                byte(bytes, 24)?,
            );
            let width = 1 + (((b1 & 0x3F) << 8) | b0);
            let height = 1 + (((b3 & 0x0F) << 10) | (b2 << 2) | ((b1 & 0xC0) >> 6));
            Some((width, height))
        }
        b"VP8X" => Some((1 + le24(bytes, 24)?, 1 + le24(bytes, 27)?)),
        _ => None,
    }
}

#[cfg(test)]
#[path = "image_header_tests.rs"]
mod tests;
