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

/// The matching rule as it was first written (walking the items newest first, keeping the
/// outputs waiting for their call), kept as the reference the forward matcher must equal.
fn backward_reference(items: &[ResponseItem]) -> CallMatches {
    let mut matches = CallMatches::default();
    let mut waiting: std::collections::HashMap<crate::call_pairing::PairKey<'_>, (usize, bool)> =
        std::collections::HashMap::new();
    for (index, item) in items.iter().enumerate().rev() {
        let Some(link) = item.call_link() else {
            continue;
        };
        let Some(key) = link.pair_key() else {
            continue;
        };
        match link.side {
            crate::call_pairing::CallSide::Output => {
                if let Some((later, true)) = waiting.insert(key, (index, link.requires_partner())) {
                    matches.orphans.push(later);
                }
            }
            crate::call_pairing::CallSide::Call => match waiting.remove(&key) {
                Some((output, _)) => matches.pairs.push(CallPair {
                    call: index,
                    output,
                }),
                None if link.requires_partner() => matches.unanswered.push(index),
                None => {}
            },
        }
    }
    matches.orphans.extend(
        waiting
            .into_values()
            .filter(|(_, needs_call)| *needs_call)
            .map(|(index, _)| index),
    );
    matches.pairs.reverse();
    matches.unanswered.reverse();
    matches.orphans.sort_unstable();
    matches
}

fn custom_call(id: &str) -> ResponseItem {
    serde_json::from_value(serde_json::json!({
        "type": "custom_tool_call", "call_id": id, "name": "apply_patch", "input": "x"
    }))
    .unwrap_or(ResponseItem::Other)
}

fn custom_output(id: &str) -> ResponseItem {
    serde_json::from_value(serde_json::json!({
        "type": "custom_tool_call_output", "call_id": id, "output": "ok"
    }))
    .unwrap_or(ResponseItem::Other)
}

proptest! {
    /// The forward matcher (borrowed and owned keys) equals the backward reference, over two
    /// channels and more keys than the small map holds inline.
    #[test]
    fn the_forward_matcher_equals_the_backward_rule(
        shape in prop::collection::vec((0u8..4, 0u8..24), 0..80),
    ) {
        let items: Vec<ResponseItem> = shape
            .iter()
            .map(|(kind, id)| {
                let id = id.to_string();
                match kind {
                    0 => call(&id),
                    1 => output(&id),
                    2 => custom_call(&id),
                    _ => custom_output(&id),
                }
            })
            .collect();
        let expected = backward_reference(&items);
        prop_assert_eq!(&run(&items), &expected);
        let mut owned = CallMatcher::<OwnedPairKey>::new();
        let mut pairs = Vec::new();
        for (index, item) in items.iter().enumerate() {
            if let Pushed::Answered(pair) = owned.push_owned(index, item) {
                pairs.push(pair);
            }
        }
        pairs.sort_unstable_by_key(|pair| pair.call);
        let Unpaired { unanswered, orphans } = owned.finish();
        prop_assert_eq!(CallMatches { pairs, unanswered, orphans }, expected);
    }
}
