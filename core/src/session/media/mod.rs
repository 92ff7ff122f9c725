//! Media preparation at the history boundary: images and audio are validated (and images
//! resized when a resizer is configured) before an item is recorded, so history, the rollout
//! and every later prompt hold the prepared media, never the raw submission.
//!
//! A medium that cannot be prepared is replaced by one text part explaining why (the
//! placeholder wording follows upstream); the item itself always survives.

pub(crate) mod audio;
pub(crate) mod data_url;
pub(crate) mod image;
pub(crate) mod image_header;
pub(crate) mod session_image;

use std::sync::Arc;

use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputBody;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::ResponseItem;

pub use audio::AudioPreparationError;
pub use image::ImageOrigin;
pub use image::ImagePreparationError;
pub use image::ImagePreparationMetadata;
pub use image_header::ImageInfo;

/// How images are budgeted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImagePreparationMode {
    /// Each image is budgeted by its own `detail` (`low` is not supported).
    #[default]
    DetailBased,
    /// Every image gets the original-detail budget, whatever detail it asked for.
    UnifiedBudget,
}

impl ImagePreparationMode {
    /// The mode a model gets: the unified budget when the feature is on and the model either
    /// speaks Responses Lite or supports original detail; otherwise detail-based.
    pub fn for_model(
        unified_budget_feature: bool,
        uses_responses_lite: bool,
        supports_original_detail: bool,
    ) -> Self {
        if unified_budget_feature && (uses_responses_lite || supports_original_detail) {
            Self::UnifiedBudget
        } else {
            Self::DetailBased
        }
    }
}

/// Re-encodes an image at a smaller size. Plugged in by a caller that has an image codec;
/// without one, over-budget images are kept as they are.
pub trait ImageResizer: Send + Sync + std::fmt::Debug {
    /// Returns `(mime, bytes)` of `bytes` scaled to `width`×`height`.
    fn resize(
        &self,
        bytes: &[u8],
        info: ImageInfo,
        width: u32,
        height: u32,
    ) -> Result<(String, Vec<u8>), String>;
}

/// Settings of media preparation. The mode is a per-model setting (see
/// [`ImagePreparationMode::for_model`]).
#[derive(Debug, Clone)]
pub struct MediaSettings {
    /// How images are prepared for the model.
    pub image_mode: ImagePreparationMode,
    /// Insert a developer `<image_resize_notice>` after an item whose image was resized.
    pub resize_notice: bool,
    /// Largest decoded image accepted, in bytes.
    pub max_image_bytes: usize,
    /// Largest decoded audio clip accepted, in bytes.
    pub max_audio_bytes: usize,
    /// Optional image codec used to shrink over-budget images.
    pub resizer: Option<Arc<dyn ImageResizer>>,
}

/// Default byte limit of one image (20 MiB).
pub(crate) const DEFAULT_MAX_IMAGE_BYTES: usize = 20 * 1024 * 1024;
/// Default byte limit of one audio clip (25 MiB).
pub(crate) const DEFAULT_MAX_AUDIO_BYTES: usize = 25 * 1024 * 1024;

impl Default for MediaSettings {
    fn default() -> Self {
        Self {
            image_mode: ImagePreparationMode::DetailBased,
            resize_notice: false,
            max_image_bytes: DEFAULT_MAX_IMAGE_BYTES,
            max_audio_bytes: DEFAULT_MAX_AUDIO_BYTES,
            resizer: None,
        }
    }
}

/// Prepares every image and audio part of `items` in place (messages and tool outputs), and
/// returns what happened to each prepared image. With `resize_notice` on, a developer notice is
/// inserted right after each item whose image was resized.
pub(crate) fn prepare_media_items(
    items: &mut Vec<ResponseItem>,
    settings: &MediaSettings,
) -> Vec<ImagePreparationMetadata> {
    let mut metadata = Vec::new();
    let mut notices: Vec<(usize, ResponseItem)> = Vec::new();
    for (index, item) in items.iter_mut().enumerate() {
        let first_new = metadata.len();
        prepare_item_media(item, settings, &mut metadata);
        if settings.resize_notice
            && let Some(notice) = resize_notice(metadata.get(first_new..).unwrap_or_default())
        {
            notices.push((index + 1, notice));
        }
    }
    for (position, notice) in notices.into_iter().rev() {
        items.insert(position, notice);
    }
    metadata
}

