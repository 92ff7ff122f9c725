use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, RolloutLine, UnknownRolloutItem, parse_rollout_line};
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;

/// The recorder writes lines by reference (no clone per item); they must be the very bytes
/// the protocol's own `RolloutLine` writes, and parse back to the same item.
#[test]
fn recorder_lines_match_the_protocol_envelope() -> Result<(), Box<dyn std::error::Error>> {
    let event: EventMsg = serde_json::from_str(r#"{"type":"user_message","message":"hi"}"#)?;
    let items = vec![
        RolloutItem::SessionMeta(Box::new(new_session_meta(ThreadId::new(), "/w", "tests"))),
        RolloutItem::ResponseItem(ResponseItem::user_text("hello")),
        RolloutItem::EventMsg(event),
        RolloutItem::Unknown(UnknownRolloutItem {
            tag: "world_state".to_string(),
            payload: None,
        }),
    ];
    let timestamp = "2025-09-24T19:22:20.123Z";
    for item in items {
        let mut ours = Vec::new();
        append_line(&mut ours, timestamp, &item)?;
        let expected = RolloutLine::new(timestamp, item.clone()).to_json_line()? + "\n";
        assert_eq!(String::from_utf8(ours.clone())?, expected);
        let parsed = parse_rollout_line(&ours)?;
        assert_eq!(parsed.item(), Some(&item));
    }
    Ok(())
}

#[test]
fn new_session_meta_dates_the_file_by_its_timestamp() -> Result<(), Box<dyn std::error::Error>> {
    let meta = new_session_meta(ThreadId::new(), "/w", "tests");
    let at = chrono::DateTime::parse_from_rfc3339(&meta.meta.timestamp)?;
    assert!((Utc::now() - at.with_timezone(&Utc)).num_seconds() < 60);
    assert_eq!(meta.meta.cli_version, env!("CARGO_PKG_VERSION"));
    Ok(())
}

#[test]
fn creating_outside_a_runtime_is_an_error_not_a_panic() {
    let meta = new_session_meta(ThreadId::new(), "/w", "tests");
    let made = RolloutRecorder::create_at("/nonexistent/rollout.jsonl", meta);
    assert!(matches!(made, Err(RolloutError::NoRuntime)));
}
