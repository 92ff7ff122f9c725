//! The content of a message: text, images, audio, and the phase of an assistant message.
//!
//! A `message` item carries a list of [`ContentItem`]s; an `agent_message` (one agent talking to
//! another) carries [`AgentMessageInputContent`], which may be encrypted. Images and audio are
//! kept as references (URL, data URL or provider file id) so history stays plain JSON.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// One part of a message's content, tagged by `type`.
///
/// `input_*` parts are what the model reads; `output_text` is what it wrote. An image is either
/// an inline URL (`image_url`, often a `data:` URL) or an uploaded file (`file_id`); both are
/// optional here so every historical shape reads, including `"image_url": null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentItem {
    /// Text the model reads.
    InputText {
        /// The text.
        text: String,
    },
    /// An image the model sees.
    InputImage {
        /// The image's URL (often a `data:` URL); absent or `null` when `file_id` names it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        image_url: Option<String>,
        /// The uploaded file holding the image; absent when `image_url` gives it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        file_id: Option<String>,
        /// An unknown detail reads as `None` (the provider default) instead of failing.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "crate::models::content::known_detail_or_none"
        )]
        #[ts(optional)]
        detail: Option<ImageDetail>,
    },
    /// Audio the model hears, as a data URL.
    InputAudio {
        /// The audio's data URL.
        audio_url: String,
    },
    /// Text the model produced. `annotations` and `logprobs` are provider metadata kept for
    /// replay (empty arrays included), opaque to this crate.
    OutputText {
        /// The text.
        text: String,
        /// Provider annotations (citations and the like), kept opaque; absent when not written.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "unknown[]")]
        annotations: Option<Vec<serde_json::Value>>,
        /// Token log-probabilities from the provider, kept opaque; absent when not written.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "unknown[]")]
        logprobs: Option<Vec<serde_json::Value>>,
    },
}

impl ContentItem {
    /// An `input_text` part.
    pub fn input_text(text: impl Into<String>) -> Self {
        Self::InputText { text: text.into() }
    }

    /// An `output_text` part without provider metadata.
    pub fn output_text(text: impl Into<String>) -> Self {
        Self::OutputText {
            text: text.into(),
            annotations: None,
            logprobs: None,
        }
    }

    /// An `input_image` part referring to a URL (http(s) or `data:`).
    pub fn input_image_url(url: impl Into<String>, detail: Option<ImageDetail>) -> Self {
        Self::InputImage {
            image_url: Some(url.into()),
            file_id: None,
            detail,
        }
    }

    /// An `input_image` part referring to a file uploaded to the provider.
    pub fn input_image_file(file_id: impl Into<String>, detail: Option<ImageDetail>) -> Self {
        Self::InputImage {
            image_url: None,
            file_id: Some(file_id.into()),
            detail,
        }
    }

    /// An `input_audio` part.
    pub fn input_audio(audio_url: impl Into<String>) -> Self {
        Self::InputAudio {
            audio_url: audio_url.into(),
        }
    }

    /// The text of an `input_text` or `output_text` part; `None` for media.
    pub fn text(&self) -> Option<&str> {
        match self {
            Self::InputText { text } | Self::OutputText { text, .. } => Some(text),
            Self::InputImage { .. } | Self::InputAudio { .. } => None,
        }
    }

    /// The URL of an `input_image` part, when it has one.
    pub fn image_url(&self) -> Option<&str> {
        match self {
            Self::InputImage { image_url, .. } => image_url.as_deref(),
            _ => None,
        }
    }

    /// The URL of an `input_audio` part.
    pub fn audio_url(&self) -> Option<&str> {
        match self {
            Self::InputAudio { audio_url } => Some(audio_url),
            _ => None,
        }
    }

    /// True for `input_image`.
    pub fn is_image(&self) -> bool {
        matches!(self, Self::InputImage { .. })
    }

    /// True for `input_audio`.
    pub fn is_audio(&self) -> bool {
        matches!(self, Self::InputAudio { .. })
    }
}

/// How much resolution the model should spend on an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum ImageDetail {
    /// `auto`: the provider chooses.
    Auto,
    /// `low`: low resolution.
    Low,
    /// `high`: high resolution.
    High,
    /// Send the image at its original size, without resizing.
    Original,
}

/// Reads an image detail, turning a value this crate does not know into `None` so one odd
/// field does not make a whole message unreadable.
pub(crate) fn known_detail_or_none<'de, D>(deserializer: D) -> Result<Option<ImageDetail>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let value = Option::<serde_json::Value>::deserialize(deserializer)?;
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(raw) => match serde_json::from_value(raw.clone()) {
            Ok(detail) => Ok(Some(detail)),
            Err(_) => {
                tracing::warn!(detail = %raw, "unknown image detail; using the provider default");
                Ok(None)
            }
        },
    }
}

/// The detail used when a person attaches an image without choosing one.
pub const DEFAULT_IMAGE_DETAIL: ImageDetail = ImageDetail::High;

/// Which part of an answer an assistant message is.
///
/// `commentary` is progress narration between tool calls, `final_answer` ends the turn.
/// An absent phase (`None` where this is used) is a third state, "unknown": older models and
/// files never wrote it and consumers keep their legacy behaviour for it, so it is never
/// rewritten into one of the named phases. A phase this crate does not know is kept verbatim in
/// [`MessagePhase::Unknown`] rather than failing the whole item.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum MessagePhase {
    /// `commentary`: narration between tool calls.
    Commentary,
    /// `partial_answer`: part of an answer (newer models).
    PartialAnswer,
    /// `final_answer`: the answer that ends the turn.
    FinalAnswer,
    /// A phase spelled by a newer (or foreign) writer; round-trips unchanged.
    #[serde(untagged)]
    Unknown(String),
}

impl MessagePhase {
    /// The wire spelling.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Commentary => "commentary",
            Self::PartialAnswer => "partial_answer",
            Self::FinalAnswer => "final_answer",
            Self::Unknown(other) => other,
        }
    }
}

/// One part of an `agent_message` (a message between agents), tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentMessageInputContent {
    /// `input_text`: text.
    InputText {
        /// The text.
        text: String,
    },
    /// Content only the provider can read.
    EncryptedContent {
        /// The opaque ciphertext.
        encrypted_content: String,
    },
}

/// The readable text of an agent message: its `input_text` parts joined by newlines.
///
/// `None` when any part is encrypted (the text would be partial) or when the joined text is
/// blank, so callers never show a misleading or empty message.
pub fn plaintext_agent_message_content(parts: &[AgentMessageInputContent]) -> Option<String> {
    let mut texts = Vec::with_capacity(parts.len());
    for part in parts {
        match part {
            AgentMessageInputContent::InputText { text } => texts.push(text.as_str()),
            AgentMessageInputContent::EncryptedContent { .. } => return None,
        }
    }
    let joined = texts.join("\n");
    if joined.trim().is_empty() {
        None
    } else {
        Some(joined)
    }
}

#[cfg(test)]
#[path = "content_tests.rs"]
mod tests;
