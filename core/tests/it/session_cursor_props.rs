//! A saved transcript cursor never reads a rewritten history as a delta: whatever sequence of
//! recordings, `Session::rollback`s and `Session::replace_history`s a session goes through, a
//! cursor taken before a rewrite gets `Full`, and one taken since the last rewrite gets the
//! exact new tail. The session's history version only ever increases.

use std::sync::Arc;

use codex_core::{ContextManager, TranscriptRead};
use codex_core::{
    InMemoryEventSink, InMemoryRolloutSink, ModelSettings, Session, SessionConfiguration,
};
use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    /// A user turn: the user's message and `replies` assistant messages.
    Turn {
        replies: usize,
    },
    Rollback(u32),
    /// A whole new history of this many user turns, built from scratch (as resume and
    /// compaction do): its own version starts low.
    Replace(usize),
    /// Save a cursor here.
    Save,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0usize..3).prop_map(|replies| Op::Turn { replies }),
        1 => (0u32..4).prop_map(Op::Rollback),
        1 => (0usize..3).prop_map(Op::Replace),
        2 => Just(Op::Save),
    ]
}

fn turn_items(turn: usize, replies: usize) -> Vec<ResponseItem> {
    let mut items = vec![ResponseItem::user_text(format!("turn {turn}"))];
    items.extend((0..replies).map(|reply| ResponseItem::assistant_text(format!("{reply}"), None)));
    items
}

async fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let rollout = InMemoryRolloutSink::new();
    let session = Session::new(
        SessionConfiguration::new(ThreadId::new(), ModelSettings::new("gpt-test", "base")),
        Some(Arc::new(rollout.clone())),
        Arc::new(InMemoryEventSink::new()),
    );
    // (cursor, rewrites seen when it was saved, items then)
    let mut saved = Vec::new();
    let mut rewrites = 0usize;
    let mut rollbacks = 0usize;
    let mut last_version = session.clone_history().await.history_version();
    for (step, op) in ops.into_iter().enumerate() {
        match op {
            Op::Turn { replies } => {
                let turn = session.new_turn_context(format!("t{step}")).await;
                session
                    .record_conversation_items(&turn, &turn_items(step, replies))
                    .await;
            }
            Op::Rollback(num_turns) => {
                session.rollback("rollback", num_turns).await;
                // Rolling back nothing is no rewrite (and writes no marker).
                rewrites += usize::from(num_turns > 0);
                rollbacks += usize::from(num_turns > 0);
            }
            Op::Replace(turns) => {
                let mut fresh = ContextManager::new();
                for turn in 0..turns {
                    fresh.replace(
                        fresh
                            .raw_items()
                            .iter()
                            .cloned()
                            .chain(turn_items(1000 + turn, 1))
                            .collect(),
                    );
                }
                session.replace_history(fresh).await;
                rewrites += 1;
            }
            Op::Save => {
                let history = session.clone_history().await;
                saved.push((history.transcript_cursor(), rewrites, history.len()));
            }
        }
        let history = session.clone_history().await;
        prop_assert!(
            history.history_version() >= last_version,
            "the version went back"
        );
        last_version = history.history_version();
        let now = history.transcript_cursor();
        for (cursor, rewrites_then, len_then) in &saved {
            let read = now.read_since(*cursor);
            if *rewrites_then == rewrites {
                prop_assert_eq!(
                    read,
                    TranscriptRead::Delta {
                        already_seen: *len_then
                    }
                );
            } else {
                prop_assert_eq!(read, TranscriptRead::Full, "a delta across a rewrite");
            }
        }
    }
    // Every rollback left its marker in the rollout, in order.
    let markers = rollout
        .snapshot()
        .iter()
        .filter(|item| matches!(item, RolloutItem::EventMsg(EventMsg::ThreadRolledBack(_))))
        .count();
    prop_assert_eq!(markers, rollbacks);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_saved_cursor_reads_a_delta_across_rollback_or_replace(
        ops in prop::collection::vec(op(), 1..24),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .map_err(|err| TestCaseError::fail(err.to_string()))?;
        runtime.block_on(run(ops))?;
    }
}
