use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::test_support::assistant;
use crate::context_manager::test_support::developer;
use crate::context_manager::test_support::user;

#[test]
fn legacy_compaction_keeps_newest_messages_within_budget_and_skips_summaries() {
    let earlier_summary = format!("{SUMMARY_PREFIX}\nold summary");
    let big = "x".repeat(8 * COMPACT_USER_MESSAGE_MAX_TOKENS);
    let history = vec![
        user("oldest"),
        user(&big),
        user(&earlier_summary),
        user("newest"),
    ];
    let rebuilt = build_legacy_compacted_history(&history, "");
    assert_eq!(rebuilt.len(), 3, "{rebuilt:?}");
    assert_eq!(rebuilt[1], user("newest"));
    assert_eq!(rebuilt[2], user("(no summary available)"));
    let ResponseItem::Message { content, .. } = &rebuilt[0] else {
        panic!("expected a message, got {:?}", rebuilt[0]);
    };
    let text = content[0].text().unwrap_or_default();
    assert!(
        text.len() < big.len() && text.contains("truncated"),
        "{}",
        text.len()
    );
}

#[test]
fn legacy_compaction_keeps_only_person_messages_then_summary() {
    let history = vec![
        developer("<permissions instructions>sandboxed</permissions instructions>"),
        user("first ask"),
        assistant("done"),
        user("second ask"),
    ];
    let rebuilt = build_legacy_compacted_history(&history, "the summary");
    assert_eq!(
        rebuilt,
        vec![user("first ask"), user("second ask"), user("the summary")]
    );
}

#[test]
fn summary_prefix_needs_a_newline_to_count_as_summary() {
    assert!(is_summary(&format!("{SUMMARY_PREFIX}\nbody")));
    assert!(!is_summary(SUMMARY_PREFIX));
    assert!(!is_summary("Another language model"));
}
