use super::*;
use codex_protocol::event::Event;
use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

#[tokio::test]
async fn in_memory_rollout_sink_keeps_order_and_counts_flushes() -> Result<(), SinkError> {
    let sink = InMemoryRolloutSink::new();
    let shared: Arc<dyn RolloutSink> = Arc::new(sink.clone());
    let first = [RolloutItem::ResponseItem(ResponseItem::user_text("one"))];
    let second = [
        RolloutItem::ResponseItem(ResponseItem::user_text("two")),
        RolloutItem::ResponseItem(ResponseItem::user_text("three")),
    ];
    shared.record(&first).await?;
    shared.record(&second).await?;
    shared.flush().await?;
    let texts: Vec<String> = sink
        .snapshot()
        .iter()
        .filter_map(|item| match item {
            RolloutItem::ResponseItem(item) => item
                .message_content()
                .and_then(|content| content.first())
                .and_then(|part| part.text())
                .map(str::to_string),
            _ => None,
        })
        .collect();
    assert_eq!(texts, vec!["one", "two", "three"]);
    assert_eq!(sink.flush_count(), 1);
    Ok(())
}

#[tokio::test]
async fn closed_rollout_sink_refuses_records() {
    let sink = InMemoryRolloutSink::new();
    sink.close();
    let items = [RolloutItem::ResponseItem(ResponseItem::user_text("late"))];
    assert!(matches!(sink.record(&items).await, Err(SinkError::Closed)));
    assert!(matches!(sink.flush().await, Err(SinkError::Closed)));
    assert!(sink.snapshot().is_empty());
}

#[tokio::test]
async fn in_memory_event_sink_drains_in_order() -> Result<(), SinkError> {
    let sink = InMemoryEventSink::new();
    let shared: Arc<dyn EventSink> = Arc::new(sink.clone());
    for id in ["a", "b"] {
        shared
            .send(Event {
                id: id.to_string(),
                msg: EventMsg::ShutdownComplete,
            })
            .await?;
    }
    let ids: Vec<String> = sink.drain().into_iter().map(|event| event.id).collect();
    assert_eq!(ids, vec!["a", "b"]);
    assert!(sink.snapshot().is_empty());
    Ok(())
}
