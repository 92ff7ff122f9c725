//! What kinds of input a model accepts, and how history hides the rest from it.
//!
//! History keeps every image and audio clip a person or a tool produced: switching to a model
//! that accepts them must bring them back. Only the prompt projection replaces media the
//! current model cannot read with a short placeholder text, so the model still knows something
//! was there.

use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;
use serde::Deserialize;
use serde::Serialize;

/// Placeholder that replaces an image for a model without image input.
pub(crate) const IMAGE_OMITTED_PLACEHOLDER: &str =
    "image content omitted because you do not support image input";

/// Placeholder that replaces an audio clip for a model without audio input.
pub(crate) const AUDIO_OMITTED_PLACEHOLDER: &str =
    "audio content omitted because you do not support audio input";

/// One kind of input a model accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputModality {
    /// Text parts.
    Text,
    /// Images (input images, image parts of tool outputs).
    Image,
    /// Audio parts.
    Audio,
}

/// What a model accepts when its configuration says nothing: text and images, not audio.
pub fn default_input_modalities() -> Vec<InputModality> {
    vec![InputModality::Text, InputModality::Image]
}

/// Which media the projection must replace, computed once per projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MediaFilter {
    strip_images: bool,
    strip_audio: bool,
}

impl MediaFilter {
    /// The filter for a model accepting `modalities`.
    pub(crate) fn for_modalities(modalities: &[InputModality]) -> Self {
        Self {
            strip_images: !modalities.contains(&InputModality::Image),
            strip_audio: !modalities.contains(&InputModality::Audio),
        }
    }

    /// True when nothing needs replacing, so items can be moved without inspection.
    pub(crate) fn is_noop(self) -> bool {
        !self.strip_images && !self.strip_audio
    }

    /// True when `item` holds media this filter replaces (read-only check, so a shared item is
    /// copied only when it will change).
    pub(crate) fn affects(self, item: &ResponseItem) -> bool {
        if self.is_noop() {
            return false;
        }
        match item {
            ResponseItem::Message { content, .. } => content.iter().any(|part| {
                (self.strip_images && part.is_image()) || (self.strip_audio && part.is_audio())
            }),
            ResponseItem::FunctionCallOutput { output, .. }
            | ResponseItem::CustomToolCallOutput { output, .. } => output
                .content_items()
                .is_some_and(|parts| parts.iter().any(|part| self.affects_output_part(part))),
            ResponseItem::ImageGenerationCall { result, .. } => {
                self.strip_images && !result.is_empty()
            }
            _ => false,
        }
    }

    /// Replaces the media of `item` this filter does not allow; everything else is untouched.
    pub(crate) fn apply(self, item: &mut ResponseItem) {
        if self.is_noop() {
            return;
        }
        match item {
            ResponseItem::Message { content, .. } => {
                for part in content.iter_mut() {
                    if let Some(text) = self.placeholder_for_content(part) {
                        *part = ContentItem::input_text(text);
                    }
                }
            }
            ResponseItem::FunctionCallOutput { output, .. }
            | ResponseItem::CustomToolCallOutput { output, .. } => self.apply_to_output(output),
            ResponseItem::ImageGenerationCall { result, .. } if self.strip_images => {
                // The call stays (the model made it); only the picture goes.
                result.clear();
            }
            _ => {}
        }
    }

    fn apply_to_output(self, output: &mut FunctionCallOutputPayload) {
        if let Some(parts) = output.content_items_mut() {
            for part in parts.iter_mut() {
                if let Some(text) = self.placeholder_for_output_part(part) {
                    *part = FunctionCallOutputContentItem::input_text(text);
                }
            }
        }
    }

    fn affects_output_part(self, part: &FunctionCallOutputContentItem) -> bool {
        self.placeholder_for_output_part(part).is_some()
    }

    fn placeholder_for_content(self, part: &ContentItem) -> Option<&'static str> {
        match part {
            ContentItem::InputImage { .. } if self.strip_images => Some(IMAGE_OMITTED_PLACEHOLDER),
            ContentItem::InputAudio { .. } if self.strip_audio => Some(AUDIO_OMITTED_PLACEHOLDER),
            _ => None,
        }
    }

    fn placeholder_for_output_part(
        self,
        part: &FunctionCallOutputContentItem,
    ) -> Option<&'static str> {
        match part {
            FunctionCallOutputContentItem::InputImage { .. } if self.strip_images => {
                Some(IMAGE_OMITTED_PLACEHOLDER)
            }
            FunctionCallOutputContentItem::InputAudio { .. } if self.strip_audio => {
                Some(AUDIO_OMITTED_PLACEHOLDER)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "modality_tests.rs"]
mod tests;
