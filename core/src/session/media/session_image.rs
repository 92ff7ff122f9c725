//! What an image a session names is, for a reader of the session (an export, a viewer):
//! its bytes in the file and recognizable, or where it lives instead.
//!
//! Why headers: a reader wants the kind and size of an image, and a page must embed only what
//! is truly an image. The data URL is decoded and its header read by the same functions that
//! prepare images for the model ([`decode_data_url`], [`read_image_info`]); the URL to embed is
//! rebuilt from the decoded bytes and the recognized type, never the file's own text.

use super::data_url::{decode_data_url, encode_data_url, is_data_url, is_remote_url};
use super::image_header::{ImageInfo, read_image_info};

/// One image of a session, as a reader can show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionImage {
    /// A `data:` URL holding a PNG, JPEG, GIF or WebP image.
    Inline {
        /// Its format and pixel size.
        info: ImageInfo,
        /// Decoded size in bytes.
        bytes: usize,
        /// The data URL to embed, rebuilt from the decoded bytes and the recognized type.
        data_url: String,
    },
    /// A `data:` URL whose bytes are not a recognizable image: their decoded size, `None`
    /// when the URL itself does not decode.
    Unreadable(Option<usize>),
    /// A file on the person's machine (its path): not part of the session.
    LocalFile(String),
    /// An http(s) URL: never fetched.
    Remote(String),
    /// No image at all: the file holds a placeholder (redacted or trimmed by its author).
    Missing(String),
}

impl SessionImage {
    /// The image an `image_url` field names.
    pub fn from_url(url: &str) -> Self {
        if !is_data_url(url) {
            return match is_remote_url(url) {
                true => Self::Remote(url.to_string()),
                false => Self::Missing(url.to_string()),
            };
        }
        let Ok(decoded) = decode_data_url(url) else {
            return Self::Unreadable(None);
        };
        match read_image_info(&decoded.bytes) {
            Some(info) => Self::Inline {
                info,
                bytes: decoded.bytes.len(),
                data_url: encode_data_url(info.format.mime(), &decoded.bytes),
            },
            None => Self::Unreadable(Some(decoded.bytes.len())),
        }
    }

    /// The path, the remote URL or the placeholder text, for the kinds that have one.
    pub fn location(&self) -> Option<&str> {
        match self {
            Self::LocalFile(location) | Self::Remote(location) | Self::Missing(location) => {
                Some(location)
            }
            Self::Inline { .. } | Self::Unreadable(_) => None,
        }
    }
}

#[cfg(test)]
#[path = "session_image_tests.rs"]
mod tests;
