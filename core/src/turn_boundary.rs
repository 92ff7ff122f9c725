//! Where a user turn starts in model history.
//!
//! History counts turns for rollback, fork and trimming. This is deliberately wider than
//! "maps to a visible `UserMessage`": a message from another agent also starts a turn, and
//! deliberately narrower than "any user-role message": injected context does not.

use codex_protocol::models::ResponseItem;

use crate::contextual::{is_contextual_user_message_content, is_inter_agent_instruction_content};

/// Whether `item` starts a new user turn:
/// - every `agent_message` (a message from another agent);
/// - a `user` message that is not registered context (hook prompts included: they are
///   context, so they are not boundaries);
/// - an `assistant` message that carries an inter-agent instruction.
///
/// Everything else (developer and system messages, reasoning, tool traffic, ...) is not.
pub fn is_user_turn_boundary(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::AgentMessage { .. } => true,
        ResponseItem::Message { role, content, .. } => match role.as_str() {
            "user" => !is_contextual_user_message_content(content),
            "assistant" => is_inter_agent_instruction_content(content),
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
#[path = "turn_boundary_tests.rs"]
mod tests;
