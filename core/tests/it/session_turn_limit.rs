//! A turn stopped by the sampling limit is closed as failed: an `error`, then a
//! `task_complete` carrying it, in the events and in what the rollout sink received.

use std::sync::Arc;

use codex_core::{
    InMemoryEventSink, InMemoryRolloutSink, ModelSettings, Session, SessionConfiguration,
};
use codex_core::{
    ModelResponse, ScriptedModel, ScriptedTools, TurnError, TurnInterrupt, TurnRunner,
};
use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput;
use pretty_assertions::assert_eq;

#[tokio::test]
async fn the_sampling_limit_closes_the_turn_as_failed() -> Result<(), Box<dyn std::error::Error>> {
    let rollout = InMemoryRolloutSink::new();
    let events = InMemoryEventSink::new();
    let session = Session::new(
        SessionConfiguration::new(ThreadId::new(), ModelSettings::new("gpt-test", "base")),
        Some(Arc::new(rollout.clone())),
        Arc::new(events.clone()),
    );
    // The model calls a tool on every request; the limit is two requests.
    let call = |id: &str| ResponseItem::function_call("lookup", "{}", id);
    let model = ScriptedModel::new(vec![
        ModelResponse::new(vec![call("c1")]),
        ModelResponse::new(vec![call("c2")]),
        ModelResponse::new(vec![call("c3")]),
    ]);
    let tools = ScriptedTools::new().with_output("lookup", "found");
    let turn = session.new_turn_context("turn-1").await;
    let result = TurnRunner::new(&model, &tools)
        .with_max_sampling_requests(2)
        .run(
            &session,
            &turn,
            &[UserInput::text("go")],
            &TurnInterrupt::new(),
        )
        .await;
    assert!(matches!(result, Err(TurnError::TooManySamplingRequests(2))));
    assert_eq!(model.requests().len(), 2);
    let names: Vec<&str> = events
        .snapshot()
        .iter()
        .map(|event| event.msg.type_name())
        .collect();
    assert_eq!(names[names.len() - 2..], ["error", "task_complete"]);
    let Some(EventMsg::TurnComplete(complete)) = events.snapshot().last().map(|e| e.msg.clone())
    else {
        return Err("no task_complete".into());
    };
    assert!(complete.error.is_some(), "the turn must be failed");
    // The sink got the closing event too, so a resume sees the turn closed.
    assert!(matches!(
        rollout.snapshot().last(),
        Some(RolloutItem::EventMsg(EventMsg::TurnComplete(_)))
    ));
    Ok(())
}
