//! What a tool returned to the model: the `output` of `function_call_output` and
//! `custom_tool_call_output`.
//!
//! On the wire an output is either a plain string or an array of content items; that body is
//! all that is written. Whether the tool succeeded is harness bookkeeping and is never sent.

use std::borrow::Cow;
use std::fmt;

use schemars::JsonSchema;
use schemars::Schema;
use schemars::SchemaGenerator;
use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::Serializer;
use serde_json::Value;
use ts_rs::TS;

use super::content::ImageDetail;

/// One part of a structured tool output, tagged by `type` with the names the Responses API
/// uses for tool results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FunctionCallOutputContentItem {
    /// `input_text`: a text part.
    InputText {
        /// The text.
        text: String,
    },
    /// `input_image`: an image, by URL or by uploaded file.
    InputImage {
        /// The image's URL (often a `data:` URL); absent when `file_id` names it.
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
    /// `input_audio`: an audio part.
    InputAudio {
        /// The audio's URL.
        audio_url: String,
    },
    /// A result only the provider can read (for example an encrypted MCP text block).
    EncryptedContent {
        /// The opaque ciphertext.
        encrypted_content: String,
    },
}

impl FunctionCallOutputContentItem {
    /// An `input_text` part.
    pub fn input_text(text: impl Into<String>) -> Self {
        Self::InputText { text: text.into() }
    }

    /// An `input_image` part referring to a URL.
    pub fn input_image_url(url: impl Into<String>, detail: Option<ImageDetail>) -> Self {
        Self::InputImage {
            image_url: Some(url.into()),
            file_id: None,
            detail,
        }
    }

    /// The URL of an `input_image` part, when it has one.
    pub fn image_url(&self) -> Option<&str> {
        match self {
            Self::InputImage { image_url, .. } => image_url.as_deref(),
            _ => None,
        }
    }
}

/// The written form of a tool output: a string, or a list of content items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(untagged)]
pub enum FunctionCallOutputBody {
    /// A plain string.
    Text(String),
    /// A list of content parts.
    ContentItems(Vec<FunctionCallOutputContentItem>),
}

impl Default for FunctionCallOutputBody {
    fn default() -> Self {
        Self::Text(String::new())
    }
}

impl FunctionCallOutputBody {
    /// The text a person (or a text-only model) should see: the string itself, or the
    /// non-blank `input_text` parts joined by newlines. `None` when items hold no text.
    pub fn to_text(&self) -> Option<String> {
        match self {
            Self::Text(text) => Some(text.clone()),
            Self::ContentItems(items) => {
                let texts: Vec<&str> = items
                    .iter()
                    .filter_map(|item| match item {
                        FunctionCallOutputContentItem::InputText { text }
                            if !text.trim().is_empty() =>
                        {
                            Some(text.as_str())
                        }
                        _ => None,
                    })
                    .collect();
                if texts.is_empty() {
                    None
                } else {
                    Some(texts.join("\n"))
                }
            }
        }
    }
}

/// A tool output as history holds it: the wire body plus whether the tool succeeded.
///
/// `success` is internal: it is never serialized (failures are plain strings on the wire too)
/// and reads back as `None`, except from the older object form that spelled it out.
#[derive(Debug, Clone, PartialEq, Default, TS)]
#[ts(as = "FunctionCallOutputBody")]
pub struct FunctionCallOutputPayload {
    /// The body written on the wire.
    pub body: FunctionCallOutputBody,
    /// Whether the tool succeeded; `None` when unknown (never serialized).
    pub success: Option<bool>,
}

impl FunctionCallOutputPayload {
    /// A text output with unknown success.
    pub fn from_text(text: impl Into<String>) -> Self {
        Self {
            body: FunctionCallOutputBody::Text(text.into()),
            success: None,
        }
    }

    /// A structured output with unknown success.
    pub fn from_content_items(items: Vec<FunctionCallOutputContentItem>) -> Self {
        Self {
            body: FunctionCallOutputBody::ContentItems(items),
            success: None,
        }
    }

    /// Sets the success flag (builder style).
    pub fn with_success(mut self, success: bool) -> Self {
        self.success = Some(success);
        self
    }

    /// The text of a text body.
    pub fn text_content(&self) -> Option<&str> {
        match &self.body {
            FunctionCallOutputBody::Text(text) => Some(text),
            FunctionCallOutputBody::ContentItems(_) => None,
        }
    }

    /// The items of a structured body.
    pub fn content_items(&self) -> Option<&[FunctionCallOutputContentItem]> {
        match &self.body {
            FunctionCallOutputBody::ContentItems(items) => Some(items),
            FunctionCallOutputBody::Text(_) => None,
        }
    }

