//! The bundled sample holds what the issue asks of it (tool calls with outputs, an
//! interrupted turn, a rollback), written by our own recorder. That it is what the recorder
//! writes today is xtask's `sample_is_up_to_date`.

use crate::common;

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::load_rollout_bytes;
use codex_thread::sample::SAMPLE_JSONL;
use common::{SAMPLE_THREAD_ID, TestResult};

#[test]
fn bundled_sample_has_tool_calls_an_interrupted_turn_and_a_rollback() -> TestResult {
    let loaded = load_rollout_bytes(SAMPLE_JSONL.as_bytes().to_vec(), "sample")?;
    assert!(
        loaded.contents.problems().is_empty(),
        "{:?}",
        loaded.contents.problems()
    );
    assert_eq!(loaded.thread_id.to_string(), SAMPLE_THREAD_ID);
    let items = loaded.contents.items();
    let count = |predicate: &dyn Fn(&RolloutItem) -> bool| {
        items.iter().filter(|item| predicate(item)).count()
    };
    let function_calls = count(&|item| {
        matches!(
            item,
            RolloutItem::ResponseItem(ResponseItem::FunctionCall { .. })
        )
    });
    let function_outputs = count(&|item| {
        matches!(
            item,
            RolloutItem::ResponseItem(ResponseItem::FunctionCallOutput { .. })
        )
    });
    let custom_calls = count(&|item| {
        matches!(
            item,
            RolloutItem::ResponseItem(ResponseItem::CustomToolCall { .. })
        )
    });
    let custom_outputs = count(&|item| {
        matches!(
            item,
            RolloutItem::ResponseItem(ResponseItem::CustomToolCallOutput { .. })
        )
    });
    let aborted = count(&|item| matches!(item, RolloutItem::EventMsg(EventMsg::TurnAborted(_))));
    let rollbacks =
        count(&|item| matches!(item, RolloutItem::EventMsg(EventMsg::ThreadRolledBack(_))));
    // A paginated file records each user turn as a completed UserMessage item.
    let user_messages = count(&|item| {
        matches!(
            item,
            RolloutItem::EventMsg(EventMsg::ItemCompleted(done))
                if matches!(done.item, codex_protocol::items::TurnItem::UserMessage(_))
        )
    });
    assert_eq!(function_calls, 5);
    assert_eq!(function_outputs, 4, "the interrupted call has no output");
    assert_eq!((custom_calls, custom_outputs), (1, 1));
    assert_eq!(aborted, 1);
    assert_eq!(rollbacks, 1);
    assert_eq!(user_messages, 5);
    Ok(())
}
