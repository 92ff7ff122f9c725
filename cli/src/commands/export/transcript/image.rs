//! The images of a session: recognized from their bytes, or said to be missing.
//!
//! Why headers: a reader wants the kind and size of an image, and an HTML page must embed
//! only what is truly an image. The data URL is decoded and its header read by codex-core's
//! media functions (`decode_data_url`, `read_image_info`, the `imagesize` crate underneath),
//! the same ones that prepare images for the model; the page gets a data URL rebuilt from the
//! decoded bytes and the recognized type, never the file's own text.

use std::path::Path;

use codex_core::read_image_info;
use codex_core::{decode_data_url, encode_data_url, is_data_url};
use serde::Serialize;

/// Where an image came from, and whether the page can show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ImageSource {
    /// A `data:` URL holding a PNG, JPEG, GIF or WebP image: shown inline.
    Inline,
    /// A `data:` URL whose bytes are not a recognizable image.
    Unreadable,
    /// A file on the person's machine: not part of the session, not embedded.
    LocalFile,
    /// An http(s) URL: never fetched.
    Remote,
    /// No image at all: the file holds a placeholder (redacted or trimmed by its author).
    Missing,
}

/// One image.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Image {
    pub source: ImageSource,
    /// `image/png`, ... when recognized.
    pub mime: Option<&'static str>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// Decoded size in bytes.
    pub bytes: Option<usize>,
    /// The path, the remote URL, or the placeholder text (for the kinds that have one).
    pub location: Option<String>,
    /// The data URL to embed (only for [`ImageSource::Inline`]); not in the JSON export.
    #[serde(skip)]
    pub data_url: Option<String>,
}

impl Image {
    /// The image an `image_url` field names.
    pub(crate) fn from_url(url: &str) -> Self {
        if is_data_url(url) {
            return match decode_data_url(url) {
                Ok(decoded) => match read_image_info(&decoded.bytes) {
                    Some(info) => Self {
                        source: ImageSource::Inline,
                        mime: Some(info.format.mime()),
                        width: Some(info.width),
                        height: Some(info.height),
                        bytes: Some(decoded.bytes.len()),
                        location: None,
                        data_url: Some(encode_data_url(info.format.mime(), &decoded.bytes)),
                    },
                    None => Self {
                        bytes: Some(decoded.bytes.len()),
                        ..Self::bare(ImageSource::Unreadable, None)
                    },
                },
                Err(_) => Self::bare(ImageSource::Unreadable, None),
            };
        }
        let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Self::bare(ImageSource::Remote, Some(url));
        }
        Self::bare(ImageSource::Missing, Some(url))
    }

    /// An image file on the person's machine.
    pub(crate) fn local(path: &Path) -> Self {
        Self::bare(ImageSource::LocalFile, Some(&path.display().to_string()))
    }

    fn bare(source: ImageSource, location: Option<&str>) -> Self {
        Self {
            source,
            mime: None,
            width: None,
            height: None,
            bytes: None,
            location: location.map(str::to_string),
            data_url: None,
        }
    }

    /// A short description: `PNG 800×600, 12.3 KB`, or why it is not shown.
    pub(crate) fn describe(&self) -> String {
        match self.source {
            ImageSource::Inline => {
                let kind = self
                    .mime
                    .and_then(|mime| mime.strip_prefix("image/"))
                    .unwrap_or("image")
                    .to_ascii_uppercase();
                format!(
                    "{kind} {}×{}, {}",
                    self.width.unwrap_or(0),
                    self.height.unwrap_or(0),
                    human_bytes(self.bytes.unwrap_or(0))
                )
            }
            ImageSource::Unreadable => match self.bytes {
                Some(bytes) => format!("not a readable image ({})", human_bytes(bytes)),
                None => "not a readable image (bad data URL)".to_string(),
            },
            ImageSource::LocalFile => "local file, not embedded".to_string(),
            ImageSource::Remote => "remote image, not fetched".to_string(),
            ImageSource::Missing => "image missing from the file (redacted or trimmed)".to_string(),
        }
    }
}

/// `1234567` as `1.2 MB`.
pub(crate) fn human_bytes(bytes: usize) -> String {
    const UNITS: [&str; 4] = ["B", "KB", "MB", "GB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
