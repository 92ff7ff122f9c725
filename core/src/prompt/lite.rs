//! Responses Lite: the request shape without top-level `instructions` and `tools`.
//!
//! Lite carries the tools in a developer `additional_tools` item and the (non-empty) base
//! instructions in a developer message, both placed first in the input. This is a transport
//! approximation, not a change of authority: when reading a captured Lite request, the base
//! instructions appear as a developer message because the wire has no other place for them.

use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputBody;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::ResponseItem;
use serde_json::Value;
use serde_json::json;

use super::Prompt;
use super::ProviderKind;
use super::ToolSpec;

/// The namespace Lite folds plain function and freeform tools into.
pub(crate) const FUNCTIONS_NAMESPACE: &str = "functions";

/// The items Lite puts before the history: the `additional_tools` item, then the base
/// instructions as a developer message when they are not empty. None when the history already
/// carries an `additional_tools` item: a code-mode thread records its tools and instructions
/// in its history, and Codex sends that history as it is (checked against Codex 0.169 in
/// `cli/tests/it/real_codex_prompt.rs`).
pub(crate) fn lite_input_prefix(prompt: &Prompt, provider: ProviderKind) -> Vec<ResponseItem> {
    if prompt
        .input
        .iter()
        .any(|item| matches!(item, ResponseItem::AdditionalTools { .. }))
    {
        return Vec::new();
    }
    let mut prefix = vec![ResponseItem::AdditionalTools {
        id: None,
        role: "developer".to_string(),
        tools: lite_tools(&prompt.tools, provider.supports_namespace_tools),
    }];
    if !prompt.base_instructions.text.is_empty() {
        prefix.push(base_instructions_message(prompt));
    }
    prefix
}

/// The base instructions as the developer message that carries them in `input`.
pub(crate) fn base_instructions_message(prompt: &Prompt) -> ResponseItem {
    ResponseItem::message(
        "developer",
        vec![ContentItem::input_text(&prompt.base_instructions.text)],
    )
}

/// The tool JSON inside `additional_tools`.
///
/// With namespace support, every plain function or freeform tool, and the tools of an existing
/// `functions` namespace, are gathered into one `functions` namespace (empty description)
/// placed where the first of them was; other tools keep their order. Without it, the ordinary
/// tool list is used.
pub(crate) fn lite_tools(tools: &[ToolSpec], supports_namespace_tools: bool) -> Vec<Value> {
    if !supports_namespace_tools {
        return tools.iter().map(|tool| tool.as_json().clone()).collect();
    }
    let mut out = Vec::with_capacity(tools.len());
    let mut namespace_slot: Option<usize> = None;
    let mut folded: Vec<Value> = Vec::new();
    for tool in tools {
        let foldable =
            tool.is_plain_function_or_freeform() || tool.is_namespace(FUNCTIONS_NAMESPACE);
        if !foldable {
            out.push(tool.as_json().clone());
            continue;
        }
        if namespace_slot.is_none() {
            namespace_slot = Some(out.len());
            out.push(Value::Null);
        }
        if tool.is_namespace(FUNCTIONS_NAMESPACE) {
            if let Some(inner) = tool.as_json().get("tools").and_then(Value::as_array) {
                folded.extend(inner.iter().cloned());
            }
        } else {
            folded.push(tool.as_json().clone());
        }
    }
    if let Some(slot) = namespace_slot
        && let Some(entry) = out.get_mut(slot)
    {
        *entry = json!({
            "type": "namespace",
            "name": FUNCTIONS_NAMESPACE,
            "description": "",
            "tools": folded,
        });
    }
    out
}

/// Removes `detail` from every image of an item (message content and tool output content),
/// because Lite does not accept it.
pub(crate) fn strip_image_detail(item: &mut ResponseItem) {
    match item {
        ResponseItem::Message { content, .. } => {
            for part in content {
                if let ContentItem::InputImage { detail, .. } = part {
                    *detail = None;
                }
            }
        }
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => {
            if let FunctionCallOutputBody::ContentItems(parts) = &mut output.body {
                for part in parts {
                    if let FunctionCallOutputContentItem::InputImage { detail, .. } = part {
                        *detail = None;
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "lite_tests.rs"]
mod tests;
