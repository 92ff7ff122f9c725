//! The history a summary-only compaction leaves behind.
//!
//! Older Codex versions recorded a compaction as its summary alone (a `compacted` rollout line
//! without `replacement_history`). Such a compaction replaced the model's history with the
//! person's own messages (newest first, up to a token budget, oldest first in the result)
//! followed by the summary as a user message. Rebuilding a session from such a file must make
//! exactly that decision again, so it lives here in core, next to the rest of the history
//! rules, and the rollout crate calls it instead of keeping its own copy.
//!
//! Which message is the person's is decided by [`parse_turn_item`] (contextual fragments and
//! instructions are not); earlier summaries are recognised by [`SUMMARY_PREFIX`] and not
//! carried again, so repeated compactions do not pile summaries up.

use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;

use super::truncate::TruncationPolicy;
use super::truncate::approx_token_count;
use super::truncate::truncate_text;
use crate::event_mapping::parse_turn_item;

/// How a compaction summary starts. A user message with this prefix (followed by a newline)
/// is an earlier summary, not something the person wrote.
pub const SUMMARY_PREFIX: &str = "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:";

/// Token budget for the person's messages kept across a compaction: enough to remember what
/// was asked, small enough to leave room for the next turns.
pub const COMPACT_USER_MESSAGE_MAX_TOKENS: usize = 20_000;

/// The text standing in for an empty summary, so the model still sees that a compaction
/// happened.
const NO_SUMMARY: &str = "(no summary available)";

/// The history a summary-only compaction leaves: the person's messages from `history` that
/// fit [`COMPACT_USER_MESSAGE_MAX_TOKENS`] (the newest win; the one that crosses the budget is
/// truncated to what is left), oldest first, then `summary` as a user message.
pub fn build_legacy_compacted_history(
    history: &[ResponseItem],
    summary: &str,
) -> Vec<ResponseItem> {
    let mut kept = Vec::new();
    let mut remaining = COMPACT_USER_MESSAGE_MAX_TOKENS;
    for text in person_messages(history).rev() {
        if remaining == 0 {
            break;
        }
        let tokens = approx_token_count(&text);
        if tokens <= remaining {
            kept.push(text);
            remaining -= tokens;
        } else {
            kept.push(truncate_text(&text, TruncationPolicy::Tokens(remaining)));
            break;
        }
    }
    kept.reverse();
    let summary = if summary.is_empty() {
        NO_SUMMARY
    } else {
        summary
    };
    kept.into_iter()
        .chain(std::iter::once(summary.to_string()))
        .map(ResponseItem::user_text)
        .collect()
}

/// The text of each message the person wrote, oldest first, earlier summaries left out.
fn person_messages(history: &[ResponseItem]) -> impl DoubleEndedIterator<Item = String> + '_ {
    history
        .iter()
        .filter_map(|item| match parse_turn_item(item) {
            Some(TurnItem::UserMessage(message)) => Some(message.message()),
            _ => None,
        })
        .filter(|text| !is_summary(text))
}

/// True for a user message that is an earlier compaction summary.
pub(crate) fn is_summary(text: &str) -> bool {
    text.strip_prefix(SUMMARY_PREFIX)
        .is_some_and(|rest| rest.starts_with('\n'))
}

#[cfg(test)]
#[path = "legacy_compaction_tests.rs"]
mod tests;
