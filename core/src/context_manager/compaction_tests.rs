use std::collections::VecDeque;

use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::TruncationPolicy;
use crate::context_manager::test_support::*;

/// A scripted model: pops one result per attempt and remembers the prompts it got.
struct ScriptedModel {
    script: VecDeque<Result<&'static str, AttemptError<&'static str>>>,
    prompts: Vec<Vec<ResponseItem>>,
}

impl ScriptedModel {
    fn new(script: Vec<Result<&'static str, AttemptError<&'static str>>>) -> Self {
        Self {
            script: script.into(),
            prompts: Vec::new(),
        }
    }
}

impl CompactionModel for ScriptedModel {
    type Output = &'static str;
    type Error = &'static str;

    fn attempt(
        &mut self,
        input: Vec<ResponseItem>,
    ) -> impl Future<Output = Result<Self::Output, AttemptError<Self::Error>>> + Send {
        self.prompts.push(input);
        let next = self
            .script
            .pop_front()
            .unwrap_or(Err(AttemptError::ContextWindowExceeded("always too big")));
        async move { next }
    }
}

const NO_WAIT: RetryPolicy = RetryPolicy {
    max_retries: 2,
    backoff: Duration::ZERO,
};

fn history() -> ContextManager {
    let mut history = ContextManager::new();
    history.record_items(
        &[
            function_call("old"),
            function_output("old", "result"),
            user("question"),
            assistant("answer"),
            user("compact please"),
        ],
        TruncationPolicy::Bytes(10_000),
    );
    history
}

#[tokio::test]
async fn overflow_drops_the_oldest_item_with_its_partner_and_retries() {
    let mut history = history();
    let session = history.clone();
    let mut model = ScriptedModel::new(vec![
        Err(AttemptError::ContextWindowExceeded("too big")),
        Ok("summary"),
    ]);
    let run =
        run_compaction_attempts(&mut history, &[InputModality::Text], &mut model, NO_WAIT).await;
    let run = run.map_err(|err| err.to_string());
    assert_eq!(run.as_ref().map(|run| run.output), Ok("summary"));
    assert_eq!(run.map(|run| run.trimmed_items), Ok(2));
    assert_eq!(model.prompts[0].len(), 5);
    assert_eq!(
        model.prompts[1],
        vec![
            user("question"),
            assistant("answer"),
            user("compact please")
        ]
    );
    assert_eq!(session.len(), 5, "the session's history is not touched");
}

#[tokio::test]
async fn overflow_with_one_item_left_stops_with_an_error() {
    let mut history = history();
    let mut model = ScriptedModel::new(Vec::new());
    let result =
        run_compaction_attempts(&mut history, &[InputModality::Text], &mut model, NO_WAIT).await;
    match result {
        Err(CompactionError::ContextWindowExceeded { items, .. }) => assert_eq!(items, 1),
        other => panic!("unexpected result {other:?}"),
    }
    // 5 items, then 3 (pair removed), then 2, then 1: four attempts.
    let lengths: Vec<usize> = model.prompts.iter().map(Vec::len).collect();
    assert_eq!(lengths, vec![5, 3, 2, 1]);
}

#[tokio::test]
async fn transient_failures_are_retried_then_given_up() {
    let mut history = history();
    let mut model = ScriptedModel::new(vec![
        Err(AttemptError::Retryable("flaky")),
        Err(AttemptError::Retryable("flaky")),
        Ok("summary"),
    ]);
    let run =
        run_compaction_attempts(&mut history, &[InputModality::Text], &mut model, NO_WAIT).await;
    assert_eq!(
        run.map(|run| run.output).map_err(|err| err.to_string()),
        Ok("summary")
    );

    let mut model = ScriptedModel::new(vec![
        Err(AttemptError::Retryable("flaky")),
        Err(AttemptError::Retryable("flaky")),
        Err(AttemptError::Retryable("flaky")),
    ]);
    let result =
        run_compaction_attempts(&mut history, &[InputModality::Text], &mut model, NO_WAIT).await;
    assert!(matches!(
        result,
        Err(CompactionError::RetriesExhausted { retries: 2, .. })
    ));
}

#[tokio::test]
async fn trimming_resets_the_retry_count() {
    let mut history = history();
    let mut model = ScriptedModel::new(vec![
        Err(AttemptError::Retryable("flaky")),
        Err(AttemptError::Retryable("flaky")),
        Err(AttemptError::ContextWindowExceeded("too big")),
        Err(AttemptError::Retryable("flaky")),
        Err(AttemptError::Retryable("flaky")),
        Ok("summary"),
    ]);
    let run =
        run_compaction_attempts(&mut history, &[InputModality::Text], &mut model, NO_WAIT).await;
    assert_eq!(
        run.map(|run| run.output).map_err(|err| err.to_string()),
        Ok("summary")
    );
}

#[tokio::test]
async fn fatal_errors_stop_at_once() {
    let mut history = history();
    let mut model = ScriptedModel::new(vec![Err(AttemptError::Fatal("interrupted"))]);
    let result =
        run_compaction_attempts(&mut history, &[InputModality::Text], &mut model, NO_WAIT).await;
    assert!(matches!(result, Err(CompactionError::Fatal("interrupted"))));
    assert_eq!(model.prompts.len(), 1);
}

#[tokio::test]
async fn each_attempt_sends_a_normalized_projection() {
    let mut history = ContextManager::new();
    history.record_items(
        &[user("q"), function_call("open")],
        TruncationPolicy::Bytes(100),
    );
    let mut model = ScriptedModel::new(vec![Ok("done")]);
    let run =
        run_compaction_attempts(&mut history, &[InputModality::Text], &mut model, NO_WAIT).await;
    assert!(run.is_ok());
    assert_eq!(model.prompts[0].len(), 3);
    assert_eq!(
        history.len(),
        2,
        "the synthesized output is not written back"
    );
}
