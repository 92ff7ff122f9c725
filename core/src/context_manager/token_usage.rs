//! Token usage bookkeeping: what the provider last reported and the running totals.
//!
//! The provider reports exact usage after each response; between responses the history grows
//! by items it has not counted yet. [`super::token_estimate`] covers that gap; this module only
//! folds the reported numbers.

use codex_protocol::event::TokenUsage;
use codex_protocol::event::TokenUsageInfo;

/// Folds one response's `last` usage into `info`.
///
/// Both absent gives `None` (nothing was ever counted). Otherwise the existing info (or a zeroed
/// one) gets `last` added to its total and stored as the last usage; a reported context window
/// replaces the stored one.
pub(crate) fn new_or_append_token_info(
    info: Option<TokenUsageInfo>,
    last: Option<&TokenUsage>,
    model_context_window: Option<i64>,
) -> Option<TokenUsageInfo> {
    let (mut info, last) = match (info, last) {
        (None, None) => return None,
        (Some(info), last) => (info, last),
        (None, last) => (
            TokenUsageInfo {
                model_context_window,
                ..TokenUsageInfo::default()
            },
            last,
        ),
    };
    if let Some(last) = last {
        info.append_last_usage(last);
    }
    if model_context_window.is_some() {
        info.model_context_window = model_context_window;
    }
    Some(info)
}

/// Marks the context window as full: the last usage becomes what was left of the window and
/// the total is reset to exactly the window, so "tokens left" reads zero.
///
/// Used when the provider refused a request for overflowing the window, to make the next
/// decision (compact now) without waiting for a usage report.
pub(crate) fn fill_to_context_window(info: &mut TokenUsageInfo, context_window: i64) {
    let previous_total = info.total_token_usage.total_tokens;
    let remaining = context_window.saturating_sub(previous_total).max(0);
    info.last_token_usage = TokenUsage {
        total_tokens: remaining,
        ..TokenUsage::default()
    };
    info.total_token_usage = TokenUsage {
        total_tokens: context_window,
        ..TokenUsage::default()
    };
    info.model_context_window = Some(context_window);
}

/// A fresh info describing a full window (see [`fill_to_context_window`]).
pub(crate) fn full_context_window(context_window: i64) -> TokenUsageInfo {
    let mut info = TokenUsageInfo::default();
    fill_to_context_window(&mut info, context_window);
    info
}

#[cfg(test)]
#[path = "token_usage_tests.rs"]
mod tests;
