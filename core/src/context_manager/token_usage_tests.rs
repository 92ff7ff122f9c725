use codex_protocol::event::TokenUsage;
use codex_protocol::event::TokenUsageInfo;
use pretty_assertions::assert_eq;

use super::*;

fn usage(total: i64) -> TokenUsage {
    TokenUsage {
        total_tokens: total,
        ..TokenUsage::default()
    }
}

#[test]
fn nothing_counted_stays_none() {
    assert_eq!(new_or_append_token_info(None, None, Some(100)), None);
}

#[test]
fn first_usage_starts_a_total() {
    let info = new_or_append_token_info(None, Some(&usage(7)), Some(100));
    assert_eq!(
        info,
        Some(TokenUsageInfo {
            total_token_usage: usage(7),
            last_token_usage: usage(7),
            model_context_window: Some(100),
        })
    );
}

#[test]
fn later_usage_adds_up_and_keeps_the_window_unless_reported() {
    let info = new_or_append_token_info(None, Some(&usage(7)), Some(100));
    let info = new_or_append_token_info(info, Some(&usage(3)), None);
    let info = info.unwrap_or_default();
    assert_eq!(info.total_token_usage.total_tokens, 10);
    assert_eq!(info.last_token_usage.total_tokens, 3);
    assert_eq!(info.model_context_window, Some(100));
}

#[test]
fn filling_past_the_window_never_goes_negative() {
    let mut info = TokenUsageInfo {
        total_token_usage: usage(500),
        ..TokenUsageInfo::default()
    };
    fill_to_context_window(&mut info, 300);
    assert_eq!(info.last_token_usage.total_tokens, 0);
    assert_eq!(info.total_token_usage.total_tokens, 300);
}
