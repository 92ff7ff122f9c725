//! What a raw line is to usage, told from its type tags where Codex writes them, before any
//! parse.
//!
//! Codex writes every enveloped line as `{"timestamp":"…",["ordinal":N,]"type":"…",
//! "payload":{"type":"…",…}`: the line's type, and for an event its payload's type, sit in
//! the first hundred bytes. [`line_kind`] reads them there (codex-rollout's [`line_tags`],
//! the one tag rule) and says whether the line can
//! change a usage answer ([`LineKind`]); a line of any other shape (a legacy line, keys in
//! another order, an escape inside a tag) is `None`, and the caller falls back to searching
//! the whole line for the tags (which may keep too much, never too little).
//!
//! The lines usage reads: `session_meta` (the thread, and a child's copied prefix),
//! `turn_context` and the `thread_settings_applied` event (the model), `token_usage_record`,
//! the `token_count` event, and the `task_started`/`turn_started` events (where a child's
//! copied prefix ends), and until the file's first running total the response items a model
//! produces (whether that total follows a response of the file). No other item changes an
//! answer ([`super::UsageScan`] and
//! [`codex_rollout::ParentPrefixScan`] act on these alone), so a line whose tags name
//! another type is passed over whatever its text says.

use codex_protocol::models::ResponseItem;
use codex_rollout::line_tags;

/// What a line is to usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// A line no usage rule reads: not parsed.
    Skip,
    /// A `token_count` event: read by the small parse of [`super::light`], which falls back to
    /// the typed parse.
    TokenCount,
    /// Another line usage reads: the typed parse.
    Parse,
    /// A response item the model produced (reasoning, a tool call, an assistant message):
    /// only that there is one counts (its line is parsed only for its problems), and only
    /// until the file's first running total (see [`super::UsageScan`]'s missing-history
    /// rule).
    ModelOutput,
}

/// The payload types of the response items a model produces (an assistant `message` too).
const MODEL_OUTPUT: [&[u8]; 7] = [
    b"reasoning",
    b"function_call",
    b"custom_tool_call",
    b"local_shell_call",
    b"web_search_call",
    b"tool_search_call",
    b"image_generation_call",
];

/// The kind of `raw` by its tags (codex-rollout's [`line_tags`]), `None` when the line is
/// not in the shape Codex writes.
pub(crate) fn line_kind(raw: &[u8]) -> Option<LineKind> {
    let tags = line_tags(raw)?;
    match tags.line_type {
        b"session_meta" | b"turn_context" | b"token_usage_record" => Some(LineKind::Parse),
        b"event_msg" => Some(match tags.payload_type? {
            b"token_count" => LineKind::TokenCount,
            b"task_started" | b"turn_started" | b"thread_settings_applied" => LineKind::Parse,
            _ => LineKind::Skip,
        }),
        b"response_item" => Some(match tags.payload_type? {
            b"message" if memchr::memmem::find(raw, br#""role":"assistant""#).is_some() => {
                LineKind::ModelOutput
            }
            kind if MODEL_OUTPUT.contains(&kind) => LineKind::ModelOutput,
            _ => LineKind::Skip,
        }),
        _ => Some(LineKind::Skip),
    }
}

/// Whether `item` is one the model produced: reasoning, a tool call, an assistant message.
pub(crate) fn is_model_output(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::Message { role, .. } => role == "assistant",
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::ToolSearchCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::ImageGenerationCall { .. } => true,
        _ => false,
    }
}

#[cfg(test)]
#[path = "line_kind_tests.rs"]
mod tests;
