//! Property tests of the context manager over random histories: the projection's pairing
//! invariants, idempotence, rollback arithmetic, head trimming and the transcript cursor.

use std::collections::HashMap;

use codex_core::ContextManager;
use codex_core::InputModality;
use codex_core::TranscriptRead;
use codex_core::TruncationPolicy;
use codex_core::is_user_turn_boundary;
use codex_protocol::call_pairing::CallSide;
use codex_protocol::call_pairing::PairKey;
use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::LocalShellAction;
use codex_protocol::models::LocalShellExecAction;
use codex_protocol::models::LocalShellStatus;
use codex_protocol::models::ResponseItem;
use codex_protocol::response_item_id::ResponseItemId;
use proptest::prelude::*;

const POLICY: TruncationPolicy = TruncationPolicy::Tokens(10_000);
const ALL_MODALITIES: &[InputModality] = &[
    InputModality::Text,
    InputModality::Image,
    InputModality::Audio,
];

/// A small pool of call ids, so random histories reuse ids, answer calls, and leave orphans.
fn call_id() -> impl Strategy<Value = String> {
    (0u8..5).prop_map(|n| format!("call-{n}"))
}

fn maybe_item_id() -> impl Strategy<Value = Option<ResponseItemId>> {
    prop::option::of((0u16..1000).prop_map(|n| ResponseItemId::from(format!("it_{n}"))))
}

