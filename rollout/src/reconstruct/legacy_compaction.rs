//! Rebuilding history at a compaction that recorded only its summary (`compacted` lines
//! without `replacement_history`, written by older Codex versions).
//!
//! Such a compaction replaced the history with the person's own messages (newest first, up to
//! a token budget) followed by the summary. Replay does the same from the history rebuilt so
//! far. Whether each message is the person's is core's decision (`parse_turn_item`); earlier
//! summaries are not collected again.

use codex_core::context_manager::TruncationPolicy;
use codex_core::context_manager::truncate::approx_token_count;
use codex_core::context_manager::truncate_text;
use codex_core::event_mapping::parse_turn_item;
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;

/// How a compaction summary starts; used to recognise earlier summaries among user messages.
pub const SUMMARY_PREFIX: &str = "Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:";

/// Token budget for the person's messages kept across a compaction.
pub const COMPACT_USER_MESSAGE_MAX_TOKENS: usize = 20_000;

/// The text standing in for an empty summary.
const NO_SUMMARY: &str = "(no summary available)";

/// The history a summary-only compaction leaves: the person's messages from `history` that
/// fit the budget (oldest first), then `summary` as a user message.
pub fn build_legacy_compacted_history(
    history: &[ResponseItem],
    summary: &str,
) -> Vec<ResponseItem> {
    let messages: Vec<String> = history
        .iter()
        .filter_map(|item| match parse_turn_item(item) {
            Some(TurnItem::UserMessage(message)) => Some(message.message()),
            _ => None,
        })
        .filter(|text| !is_summary(text))
        .collect();
    let mut kept = Vec::new();
    let mut remaining = COMPACT_USER_MESSAGE_MAX_TOKENS;
    for text in messages.iter().rev() {
        if remaining == 0 {
            break;
        }
        let tokens = approx_token_count(text);
        if tokens <= remaining {
            kept.push(text.clone());
            remaining -= tokens;
        } else {
            kept.push(truncate_text(text, TruncationPolicy::Tokens(remaining)));
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

/// True for a user message that is an earlier compaction summary.
fn is_summary(text: &str) -> bool {
    text.strip_prefix(SUMMARY_PREFIX)
        .is_some_and(|rest| rest.starts_with('\n'))
}
