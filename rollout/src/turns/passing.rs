//! Which lines the turn index can pass over unread, told from their type tags
//! ([`line_tags`]): a reader that builds a [`super::StreamedTurnIndex`] from a stream
//! parses only the lines that may change it.
//!
//! The index acts on: session metas, compactions, turn contexts (turn ids), messages between
//! agents, response items that can start a turn (`message`, `agent_message`: core's
//! [`codex_core::is_user_turn_boundary`] says no to every other type), and the turn events
//! (`task_started`, `task_complete`, `turn_aborted`, `thread_rolled_back`, `user_message`,
//! `item_completed`). A line tagged with one of the other types listed below changes nothing,
//! read or not, whether it is an item or not, except right after a message item that may
//! pair with the next item ([`super::StreamedTurnIndex::reads_next_item`]), when the reader
//! reads the line whole. Only types known not to matter are listed: a line of an unknown
//! type, or in another shape, is read.

use crate::line_tags::line_tags;

/// Event types no turn rule reads (the bulk of a file's events).
const EVENTS: &[&[u8]] = &[
    b"token_count",
    b"agent_message",
    b"agent_reasoning",
    b"agent_reasoning_raw_content",
    b"agent_reasoning_section_break",
    b"exec_command_begin",
    b"exec_command_end",
    b"exec_command_output_delta",
    b"patch_apply_begin",
    b"patch_apply_end",
    b"mcp_tool_call_begin",
    b"mcp_tool_call_end",
    b"web_search_begin",
    b"web_search_end",
    b"image_generation_begin",
    b"image_generation_end",
    b"view_image_tool_call",
    b"thread_settings_applied",
    b"guardian_assessment",
    b"turn_diff",
    b"plan_update",
    b"warning",
    b"error",
    b"stream_error",
];

/// Response item types that never start a turn.
const RESPONSE_ITEMS: &[&[u8]] = &[
    b"reasoning",
    b"function_call",
    b"function_call_output",
    b"custom_tool_call",
    b"custom_tool_call_output",
    b"local_shell_call",
    b"web_search_call",
    b"image_generation_call",
    b"tool_search_call",
    b"tool_search_output",
    b"ghost_snapshot",
];

/// Whether the turn index may pass over the line `raw` unread (see the module docs).
pub(crate) fn may_pass_over(raw: &[u8]) -> bool {
    let Some(tags) = line_tags(raw) else {
        return false;
    };
    let Some(payload_type) = tags.payload_type else {
        return false;
    };
    let listed = match tags.line_type {
        b"event_msg" => EVENTS,
        b"response_item" => RESPONSE_ITEMS,
        _ => return false,
    };
    listed.contains(&payload_type)
}
