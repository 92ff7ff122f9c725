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
    /// The encoding the header names.
    pub format: ImageFormat,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Recognizes the format from the magic bytes.
pub(crate) fn sniff_format(bytes: &[u8]) -> Option<ImageFormat> {
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
/// header is truncated or reports a zero size. The format is ours to decide (only the four the
/// model accepts); the header walk is the `imagesize` crate's.
pub fn read_image_info(bytes: &[u8]) -> Option<ImageInfo> {
    let format = sniff_format(bytes)?;
    let size = imagesize::blob_size(bytes).ok()?;
    let width = u32::try_from(size.width).ok()?;
    let height = u32::try_from(size.height).ok()?;
    (width > 0 && height > 0).then_some(ImageInfo {
        format,
        width,
        height,
    })
}

#[cfg(test)]
#[path = "image_header_tests.rs"]
mod tests;
