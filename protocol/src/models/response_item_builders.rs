//! Short constructors for the [`ResponseItem`]s that code and tests build most often.
//!
//! The variants carry many optional fields; spelling them all at every call site hides what
//! the item is. Every builder leaves ids and metadata empty (the session stamps them).

use super::content::ContentItem;
use super::content::MessagePhase;
use super::function_output::FunctionCallOutputPayload;
use super::reasoning::ReasoningItemReasoningSummary;
use super::response_item::ResponseItem;

impl ResponseItem {
    /// A `message` with the given role and content and nothing else.
    pub fn message(role: impl Into<String>, content: Vec<ContentItem>) -> Self {
        Self::Message {
            encrypted_content: None,
            status: None,
            id: None,
            role: role.into(),
            content,
            phase: None,
            internal_chat_message_metadata_passthrough: None,
        }
    }

    /// A user message holding one `input_text`.
    pub fn user_text(text: impl Into<String>) -> Self {
        Self::message("user", vec![ContentItem::input_text(text)])
    }

    /// A developer message holding one `input_text`.
    pub fn developer_text(text: impl Into<String>) -> Self {
        Self::message("developer", vec![ContentItem::input_text(text)])
    }

    /// An assistant message holding one `output_text`, with an optional phase.
    pub fn assistant_text(text: impl Into<String>, phase: Option<MessagePhase>) -> Self {
        let mut item = Self::message("assistant", vec![ContentItem::output_text(text)]);
        if let Self::Message { phase: slot, .. } = &mut item {
            *slot = phase;
        }
        item
    }

    /// A reasoning item with one summary paragraph and its encrypted content.
    pub fn reasoning_summary(
        summary: impl Into<String>,
        encrypted_content: impl Into<String>,
    ) -> Self {
        Self::Reasoning {
            id: None,
            summary: vec![ReasoningItemReasoningSummary::SummaryText {
                text: summary.into(),
            }],
            content: None,
            encrypted_content: Some(encrypted_content.into()),
            internal_chat_message_metadata_passthrough: None,
        }
    }

    /// A `function_call` without namespace, id or metadata.
    pub fn function_call(
        name: impl Into<String>,
        arguments: impl Into<String>,
        call_id: impl Into<String>,
    ) -> Self {
        Self::FunctionCall {
            encrypted_content: None,
            status: None,
            id: None,
            name: name.into(),
            namespace: None,
            arguments: arguments.into(),
            encrypted_function_args: None,
            call_id: call_id.into(),
            internal_chat_message_metadata_passthrough: None,
        }
    }

    /// A `function_call_output` answering `call_id`.
    pub fn function_call_output(
        call_id: impl Into<String>,
        output: impl Into<FunctionCallOutputPayload>,
    ) -> Self {
        Self::FunctionCallOutput {
            id: None,
            call_id: Some(call_id.into()),
            name: None,
            namespace: None,
            output: output.into(),
            internal_chat_message_metadata_passthrough: None,
        }
    }

    /// A `custom_tool_call` without status, namespace, id or metadata.
    pub fn custom_tool_call(
        name: impl Into<String>,
        input: impl Into<String>,
        call_id: impl Into<String>,
    ) -> Self {
        Self::CustomToolCall {
            encrypted_content: None,
            id: None,
            status: None,
            call_id: call_id.into(),
            name: name.into(),
            namespace: None,
            input: input.into(),
            internal_chat_message_metadata_passthrough: None,
        }
    }

    /// A `custom_tool_call_output` answering `call_id`.
    pub fn custom_tool_call_output(
        call_id: impl Into<String>,
        output: impl Into<FunctionCallOutputPayload>,
    ) -> Self {
        Self::CustomToolCallOutput {
            id: None,
            call_id: call_id.into(),
            name: None,
            output: output.into(),
            internal_chat_message_metadata_passthrough: None,
        }
    }

    /// The role of a `message`.
    pub fn role(&self) -> Option<&str> {
        match self {
            Self::Message { role, .. } | Self::AdditionalTools { role, .. } => Some(role),
            _ => None,
        }
    }

    /// The content of a `message`.
    pub fn message_content(&self) -> Option<&[ContentItem]> {
        match self {
            Self::Message { content, .. } => Some(content),
            _ => None,
        }
    }
}