    /// The items of a structured body, for in-place edits (image stripping, truncation).
    pub fn content_items_mut(&mut self) -> Option<&mut Vec<FunctionCallOutputContentItem>> {
        match &mut self.body {
            FunctionCallOutputBody::ContentItems(items) => Some(items),
            FunctionCallOutputBody::Text(_) => None,
        }
    }

    /// Reads any historical spelling of an output (see [`Deserialize`] below).
    fn from_wire_value(value: Value) -> Result<Self, String> {
        match value {
            Value::String(text) => Ok(Self::from_text(text)),
            Value::Array(entries) => Ok(Self::from_item_values(entries)),
            Value::Object(map) if map.contains_key("type") => {
                // A single content item where a list was expected: read it as a list of one.
                let entry = Value::Object(map);
                match serde_json::from_value::<FunctionCallOutputContentItem>(entry.clone()) {
                    Ok(item) => Ok(Self::from_content_items(vec![item])),
                    Err(err) => {
                        tracing::warn!(%err, "tool output object is not a known content item; keeping it as text");
                        Ok(Self::from_text(entry.to_string()))
                    }
                }
            }
            Value::Object(map) if map.contains_key("content") => {
                Self::from_legacy_object(Value::Object(map))
            }
            other => Err(format!(
                "tool output must be a string, an array of content items or an output object, got {}",
                json_kind(&other)
            )),
        }
    }

    fn from_item_values(entries: Vec<Value>) -> Self {
        let array = Value::Array(entries);
        match serde_json::from_value::<Vec<FunctionCallOutputContentItem>>(array.clone()) {
            Ok(items) => Self::from_content_items(items),
            Err(err) => {
                // A newer writer may use content kinds this crate does not know; the model
                // still gets every byte, as text, instead of losing the output.
                tracing::warn!(%err, "tool output array has unknown content items; keeping it as text");
                Self::from_text(array.to_string())
            }
        }
    }

    /// The pre-2025 object `{content, content_items?, success?}`.
    fn from_legacy_object(value: Value) -> Result<Self, String> {
        #[derive(Deserialize)]
        struct Legacy {
            content: String,
            #[serde(default)]
            content_items: Option<Vec<FunctionCallOutputContentItem>>,
            #[serde(default)]
            success: Option<bool>,
        }
        let legacy: Legacy = serde_json::from_value(value)
            .map_err(|err| format!("invalid legacy tool output object: {err}"))?;
        let body = match legacy.content_items {
            Some(items) => FunctionCallOutputBody::ContentItems(items),
            None => FunctionCallOutputBody::Text(legacy.content),
        };
        Ok(Self {
            body,
            success: legacy.success,
        })
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object without `type` or `content`",
    }
}

/// Reads a tool output body with the tolerant rules of [`FunctionCallOutputPayload`] (a
/// single content item, the older object form, unknown content kinds kept as text), for
/// fields that hold only the body.
pub(crate) fn read_output_body<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<FunctionCallOutputBody, D::Error> {
    FunctionCallOutputPayload::deserialize(deserializer).map(|payload| payload.body)
}

impl Serialize for FunctionCallOutputPayload {
    /// Writes only the body: a JSON string or a JSON array.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.body.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for FunctionCallOutputPayload {
    /// Accepts a string, an array of content items, a single content item object, and the
    /// older `{content, content_items, success}` object. An array whose items this crate does
    /// not know is kept as its JSON text rather than rejected.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Self::from_wire_value(value).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for FunctionCallOutputPayload {
    fn schema_name() -> Cow<'static, str> {
        FunctionCallOutputBody::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        FunctionCallOutputBody::schema_id()
    }

    fn inline_schema() -> bool {
        FunctionCallOutputBody::inline_schema()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        FunctionCallOutputBody::json_schema(generator)
    }
}

impl fmt::Display for FunctionCallOutputPayload {
    /// The text itself, or the JSON array of items.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.body {
            FunctionCallOutputBody::Text(text) => f.write_str(text),
            FunctionCallOutputBody::ContentItems(items) => match serde_json::to_string(items) {
                Ok(json) => f.write_str(&json),
                Err(_) => Err(fmt::Error),
            },
        }
    }
}

impl From<String> for FunctionCallOutputPayload {
    fn from(text: String) -> Self {
        Self::from_text(text)
    }
}

impl From<&str> for FunctionCallOutputPayload {
    fn from(text: &str) -> Self {
        Self::from_text(text)
    }
}

#[cfg(test)]
#[path = "function_output_tests.rs"]
mod tests;
