//! The images of a session: recognized from their bytes, or said to be missing.
//!
//! Why headers: a reader wants the kind and size of an image, and an HTML page must embed
//! only what is truly an image. The data URL is decoded and its header read by codex-core's
//! media functions (`decode_data_url`, `read_image_info`, the `imagesize` crate underneath),
//! the same ones that prepare images for the model; the page gets a data URL rebuilt from the
//! decoded bytes and the recognized type, never the file's own text.

use codex_core::read_image_info;
use codex_core::{decode_data_url, encode_data_url, is_data_url};

/// Where an image came from, and whether the page can show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
#[derive(Debug, Clone, PartialEq)]
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
    /// The data URL to embed (only for [`ImageSource::Inline`]).
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
    pub(crate) fn local(path: &str) -> Self {
        Self::bare(ImageSource::LocalFile, Some(path))
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

/// A byte count as people read it (`1.2 MiB`): the transcript model's words.
pub(crate) fn human_bytes(bytes: usize) -> String {
    codex_app_server_protocol::transcript::human_bytes(u64::try_from(bytes).unwrap_or(u64::MAX))
}
