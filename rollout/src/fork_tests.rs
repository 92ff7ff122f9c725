use codex_protocol::event::{EventMsg, ThreadRolledBackEvent, TurnCompleteEvent, TurnStartedEvent};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, TurnContextItem};
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::meta_line::{MetaRewrite, rewrite_session_meta_line};
use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn user(text: &str) -> RolloutItem {
    RolloutItem::ResponseItem(ResponseItem::user_text(text))
}

fn assistant(text: &str) -> RolloutItem {
    RolloutItem::ResponseItem(ResponseItem::assistant_text(text, None))
}

fn env_context() -> RolloutItem {
    user("<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>")
}

fn rollback(num_turns: u32) -> RolloutItem {
    RolloutItem::EventMsg(EventMsg::ThreadRolledBack(ThreadRolledBackEvent {
        num_turns,
    }))
}

fn started(turn_id: &str) -> RolloutItem {
    RolloutItem::EventMsg(EventMsg::TurnStarted(TurnStartedEvent {
        collaboration_mode_kind: "default".to_string(),
        ..TurnStartedEvent::new(turn_id)
    }))
}

fn complete(turn_id: &str) -> RolloutItem {
    RolloutItem::EventMsg(EventMsg::TurnComplete(TurnCompleteEvent::new(turn_id)))
}

fn turn_context() -> RolloutItem {
    RolloutItem::TurnContext(Box::new(TurnContextItem::new(
        "/repo",
        json!("never"),
        json!({}),
        "m",
    )))
}

#[test]
fn positions_count_only_visible_user_messages() {
    let items = vec![
        env_context(),
        user("u1"),
        assistant("a1"),
        RolloutItem::ResponseItem(ResponseItem::developer_text("dev")),
        user("u2"),
    ];
    assert_eq!(user_message_positions_in_rollout(&items), vec![1, 4]);
}

#[test]
fn positions_apply_rollback_markers_saturating() {
    let items = vec![
        user("u1"),
        user("u2"),
        user("u3"),
        rollback(1),
        user("u4"),
        rollback(0),
    ];
    assert_eq!(user_message_positions_in_rollout(&items), vec![0, 1, 4]);
    let everything = vec![user("u1"), user("u2"), rollback(u32::MAX), user("u3")];
    assert_eq!(user_message_positions_in_rollout(&everything), vec![3]);
}

#[test]
fn truncates_rollout_from_start_before_nth_user_only() {
    let items = vec![user("u1"), assistant("a1"), user("u2"), assistant("a2")];
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthUserMessage(1)), 2);
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthUserMessage(0)), 0);
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthUserMessage(2)), 4);
}

#[test]
fn truncation_max_keeps_full_rollout() {
    let items = vec![user("u1"), assistant("a1")];
    assert_eq!(
        fork_cut(&items, ForkPoint::BeforeNthUserMessage(usize::MAX)),
        2
    );
    assert_eq!(fork_cut(&items, ForkPoint::KeepAll), 2);
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthLastUserMessage(0)), 2);
}

#[test]
fn truncates_rollout_from_start_applies_thread_rollback_markers() {
    // u2 was rolled back, so the effective user messages are u1, u3, u4.
    let items = vec![user("u1"), user("u2"), rollback(1), user("u3"), user("u4")];
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthUserMessage(1)), 3);
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthLastUserMessage(1)), 4);
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthLastUserMessage(2)), 3);
}

#[test]
fn ignores_session_prefix_messages_when_truncating_rollout_from_start() {
    let items = vec![
        RolloutItem::ResponseItem(ResponseItem::developer_text("instructions")),
        env_context(),
        user("u1"),
        assistant("a1"),
    ];
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthUserMessage(0)), 2);
    // More turns than exist: keep only what precedes the first user message.
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthLastUserMessage(9)), 2);
}

#[test]
fn cut_moves_up_to_the_turn_start() {
    let items = vec![
        started("t1"),
        user("u1"),
        turn_context(),
        assistant("a1"),
        complete("t1"),
        started("t2"),
        env_context(),
        user("u2"),
        turn_context(),
        assistant("a2"),
        complete("t2"),
    ];
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthLastUserMessage(1)), 5);
    assert_eq!(fork_cut(&items, ForkPoint::BeforeNthLastUserMessage(2)), 0);
    // Without a task_started the cut stays at the message.
    let legacy = vec![user("u1"), assistant("a1"), env_context(), user("u2")];
    assert_eq!(fork_cut(&legacy, ForkPoint::BeforeNthLastUserMessage(1)), 3);
}

