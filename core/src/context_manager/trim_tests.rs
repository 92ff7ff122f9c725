use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::test_support::*;

#[test]
fn remove_first_with_partner_takes_the_first_matching_output_only() {
    let mut items = vec![
        function_call("a"),
        user("u"),
        function_output("a", "first"),
        function_output("a", "second"),
    ];
    assert_eq!(remove_first_with_partner(&mut items), 2);
    assert_eq!(items, vec![user("u"), function_output("a", "second")]);
}

#[test]
fn remove_first_with_partner_ignores_items_without_call_id() {
    let mut items = vec![local_shell_call(None), function_output("x", "y")];
    assert_eq!(remove_first_with_partner(&mut items), 1);
    assert_eq!(items, vec![function_output("x", "y")]);
    let mut empty = Vec::new();
    assert_eq!(remove_first_with_partner(&mut empty), 0);
}

#[test]
fn trim_oldest_removes_partners_that_lie_far_ahead() {
    let mut items = vec![
        function_call("a"),
        function_call("b"),
        user("u1"),
        user("u2"),
        function_output("b", "ok"),
        function_output("a", "ok"),
        assistant("tail"),
    ];
    assert_eq!(trim_oldest(&mut items, 2), 4);
    assert_eq!(items, vec![user("u1"), user("u2"), assistant("tail")]);
}

#[test]
fn trim_oldest_skips_partners_already_removed() {
    // Step 1 removes the call and its output at index 1; step 2 starts at the user message.
    let mut items = vec![
        function_call("a"),
        function_output("a", "ok"),
        user("u"),
        assistant("x"),
    ];
    assert_eq!(trim_oldest(&mut items, 2), 3);
    assert_eq!(items, vec![assistant("x")]);
}

#[test]
fn trim_oldest_with_count_past_the_end_empties_history() {
    let mut items = vec![user("a"), user("b")];
    assert_eq!(trim_oldest(&mut items, 10), 2);
    assert!(items.is_empty());
    let mut items = vec![user("a")];
    assert_eq!(trim_oldest(&mut items, 0), 0);
    assert_eq!(items.len(), 1);
}

#[test]
fn trim_oldest_handles_reused_call_ids_in_order() {
    let mut items = vec![
        function_call("dup"),
        function_output("dup", "1"),
        function_call("dup"),
        function_output("dup", "2"),
        user("u"),
    ];
    let mut expected = items.clone();
    remove_first_with_partner(&mut expected);
    remove_first_with_partner(&mut expected);
    trim_oldest(&mut items, 2);
    assert_eq!(items, expected);
    assert_eq!(items, vec![user("u")]);
}

#[test]
fn trim_oldest_finds_partners_beyond_the_nearby_window() {
    let mut items = vec![
        function_call("first"),
        function_output("first", "ok"),
        function_call("far"),
        custom_call("near"),
    ];
    items.extend((0..2 * NEARBY_PARTNER_WINDOW).map(|n| user(&format!("filler {n}"))));
    items.push(custom_output("near", "ok"));
    items.push(function_output("far", "ok"));
    items.push(function_call("after"));
    items.push(function_output("after", "ok"));
    for count in 0..items.len() {
        let mut expected = items.clone();
        let mut removed = 0;
        for _ in 0..count {
            removed += remove_first_with_partner(&mut expected);
        }
        let mut trimmed = items.clone();
        assert_eq!(trim_oldest(&mut trimmed, count), removed, "count {count}");
        assert_eq!(trimmed, expected, "count {count}");
    }
}
