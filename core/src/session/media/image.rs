//! Preparing one inline image for history: choose its detail and size budget, validate it, and
//! resize it when a resizer is configured.

use codex_protocol::models::ImageDetail;

use super::ImagePreparationMode;
use super::ImageResizer;
use super::MediaSettings;
use super::data_url::decode_data_url;
use super::data_url::encode_data_url;
use super::data_url::is_data_url;
use super::data_url::is_remote_url;
use super::image_header::read_image_info;

/// Pixel budget of an image: longest side and number of 32×32 patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ImageLimits {
    pub max_dimension: u32,
    pub max_patches: u64,
}

/// Side of one patch, in pixels.
pub(crate) const PATCH_SIZE: u64 = 32;

/// The budget of a `high` detail image.
pub(crate) const HIGH_DETAIL_LIMITS: ImageLimits = ImageLimits {
    max_dimension: 2048,
    max_patches: 2_500,
};

/// The budget of an `original` detail image, and of every image under the unified budget.
pub(crate) const ORIGINAL_DETAIL_LIMITS: ImageLimits = ImageLimits {
    max_dimension: 6000,
    max_patches: 10_000,
};

/// Why an image was replaced by a placeholder. The `Display` text is the placeholder the model
/// reads, in the upstream wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImagePreparationError {
    #[error("image content omitted because it could not be processed")]
    /// The image could not be decoded.
    Unprocessable,
    #[error(
        "image content omitted because it exceeded the supported size limit; use a smaller image"
    )]
    /// The image is larger than its budget and could not be shrunk.
    TooLarge,
    #[error(
        "image content omitted because detail 'low' is not supported; use 'high', 'original', or 'auto'"
    )]
    /// `detail: low` was asked of a model that does not support it.
    UnsupportedLowDetail,
    #[error("image content omitted because remote image URLs are not supported")]
    /// The image is a remote URL, which the model cannot fetch.
    RemoteUrlUnsupported,
}

/// What happened to one prepared image, for analytics and for the resize notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImagePreparationMetadata {
    /// Role of the message holding the image (`None` inside a tool output).
    pub message_role: Option<String>,
    /// Id of the item holding the image, when it already had one.
    pub item_id: Option<String>,
    /// The detail the image was prepared for.
    pub effective_detail: ImageDetail,
    /// Width of the image as given, in pixels.
    pub source_width: u32,
    /// Height of the image as given, in pixels.
    pub source_height: u32,
    /// Size after preparation (equal to the source when not resized).
    pub width: u32,
    /// Height after preparation.
    pub height: u32,
    /// True when the image exceeded its budget and a resizer produced a smaller copy.
    pub resized: bool,
}

/// Where an image sits, for the metadata.
#[derive(Debug, Clone, Copy, Default)]
pub struct ImageOrigin<'a> {
    /// Role of the message holding the image (`None` inside a tool output).
    pub message_role: Option<&'a str>,
    /// Id of the item holding the image, when it has one.
    pub item_id: Option<&'a str>,
}

