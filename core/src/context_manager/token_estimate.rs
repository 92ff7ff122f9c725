//! Estimating how many tokens history items cost, without a tokenizer.
//!
//! The estimate is the byte length of what the model sees divided by four, with three
//! corrections where the JSON length says nothing about the model's cost:
//! - an inline base64 image costs a fixed amount (its pixels, not its base64 text);
//! - an inline base64 audio clip costs by duration (approximated, see below);
//! - encrypted content (reasoning, compaction, encrypted tool results) is longer than the
//!   plaintext it stands for.

use codex_protocol::models::AgentMessageInputContent;
use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;

use super::truncate::approx_token_count;
use super::truncate::approx_tokens_from_byte_count;

/// Bytes charged for one inline image (about 1,844 tokens), whatever its encoded size.
pub(crate) const INLINE_IMAGE_BYTE_COST: usize = 7373;

/// Encrypted reasoning and compaction blobs carry this many bytes of envelope beyond the
/// plaintext they encode.
const ENCRYPTED_BLOB_OVERHEAD_BYTES: usize = 650;

/// Estimated tokens of one item: `ceil(model-visible bytes / 4)`.
pub fn estimate_item_token_count(item: &ResponseItem) -> i64 {
    let bytes = model_visible_bytes(item);
    i64::try_from(approx_tokens_from_byte_count(bytes)).unwrap_or(i64::MAX)
}

/// Estimated tokens of items: the sum of [`estimate_item_token_count`], saturating.
pub(crate) fn estimate_items_token_count<'a>(
    items: impl IntoIterator<Item = &'a ResponseItem>,
) -> i64 {
    items
        .into_iter()
        .map(estimate_item_token_count)
        .fold(0i64, i64::saturating_add)
}

/// Estimated tokens of the text of base instructions.
pub(crate) fn estimate_text_token_count(text: &str) -> i64 {
    i64::try_from(approx_token_count(text)).unwrap_or(i64::MAX)
}

/// True for items the model produced itself (assistant messages, reasoning, calls, compaction
/// output). Usage reported by the provider covers everything up to the last such item.
pub(crate) fn is_model_generated_item(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::Message { role, .. } => role == "assistant",
        ResponseItem::Reasoning { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::ToolSearchCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::ImageGenerationCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::ContextCompaction { .. } => true,
        ResponseItem::AdditionalTools { .. }
        | ResponseItem::AgentMessage { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::ToolSearchOutput { .. }
        | ResponseItem::ConfigurationUpdate { .. }
        | ResponseItem::CompactionTrigger {}
        | ResponseItem::Other => false,
    }
}

fn model_visible_bytes(item: &ResponseItem) -> usize {
    match item {
        ResponseItem::Reasoning {
            encrypted_content: Some(blob),
            ..
        }
        | ResponseItem::Compaction {
            encrypted_content: blob,
            ..
        }
        | ResponseItem::ContextCompaction {
            encrypted_content: Some(blob),
            ..
        } => encrypted_blob_plaintext_bytes(blob.len()),
        _ => adjusted_json_bytes(item),
    }
}

/// Plaintext bytes behind an encrypted blob: base64 shrinks by 3/4, minus the envelope.
fn encrypted_blob_plaintext_bytes(encoded_len: usize) -> usize {
    (encoded_len.saturating_mul(3) / 4).saturating_sub(ENCRYPTED_BLOB_OVERHEAD_BYTES)
}

fn adjusted_json_bytes(item: &ResponseItem) -> usize {
    let raw = match serde_json::to_string(item) {
        Ok(json) => json.len(),
        Err(err) => {
            tracing::warn!(%err, "could not serialize a history item to estimate its size");
            0
        }
    };
    let mut adjust = Adjustment::default();
    match item {
        ResponseItem::Message { content, .. } => {
            for part in content {
                match part {
                    ContentItem::InputImage { image_url, .. } => adjust.image(image_url.as_deref()),
                    ContentItem::InputAudio { audio_url } => adjust.audio(audio_url),
                    ContentItem::InputText { .. } | ContentItem::OutputText { .. } => {}
                }
            }
        }
        ResponseItem::FunctionCallOutput { output, .. } => adjust.tool_output(output, true),
        ResponseItem::CustomToolCallOutput { output, .. } => adjust.tool_output(output, false),
        ResponseItem::AgentMessage { content, .. } => {
            for part in content {
                if let AgentMessageInputContent::EncryptedContent { encrypted_content } = part {
                    adjust.encrypted(encrypted_content.len());
                }
            }
        }
        _ => {}
    }
    raw.saturating_sub(adjust.remove).saturating_add(adjust.add)
}

/// Bytes to take out of the JSON length and bytes to charge instead.
#[derive(Debug, Default)]
struct Adjustment {
    remove: usize,
    add: usize,
}

impl Adjustment {
    fn image(&mut self, url: Option<&str>) {
        if let Some(payload) = url.and_then(|url| base64_data_url_payload(url, "image/")) {
            // Images sent at original detail cost by their pixel count upstream; without an
            // image decoder we charge the fixed cost for every inline image.
            self.remove += payload.len();
            self.add += INLINE_IMAGE_BYTE_COST;
        }
    }

    fn audio(&mut self, url: &str) {
        if let Some(payload) = base64_data_url_payload(url, "audio/") {
            self.remove += payload.len();
            self.add += estimate_audio_token_count(url).saturating_mul(4);
        }
    }

    fn encrypted(&mut self, len: usize) {
        self.remove += len;
        self.add += len.saturating_mul(9).div_ceil(16);
    }

    fn tool_output(&mut self, output: &FunctionCallOutputPayload, count_encrypted: bool) {
        let Some(parts) = output.content_items() else {
            return;
        };
        for part in parts {
            match part {
                FunctionCallOutputContentItem::InputImage { image_url, .. } => {
                    self.image(image_url.as_deref());
                }
                FunctionCallOutputContentItem::InputAudio { audio_url } => self.audio(audio_url),
                FunctionCallOutputContentItem::EncryptedContent { encrypted_content }
                    if count_encrypted =>
                {
                    self.encrypted(encrypted_content.len());
                }
                _ => {}
            }
        }
    }
}

/// Estimated tokens of an audio clip given as a data URL.
///
/// Upstream decodes the clip and charges ten tokens per second; without an audio decoder we
/// charge the URL's own approximate token count, which is what upstream falls back to for a
/// clip it cannot decode.
pub(crate) fn estimate_audio_token_count(audio_url: &str) -> usize {
    approx_token_count(audio_url)
}

/// The base64 payload of a `data:` URL whose media type starts with `media_prefix` and that
/// carries a `;base64` parameter; markers are matched ASCII case-insensitively.
fn base64_data_url_payload<'a>(url: &'a str, media_prefix: &str) -> Option<&'a str> {
    let rest = strip_prefix_ignore_case(url, "data:")?;
    let (header, payload) = rest.split_once(',')?;
    let mut params = header.split(';');
    let media_type = params.next()?;
    strip_prefix_ignore_case(media_type, media_prefix)?;
    params
        .any(|param| param.eq_ignore_ascii_case("base64"))
        .then_some(payload)
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

#[cfg(test)]
#[path = "token_estimate_tests.rs"]
mod tests;
