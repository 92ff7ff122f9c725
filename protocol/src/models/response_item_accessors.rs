//! Uniform access to what most [`ResponseItem`] variants share: the item id, the type tag and
//! the harness metadata. Callers use these instead of matching sixteen variants themselves.

use serde_json::Number;

use super::metadata::InternalChatMessageMetadataPassthrough;
use super::response_item::ResponseItem;
use crate::response_item_id::ResponseItemId;

/// Matches the variants that carry an `id` slot, binding it as `$slot` (by reference through
/// match ergonomics, so it serves `&self` and `&mut self` alike). One list of variants instead
/// of one per accessor: adding a variant means deciding here, once, whether it has an id.
macro_rules! match_id_slot {
    ($item:expr, $slot:ident => $with:expr, none => $without:expr) => {
        match $item {
            ResponseItem::AdditionalTools { id: $slot, .. }
            | ResponseItem::Message { id: $slot, .. }
            | ResponseItem::AgentMessage { id: $slot, .. }
            | ResponseItem::Reasoning { id: $slot, .. }
            | ResponseItem::LocalShellCall { id: $slot, .. }
            | ResponseItem::FunctionCall { id: $slot, .. }
            | ResponseItem::ToolSearchCall { id: $slot, .. }
            | ResponseItem::FunctionCallOutput { id: $slot, .. }
            | ResponseItem::CustomToolCall { id: $slot, .. }
            | ResponseItem::CustomToolCallOutput { id: $slot, .. }
            | ResponseItem::ToolSearchOutput { id: $slot, .. }
            | ResponseItem::WebSearchCall { id: $slot, .. }
            | ResponseItem::ImageGenerationCall { id: $slot, .. }
            | ResponseItem::Compaction { id: $slot, .. }
            | ResponseItem::ContextCompaction { id: $slot, .. } => $with,
            ResponseItem::ConfigurationUpdate { .. }
            | ResponseItem::CompactionTrigger {}
            | ResponseItem::Other => $without,
        }
    };
}