fn rewrite() -> MetaRewrite {
    MetaRewrite {
        thread_id: ThreadId::new(),
        forked_from_id: ThreadId::new(),
        timestamp: "2030-01-01T00:00:00.000Z".to_string(),
        history_base: None,
    }
}

#[test]
fn meta_rewrite_keeps_every_other_key_in_order() -> TestResult {
    let rewrite = rewrite();
    let line = r#"{"timestamp":"2025-01-01T00:00:00.000Z","type":"session_meta","payload":{"session_id":"s","id":"old","timestamp":"2025","cwd":"/r","zz_new_key":{"b":1.50,"a":[1]},"originator":"x"},"extra":true}"#;
    let out = rewrite_session_meta_line(line, false, &rewrite)?;
    let id = rewrite.thread_id.to_string();
    let parent = rewrite.forked_from_id.to_string();
    let expected = format!(
        r#"{{"timestamp":"2030-01-01T00:00:00.000Z","type":"session_meta","payload":{{"session_id":"{id}","id":"{id}","forked_from_id":"{parent}","timestamp":"2030-01-01T00:00:00.000Z","cwd":"/r","zz_new_key":{{"b":1.50,"a":[1]}},"originator":"x"}},"extra":true}}"#
    );
    assert_eq!(out, expected);
    Ok(())
}

#[test]
fn meta_rewrite_of_classic_and_legacy_lines() -> TestResult {
    let rewrite = rewrite();
    let classic = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"old","forked_from_id":"older","timestamp":"t","instructions":null}}"#;
    let out: Value = serde_json::from_str(&rewrite_session_meta_line(classic, false, &rewrite)?)?;
    assert_eq!(out["payload"]["id"], json!(rewrite.thread_id.to_string()));
    assert_eq!(
        out["payload"]["forked_from_id"],
        json!(rewrite.forked_from_id.to_string())
    );
    assert_eq!(out["payload"].get("session_id"), None);
    let legacy = r#"{"id":"old","timestamp":"t","instructions":null,"git":null}"#;
    let out: Value = serde_json::from_str(&rewrite_session_meta_line(legacy, true, &rewrite)?)?;
    assert_eq!(out["id"], json!(rewrite.thread_id.to_string()));
    assert_eq!(out["git"], Value::Null);
    assert_eq!(out.get("payload"), None);
    Ok(())
}

