//! Normalizing a person's submission into one user message.
//!
//! The parts keep their order: text becomes `input_text`, a remote image an `input_image`
//! with the default detail, remote audio an `input_audio`, and a local image or audio file is
//! read, checked and inlined as a `data:` URL between its label tags. A local file that cannot
//! be read or is not an acceptable image/audio becomes one placeholder text naming the file:
//! the message itself is never dropped, so the model and the person still see which part of
//! the input was unavailable.
//!
//! This crate opens no files: reading goes through [`MediaFiles`], which the caller provides
//! (the CLI plugs in a filesystem reader; tests use [`InMemoryMediaFiles`]).

use std::collections::HashMap;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::models::DEFAULT_IMAGE_DETAIL;
use codex_protocol::models::ImageDetail;
use codex_protocol::models::ResponseInputItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::user_input::LocalMediaResolver;
use codex_protocol::user_input::MediaUnavailable;
use codex_protocol::user_input::ResolvedImage;
use codex_protocol::user_input::UserInput;
use codex_protocol::user_input::audio_mime_type_for_path;
use codex_protocol::user_input::user_input_message;

use super::media::data_url::encode_data_url;
use super::media::image_header::sniff_format;

/// Read access to the person's local media files.
pub trait MediaFiles: Send + Sync + std::fmt::Debug {
    /// The bytes of the file at `path`.
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
}

/// [`MediaFiles`] over a map of paths to bytes; every other path is "not found".
#[derive(Debug, Clone, Default)]
pub struct InMemoryMediaFiles {
    files: HashMap<PathBuf, Vec<u8>>,
}

impl InMemoryMediaFiles {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a file.
    pub fn with_file(mut self, path: impl Into<PathBuf>, bytes: Vec<u8>) -> Self {
        self.files.insert(path.into(), bytes);
        self
    }
}

impl MediaFiles for InMemoryMediaFiles {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.files.get(path).cloned().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory")
        })
    }
}

/// Image MIME types a person may try to attach that the model does not take, by extension.
fn unsupported_image_mime(path: &Path) -> Option<&'static str> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "bmp" => Some("image/bmp"),
        "tif" | "tiff" => Some("image/tiff"),
        "svg" => Some("image/svg+xml"),
        "heic" => Some("image/heic"),
        "ico" => Some("image/x-icon"),
        _ => None,
    }
}

/// The [`LocalMediaResolver`] of this crate: reads through [`MediaFiles`], recognizes the
/// image format from the bytes, and inlines the file as a `data:` URL. Size limits are applied
/// later, at the history boundary, like for every other image.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InlineMediaResolver<'a> {
    files: &'a dyn MediaFiles,
}

impl<'a> InlineMediaResolver<'a> {
    /// A resolver reading through `files`.
    pub(crate) fn new(files: &'a dyn MediaFiles) -> Self {
        Self { files }
    }
}

impl LocalMediaResolver for InlineMediaResolver<'_> {
    fn resolve_image(
        &mut self,
        path: &Path,
        detail: Option<ImageDetail>,
    ) -> Result<ResolvedImage, MediaUnavailable> {
        let bytes = self
            .files
            .read(path)
            .map_err(|err| MediaUnavailable::unreadable_image(path, err))?;
        let Some(format) = sniff_format(&bytes) else {
            return Err(match unsupported_image_mime(path) {
                Some(mime) => MediaUnavailable::unsupported_image(path, mime),
                None => MediaUnavailable::invalid_image(
                    path,
                    "the file is not a PNG, JPEG, GIF or WebP image",
                ),
            });
        };
        Ok(ResolvedImage {
            image_url: encode_data_url(format.mime(), &bytes),
            detail: detail.unwrap_or(DEFAULT_IMAGE_DETAIL),
        })
    }

    fn resolve_audio(&mut self, path: &Path) -> Result<String, MediaUnavailable> {
        let Some(mime) = audio_mime_type_for_path(path) else {
            return Err(MediaUnavailable::unsupported_audio(path));
        };
        let bytes = self
            .files
            .read(path)
            .map_err(|err| MediaUnavailable::unreadable_audio(path, err))?;
        Ok(encode_data_url(mime, &bytes))
    }
}

/// The user message for a submission, parts in order; see the module docs.
pub fn normalize_user_submission(inputs: &[UserInput], files: &dyn MediaFiles) -> ResponseItem {
    let mut resolver = InlineMediaResolver::new(files);
    let message: ResponseInputItem = user_input_message(inputs, &mut resolver);
    ResponseItem::from(message)
}

#[cfg(test)]
#[path = "user_input_tests.rs"]
mod tests;
