//! The mailbox consumer of the assistant phase tri-state.
//!
//! Messages for the agent (from other agents, or queued by the person) wait in a mailbox. When
//! the model has produced a message that may be its final word, mail that arrives afterwards
//! should wait for the next turn instead of being pushed into this one. The phase of the
//! assistant message decides, and it has three states:
//! - `commentary`: narration between tool calls; the turn goes on, so mail is never deferred;
//! - `final_answer` (and any other named phase): the turn is ending, so mail is deferred when
//!   the message has visible text;
//! - absent (unknown, older models): treated conservatively like a final answer when it has
//!   visible text.
//!
//! This is one consumer's decision. The stored phase is never rewritten: an unknown phase stays
//! unknown in history, the rollout and every other consumer.

use codex_protocol::models::ContentItem;
use codex_protocol::models::MessagePhase;
use codex_protocol::models::ResponseItem;

/// Memory citations are rendered by clients, not read as answer text.
const CITATION_TAG: &str = "oai-mem-citation";
/// In plan mode the proposed plan is streamed as its own item, not as answer text.
const PROPOSED_PLAN_TAG: &str = "proposed_plan";

/// Whether mail arriving after `item` should wait for the next turn. See the module docs.
pub fn should_defer_mailbox(item: &ResponseItem, plan_mode: bool) -> bool {
    let ResponseItem::Message {
        role,
        content,
        phase,
        ..
    } = item
    else {
        return false;
    };
    if role != "assistant" {
        return false;
    }
    if matches!(phase, Some(MessagePhase::Commentary)) {
        return false;
    }
    let text: String = content
        .iter()
        .filter_map(|part| match part {
            ContentItem::OutputText { text, .. } | ContentItem::InputText { text } => {
                Some(text.as_str())
            }
            ContentItem::InputImage { .. } | ContentItem::InputAudio { .. } => None,
        })
        .collect();
    !visible_answer_text(&text, plan_mode).trim().is_empty()
}

/// The answer text a person would see: citations removed, and in plan mode the proposed plan
/// block removed too.
pub(crate) fn visible_answer_text(text: &str, plan_mode: bool) -> String {
    let without_citations = strip_tag_blocks(text, CITATION_TAG);
    if plan_mode {
        strip_tag_blocks(&without_citations, PROPOSED_PLAN_TAG)
    } else {
        without_citations
    }
}

/// Removes every `<tag>...</tag>` block; an unclosed block runs to the end of the text.
fn strip_tag_blocks(text: &str, tag: &str) -> String {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(&open) {
        out.push_str(&rest[..start]);
        let after_open = &rest[start + open.len()..];
        rest = match after_open.find(&close) {
            Some(end) => &after_open[end + close.len()..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
#[path = "mailbox_tests.rs"]
mod tests;
