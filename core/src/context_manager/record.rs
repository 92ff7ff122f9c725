//! The append path: which items enter model memory, and in what form.
//!
//! Two decisions, in this order: is the item something the model API takes back as input
//! ([`is_api_message`]); and, for tool outputs, how much of it to keep (the truncation policy
//! with 20% headroom for the JSON around the text). Everything else is stored unchanged; media
//! and incomplete tool pairs are dealt with by the prompt projection, not here.

use codex_protocol::models::ResponseItem;

use super::truncate::TruncationPolicy;
use super::truncate_output::function_output_exceeds;
use super::truncate_output::truncate_function_output_payload;

/// True for items that belong in model memory.
///
/// Kept: every message except `system` ones (the system prompt is sent separately and never
/// stored), tool calls and outputs, reasoning, web search, image generation, agent messages,
/// tool definitions and compaction results. Left out: `compaction_trigger` (a request control
/// added to one request only) and `Other` (an item this crate cannot read, so it cannot be
/// sent back faithfully). A `configuration_update` is kept: the provider applies it at its
/// position in history, so it must stay in place.
pub fn is_api_message(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::Message { role, .. } => role.as_str() != "system",
        ResponseItem::AdditionalTools { .. }
        | ResponseItem::AgentMessage { .. }
        | ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::ToolSearchCall { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::ToolSearchOutput { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::ImageGenerationCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::ConfigurationUpdate { .. }
        | ResponseItem::ContextCompaction { .. } => true,
        ResponseItem::CompactionTrigger {} | ResponseItem::Other => false,
    }
}

/// The stored form of a borrowed item: tool outputs cut to `policy × 1.2` (ids, call id,
/// name, namespace, success flag and metadata kept), the rest cloned. An over-budget output is
/// rebuilt from its parts, so its full text is never copied.
pub(crate) fn process_item(item: &ResponseItem, policy: TruncationPolicy) -> ResponseItem {
    let budget = policy.with_serialization_budget();
    match item {
        ResponseItem::FunctionCallOutput {
            id,
            call_id,
            name,
            namespace,
            output,
            internal_chat_message_metadata_passthrough,
        } if function_output_exceeds(output, budget) => ResponseItem::FunctionCallOutput {
            id: id.clone(),
            call_id: call_id.clone(),
            name: name.clone(),
            namespace: namespace.clone(),
            output: truncate_function_output_payload(output, budget),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::CustomToolCallOutput {
            id,
            call_id,
            name,
            output,
            internal_chat_message_metadata_passthrough,
        } if function_output_exceeds(output, budget) => ResponseItem::CustomToolCallOutput {
            id: id.clone(),
            call_id: call_id.clone(),
            name: name.clone(),
            output: truncate_function_output_payload(output, budget),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        _ => item.clone(),
    }
}

/// Cuts an owned tool output to `policy × 1.2` in place; ids, call id, name, namespace,
/// success flag and metadata stay as they were. Other items are left alone.
pub(crate) fn truncate_in_place(item: &mut ResponseItem, policy: TruncationPolicy) {
    let budget = policy.with_serialization_budget();
    match item {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. }
            if function_output_exceeds(output, budget) =>
        {
            *output = truncate_function_output_payload(output, budget);
        }
        _ => {}
    }
}