#[test]
fn meta_rewrite_by_reference_sets_the_base_after_history_mode() -> TestResult {
    let mut rewrite = rewrite();
    let parent = rewrite.forked_from_id;
    rewrite.history_base = Some(HistoryBase {
        thread_id: parent,
        end_ordinal_exclusive: Some(7),
        end_byte_offset: Some(1234),
    });
    let line = r#"{"timestamp":"t","ordinal":0,"type":"session_meta","payload":{"id":"old","timestamp":"t","history_mode":"paginated","history_base":{"thread_id":"x"},"context_window":{"window_id":"w"}}}"#;
    let out = rewrite_session_meta_line(line, false, &rewrite)?;
    let base = format!(
        r#""history_base":{{"thread_id":"{parent}","end_ordinal_exclusive":7,"end_byte_offset":1234}}"#
    );
    assert!(
        out.contains(&format!(
            r#""history_mode":"paginated",{base},"context_window""#
        )),
        "{out}"
    );
    assert!(out.starts_with(r#"{"timestamp":"2030-01-01T00:00:00.000Z","ordinal":0,"#));
    let without_mode =
        r#"{"timestamp":"t","type":"session_meta","payload":{"id":"old","timestamp":"t"}}"#;
    let out = rewrite_session_meta_line(without_mode, false, &rewrite)?;
    assert!(out.ends_with(&format!("{base}}}}}")), "{out}");
    Ok(())
}

/// A paginated (`ordinals`) or legacy session: meta, then two turns.
fn session_bytes(source: ThreadId, ordinals: bool) -> Result<Vec<u8>, serde_json::Error> {
    let items = [
        RolloutItem::SessionMeta(Box::new(crate::recorder::new_session_meta(
            source, "/repo", "test",
        ))),
        started("t1"),
        user("u1"),
        assistant("a1"),
        complete("t1"),
        started("t2"),
        user("u2"),
        assistant("a2"),
        complete("t2"),
    ];
    let mut bytes = Vec::new();
    for (ordinal, item) in items.into_iter().enumerate() {
        let mut line = codex_protocol::rollout::RolloutLine::new("2025-01-01T00:00:00.000Z", item);
        line.ordinal = ordinals.then_some(ordinal as u64 + 10);
        bytes.extend(line.to_json_line()?.into_bytes());
        bytes.push(b'\n');
    }
    Ok(bytes)
}

#[test]
fn a_fork_by_reference_is_one_meta_line_naming_the_kept_prefix() -> TestResult {
    for ordinals in [true, false] {
        let source_id = ThreadId::new();
        let bytes = session_bytes(source_id, ordinals)?;
        let source = crate::load::load_rollout_bytes(bytes.clone(), "source.jsonl")?;
        let fork_id = ThreadId::new();
        let point = ForkPoint::BeforeNthLastUserMessage(1);
        let (out, summary) = fork_bytes(&source, point, fork_id, ForkMode::ByReference)?;
        // The cut is before the second turn's task_started, the sixth line.
        let prefix: usize = bytes
            .split_inclusive(|byte| *byte == b'\n')
            .take(5)
            .map(<[u8]>::len)
            .sum();
        let expected = HistoryBase {
            thread_id: source_id,
            end_ordinal_exclusive: ordinals.then_some(15),
            end_byte_offset: Some(prefix as u64),
        };
        assert_eq!(summary.history_base.as_ref(), Some(&expected));
        assert_eq!((summary.lines_written, summary.kept_items), (1, 5));
        let fork = crate::load::load_rollout_bytes(out.clone(), "fork.jsonl")?;
        assert_eq!(fork.thread_id, fork_id);
        assert_eq!(fork.contents.items().len(), 1);
        let Some(RolloutItem::SessionMeta(meta)) = fork.contents.items().first() else {
            return Err("no meta".into());
        };
        assert_eq!(meta.meta.history_base.as_ref(), Some(&expected));
        assert_eq!(meta.meta.forked_from_id, Some(source_id));
        // Keeping everything names the whole file, and the ordinal after the last.
        let (_, all) = fork_bytes(&source, ForkPoint::KeepAll, fork_id, ForkMode::ByReference)?;
        let all = all.history_base.ok_or("no base")?;
        assert_eq!(all.end_byte_offset, Some(bytes.len() as u64));
        assert_eq!(all.end_ordinal_exclusive, ordinals.then_some(19));
        // A copied fork of the same point writes no base.
        let (copied, summary) = fork_bytes(&source, point, fork_id, ForkMode::Copy)?;
        assert_eq!(summary.history_base, None);
        assert_eq!(summary.lines_written, 5);
        let copied = crate::load::load_rollout_bytes(copied, "copy.jsonl")?;
        let Some(RolloutItem::SessionMeta(meta)) = copied.contents.items().first() else {
            return Err("no meta".into());
        };
        assert_eq!(meta.meta.history_base, None);
    }
    Ok(())
}

#[test]
fn a_source_whose_ordinals_go_back_is_not_forked_by_reference() -> TestResult {
    let source_id = ThreadId::new();
    let text = String::from_utf8(session_bytes(source_id, true)?)?;
    // The fifth line's ordinal (14) becomes larger than the sixth's (15), where the fork cuts.
    let text = text.replacen(r#""ordinal":14"#, r#""ordinal":99"#, 1);
    let source = crate::load::load_rollout_bytes(text.into_bytes(), "source.jsonl")?;
    let point = ForkPoint::BeforeNthLastUserMessage(1);
    let result = fork_bytes(&source, point, ThreadId::new(), ForkMode::ByReference);
    assert!(
        matches!(
            &result,
            Err(ForkError::Prefix {
                problem: crate::history_base::PrefixProblem::Disagree { .. },
                ..
            })
        ),
        "{result:?}"
    );
    Ok(())
}