fn prepare_item_media(
    item: &mut ResponseItem,
    settings: &MediaSettings,
    metadata: &mut Vec<ImagePreparationMetadata>,
) {
    let item_id = item.id().map(|id| id.as_str().to_string());
    match item {
        ResponseItem::Message { role, content, .. } => {
            let origin = ImageOrigin {
                message_role: Some(role.as_str()),
                item_id: item_id.as_deref(),
            };
            for part in content.iter_mut() {
                prepare_content_part(part, origin, settings, metadata);
            }
        }
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => {
            if let FunctionCallOutputBody::ContentItems(parts) = &mut output.body {
                let origin = ImageOrigin {
                    message_role: None,
                    item_id: item_id.as_deref(),
                };
                for part in parts.iter_mut() {
                    prepare_output_part(part, origin, settings, metadata);
                }
            }
        }
        _ => {}
    }
}

/// A media slot borrowed from either kind of content part (message content or tool output
/// content), so one function prepares both and the placeholder rules cannot drift apart.
enum MediaSlot<'a> {
    Image {
        image_url: &'a mut String,
        detail: &'a mut Option<codex_protocol::models::ImageDetail>,
    },
    Audio {
        audio_url: &'a str,
    },
}

/// Prepares one media slot; `Some(text)` is the placeholder that must replace the part.
fn prepare_slot(
    slot: MediaSlot<'_>,
    origin: ImageOrigin<'_>,
    settings: &MediaSettings,
    metadata: &mut Vec<ImagePreparationMetadata>,
) -> Option<String> {
    match slot {
        MediaSlot::Image { image_url, detail } => {
            match image::prepare_image(image_url, detail, origin, settings) {
                Ok(prepared) => {
                    metadata.extend(prepared);
                    None
                }
                Err(err) => Some(err.to_string()),
            }
        }
        MediaSlot::Audio { audio_url } => audio::prepare_audio(audio_url, settings)
            .err()
            .map(|err| err.to_string()),
    }
}

fn prepare_content_part(
    part: &mut ContentItem,
    origin: ImageOrigin<'_>,
    settings: &MediaSettings,
    metadata: &mut Vec<ImagePreparationMetadata>,
) {
    let slot = match part {
        ContentItem::InputImage {
            image_url: Some(image_url),
            detail,
            ..
        } => MediaSlot::Image { image_url, detail },
        ContentItem::InputAudio { audio_url } => MediaSlot::Audio { audio_url },
        _ => return,
    };
    if let Some(text) = prepare_slot(slot, origin, settings, metadata) {
        tracing::warn!(placeholder = %text, "media replaced by a placeholder");
        *part = ContentItem::input_text(text);
    }
}

fn prepare_output_part(
    part: &mut FunctionCallOutputContentItem,
    origin: ImageOrigin<'_>,
    settings: &MediaSettings,
    metadata: &mut Vec<ImagePreparationMetadata>,
) {
    let slot = match part {
        FunctionCallOutputContentItem::InputImage {
            image_url: Some(image_url),
            detail,
            ..
        } => MediaSlot::Image { image_url, detail },
        FunctionCallOutputContentItem::InputAudio { audio_url } => MediaSlot::Audio { audio_url },
        _ => return,
    };
    if let Some(text) = prepare_slot(slot, origin, settings, metadata) {
        tracing::warn!(placeholder = %text, "tool output media replaced by a placeholder");
        *part = FunctionCallOutputContentItem::input_text(text);
    }
}

/// The developer notice telling the model an image it sees was shrunk.
fn resize_notice(prepared: &[ImagePreparationMetadata]) -> Option<ResponseItem> {
    let lines: Vec<String> = prepared
        .iter()
        .filter(|meta| meta.resized)
        .map(|meta| {
            format!(
                "An image in the previous item was resized from {}x{} to {}x{} pixels before \
                 you received it; small details may be less legible.",
                meta.source_width, meta.source_height, meta.width, meta.height
            )
        })
        .collect();
    (!lines.is_empty()).then(|| {
        ResponseItem::developer_text(format!(
            "<image_resize_notice>\n{}\n</image_resize_notice>",
            lines.join("\n")
        ))
    })
}

/// Image fixtures shared by this crate's tests.
#[cfg(test)]
pub(crate) mod test_images {
    use super::data_url::encode_data_url;

    /// A PNG header (signature + IHDR) announcing `width`×`height`. Enough for the header
    /// reader; no pixel data.
    pub(crate) fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.extend_from_slice(&13u32.to_be_bytes());
        bytes.extend_from_slice(b"IHDR");
        bytes.extend_from_slice(&width.to_be_bytes());
        bytes.extend_from_slice(&height.to_be_bytes());
        bytes.extend_from_slice(&[8, 6, 0, 0, 0]);
        bytes
    }

    /// [`png`] as a data URL.
    pub(crate) fn png_data_url(width: u32, height: u32) -> String {
        encode_data_url("image/png", &png(width, height))
    }
}

#[cfg(test)]
#[path = "media_tests.rs"]
mod tests;