fn local_shell(call_id: Option<String>) -> ResponseItem {
    ResponseItem::LocalShellCall {
        encrypted_content: None,
        id: None,
        call_id,
        status: LocalShellStatus::Completed,
        action: LocalShellAction::Exec(LocalShellExecAction::default()),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn tool_search(call: bool, call_id: Option<String>, execution: &str) -> ResponseItem {
    if call {
        ResponseItem::ToolSearchCall {
            encrypted_content: None,
            id: None,
            call_id,
            status: None,
            execution: execution.to_string(),
            arguments: serde_json::Value::Null,
            internal_chat_message_metadata_passthrough: None,
        }
    } else {
        ResponseItem::ToolSearchOutput {
            id: None,
            call_id,
            status: "completed".to_string(),
            execution: execution.to_string(),
            tools: Vec::new(),
            internal_chat_message_metadata_passthrough: None,
        }
    }
}

/// One random history item. Turn boundaries, contextual updates, every kind of call and
/// output (with and without call ids, client and server side) and media all appear.
fn item() -> impl Strategy<Value = ResponseItem> {
    let execution = prop_oneof![Just("client"), Just("server")];
    prop_oneof![
        3 => "[a-z]{1,8}".prop_map(ResponseItem::user_text),
        2 => "[a-z]{1,8}".prop_map(|text| ResponseItem::assistant_text(text, None)),
        1 => Just(ResponseItem::user_text("<environment_context>\n  <cwd>/r</cwd>\n</environment_context>")),
        1 => Just(ResponseItem::developer_text("<permissions instructions>p</permissions instructions>")),
        1 => Just(ResponseItem::developer_text("plain developer note")),
        1 => Just(ResponseItem::message(
            "user",
            vec![ContentItem::input_text("see"), ContentItem::input_image_url("https://x/i.png", None)],
        )),
        3 => (call_id(), maybe_item_id()).prop_map(|(call_id, id)| {
            let mut call = ResponseItem::function_call("shell", "{}", call_id);
            call.set_id(id);
            call
        }),
        3 => call_id().prop_map(|call_id| ResponseItem::function_call_output(call_id, "ok")),
        2 => (call_id(), maybe_item_id()).prop_map(|(call_id, id)| {
            let mut call = ResponseItem::custom_tool_call("apply_patch", "patch", call_id);
            call.set_id(id);
            call
        }),
        2 => call_id().prop_map(|call_id| ResponseItem::custom_tool_call_output(call_id, "done")),
        1 => prop::option::of(call_id()).prop_map(local_shell),
        1 => (any::<bool>(), prop::option::of(call_id()), execution)
            .prop_map(|(call, call_id, execution)| tool_search(call, call_id, execution)),
        1 => Just(ResponseItem::FunctionCallOutput {
            id: None,
            call_id: None,
            name: Some("standalone".to_string()),
            namespace: None,
            output: FunctionCallOutputPayload::from_text("named"),
            internal_chat_message_metadata_passthrough: None,
        }),
    ]
}

fn history_items() -> impl Strategy<Value = Vec<ResponseItem>> {
    prop::collection::vec(item(), 0..40)
}

fn history_of(items: Vec<ResponseItem>) -> ContextManager {
    let mut history = ContextManager::new();
    history.record_owned_items(items, POLICY);
    history
}

/// Checks the pairing invariant on `items`: per pairing key, calls and outputs alternate
/// call, output, call, output (each call answered exactly once, after it and before the next
/// call of that key); an output without an open call is only allowed when it needs none.
fn assert_well_paired(items: &[ResponseItem]) -> Result<(), TestCaseError> {
    let mut open: HashMap<PairKey<'_>, usize> = HashMap::new();
    for (index, item) in items.iter().enumerate() {
        let Some(link) = item.call_link() else {
            continue;
        };
        let Some(key) = link.pair_key() else { continue };
        match link.side {
            CallSide::Call => {
                let previous = open.insert(key, index);
                prop_assert!(
                    previous.is_none(),
                    "call at {index} while call {previous:?} is unanswered"
                );
            }
            CallSide::Output => {
                if open.remove(&key).is_none() {
                    prop_assert!(
                        !link.requires_partner(),
                        "orphan output at {index}: {item:?}"
                    );
                }
            }
        }
    }
    let unanswered: Vec<usize> = open
        .into_iter()
        .filter(|(_, index)| {
            items[*index]
                .call_link()
                .is_some_and(|link| link.requires_partner())
        })
        .map(|(_, index)| index)
        .collect();
    prop_assert!(
        unanswered.is_empty(),
        "calls without output at {unanswered:?}"
    );
    Ok(())
}

fn turn_count(items: &[ResponseItem]) -> usize {
    items
        .iter()
        .filter(|item| is_user_turn_boundary(item))
        .count()
}

fn without_pairing_items(items: &[ResponseItem]) -> Vec<&ResponseItem> {
    items
        .iter()
        .filter(|item| item.call_link().is_none())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn for_prompt_answers_every_call_and_drops_every_orphan(items in history_items()) {
        let projected = history_of(items).for_prompt(ALL_MODALITIES);
        assert_well_paired(&projected)?;
    }

    #[test]
    fn for_prompt_keeps_everything_else_in_order(items in history_items()) {
        let history = history_of(items);
        let projected = history.clone().for_prompt(ALL_MODALITIES);
        prop_assert_eq!(without_pairing_items(&projected), without_pairing_items(history.raw_items()));
    }

    #[test]
    fn normalizing_twice_equals_normalizing_once(items in history_items(), text_only in any::<bool>()) {
        let modalities: &[InputModality] = if text_only { &[InputModality::Text] } else { ALL_MODALITIES };
        let once = history_of(items).for_prompt(modalities);
        let mut again = ContextManager::new();
        again.replace(once.clone());
        prop_assert_eq!(again.for_prompt(modalities), once);
    }

    #[test]
    fn shared_and_exclusive_projections_agree(items in history_items(), text_only in any::<bool>()) {
        let modalities: &[InputModality] = if text_only { &[InputModality::Text] } else { ALL_MODALITIES };
        let history = history_of(items);
        let shared = history.clone().for_prompt(modalities);
        let exclusive = history.for_prompt(modalities);
        prop_assert_eq!(shared, exclusive);
    }

    #[test]
    fn drop_last_n_user_turns_leaves_the_expected_turns_and_a_prefix(
        items in history_items(),
        num_turns in prop_oneof![0u32..6, Just(u32::MAX), any::<u32>()],
    ) {
        let original = history_of(items);
        let turns = turn_count(original.raw_items());
        let mut rolled_back = original.clone();
        rolled_back.drop_last_n_user_turns(num_turns);
        let kept = rolled_back.raw_items();
        let expected = turns.saturating_sub(usize::try_from(num_turns).unwrap_or(usize::MAX));
        prop_assert_eq!(turn_count(kept), expected);
        prop_assert!(original.raw_items().starts_with(kept));
        if num_turns > 0 && turns > 0 {
            // Nothing after the kept prefix up to the first dropped turn is a turn.
            prop_assert!(kept.len() < original.len());
        }
        if num_turns == 0 {
            prop_assert_eq!(rolled_back.history_version(), original.history_version());
        } else {
            prop_assert_eq!(rolled_back.history_version(), original.history_version() + 1);
        }
    }

    #[test]
    fn remove_first_item_never_leaves_an_orphan(items in history_items(), removals in 0usize..45) {
        let mut history = ContextManager::new();
        history.replace(history_of(items).for_prompt(ALL_MODALITIES));
        for _ in 0..removals {
            history.remove_first_item();
            assert_well_paired(history.raw_items())?;
        }
    }

    #[test]
    fn trim_oldest_equals_repeated_remove_first_item(items in history_items(), count in 0usize..45) {
        let start = history_of(items);
        let mut one_by_one = start.clone();
        let mut removed = 0;
        for _ in 0..count {
            removed += one_by_one.remove_first_item();
        }
        let mut at_once = start;
        prop_assert_eq!(at_once.trim_oldest(count), removed);
        prop_assert_eq!(at_once.raw_items(), one_by_one.raw_items());
    }

    #[test]
    fn cursor_says_delta_exactly_when_only_appends_happened(
        items in history_items(),
        ops in prop::collection::vec((0u8..6, history_items(), 0u32..4), 1..8),
    ) {
        let mut history = history_of(items);
        for (op, extra, n) in ops {
            let before = history.raw_items().to_vec();
            let seen = history.transcript_cursor();
            let appended = match op {
                0 | 1 => {
                    history.record_owned_items(extra, POLICY);
                    true
                }
                2 => {
                    history.replace(extra);
                    false
                }
                3 => {
                    history.drop_last_n_user_turns(n);
                    n == 0
                }
                4 => {
                    let removed = history.remove_first_item();
                    removed == 0
                }
                _ => {
                    let removed = history.trim_oldest(n as usize);
                    removed == 0
                }
            };
            let read = history.transcript_cursor().read_since(seen);
            let is_prefix = history.raw_items().starts_with(&before);
            if let TranscriptRead::Delta { already_seen } = read {
                prop_assert!(is_prefix, "delta across a rewrite");
                prop_assert_eq!(already_seen, before.len());
            }
            if appended {
                prop_assert_eq!(read, TranscriptRead::Delta { already_seen: before.len() });
            } else {
                prop_assert_eq!(read, TranscriptRead::Full);
            }
        }
    }

    /// A snapshot that still shares its items (including one whose view a rollback shortened)
    /// behaves exactly like an exclusive deep copy under any sequence of operations, and the
    /// snapshot it shares with never changes.
    #[test]
    fn shared_snapshot_matches_exclusive_copy_under_any_operations(
        items in history_items(),
        ops in prop::collection::vec((0u8..6, history_items(), 0u32..4), 1..8),
    ) {
        let original = history_of(items);
        let frozen = original.raw_items().to_vec();
        let mut shared = original.clone();
        let mut exclusive = ContextManager::new();
        exclusive.replace(original.raw_items().to_vec());
        for (op, extra, n) in ops {
            for history in [&mut shared, &mut exclusive] {
                match op {
                    0 => history.record_owned_items(extra.clone(), POLICY),
                    1 | 2 => history.drop_last_n_user_turns(n),
                    3 => {
                        history.remove_first_item();
                    }
                    4 => {
                        history.trim_oldest(n as usize);
                    }
                    _ => {}
                }
            }
            prop_assert_eq!(shared.raw_items(), exclusive.raw_items());
            prop_assert_eq!(shared.len(), exclusive.len());
            prop_assert_eq!(
                shared.clone().for_prompt(ALL_MODALITIES),
                exclusive.clone().for_prompt(ALL_MODALITIES)
            );
            prop_assert_eq!(shared.clone().into_raw_items(), exclusive.clone().into_raw_items());
            prop_assert_eq!(original.raw_items(), frozen.as_slice());
        }
    }
}
