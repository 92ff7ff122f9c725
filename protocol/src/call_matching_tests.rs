use pretty_assertions::assert_eq;
use proptest::prelude::*;

use super::*;
use crate::models::ResponseItem;

fn call(id: &str) -> ResponseItem {
    ResponseItem::function_call("f", "{}", id)
}

fn output(id: &str) -> ResponseItem {
    ResponseItem::function_call_output(id, "ok")
}

fn run(items: &[ResponseItem]) -> CallMatches {
    match_calls(items.iter().enumerate())
}

#[test]
fn each_output_answers_the_nearest_unanswered_call_before_it() {
    let items = [call("a"), call("b"), output("b"), output("a")];
    assert_eq!(
        run(&items),
        CallMatches {
            pairs: vec![
                CallPair { call: 0, output: 3 },
                CallPair { call: 1, output: 2 }
            ],
            unanswered: vec![],
            orphans: vec![],
        }
    );
}

#[test]
fn an_output_before_its_call_and_a_duplicate_are_orphans_and_the_call_unanswered_or_paired() {
    // The early output answers nothing; the call after it is answered by the first output
    // after it; the second output after it is a duplicate.
    let items = [
        output("a"),
        call("a"),
        output("a"),
        output("a"),
        call("z"),
        ResponseItem::user_text("hi"),
    ];
    assert_eq!(
        run(&items),
        CallMatches {
            pairs: vec![CallPair { call: 1, output: 2 }],
            unanswered: vec![4],
            orphans: vec![0, 3],
        }
    );
}

#[test]
fn indices_are_the_callers() {
    let items = [call("a"), output("a")];
    let matches = match_calls([(10, &items[0]), (20, &items[1])]);
    assert_eq!(
        matches.pairs,
        vec![CallPair {
            call: 10,
            output: 20
        }]
    );
}

proptest! {
    /// Every item that needs a partner is in exactly one of pairs, unanswered, orphans; a
    /// pair's output comes after its call and shares its key; an unanswered call has no later
    /// unclaimed output with its key.
    #[test]
    fn every_call_and_output_is_placed_once(
        shape in prop::collection::vec((any::<bool>(), 0u8..4), 0..40),
    ) {
        let items: Vec<ResponseItem> = shape
            .iter()
            .map(|(is_call, id)| if *is_call { call(&id.to_string()) } else { output(&id.to_string()) })
            .collect();
        let matches = run(&items);
        let mut seen = vec![0usize; items.len()];
        for pair in &matches.pairs {
            prop_assert!(pair.call < pair.output);
            prop_assert_eq!(items[pair.call].pair_key(), items[pair.output].pair_key());
            seen[pair.call] += 1;
            seen[pair.output] += 1;
        }
        for index in matches.unanswered.iter().chain(&matches.orphans) {
            seen[*index] += 1;
        }
        prop_assert!(seen.iter().all(|count| *count == 1), "{:?}", seen);
        for &call_index in &matches.unanswered {
            let key = items[call_index].pair_key();
            let claimed_later = items.iter().enumerate().skip(call_index + 1).any(|(index, item)| {
                item.is_tool_output()
                    && item.pair_key() == key
                    && matches.orphans.contains(&index)
                    && !items[call_index + 1..index]
                        .iter()
                        .any(|between| between.is_tool_call() && between.pair_key() == key)
            });
            prop_assert!(!claimed_later, "an orphan output could have answered call {}", call_index);
        }
    }
}
