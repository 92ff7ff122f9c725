//! Turning a submission ([`UserInput`]s) into the user `message` the model reads.
//!
//! The rules (from the upstream wire contract): text becomes `input_text` (UI text elements are
//! dropped); a remote image becomes a bare `input_image` whose detail defaults to `high`, with
//! no label text around it; remote audio becomes `input_audio`; a local image or audio file is
//! framed by an opening label (`<image name=[Image #N] path="...">`) and a closing tag, or
//! replaced by one explanatory `input_text` when it cannot be attached. Skills and mentions add
//! nothing here: the agent core injects their bodies later.
//!
//! Images are numbered 1, 2, ... across every image part, remote ones included, so a label
//! always matches what the person saw in their composer; audio is numbered the same way.
//! Reading the file is the caller's job, through [`LocalMediaResolver`].

use std::path::Path;

use crate::models::ContentItem;
use crate::models::DEFAULT_IMAGE_DETAIL;
use crate::models::ImageDetail;
use crate::models::ResponseInputItem;

use super::UserInput;

/// Reads local media for [`user_message_content`]. Implemented by the agent core (which may
/// touch files); this crate only ships [`RejectLocalMedia`].
pub trait LocalMediaResolver {
    /// Loads the image at `path` for the model. `detail` is what the person asked for, if
    /// anything; the resolver decides the final detail (e.g. after resizing).
    fn resolve_image(
        &mut self,
        path: &Path,
        detail: Option<ImageDetail>,
    ) -> Result<ResolvedImage, MediaUnavailable>;

    /// Loads the audio at `path` and returns it as a `data:` URL.
    fn resolve_audio(&mut self, path: &Path) -> Result<String, MediaUnavailable>;
}

/// A local image ready to send: its URL (usually a `data:` URL) and the detail to request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedImage {
    /// What goes into `input_image.image_url`.
    pub image_url: String,
    /// What goes into `input_image.detail`.
    pub detail: ImageDetail,
}

/// Why a local file could not be attached, as the text the model reads in its place.
///
/// The message survives: the model is told, in one `input_text`, that the attachment is
/// missing and why, instead of the whole submission failing. The constructors spell the
/// upstream wording so transcripts look the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaUnavailable {
    /// The text that replaces the attachment.
    pub placeholder: String,
}

impl MediaUnavailable {
    /// The image could not be read, decoded or encoded.
    pub fn unreadable_image(path: &Path, error: impl std::fmt::Display) -> Self {
        Self {
            placeholder: format!(
                "Codex could not read the local image at `{}`: {error}",
                path.display()
            ),
        }
    }

    /// The file was read but is not a valid image.
    pub fn invalid_image(path: &Path, error: impl std::fmt::Display) -> Self {
        Self {
            placeholder: format!("Image located at `{}` is invalid: {error}", path.display()),
        }
    }

    /// The image format is one the model cannot take.
    pub fn unsupported_image(path: &Path, mime: &str) -> Self {
        Self {
            placeholder: format!(
                "Codex cannot attach image at `{}`: unsupported image `{mime}`.",
                path.display()
            ),
        }
    }

    /// The audio file could not be read.
    pub fn unreadable_audio(path: &Path, error: impl std::fmt::Display) -> Self {
        Self {
            placeholder: format!(
                "Codex could not read the local audio at `{}`: {error}",
                path.display()
            ),
        }
    }

    /// The audio format is not one of wav, mp3, m4a, webm, ogg.
    pub fn unsupported_audio(path: &Path) -> Self {
        Self {
            placeholder: format!(
                "Codex cannot attach audio at `{}`: unsupported audio format; use wav, mp3, \
                 m4a, webm, or ogg.",
                path.display()
            ),
        }
    }
}

/// A resolver for contexts without file access: every local file becomes the "could not
/// read" placeholder, so the rest of the message still goes through.
#[derive(Debug, Clone, Copy, Default)]
pub struct RejectLocalMedia;