/// Prepares one image reference in place.
///
/// Remote `http(s)` URLs are rejected (history only keeps media the harness has seen); other
/// non-`data:` references (provider file ids, custom schemes) pass through untouched. A
/// `data:` image is decoded, checked against the byte limit, recognized from its header and
/// measured; its detail becomes the effective one of the mode (`DetailBased`: none/auto/high
/// → high, original → original, low → rejected; `UnifiedBudget`: always original). When it
/// exceeds the pixel budget and a resizer is configured, it is replaced by the resized copy.
pub(crate) fn prepare_image(
    image_url: &mut String,
    detail: &mut Option<ImageDetail>,
    origin: ImageOrigin<'_>,
    settings: &MediaSettings,
) -> Result<Option<ImagePreparationMetadata>, ImagePreparationError> {
    if is_remote_url(image_url) {
        return Err(ImagePreparationError::RemoteUrlUnsupported);
    }
    if !is_data_url(image_url) {
        return Ok(None);
    }
    let (effective_detail, limits) = match settings.image_mode {
        ImagePreparationMode::UnifiedBudget => (ImageDetail::Original, ORIGINAL_DETAIL_LIMITS),
        ImagePreparationMode::DetailBased => match detail {
            None | Some(ImageDetail::Auto | ImageDetail::High) => {
                (ImageDetail::High, HIGH_DETAIL_LIMITS)
            }
            Some(ImageDetail::Original) => (ImageDetail::Original, ORIGINAL_DETAIL_LIMITS),
            Some(ImageDetail::Low) => return Err(ImagePreparationError::UnsupportedLowDetail),
        },
    };
    let decoded = decode_data_url(image_url).map_err(|err| {
        tracing::debug!(%err, "image data URL could not be decoded");
        ImagePreparationError::Unprocessable
    })?;
    if decoded.bytes.len() > settings.max_image_bytes {
        return Err(ImagePreparationError::TooLarge);
    }
    let info = read_image_info(&decoded.bytes).ok_or(ImagePreparationError::Unprocessable)?;
    let (target_width, target_height) = fit_within(info.width, info.height, limits);
    let mut metadata = ImagePreparationMetadata {
        message_role: origin.message_role.map(str::to_string),
        item_id: origin.item_id.map(str::to_string),
        effective_detail,
        source_width: info.width,
        source_height: info.height,
        width: info.width,
        height: info.height,
        resized: false,
    };
    let over_budget = (target_width, target_height) != (info.width, info.height);
    if over_budget {
        match settings.resizer.as_deref() {
            Some(resizer) => {
                let resized = resize(resizer, &decoded.bytes, info, target_width, target_height)?;
                *image_url = encode_data_url(&resized.0, &resized.1);
                metadata.width = target_width;
                metadata.height = target_height;
                metadata.resized = true;
            }
            None => tracing::debug!(
                width = info.width,
                height = info.height,
                "image exceeds its pixel budget; no resizer configured, kept as is"
            ),
        }
    }
    *detail = Some(effective_detail);
    Ok(Some(metadata))
}

fn resize(
    resizer: &dyn ImageResizer,
    bytes: &[u8],
    info: super::image_header::ImageInfo,
    width: u32,
    height: u32,
) -> Result<(String, Vec<u8>), ImagePreparationError> {
    resizer.resize(bytes, info, width, height).map_err(|err| {
        tracing::warn!(%err, "image resize failed");
        ImagePreparationError::Unprocessable
    })
}

/// The largest size with the same aspect ratio that fits `limits` (the source size when it
/// already fits). Never returns a zero side.
pub(crate) fn fit_within(width: u32, height: u32, limits: ImageLimits) -> (u32, u32) {
    let patches = |w: u64, h: u64| w.div_ceil(PATCH_SIZE) * h.div_ceil(PATCH_SIZE);
    let (w, h) = (u64::from(width), u64::from(height));
    if w.max(h) <= u64::from(limits.max_dimension) && patches(w, h) <= limits.max_patches {
        return (width, height);
    }
    let longest = w.max(h) as f64;
    let mut scale = (f64::from(limits.max_dimension) / longest).min(1.0);
    let pixel_budget = (limits.max_patches * PATCH_SIZE * PATCH_SIZE) as f64;
    scale = scale.min((pixel_budget / (w as f64 * h as f64)).sqrt());
    loop {
        let sw = ((w as f64 * scale).floor() as u64).max(1);
        let sh = ((h as f64 * scale).floor() as u64).max(1);
        if patches(sw, sh) <= limits.max_patches || (sw == 1 && sh == 1) {
            let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
            return (clamp(sw), clamp(sh));
        }
        scale *= 0.99;
    }
}

#[cfg(test)]
#[path = "image_tests.rs"]
mod tests;