/// Matches the variants that carry an `internal_chat_message_metadata_passthrough` slot,
/// binding it as `$slot`; the single list behind [`ResponseItem::metadata`] and
/// [`ResponseItem::metadata_mut`].
macro_rules! match_metadata_slot {
    ($item:expr, $slot:ident => $with:expr, none => $without:expr) => {
        match $item {
            ResponseItem::Message {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::AgentMessage {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::Reasoning {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::LocalShellCall {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::FunctionCall {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::ToolSearchCall {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::FunctionCallOutput {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::CustomToolCall {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::CustomToolCallOutput {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::ToolSearchOutput {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::WebSearchCall {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::ImageGenerationCall {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::Compaction {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            }
            | ResponseItem::ContextCompaction {
                internal_chat_message_metadata_passthrough: $slot,
                ..
            } => $with,
            ResponseItem::AdditionalTools { .. }
            | ResponseItem::ConfigurationUpdate { .. }
            | ResponseItem::CompactionTrigger {}
            | ResponseItem::Other => $without,
        }
    };
}

impl ResponseItem {
    /// The item id, for every variant that has one. `CompactionTrigger`,
    /// `ConfigurationUpdate` and `Other` have none.
    pub fn id(&self) -> Option<&ResponseItemId> {
        match_id_slot!(self, id => id.as_ref(), none => None)
    }

    /// Replaces the item id (`None` clears it). A no-op on variants without an id.
    pub fn set_id(&mut self, new_id: Option<ResponseItemId>) {
        match_id_slot!(self, id => *id = new_id, none => {})
    }

    /// The prefix a freshly minted id of this variant gets (`msg`, `fc`, `fco`, ...), or `None`
    /// for variants that carry no id. `compaction` and `context_compaction` share `cmp`.
    pub fn id_prefix(&self) -> Option<&'static str> {
        match self {
            Self::AdditionalTools { .. } => Some("at"),
            Self::Message { .. } => Some("msg"),
            Self::AgentMessage { .. } => Some("amsg"),
            Self::Reasoning { .. } => Some("rs"),
            Self::LocalShellCall { .. } => Some("lsh"),
            Self::FunctionCall { .. } => Some("fc"),
            Self::ToolSearchCall { .. } => Some("tsc"),
            Self::FunctionCallOutput { .. } => Some("fco"),
            Self::CustomToolCall { .. } => Some("ctc"),
            Self::CustomToolCallOutput { .. } => Some("ctco"),
            Self::ToolSearchOutput { .. } => Some("tso"),
            Self::WebSearchCall { .. } => Some("ws"),
            Self::ImageGenerationCall { .. } => Some("ig"),
            Self::Compaction { .. } | Self::ContextCompaction { .. } => Some("cmp"),
            Self::ConfigurationUpdate { .. } | Self::CompactionTrigger {} | Self::Other => None,
        }
    }

    /// The wire `type` tag of the item; `"other"` for unknown items.
    pub fn item_type(&self) -> &'static str {
        match self {
            Self::AdditionalTools { .. } => "additional_tools",
            Self::Message { .. } => "message",
            Self::AgentMessage { .. } => "agent_message",
            Self::Reasoning { .. } => "reasoning",
            Self::LocalShellCall { .. } => "local_shell_call",
            Self::FunctionCall { .. } => "function_call",
            Self::ToolSearchCall { .. } => "tool_search_call",
            Self::FunctionCallOutput { .. } => "function_call_output",
            Self::CustomToolCall { .. } => "custom_tool_call",
            Self::CustomToolCallOutput { .. } => "custom_tool_call_output",
            Self::ToolSearchOutput { .. } => "tool_search_output",
            Self::WebSearchCall { .. } => "web_search_call",
            Self::ImageGenerationCall { .. } => "image_generation_call",
            Self::Compaction { .. } => "compaction",
            Self::ConfigurationUpdate { .. } => "configuration_update",
            Self::CompactionTrigger {} => "compaction_trigger",
            Self::ContextCompaction { .. } => "context_compaction",
            Self::Other => "other",
        }
    }

    /// True for the tools a code-mode history records (`additional_tools`): such a history
    /// is sent in the Responses Lite shape.
    pub fn records_tools(&self) -> bool {
        matches!(self, Self::AdditionalTools { .. })
    }

    /// True for a `message` whose role is `user`. Says nothing about whether a person typed
    /// it: contextual fragments are user messages too.
    pub fn is_user_message(&self) -> bool {
        matches!(self, Self::Message { role, .. } if role == "user")
    }

    /// The harness metadata, when the variant has the slot and it is filled.
    pub fn metadata(&self) -> Option<&InternalChatMessageMetadataPassthrough> {
        match_metadata_slot!(self, meta => meta.as_ref(), none => None)
    }

    /// The metadata slot itself, so a caller can fill, edit or clear it. `None` for variants
    /// that cannot carry metadata (`additional_tools`, `configuration_update`,
    /// `compaction_trigger`, unknown items).
    pub fn metadata_mut(&mut self) -> Option<&mut Option<InternalChatMessageMetadataPassthrough>> {
        match_metadata_slot!(self, meta => Some(meta), none => None)
    }

    /// The non-empty turn id recorded in the metadata.
    pub fn turn_id(&self) -> Option<&str> {
        self.metadata()
            .and_then(InternalChatMessageMetadataPassthrough::turn_id)
    }

    /// The recorded creation time (fractional Unix seconds), when present.
    pub fn create_time(&self) -> Option<&Number> {
        self.metadata().and_then(|meta| meta.create_time.as_ref())
    }

    /// Stamps the turn that recorded this item, unless it already names one.
    ///
    /// Does nothing for an empty `turn_id`, for a present non-empty one (resumed or replayed
    /// items keep their original turn) and for variants without metadata. An empty stored
    /// turn id counts as missing and is replaced.
    pub fn set_turn_id_if_missing(&mut self, turn_id: &str) {
        if turn_id.is_empty() {
            return;
        }
        let Some(slot) = self.metadata_mut() else {
            return;
        };
        let meta = slot.get_or_insert_with(Default::default);
        if meta.turn_id().is_none() {
            meta.turn_id = Some(turn_id.to_string());
        }
    }

    /// Stamps when the harness recorded this item, unless a time is already there.
    ///
    /// Only items the harness itself authors get a time: user and developer messages, agent
    /// messages and tool outputs. Assistant messages, tool calls and reasoning come from the
    /// provider and are left alone.
    pub fn set_create_time_if_missing(&mut self, create_time: Number) {
        let applies = match self {
            Self::Message { role, .. } => role == "user" || role == "developer",
            Self::AgentMessage { .. }
            | Self::FunctionCallOutput { .. }
            | Self::CustomToolCallOutput { .. }
            | Self::ToolSearchOutput { .. } => true,
            _ => false,
        };
        if !applies {
            return;
        }
        let Some(slot) = self.metadata_mut() else {
            return;
        };
        let meta = slot.get_or_insert_with(Default::default);
        if meta.create_time.is_none() {
            meta.create_time = Some(create_time);
        }
    }

    /// Drops the harness metadata, for providers that do not accept it.
    pub fn clear_internal_chat_message_metadata_passthrough(&mut self) {
        if let Some(slot) = self.metadata_mut() {
            *slot = None;
        }
    }

    /// Drops provider-encrypted payloads (for a provider that cannot decrypt another's blobs).
    /// Optional fields become `None`; the required compaction blob becomes empty.
    pub fn clear_encrypted_content(&mut self) {
        match self {
            Self::Message {
                encrypted_content, ..
            }
            | Self::Reasoning {
                encrypted_content, ..
            }
            | Self::LocalShellCall {
                encrypted_content, ..
            }
            | Self::FunctionCall {
                encrypted_content, ..
            }
            | Self::ToolSearchCall {
                encrypted_content, ..
            }
            | Self::CustomToolCall {
                encrypted_content, ..
            }
            | Self::WebSearchCall {
                encrypted_content, ..
            }
            | Self::ImageGenerationCall {
                encrypted_content, ..
            }
            | Self::ContextCompaction {
                encrypted_content, ..
            } => *encrypted_content = None,
            Self::Compaction {
                encrypted_content, ..
            } => encrypted_content.clear(),
            Self::AdditionalTools { .. }
            | Self::AgentMessage { .. }
            | Self::FunctionCallOutput { .. }
            | Self::CustomToolCallOutput { .. }
            | Self::ToolSearchOutput { .. }
            | Self::ConfigurationUpdate { .. }
            | Self::CompactionTrigger {}
            | Self::Other => {}
        }
    }
}

#[cfg(test)]
#[path = "response_item_accessors_tests.rs"]
mod tests;
