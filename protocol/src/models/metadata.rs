//! Harness metadata that travels inside an item: which turn produced it and when.
//!
//! The provider's Responses API accepts this object as part of the item and the harness also
//! persists it in session files, so it is part of the wire model. Some fields are write-only:
//! they are produced by the host and ignored when read back, so neither a request nor a
//! reloaded session file can forge them.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use ts_rs::TS;

/// The `internal_chat_message_metadata_passthrough` object of an item.
///
/// Unknown keys are ignored on read (no `deny_unknown_fields`), so newer writers never make an
/// item unreadable.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct InternalChatMessageMetadataPassthrough {
    /// The turn that produced or recorded the item. Empty counts as missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<String>,
    /// When the harness recorded the item: fractional Unix seconds, kept as the exact JSON
    /// number that was read (for example `1788214171.128268`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    #[schemars(skip)]
    pub create_time: Option<serde_json::Number>,
    /// One kind label per content part (an open set of strings such as
    /// `multi_agent.mode_instructions`). A malformed value reads as `None` instead of failing
    /// the item.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "none_on_error"
    )]
    #[ts(skip)]
    #[schemars(skip)]
    pub content_item_kinds: Option<Vec<String>>,
    /// Per-part provenance written by some upstream versions; kept opaque. A malformed value
    /// reads as `None`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "none_on_error"
    )]
    #[ts(skip)]
    #[schemars(skip)]
    pub content_item_metadata: Option<Vec<Value>>,
    /// Code-mode cell that produced the item. Write-only.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    #[schemars(skip)]
    pub cell_id: Option<String>,
    /// Tool calls the host executed for this message. Write-only.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    #[schemars(skip)]
    pub executed_tool_calls: Option<Vec<Value>>,
    /// Whether `executed_tool_calls` is complete. Write-only.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    #[schemars(skip)]
    pub tool_calls_complete: Option<bool>,
}

impl InternalChatMessageMetadataPassthrough {
    /// The turn id when present and non-empty.
    pub fn turn_id(&self) -> Option<&str> {
        self.turn_id.as_deref().filter(|id| !id.is_empty())
    }

    /// True when nothing is set, so the object can be dropped from the item.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Reads an optional value, turning a malformed one into `None`.
fn none_on_error<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = Value::deserialize(deserializer)?;
    match serde_json::from_value(value) {
        Ok(parsed) => Ok(parsed),
        Err(err) => {
            tracing::debug!(%err, "ignoring malformed item metadata field");
            Ok(None)
        }
    }
}

#[cfg(test)]
#[path = "metadata_tests.rs"]
mod tests;
