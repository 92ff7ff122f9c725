//! The result of an MCP (Model Context Protocol) tool call, and how it becomes a tool output
//! the model can read.
//!
//! MCP content blocks are kept as opaque JSON: the MCP schema evolves on its own, and the only
//! thing this crate needs is the conversion into [`FunctionCallOutputPayload`].

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::models::DEFAULT_IMAGE_DETAIL;
use crate::models::FunctionCallOutputContentItem;
use crate::models::FunctionCallOutputPayload;
use crate::models::ImageDetail;

/// `_meta` key marking a text block as provider-encrypted content.
pub const ENCRYPTED_CONTENT_META_KEY: &str = "codex/encryptedContent";
/// `_meta` key choosing the detail of an image block.
pub const IMAGE_DETAIL_META_KEY: &str = "codex/imageDetail";

/// An MCP `tools/call` result (camelCase on the wire, as MCP spells it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// MCP content blocks (`text`, `image`, `audio`, `resource_link`, ...), kept opaque.
    #[ts(type = "unknown[]")]
    pub content: Vec<Value>,
    /// `structuredContent`: the result as JSON, when the tool gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub structured_content: Option<Value>,
    /// `isError`: whether the tool reported an error; absent means no.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub is_error: Option<bool>,
    /// `_meta`: MCP metadata of the result, kept opaque.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub meta: Option<Value>,
}

impl CallToolResult {
    /// False only when the server flagged the result as an error.
    pub fn success(&self) -> bool {
        self.is_error != Some(true)
    }

    /// An error result holding one text block, for failures that happen before or around
    /// the server (connection lost, timeout).
    pub fn from_error_text(text: impl Into<String>) -> Self {
        Self {
            content: vec![serde_json::json!({ "type": "text", "text": text.into() })],
            structured_content: None,
            is_error: Some(true),
            meta: None,
        }
    }

    /// The result itself, or an error result carrying the error text.
    pub fn from_result(result: Result<Self, String>) -> Self {
        match result {
            Ok(result) => result,
            Err(error) => Self::from_error_text(error),
        }
    }

    /// The tool output the model sees, borrowing the result.
    pub fn as_function_call_output_payload(&self) -> FunctionCallOutputPayload {
        let success = Some(self.success());
        let items: Vec<FunctionCallOutputContentItem> =
            self.content.iter().map(content_block_to_item).collect();
        let has_encrypted = items
            .iter()
            .any(|item| matches!(item, FunctionCallOutputContentItem::EncryptedContent { .. }));
        if !has_encrypted
            && let Some(structured) = self.structured_content.as_ref().filter(|v| !v.is_null())
        {
            // Structured content is the machine-readable answer; prefer it over the blocks,
            // unless a block is encrypted (only the provider can read those, so keep them).
            return match serde_json::to_string(structured) {
                Ok(text) => FunctionCallOutputPayload {
                    body: crate::models::FunctionCallOutputBody::Text(text),
                    success,
                },
                Err(err) => {
                    FunctionCallOutputPayload::from_text(err.to_string()).with_success(false)
                }
            };
        }
        FunctionCallOutputPayload {
            body: crate::models::FunctionCallOutputBody::ContentItems(items),
            success,
        }
    }

    /// The tool output the model sees. See [`Self::as_function_call_output_payload`].
    pub fn into_function_call_output_payload(self) -> FunctionCallOutputPayload {
        self.as_function_call_output_payload()
    }
}

/// Converts one MCP content block. Anything unknown or malformed is kept as its JSON text so
/// the model still sees it.
fn content_block_to_item(block: &Value) -> FunctionCallOutputContentItem {
    let kind = block.get("type").and_then(Value::as_str);
    let converted = match kind {
        Some("text") => block.get("text").and_then(Value::as_str).map(|text| {
            if meta_flag(block, ENCRYPTED_CONTENT_META_KEY) {
                FunctionCallOutputContentItem::EncryptedContent {
                    encrypted_content: text.to_string(),
                }
            } else {
                FunctionCallOutputContentItem::input_text(text)
            }
        }),
        Some("image") => {
            media_data_url(block).map(|url| FunctionCallOutputContentItem::InputImage {
                image_url: Some(url),
                file_id: None,
                detail: Some(image_detail_from_meta(block).unwrap_or(DEFAULT_IMAGE_DETAIL)),
            })
        }
        Some("audio") => media_data_url(block)
            .map(|audio_url| FunctionCallOutputContentItem::InputAudio { audio_url }),
        _ => None,
    };
    converted.unwrap_or_else(|| FunctionCallOutputContentItem::input_text(block.to_string()))
}

/// `data` as a data URL: kept when it already is one, otherwise wrapped with the block's MIME
/// type (`mimeType`, or `mime_type` from older servers).
fn media_data_url(block: &Value) -> Option<String> {
    let data = block.get("data").and_then(Value::as_str)?;
    if data.starts_with("data:") {
        return Some(data.to_string());
    }
    let mime = block
        .get("mimeType")
        .or_else(|| block.get("mime_type"))
        .and_then(Value::as_str)
        .unwrap_or("application/octet-stream");
    Some(format!("data:{mime};base64,{data}"))
}

fn meta_flag(block: &Value, key: &str) -> bool {
    block
        .get("_meta")
        .and_then(|meta| meta.get(key))
        .and_then(Value::as_bool)
        == Some(true)
}

fn image_detail_from_meta(block: &Value) -> Option<ImageDetail> {
    let raw = block.get("_meta")?.get(IMAGE_DETAIL_META_KEY)?.clone();
    serde_json::from_value(raw).ok()
}

#[cfg(test)]
#[path = "mcp_tests.rs"]
mod tests;
