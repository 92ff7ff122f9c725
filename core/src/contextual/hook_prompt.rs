//! Hook prompts: text a hook asks Codex to send as if the person had typed it.
//!
//! On the wire a hook prompt is a `user` message whose `input_text` parts are
//! `<hook_prompt hook_run_id="...">...</hook_prompt>` elements. It is shown as its own
//! [`TurnItem::HookPrompt`](codex_protocol::items::TurnItem::HookPrompt), never as the
//! person's words, and it never starts a user turn.

use codex_protocol::items::{HookPromptFragment, HookPromptItem, new_item_id};
use codex_protocol::models::{ContentItem, ResponseItem};
use codex_protocol::response_item_id::ResponseItemId;

use super::hook_xml::{parse_hook_prompt_xml, render_hook_prompt_xml};
use super::user::match_user_fragment;
use crate::session::clock::{IdSource, fresh_item_id};

/// Id prefix of messages built here (`msg_{uuid v7}`), the prefix of all messages.
const MESSAGE_ID_PREFIX: &str = "msg";

/// The fragment `text` encodes, if it is exactly one hook prompt element.
pub fn parse_hook_prompt_fragment(text: &str) -> Option<HookPromptFragment> {
    let (text, hook_run_id) = parse_hook_prompt_xml(text)?;
    Some(HookPromptFragment { text, hook_run_id })
}

/// The `<hook_prompt ...>` element text of one fragment (escaped).
pub fn render_hook_prompt_fragment(fragment: &HookPromptFragment) -> String {
    render_hook_prompt_xml(&fragment.text, &fragment.hook_run_id)
}

/// A strict reading: every part must be an `input_text` hook prompt element.
///
/// The item keeps the message id when there is one, otherwise gets a fresh UUID v7.
pub fn parse_hook_prompt_message(
    id: Option<&str>,
    content: &[ContentItem],
) -> Option<HookPromptItem> {
    let mut fragments = Vec::with_capacity(content.len());
    for part in content {
        let ContentItem::InputText { text } = part else {
            return None;
        };
        fragments.push(parse_hook_prompt_fragment(text)?);
    }
    hook_prompt_item(id, fragments, None)
}

/// The reading the event mapping uses: hook prompt elements are collected, registered
/// contextual user fragments beside them are skipped (hidden), anything else (a plain text,
/// an image) means the message is not a hook prompt. At least one element is needed.
///
/// Without a message id the item gets a fresh UUID v7 (a session's event mapping mints it
/// from the session's id source instead).
pub fn parse_visible_hook_prompt_message(
    id: Option<&str>,
    content: &[ContentItem],
) -> Option<HookPromptItem> {
    visible_hook_prompt_item(id, content, None)
}

/// [`parse_visible_hook_prompt_message`], minting the id (when the message has none) from
/// `ids` when given.
pub(crate) fn visible_hook_prompt_item(
    id: Option<&str>,
    content: &[ContentItem],
    ids: Option<&dyn IdSource>,
) -> Option<HookPromptItem> {
    let mut fragments = Vec::new();
    for part in content {
        let ContentItem::InputText { text } = part else {
            return None;
        };
        if let Some(fragment) = parse_hook_prompt_fragment(text) {
            fragments.push(fragment);
        } else if match_user_fragment(text).is_none() {
            return None;
        }
    }
    hook_prompt_item(id, fragments, ids)
}

fn hook_prompt_item(
    id: Option<&str>,
    fragments: Vec<HookPromptFragment>,
    ids: Option<&dyn IdSource>,
) -> Option<HookPromptItem> {
    if fragments.is_empty() {
        return None;
    }
    Some(HookPromptItem {
        id: id.map_or_else(|| fresh_item_id(ids, new_item_id), str::to_string),
        fragments,
    })
}

/// The user message that carries `fragments` to the model: one `input_text` element per
/// fragment, a fresh `msg_` id. Fragments with a blank run id are dropped (they could not be
/// linked to a hook run); `None` when nothing is left.
pub fn build_hook_prompt_message(fragments: &[HookPromptFragment]) -> Option<ResponseItem> {
    let content: Vec<ContentItem> = fragments
        .iter()
        .filter(|fragment| !fragment.hook_run_id.trim().is_empty())
        .map(|fragment| ContentItem::input_text(render_hook_prompt_fragment(fragment)))
        .collect();
    if content.is_empty() {
        return None;
    }
    let mut message = ResponseItem::message("user", content);
    message.set_id(Some(ResponseItemId::new(MESSAGE_ID_PREFIX)));
    Some(message)
}

#[cfg(test)]
#[path = "hook_prompt_tests.rs"]
mod tests;
