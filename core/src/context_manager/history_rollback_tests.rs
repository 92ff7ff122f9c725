use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::context_manager::test_support::*;

#[test]
fn drop_last_n_user_turns_preserves_prefix() {
    let prefix = vec![
        developer("<permissions instructions>sandboxed</permissions instructions>"),
        user("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe nice\n</INSTRUCTIONS>"),
    ];
    let turn1 = vec![user("first"), assistant("one")];
    let turn2 = vec![user("second"), assistant("two")];
    let all: Vec<ResponseItem> = [prefix.clone(), turn1.clone(), turn2].concat();

    let mut history = history_of(&all);
    history.drop_last_n_user_turns(1);
    assert_eq!(
        history.raw_items(),
        [prefix.clone(), turn1].concat().as_slice()
    );

    let mut history = history_of(&all);
    history.drop_last_n_user_turns(99);
    assert_eq!(history.raw_items(), prefix.as_slice());

    let mut history = history_of(&all);
    history.drop_last_n_user_turns(u32::MAX);
    assert_eq!(history.raw_items(), prefix.as_slice());
}

#[test]
fn drop_last_n_user_turns_zero_is_a_no_op_and_no_turns_still_bumps() {
    let mut history = history_of(&[user("a"), assistant("b")]);
    history.drop_last_n_user_turns(0);
    assert_eq!(history.history_version(), 0);

    let mut no_turns = history_of(&[developer(
        "<permissions instructions>x</permissions instructions>",
    )]);
    no_turns.set_world_state_baseline(Some(WorldStateSnapshot::new(json!(1))));
    no_turns.drop_last_n_user_turns(1);
    assert_eq!(no_turns.len(), 1);
    assert_eq!(no_turns.history_version(), 1);
    assert_eq!(no_turns.world_state_baseline(), None);
}

#[test]
fn drop_last_n_user_turns_ignores_session_prefix_user_messages() {
    let prefix = vec![
        user("<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"),
        user("# AGENTS.md instructions\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>"),
        user("<skill>\n<name>s</name>\n<path>p</path>\nbody\n</skill>"),
        user("<user_shell_command>\n<command>\nls\n</command>\n</user_shell_command>"),
    ];
    let turns = vec![
        user("real one"),
        assistant("a1"),
        user("real two"),
        assistant("a2"),
    ];
    for (num_turns, keep) in [(1u32, 6usize), (2, 4), (3, 4)] {
        let mut history = history_of(&[prefix.clone(), turns.clone()].concat());
        history.drop_last_n_user_turns(num_turns);
        assert_eq!(history.len(), keep, "n = {num_turns}");
        assert_eq!(&history.raw_items()[..4], prefix.as_slice());
    }
}

#[test]
fn drop_last_n_user_turns_trims_context_updates_above_rolled_back_turn() {
    let items = vec![
        developer("<permissions instructions>old</permissions instructions>"),
        user("first"),
        assistant("one"),
        developer("<permissions instructions>new</permissions instructions>"),
        user("<environment_context>\n  <cwd>/elsewhere</cwd>\n</environment_context>"),
        developer("<collaboration_mode>pair</collaboration_mode>"),
        user("second"),
        assistant("two"),
    ];
    let mut history = history_of(&items);
    history.set_reference_context_item(Some(reference_item()));
    history.drop_last_n_user_turns(1);
    assert_eq!(history.raw_items(), &items[..3]);
    assert_eq!(history.reference_context_item(), Some(reference_item()));
}

#[test]
fn drop_last_n_user_turns_trims_saved_prefix_update_above_rolled_back_turn() {
    let items = vec![
        user("first"),
        assistant("one"),
        developer("Approved command prefix saved:\n- git status"),
        user("second"),
    ];
    let mut history = history_of(&items);
    history.drop_last_n_user_turns(1);
    assert_eq!(history.raw_items(), &items[..2]);
}

#[test]
fn drop_last_n_user_turns_clears_reference_context_for_mixed_developer_context_bundles() {
    let items = vec![
        user("first"),
        assistant("one"),
        developer_parts(&[
            "<permissions instructions>new</permissions instructions>",
            "Always answer in French.",
        ]),
        user("second"),
        assistant("two"),
    ];
    let mut history = history_of(&items);
    history.set_reference_context_item(Some(reference_item()));
    history.drop_last_n_user_turns(1);
    assert_eq!(history.raw_items(), &items[..2]);
    assert_eq!(history.reference_context_item(), None);
}

#[test]
fn drop_last_n_user_turns_never_trims_above_the_first_turn() {
    let items = vec![
        developer("<permissions instructions>p</permissions instructions>"),
        user("<environment_context>e</environment_context>"),
        user("first"),
        assistant("one"),
    ];
    let mut history = history_of(&items);
    history.drop_last_n_user_turns(1);
    assert_eq!(history.raw_items(), &items[..2]);
}

