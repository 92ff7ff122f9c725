use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::test_support::*;

#[test]
fn user_turn_positions_skip_contextual_user_messages() {
    let items = vec![
        user("<environment_context>x</environment_context>"),
        user("real"),
        assistant("a"),
        user("again"),
    ];
    assert_eq!(user_turn_positions(&items), vec![1, 3]);
}

#[test]
fn plan_rollback_without_turns_is_none() {
    assert_eq!(plan_rollback(&[developer("d"), assistant("a")], 1), None);
    assert_eq!(plan_rollback(&[], u32::MAX), None);
}

#[test]
fn plan_rollback_saturates_for_any_count() {
    let items = vec![developer("d"), user("one"), user("two")];
    for num_turns in [2, 3, 1_000, u32::MAX] {
        let cut = plan_rollback(&items, num_turns);
        assert_eq!(cut.map(|cut| cut.keep), Some(1), "n = {num_turns}");
    }
    assert_eq!(plan_rollback(&items, 1).map(|cut| cut.keep), Some(2));
}

#[test]
fn trim_stops_at_non_contextual_items() {
    let items = vec![
        user("one"),
        developer("plain developer text"),
        developer("<permissions instructions>p</permissions instructions>"),
        user("two"),
    ];
    assert_eq!(trim_pre_turn_context_updates(&items, 0, 3), (2, false));
}

#[test]
fn first_turn_id_is_reported_only_when_every_turn_goes() {
    let items = vec![
        with_turn_id(user("one"), "t1"),
        with_turn_id(user("two"), "t2"),
    ];
    let all = plan_rollback(&items, 2);
    assert_eq!(
        all.and_then(|cut| cut.first_turn_id),
        Some("t1".to_string())
    );
    let one = plan_rollback(&items, 1);
    assert_eq!(one.and_then(|cut| cut.first_turn_id), None);
}

#[test]
fn strip_first_turn_model_switch_touches_only_that_turn() {
    let switch = "<model_switch>\nswitched\n</model_switch>";
    let mut items = vec![
        with_turn_id(developer(switch), "t1"),
        with_turn_id(developer(switch), "t0"),
        developer(switch),
        with_turn_id(user(switch), "t1"),
    ];
    assert!(has_first_turn_model_switch(&items, "t1"));
    assert!(strip_first_turn_model_switch(&mut items, "t1"));
    assert_eq!(items.len(), 3);
    assert!(!has_first_turn_model_switch(&items, "t1"));
    assert!(!strip_first_turn_model_switch(&mut items, "t1"));
}
