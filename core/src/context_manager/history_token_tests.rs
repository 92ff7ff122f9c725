use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::test_support::*;
use crate::context_manager::token_estimate::estimate_item_token_count;

#[test]
fn update_token_info_tracks_last_and_running_totals() {
    let mut history = ContextManager::new();
    assert_eq!(history.token_info(), None);
    history.update_token_info(&usage(100), Some(10_000));
    history.update_token_info(&usage(50), None);
    let info = history.token_info().unwrap_or_default();
    assert_eq!(info.last_token_usage.total_tokens, 50);
    assert_eq!(info.total_token_usage.total_tokens, 150);
    assert_eq!(info.model_context_window, Some(10_000));
}

#[test]
fn set_token_usage_full_fills_the_window() {
    let mut history = ContextManager::new();
    history.update_token_info(&usage(300), Some(1_000));
    history.set_token_usage_full(1_000);
    let info = history.token_info().unwrap_or_default();
    assert_eq!(info.last_token_usage.total_tokens, 700);
    assert_eq!(info.total_token_usage.total_tokens, 1_000);

    let mut fresh = ContextManager::new();
    fresh.set_token_usage_full(500);
    let info = fresh.token_info().unwrap_or_default();
    assert_eq!(info.last_token_usage.total_tokens, 500);
    assert_eq!(info.model_context_window, Some(500));
}

#[test]
fn estimate_token_count_with_base_instructions_uses_provided_text() {
    let history = history_of(&[user("hello"), assistant("world")]);
    let short = history.estimate_token_count("be brief");
    let long = history.estimate_token_count(&"be brief ".repeat(100));
    assert_eq!(long - short, (900i64 + 3) / 4 - 2);
}

#[test]
fn items_after_last_model_generated_tokens_include_user_and_tool_output() {
    let tail = [user("follow up"), function_output("c", "tool says hi")];
    let history = history_of(&[user("q"), assistant("a"), tail[0].clone(), tail[1].clone()]);
    let expected: i64 = tail.iter().map(estimate_item_token_count).sum();
    assert_eq!(
        history.estimated_tokens_after_last_model_generated_item(),
        expected
    );
}

#[test]
fn items_after_last_model_generated_tokens_are_zero_without_model_generated_items() {
    let history = history_of(&[user("only a question")]);
    assert_eq!(
        history.estimated_tokens_after_last_model_generated_item(),
        0
    );
}

#[test]
fn total_token_usage_includes_all_items_after_last_model_generated_item() {
    let mut history = history_of(&[user("q"), assistant("a"), user("more")]);
    history.update_token_info(&usage(1_000), None);
    let tail = estimate_item_token_count(&user("more"));
    assert_eq!(history.get_total_token_usage(true), 1_000 + tail);
}

#[test]
fn non_last_reasoning_tokens_ignore_entries_after_last_user() {
    let encrypted = |len: usize| ResponseItem::Reasoning {
        id: None,
        summary: Vec::new(),
        content: None,
        encrypted_content: Some("e".repeat(len)),
        internal_chat_message_metadata_passthrough: None,
    };
    let history = history_of(&[
        user("first"),
        encrypted(900),
        encrypted(1_000),
        user("second"),
        encrypted(2_000),
    ]);
    // (900*3/4 - 650) = 25 bytes -> 7 tokens; (1000*3/4 - 650) = 100 bytes -> 25 tokens.
    assert_eq!(history.non_last_reasoning_items_tokens(), 32);
    assert_eq!(
        history_of(&[encrypted(900)]).non_last_reasoning_items_tokens(),
        0
    );
}