impl LocalMediaResolver for RejectLocalMedia {
    fn resolve_image(
        &mut self,
        path: &Path,
        _detail: Option<ImageDetail>,
    ) -> Result<ResolvedImage, MediaUnavailable> {
        Err(MediaUnavailable::unreadable_image(
            path,
            "local files are not available here",
        ))
    }

    fn resolve_audio(&mut self, path: &Path) -> Result<String, MediaUnavailable> {
        Err(MediaUnavailable::unreadable_audio(
            path,
            "local files are not available here",
        ))
    }
}

/// The MIME type the model accepts for an audio file, from its extension (case-insensitive);
/// `None` for anything but wav, mp3, m4a, webm and ogg.
pub fn audio_mime_type_for_path(path: &Path) -> Option<&'static str> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "wav" => Some("audio/wav"),
        "mp3" => Some("audio/mpeg"),
        "m4a" => Some("audio/mp4"),
        "webm" => Some("audio/webm"),
        "ogg" => Some("audio/ogg"),
        _ => None,
    }
}

/// The content of a user message, and where each submitted image landed in it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UserMessageContent {
    /// The parts, in submission order.
    pub content: Vec<ContentItem>,
    /// For each image input that became an `input_image`: `(input index, content index)`.
    /// Lets a caller swap in a prepared (resized) image later without searching.
    pub image_slots: Vec<(usize, usize)>,
}

/// Converts a submission into message content; see the module docs for the rules.
pub fn user_message_content(
    inputs: &[UserInput],
    resolver: &mut dyn LocalMediaResolver,
) -> UserMessageContent {
    let mut out = UserMessageContent::default();
    let mut image_number = 0usize;
    let mut audio_number = 0usize;
    for (index, input) in inputs.iter().enumerate() {
        match input {
            UserInput::Text { text, .. } => out.content.push(ContentItem::input_text(text)),
            UserInput::Image { image_url, detail } => {
                image_number += 1;
                out.image_slots.push((index, out.content.len()));
                out.content.push(ContentItem::input_image_url(
                    image_url,
                    Some(detail.unwrap_or(DEFAULT_IMAGE_DETAIL)),
                ));
            }
            UserInput::LocalImage { path, detail } => {
                image_number += 1;
                match resolver.resolve_image(path, *detail) {
                    Ok(image) => {
                        out.content.push(ContentItem::input_text(format!(
                            "<image name=[Image #{image_number}] path=\"{}\">",
                            path.display()
                        )));
                        out.image_slots.push((index, out.content.len()));
                        out.content.push(ContentItem::input_image_url(
                            image.image_url,
                            Some(image.detail),
                        ));
                        out.content.push(ContentItem::input_text("</image>"));
                    }
                    Err(unavailable) => {
                        tracing::warn!(path = %path.display(), "local image not attached");
                        out.content
                            .push(ContentItem::input_text(unavailable.placeholder));
                    }
                }
            }
            UserInput::Audio { audio_url } => {
                audio_number += 1;
                out.content.push(ContentItem::input_audio(audio_url));
            }
            UserInput::LocalAudio { path } => {
                audio_number += 1;
                match resolver.resolve_audio(path) {
                    Ok(audio_url) => {
                        out.content.push(ContentItem::input_text(format!(
                            "<audio name=[Audio #{audio_number}] path=\"{}\">",
                            path.display()
                        )));
                        out.content.push(ContentItem::input_audio(audio_url));
                        out.content.push(ContentItem::input_text("</audio>"));
                    }
                    Err(unavailable) => {
                        tracing::warn!(path = %path.display(), "local audio not attached");
                        out.content
                            .push(ContentItem::input_text(unavailable.placeholder));
                    }
                }
            }
            UserInput::Skill { .. } | UserInput::Mention { .. } => {}
        }
    }
    out
}

/// The user `message` (role `user`, no phase) the model reads for a submission.
pub fn user_input_message(
    inputs: &[UserInput],
    resolver: &mut dyn LocalMediaResolver,
) -> ResponseInputItem {
    ResponseInputItem::Message {
        role: "user".to_string(),
        content: user_message_content(inputs, resolver).content,
        phase: None,
    }
}

#[cfg(test)]
#[path = "to_message_tests.rs"]
mod tests;
