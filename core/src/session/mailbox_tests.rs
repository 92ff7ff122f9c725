use super::*;
use pretty_assertions::assert_eq;

fn assistant(text: &str, phase: Option<MessagePhase>) -> ResponseItem {
    ResponseItem::assistant_text(text, phase)
}

#[test]
fn commentary_phase_does_not_close_the_mailbox() {
    let item = assistant("Running the tests now.", Some(MessagePhase::Commentary));
    assert!(!should_defer_mailbox(&item, false));
    assert!(!should_defer_mailbox(&item, true));
}

#[test]
fn final_answer_with_visible_text_defers() {
    assert!(should_defer_mailbox(
        &assistant("All done.", Some(MessagePhase::FinalAnswer)),
        false
    ));
}

#[test]
fn unknown_phase_takes_the_conservative_path_without_rewriting_the_phase() {
    let item = assistant("All done.", None);
    let before = item.clone();
    assert!(should_defer_mailbox(&item, false));
    assert_eq!(item, before);
    assert!(matches!(item, ResponseItem::Message { phase: None, .. }));
}

#[test]
fn named_but_unrecognized_phase_is_not_commentary() {
    let item = assistant(
        "Partial text",
        Some(MessagePhase::Unknown("draft".to_string())),
    );
    assert!(should_defer_mailbox(&item, false));
}

#[test]
fn empty_or_hidden_only_text_does_not_defer() {
    assert!(!should_defer_mailbox(&assistant("   ", None), false));
    let cited = "<oai-mem-citation>note 1</oai-mem-citation>\n";
    assert!(!should_defer_mailbox(
        &assistant(cited, Some(MessagePhase::FinalAnswer)),
        false
    ));
    let plan = "<proposed_plan>\n1. fix\n</proposed_plan>";
    assert!(!should_defer_mailbox(&assistant(plan, None), true));
    assert!(should_defer_mailbox(&assistant(plan, None), false));
}

#[test]
fn non_assistant_items_never_defer() {
    assert!(!should_defer_mailbox(&ResponseItem::user_text("hi"), false));
    assert!(!should_defer_mailbox(
        &ResponseItem::developer_text("rules"),
        false
    ));
    let call = ResponseItem::function_call("shell", "{}", "call_1");
    assert!(!should_defer_mailbox(&call, false));
}

#[test]
fn visible_text_keeps_text_around_removed_blocks() {
    assert_eq!(
        visible_answer_text(
            "a<oai-mem-citation>x</oai-mem-citation>b<oai-mem-citation>y",
            false
        ),
        "ab"
    );
}
