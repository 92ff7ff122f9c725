//! The recorder's guarantees, on real files in a temporary home.

use crate::common;

use std::sync::Arc;

use codex_core::{RolloutSink, SinkError};
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::new_session_meta;
use codex_rollout::{CodexHome, RolloutError, RolloutRecorder};
use common::{TestResult, event, read_items, read_texts, user};
use pretty_assertions::assert_eq;
use serde_json::json;

fn new_recorder(home: &CodexHome) -> Result<RolloutRecorder, RolloutError> {
    RolloutRecorder::create(home, new_session_meta(ThreadId::new(), "/work", "tests"))
}

fn texts(prefix: &str, range: std::ops::Range<usize>) -> Vec<String> {
    range.map(|i| format!("{prefix}{i}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_on_disk_before_the_first_persist() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path().join("home"));
    let recorder = new_recorder(&home)?;
    let path = recorder.rollout_path().to_path_buf();
    assert!(path.starts_with(home.sessions_dir()));

    // Flushing an empty deferred session creates nothing.
    recorder.flush().await?;
    recorder.record_items(&[user("a"), user("b")]).await?;
    // Give the writer every chance to (wrongly) write in the background.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert!(!home.root.exists(), "home created before persist");

    recorder.persist().await?;
    let items = read_items(&path)?;
    assert!(matches!(items.first(), Some(RolloutItem::SessionMeta(_))));
    assert_eq!(read_texts(&path)?, vec!["a", "b"]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flush_with_pending_items_materializes_with_session_meta_first() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let recorder = new_recorder(&home)?;
    recorder.record_items(&[user("only")]).await?;
    recorder.flush().await?;
    let items = read_items(recorder.rollout_path())?;
    assert_eq!(items.len(), 2);
    match &items[0] {
        RolloutItem::SessionMeta(meta) => assert_eq!(meta.meta.originator, "tests"),
        other => return Err(format!("first line is {other:?}").into()),
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn persist_is_idempotent() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let recorder = new_recorder(&CodexHome::new(tmp.path()))?;
    let path = recorder.rollout_path().to_path_buf();
    recorder.persist().await?;
    let after_first = std::fs::read(&path)?;
    assert_eq!(read_items(&path)?.len(), 1, "only the session meta");
    recorder.persist().await?;
    recorder.persist().await?;
    assert_eq!(std::fs::read(&path)?, after_first);

    recorder.record_items(&[user("x")]).await?;
    recorder.persist().await?;
    recorder.persist().await?;
    assert_eq!(read_texts(&path)?, vec!["x"]);
    assert_eq!(read_items(&path)?.len(), 2, "one session meta, one item");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn order_is_kept_across_many_concurrent_recorders() -> TestResult {
    const SESSIONS: usize = 24;
    const ITEMS: usize = 300;
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let mut tasks = Vec::new();
    for session in 0..SESSIONS {
        let recorder = new_recorder(&home)?;
        tasks.push(tokio::spawn(async move {
            for i in 0..ITEMS {
                // Mix single items, batches and barriers so the writer's batching is exercised.
                if i % 7 == 0 {
                    recorder.flush().await?;
                }
                let text = format!("s{session}-{i}");
                recorder.record_items(&[user(&text)]).await?;
                if i % 50 == 0 {
                    tokio::task::yield_now().await;
                }
            }
            recorder.shutdown().await?;
            Ok::<_, RolloutError>(recorder.rollout_path().to_path_buf())
        }));
    }
    let mut paths = Vec::new();
    for task in tasks {
        paths.push(task.await??);
    }
    for (session, path) in paths.iter().enumerate() {
        assert_eq!(read_texts(path)?, texts(&format!("s{session}-"), 0..ITEMS));
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clones_of_one_recorder_share_one_ordered_file() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let recorder = new_recorder(&CodexHome::new(tmp.path()))?;
    let clone = recorder.clone();
    for i in 0..100 {
        let handle = if i % 2 == 0 { &recorder } else { &clone };
        handle.record_items(&[user(&format!("c{i}"))]).await?;
    }
    clone.flush().await?;
    assert_eq!(read_texts(recorder.rollout_path())?, texts("c", 0..100));
    Ok(())
}

/// Tests run as root, where permission bits do not stop writes: the failure is provoked by
/// making the home a regular *file*, so the session folders cannot be created under it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_failure_is_reported_and_the_items_are_written_by_a_later_flush() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home_path = tmp.path().join("home");
    std::fs::write(&home_path, b"not a folder")?;
    let recorder = new_recorder(&CodexHome::new(&home_path))?;
    recorder
        .record_items(&[user("kept-1"), user("kept-2")])
        .await?;

    let err = recorder
        .persist()
        .await
        .err()
        .ok_or("persist should fail")?;
    match &err {
        RolloutError::Io { action, path, .. } => {
            assert_eq!(*action, "create session directory");
            assert!(path.starts_with(&home_path));
        }
        other => return Err(format!("unexpected error {other:?}").into()),
    }
    // The sink contract reports it as an I/O error too.
    let as_sink: &dyn RolloutSink = &recorder;
    assert!(matches!(as_sink.flush().await, Err(SinkError::Io(_))));

    // More items are still accepted while the disk is failing.
    recorder.record_items(&[user("kept-3")]).await?;

    std::fs::remove_file(&home_path)?;
    recorder.flush().await?;
    let path = recorder.rollout_path();
    assert!(matches!(
        read_items(path)?.first(),
        Some(RolloutItem::SessionMeta(_))
    ));
    assert_eq!(read_texts(path)?, vec!["kept-1", "kept-2", "kept-3"]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_shutdown_keeps_the_writer_so_it_can_be_retried() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home_path = tmp.path().join("home");
    std::fs::write(&home_path, b"not a folder")?;
    let recorder = new_recorder(&CodexHome::new(&home_path))?;
    recorder.record_items(&[user("last words")]).await?;
    assert!(recorder.shutdown().await.is_err());
    std::fs::remove_file(&home_path)?;
    recorder.shutdown().await?;
    assert_eq!(read_texts(recorder.rollout_path())?, vec!["last words"]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_drains_everything_then_refuses_more() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let recorder = new_recorder(&CodexHome::new(tmp.path()))?;
    recorder.persist().await?;
    // Far more than the channel holds, with no barrier in between.
    for i in 0..2_000 {
        recorder.record_items(&[user(&format!("d{i}"))]).await?;
    }
    recorder.shutdown().await?;
    assert_eq!(read_texts(recorder.rollout_path())?, texts("d", 0..2_000));

    assert!(matches!(
        recorder.record_items(&[user("late")]).await,
        Err(RolloutError::Closed { .. })
    ));
    assert!(matches!(
        recorder.flush().await,
        Err(RolloutError::Closed { .. })
    ));
    let as_sink: &dyn RolloutSink = &recorder;
    assert!(matches!(
        as_sink.record(&[user("late")]).await,
        Err(SinkError::Closed)
    ));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sink_applies_the_persistence_policy() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let recorder = new_recorder(&CodexHome::new(tmp.path()))?;
    let sink: Arc<dyn RolloutSink> = Arc::new(recorder.clone());
    let thread = ThreadId::new().to_string();
    sink.record(&[
        event(json!({"type": "task_started", "turn_id": "t1"}))?,
        event(
            json!({"type": "agent_message_content_delta", "thread_id": thread,
                     "turn_id": "t1", "item_id": "i", "delta": "par"}),
        )?,
        user("kept"),
        event(json!({"type": "exec_approval_request", "call_id": "c", "command": [], "cwd": "/"}))?,
        event(json!({"type": "task_complete", "turn_id": "t1"}))?,
    ])
    .await?;
    sink.flush().await?;
    let tags: Vec<String> = read_items(recorder.rollout_path())?
        .iter()
        .map(|item| match item {
            RolloutItem::EventMsg(event) => event.type_name().to_string(),
            other => other.tag().to_string(),
        })
        .collect();
    assert_eq!(
        tags,
        vec![
            "session_meta",
            "task_started",
            "response_item",
            "task_complete"
        ]
    );

    // The unfiltered entry point writes what it is given.
    recorder
        .record_canonical_items(&[event(json!({"type": "plan_update", "plan": []}))?])
        .await?;
    recorder.flush().await?;
    assert_eq!(read_items(recorder.rollout_path())?.len(), 5);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_appends_after_terminating_a_torn_last_line() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let first = new_recorder(&CodexHome::new(tmp.path()))?;
    first.record_items(&[user("before")]).await?;
    first.shutdown().await?;
    let path = first.rollout_path().to_path_buf();
    // A writer killed mid-line leaves a torn last line.
    let mut bytes = std::fs::read(&path)?;
    bytes.extend_from_slice(br#"{"timestamp":"2025-01-01T00:00:00.000Z","type":"resp"#);
    std::fs::write(&path, &bytes)?;

    let resumed = RolloutRecorder::resume(&path).await?;
    resumed.record_items(&[user("after")]).await?;
    resumed.flush().await?;

    let written = std::fs::read(&path)?;
    assert!(
        written.starts_with(&bytes),
        "existing bytes are never rewritten"
    );
    let rest = std::str::from_utf8(&written[bytes.len()..])?;
    assert!(rest.starts_with('\n'), "torn line terminated first");
    let appended = codex_protocol::rollout::parse_rollout_line(&rest.as_bytes()[1..])?;
    assert_eq!(
        appended.item().and_then(common::message_text),
        Some("after")
    );
    // One session meta only: resume does not write a new one.
    let metas = written
        .split(|b| *b == b'\n')
        .filter(|line| line.windows(16).any(|w| w == b"\"session_meta\",\""))
        .count();
    assert_eq!(metas, 1);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_of_a_clean_file_adds_no_blank_line_and_missing_file_is_an_error() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let first = new_recorder(&CodexHome::new(tmp.path()))?;
    first.record_items(&[user("one")]).await?;
    first.shutdown().await?;
    let resumed = RolloutRecorder::resume(first.rollout_path()).await?;
    resumed.record_items(&[user("two")]).await?;
    resumed.shutdown().await?;
    // `read_items` fails on a blank line, so this also proves no empty line was inserted.
    assert_eq!(read_texts(first.rollout_path())?, vec!["one", "two"]);

    let missing = RolloutRecorder::resume(tmp.path().join("nope.jsonl")).await;
    assert!(matches!(missing, Err(RolloutError::Io { .. })));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn line_timestamps_are_utc_milliseconds() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let recorder = new_recorder(&CodexHome::new(tmp.path()))?;
    recorder.record_items(&[user("t")]).await?;
    recorder.flush().await?;
    for line in std::fs::read_to_string(recorder.rollout_path())?.lines() {
        let parsed = codex_protocol::rollout::parse_rollout_line(line.as_bytes())?;
        let timestamp = &parsed.line().ok_or("no line")?.timestamp;
        assert_eq!(timestamp.len(), 24, "{timestamp}");
        assert!(timestamp.ends_with('Z'), "{timestamp}");
        chrono::DateTime::parse_from_rfc3339(timestamp)?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_every_handle_writes_a_materialized_file_but_creates_no_deferred_one() -> TestResult
{
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let persisted = new_recorder(&home)?;
    persisted.persist().await?;
    persisted
        .record_items(&[user("dropped-1"), user("dropped-2")])
        .await?;
    let path = persisted.rollout_path().to_path_buf();
    drop(persisted);

    let deferred = new_recorder(&home)?;
    deferred
        .record_items(&[user("never asked to exist")])
        .await?;
    let deferred_path = deferred.rollout_path().to_path_buf();
    drop(deferred);

    // The writer finishes on its own task; give it a moment.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while read_texts(&path)?.len() < 2 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(read_texts(&path)?, vec!["dropped-1", "dropped-2"]);
    assert!(!deferred_path.exists());
    Ok(())
}