#[test]
fn drop_last_n_user_turns_treats_inter_agent_assistant_messages_as_instruction_turns() {
    let instruction = json!({
        "author": "/root",
        "recipient": "/root/worker",
        "other_recipients": [],
        "content": "do the thing",
        "trigger_turn": true
    })
    .to_string();
    let items = vec![
        user("first"),
        assistant("one"),
        ResponseItem::message("assistant", vec![ContentItem::input_text(instruction)]),
        assistant("working on it"),
    ];
    let mut history = history_of(&items);
    history.drop_last_n_user_turns(1);
    assert_eq!(history.raw_items(), &items[..2]);
}

#[test]
fn drop_last_n_user_turns_removes_first_turn_model_switch_notice() {
    let switch =
        "<model_switch>\nThe user was previously using a different model.\n</model_switch>";
    let items = vec![
        developer("<permissions instructions>p</permissions instructions>"),
        with_turn_id(developer_parts(&[switch, "keep me"]), "turn-1"),
        with_turn_id(developer(switch), "turn-1"),
        with_turn_id(user("first"), "turn-1"),
        assistant("one"),
    ];
    let mut history = history_of(&items);
    let snapshot = history.clone();
    history.drop_last_n_user_turns(1);
    assert_eq!(
        history.raw_items(),
        &[
            items[0].clone(),
            with_turn_id(developer("keep me"), "turn-1"),
        ]
    );
    assert_eq!(
        snapshot.len(),
        items.len(),
        "the shared snapshot is untouched"
    );
}

#[test]
fn drop_last_n_user_turns_on_a_shared_snapshot_leaves_the_other_untouched() {
    let items = vec![user("first"), assistant("one"), user("second")];
    let mut history = history_of(&items);
    let snapshot = history.clone();
    history.drop_last_n_user_turns(1);
    assert_eq!(history.raw_items(), &items[..2]);
    assert_eq!(snapshot.raw_items(), items.as_slice());
}

/// A rollback of a shared snapshot only shortens its view: nothing is copied, the other
/// snapshot keeps every item, and every view of the rolled-back snapshot stops at the cut.
/// The first write then copies only the kept prefix.
#[test]
fn drop_last_n_user_turns_on_shared_snapshot_shortens_view_without_copying() {
    let all = vec![
        user("first"),
        function_call("call_1"),
        user("second"),
        function_call("call_2"),
        assistant("two"),
    ];
    let original = history_of(&all);
    let mut rolled_back = original.clone();
    let version = rolled_back.history_version();

    rolled_back.drop_last_n_user_turns(1);
    assert!(
        rolled_back.shares_items_with(&original),
        "no copy on rollback"
    );
    assert_eq!(rolled_back.raw_items(), &all[..2]);
    assert_eq!(rolled_back.len(), 2);
    assert_eq!(rolled_back.history_version(), version + 1);
    assert_eq!(rolled_back.transcript_cursor().entry_count, 2);
    assert_eq!(original.raw_items(), all.as_slice());

    let prompt = rolled_back.clone().for_prompt(&[]);
    assert_eq!(prompt.len(), 3, "call_1 answered, call_2 gone: {prompt:?}");
    assert_eq!(rolled_back.clone().into_raw_items(), all[..2].to_vec());

    // A second rollback on the still-shared view works on the view, not the whole vector.
    let mut twice = rolled_back.clone();
    twice.drop_last_n_user_turns(1);
    assert_eq!(twice.raw_items(), &[] as &[ResponseItem]);

    rolled_back.record_items([&user("third")], TruncationPolicy::Bytes(10_000));
    assert!(!rolled_back.shares_items_with(&original));
    assert_eq!(
        rolled_back.raw_items(),
        &[user("first"), function_call("call_1"), user("third")]
    );
    assert_eq!(original.raw_items(), all.as_slice());
}

/// When the other snapshot goes away, the hidden tail is cut in place by the next write, and
/// the owned views drop it too.
#[test]
fn shortened_view_becomes_exclusive_when_the_other_snapshot_drops() {
    let all = vec![user("first"), assistant("one"), user("second")];
    let view = || {
        let original = history_of(&all);
        let mut rolled_back = original.clone();
        rolled_back.drop_last_n_user_turns(1);
        drop(original);
        rolled_back
    };

    assert_eq!(view().into_raw_items(), all[..2].to_vec());
    assert_eq!(view().for_prompt(&[]), all[..2].to_vec());
    let mut rolled_back = view();
    assert_eq!(rolled_back.remove_first_item(), 1);
    assert_eq!(rolled_back.raw_items(), &[assistant("one")]);
    rolled_back.record_items([&user("again")], TruncationPolicy::Bytes(10_000));
    assert_eq!(rolled_back.raw_items(), &[assistant("one"), user("again")]);
}
