//! Unit tests of `InitialHistory`: accessors per variant and serde round trip.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::rollout::{SessionMeta, TurnContextItem};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const PARENT: &str = "0199a1b2-0000-7000-8000-00000000000a";
const CHILD: &str = "0199a1b2-0000-7000-8000-00000000000b";

fn items() -> Result<Vec<RolloutItem>, Box<dyn std::error::Error>> {
    let mut meta = SessionMeta::new(ThreadId::from_string(CHILD)?, "t", "/repo", "o", "1");
    meta.forked_from_id = Some(ThreadId::from_string(PARENT)?);
    meta.base_instructions = Some(BaseInstructions::new("be kind"));
    meta.dynamic_tools = Some(json!([{"name": "tool"}]));
    let mut later = SessionMeta::new(ThreadId::new(), "t", "/elsewhere", "o", "1");
    later.base_instructions = Some(BaseInstructions::new("ignored"));
    Ok(vec![
        RolloutItem::SessionMeta(Box::new(SessionMetaLine { meta, git: None })),
        RolloutItem::TurnContext(Box::new(TurnContextItem::new(
            "/repo",
            json!("never"),
            json!({"type": "danger-full-access"}),
            "gpt-5",
        ))),
        RolloutItem::EventMsg(serde_json::from_value(
            json!({"type": "context_compacted"}),
        )?),
        RolloutItem::SessionMeta(Box::new(SessionMetaLine {
            meta: later,
            git: None,
        })),
    ])
}

#[test]
fn accessors_read_the_first_session_meta() -> TestResult {
    let resumed = InitialHistory::Resumed(ResumedHistory {
        conversation_id: ThreadId::from_string(CHILD)?,
        history: items()?,
        rollout_path: None,
    });
    assert_eq!(resumed.session_cwd(), Some(std::path::Path::new("/repo")));
    assert_eq!(
        resumed.get_base_instructions().map(|b| b.text.as_str()),
        Some("be kind")
    );
    assert_eq!(
        resumed.get_dynamic_tools(),
        Some(&json!([{"name": "tool"}]))
    );
    assert_eq!(resumed.get_rollout_items().len(), 4);
    assert_eq!(resumed.get_event_msgs().map(|events| events.len()), Some(1));
    Ok(())
}

#[test]
fn forked_from_id_depends_on_the_variant() -> TestResult {
    let resumed = InitialHistory::Resumed(ResumedHistory {
        conversation_id: ThreadId::from_string(CHILD)?,
        history: items()?,
        rollout_path: None,
    });
    assert_eq!(
        resumed.forked_from_id().map(|id| id.to_string()).as_deref(),
        Some(PARENT)
    );
    let forked = InitialHistory::Forked(items()?);
    assert_eq!(
        forked.forked_from_id().map(|id| id.to_string()).as_deref(),
        Some(CHILD)
    );
    Ok(())
}

#[test]
fn new_and_cleared_hold_nothing() {
    for history in [InitialHistory::New, InitialHistory::Cleared] {
        assert!(history.rollout_items().is_empty());
        assert_eq!(history.forked_from_id(), None);
        assert_eq!(history.session_cwd(), None);
        assert_eq!(history.get_event_msgs(), None);
    }
}

#[test]
fn initial_history_serde_round_trips() -> TestResult {
    let history = InitialHistory::Forked(items()?);
    let text = serde_json::to_string(&history)?;
    assert_eq!(serde_json::from_str::<InitialHistory>(&text)?, history);
    Ok(())
}

#[test]
fn the_newest_dynamic_tools_update_replaces_the_meta_s_tools() -> TestResult {
    let mut history = items()?;
    for name in ["first", "second"] {
        let line = format!(
            r#"{{"timestamp":"t","type":"dynamic_tools_updated","payload":{{"thread_id":"{CHILD}","tools":[{{"type":"function","name":"{name}"}}]}}}}"#
        );
        let parsed = crate::rollout::parse_rollout_line(line.as_bytes())?;
        history.push(parsed.item().cloned().ok_or("not an item")?);
    }
    let resumed = InitialHistory::Resumed(ResumedHistory {
        conversation_id: ThreadId::from_string(CHILD)?,
        history,
        rollout_path: None,
    });
    assert_eq!(
        resumed.get_dynamic_tools(),
        Some(&json!([{"type": "function", "name": "second"}]))
    );
    let items = resumed.get_rollout_items();
    let last = items.last().ok_or("no item")?;
    assert_eq!(last.tag(), "dynamic_tools_updated");
    assert!(last.is_read_by_codex());
    Ok(())
}
