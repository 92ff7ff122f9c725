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
            tag: "brand_new_line".to_string(),
            payload: None,
        }),
        RolloutItem::InterAgentCommunicationMetadata(
            codex_protocol::rollout::InterAgentCommunicationMetadata { trigger_turn: true },
        ),
    ];
    let timestamp = "2025-09-24T19:22:20.123Z";
    for item in items {
        let mut ours = Vec::new();
        append_line(&mut ours, timestamp, &mut None, &item)?;
        let expected = RolloutLine::new(timestamp, item.clone()).to_json_line()? + "\n";
        assert_eq!(String::from_utf8(ours.clone())?, expected);
        let parsed = parse_rollout_line(&ours)?;
        assert_eq!(parsed.item(), Some(&item));
        // A paginated line carries the next ordinal, which then advances.
        let mut numbered = Vec::new();
        let mut ordinal = Some(41);
        append_line(&mut numbered, timestamp, &mut ordinal, &item)?;
        assert_eq!(ordinal, Some(42));
        let mut line = RolloutLine::new(timestamp, item.clone());
        line.ordinal = Some(41);
        assert_eq!(String::from_utf8(numbered)?, line.to_json_line()? + "\n");
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

/// One line per call, far more than the staging bound, on a runtime where the writer task
/// only runs when the producer waits: every call returns with less than the bound staged
/// (back-pressure), and the file then holds every line once, in order, after the meta.
#[test]
fn a_producer_far_ahead_of_the_writer_is_held_back_and_loses_nothing()
-> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let tmp = tempfile::tempdir()?;
    let path = tmp.path().join("rollout.jsonl");
    let pad = "y".repeat(1000);
    let count = 3 * writer::MAX_STAGED_BYTES / 1000;
    runtime.block_on(async {
        let recorder =
            RolloutRecorder::create_at(&path, new_session_meta(ThreadId::new(), "/w", "tests"))?;
        recorder.persist().await?;
        for i in 0..count {
            let item = RolloutItem::ResponseItem(ResponseItem::user_text(format!("{i} {pad}")));
            recorder.record_items(std::slice::from_ref(&item)).await?;
            let staged = recorder.inner.staging.lock().bytes.len();
            assert!(staged < writer::MAX_STAGED_BYTES, "{staged} bytes staged");
        }
        recorder.shutdown().await?;
        Ok::<_, Box<dyn std::error::Error>>(())
    })?;
    let text = std::fs::read_to_string(&path)?;
    let mut lines = text.lines();
    let first = parse_rollout_line(lines.next().ok_or("empty file")?.as_bytes())?;
    assert!(matches!(first.item(), Some(RolloutItem::SessionMeta(_))));
    let mut seen = 0;
    for (i, line) in lines.enumerate() {
        let parsed = parse_rollout_line(line.as_bytes())?;
        let expected = RolloutItem::ResponseItem(ResponseItem::user_text(format!("{i} {pad}")));
        assert_eq!(parsed.item(), Some(&expected));
        seen += 1;
    }
    assert_eq!(seen, count);
    Ok(())
}

/// Lines recorded by another handle while a shutdown drains are written before the task
/// stops, never silently dropped; recording after the shutdown is refused.
#[test]
fn lines_racing_a_shutdown_are_written_or_refused_never_dropped()
-> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let tmp = tempfile::tempdir()?;
    let path = tmp.path().join("rollout.jsonl");
    let accepted = runtime.block_on(async {
        let recorder =
            RolloutRecorder::create_at(&path, new_session_meta(ThreadId::new(), "/w", "tests"))?;
        recorder.persist().await?;
        let racer = recorder.clone();
        let racing = tokio::spawn(async move {
            let mut accepted = 0usize;
            for i in 0..20_000 {
                let item = RolloutItem::ResponseItem(ResponseItem::user_text(format!("{i}")));
                if racer.record_items(&[item]).await.is_err() {
                    break;
                }
                accepted += 1;
                tokio::task::yield_now().await;
            }
            accepted
        });
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        recorder.shutdown().await?;
        let accepted = racing.await?;
        Ok::<_, Box<dyn std::error::Error>>(accepted)
    })?;
    let written = std::fs::read_to_string(&path)?.lines().count() - 1;
    assert_eq!(written, accepted);
    Ok(())
}
