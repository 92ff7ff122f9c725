//! What a person submits: [`UserInput`], and how it becomes a model message.
//!
//! A submission is a list of parts (text, images, audio, skill and mention references). The
//! parts are kept as the person gave them (a local path stays a path) because the client view
//! shows them that way; `to_message` turns them into the `message` the model reads. Reading a
//! local file is IO, which this crate never does, so the caller plugs a
//! [`LocalMediaResolver`] into that conversion.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::models::ImageDetail;

mod to_message;

pub use to_message::LocalMediaResolver;
pub use to_message::MediaUnavailable;
pub use to_message::RejectLocalMedia;
pub use to_message::ResolvedImage;
pub use to_message::UserMessageContent;
pub use to_message::audio_mime_type_for_path;
pub use to_message::user_input_message;
pub use to_message::user_message_content;

/// One part of what a person submitted, tagged by `type` (snake_case).
///
/// Local images and audio carry a path, not bytes: the file is read when the model message is
/// built (see [`user_message_content`]), and the path is what a client shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(tag = "type", rename_all = "snake_case")]
pub enum UserInput {
    /// Typed text. `text_elements` mark spans (pasted blocks, mentions) the UI rendered
    /// specially; they are always written, even when empty, and never reach the model.
    Text {
        /// The text as typed.
        text: String,
        /// Spans the UI rendered specially; empty when absent.
        #[serde(default)]
        text_elements: Vec<TextElement>,
    },
    /// An image given by URL (http(s) or `data:`).
    Image {
        /// The image's URL.
        image_url: String,
        /// The resolution to send it at; provider default when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        detail: Option<ImageDetail>,
    },
    /// An image file on the person's machine.
    LocalImage {
        /// The image file's path.
        #[ts(type = "string")]
        path: PathBuf,
        /// The resolution to send it at; provider default when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        detail: Option<ImageDetail>,
    },
    /// Audio given as a (data) URL.
    Audio {
        /// The audio's URL.
        audio_url: String,
    },
    /// An audio file on the person's machine.
    LocalAudio {
        /// The audio file's path.
        #[ts(type = "string")]
        path: PathBuf,
    },
    /// A skill the person selected; `path` is its `SKILL.md`. Its body is injected by the
    /// agent core, not by this conversion.
    Skill {
        /// The skill's name.
        name: String,
        /// The skill's `SKILL.md`.
        #[ts(type = "string")]
        path: PathBuf,
    },
    /// A mention of an app or plugin, e.g. `app://<connector-id>` or
    /// `plugin://<plugin>@<marketplace>`.
    Mention {
        /// The mentioned app's or plugin's display name.
        name: String,
        /// The mention's target, e.g. `app://<connector-id>`.
        path: String,
    },
}

impl UserInput {
    /// A plain text part with no UI elements.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text {
            text: text.into(),
            text_elements: Vec::new(),
        }
    }

    /// True for the parts that are images (remote or local): they share the `[Image #N]`
    /// numbering.
    pub fn is_image(&self) -> bool {
        matches!(self, Self::Image { .. } | Self::LocalImage { .. })
    }

    /// True for the parts that are audio (remote or local): they share `[Audio #N]`.
    pub fn is_audio(&self) -> bool {
        matches!(self, Self::Audio { .. } | Self::LocalAudio { .. })
    }
}

/// A span of a text input that the UI rendered as an element (for example a collapsed paste
/// shown as a placeholder).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TextElement {
    /// Where the element sits in the text, in UTF-8 bytes.
    pub byte_range: ByteRange,
    /// What the UI showed instead of the covered text. Written as `null` when absent.
    pub placeholder: Option<String>,
}

impl TextElement {
    /// An element over `byte_range`, shown as `placeholder` when given.
    pub fn new(byte_range: ByteRange, placeholder: Option<String>) -> Self {
        Self {
            byte_range,
            placeholder,
        }
    }

    /// The text to show for this element: the placeholder, or else the covered slice of
    /// `text`. `None` when the range does not fall on character boundaries of `text`.
    pub fn placeholder<'a>(&'a self, text: &'a str) -> Option<&'a str> {
        match &self.placeholder {
            Some(placeholder) => Some(placeholder),
            None => text.get(self.byte_range.start..self.byte_range.end),
        }
    }
}

/// A half-open byte range `[start, end)` into UTF-8 text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
pub struct ByteRange {
    /// First byte (inclusive).
    #[ts(type = "number")]
    pub start: usize,
    /// End byte (exclusive).
    #[ts(type = "number")]
    pub end: usize,
}

impl From<std::ops::Range<usize>> for ByteRange {
    fn from(range: std::ops::Range<usize>) -> Self {
        Self {
            start: range.start,
            end: range.end,
        }
    }
}

#[cfg(test)]
#[path = "user_input_tests.rs"]
mod tests;
