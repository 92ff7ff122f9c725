//! The compaction request loop: ask the model to summarize history, shrinking the history
//! from its oldest end while the request does not fit the context window.
//!
//! Compaction runs exactly when history has grown too large, so its own request can overflow.
//! The loop works on its own snapshot of history (the session's history is not touched): each
//! attempt projects the snapshot for the prompt, and an overflow removes the oldest item (with
//! its call/output partner) and tries again. The model call is behind [`CompactionModel`], so
//! the loop is tested without a provider.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use codex_protocol::models::ResponseItem;

use super::ContextManager;
use super::modality::InputModality;

/// How one model attempt failed.
#[derive(Debug)]
pub enum AttemptError<E> {
    /// The prompt does not fit the model's context window.
    ContextWindowExceeded(E),
    /// A transient failure (stream dropped, server busy): the same prompt may succeed later.
    Retryable(E),
    /// Anything else (interrupted, aborted, budget exhausted): stop now.
    Fatal(E),
}

/// The model side of a compaction: sends one prompt and drains the response.
pub trait CompactionModel {
    /// What a successful attempt yields (for example the summary text).
    type Output;
    /// The provider's error type.
    type Error;

    /// Sends `input` (the normalized history) and waits for the whole response.
    fn attempt(
        &mut self,
        input: Vec<ResponseItem>,
    ) -> impl Future<Output = Result<Self::Output, AttemptError<Self::Error>>> + Send;
}

/// Limits of the retry loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Transient failures tolerated in a row before giving up. Trimming resets the count.
    pub max_retries: u32,
    /// Base wait before retrying a transient failure; doubles per consecutive retry.
    pub backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 5,
            backoff: Duration::from_millis(200),
        }
    }
}

/// Why the compaction request loop stopped without a result.
#[derive(Debug, thiserror::Error)]
pub enum CompactionError<E: fmt::Debug> {
    /// Even a prompt of at most one item overflowed: nothing is left to remove.
    #[error("context window exceeded with {items} item(s) left; cannot trim further: {source:?}")]
    ContextWindowExceeded {
        /// Items left in the prompt that overflowed.
        items: usize,
        /// The model's answer.
        source: E,
    },
    /// Transient failures exhausted the retry budget.
    #[error("compaction failed after {retries} retries: {source:?}")]
    RetriesExhausted {
        /// Retries made.
        retries: u32,
        /// The last failure.
        source: E,
    },
    /// A failure that is not worth retrying.
    #[error("compaction failed: {0:?}")]
    Fatal(E),
}

/// The result of a successful loop: the model's output and how much history had to go.
#[derive(Debug)]
pub struct CompactionRun<T> {
    /// What the model returned.
    pub output: T,
    /// History items removed from the oldest end (partners included) to make the prompt fit.
    pub trimmed_items: usize,
}

/// Runs compaction attempts over `history` (a snapshot owned by the compaction task).
///
/// On overflow with more than one prompt item, removes the oldest history item and its
/// partner, resets the retry count and tries again; with one item or none, stops with
/// [`CompactionError::ContextWindowExceeded`] instead of looping on an empty history.
/// Transient failures are retried up to `retry.max_retries` times with exponential backoff.
pub async fn run_compaction_attempts<M>(
    history: &mut ContextManager,
    input_modalities: &[InputModality],
    model: &mut M,
    retry: RetryPolicy,
) -> Result<CompactionRun<M::Output>, CompactionError<M::Error>>
where
    M: CompactionModel,
    M::Error: fmt::Debug,
{
    let mut retries = 0u32;
    let mut trimmed_items = 0usize;
    loop {
        let input = history.clone().for_prompt(input_modalities);
        let prompt_len = input.len();
        match model.attempt(input).await {
            Ok(output) => {
                return Ok(CompactionRun {
                    output,
                    trimmed_items,
                });
            }
            Err(AttemptError::ContextWindowExceeded(source)) => {
                if prompt_len <= 1 {
                    return Err(CompactionError::ContextWindowExceeded {
                        items: prompt_len,
                        source,
                    });
                }
                tracing::warn!(
                    error = ?source,
                    "Context window exceeded while compacting; removing oldest history item."
                );
                trimmed_items += history.remove_first_item();
                retries = 0;
            }
            Err(AttemptError::Retryable(source)) => {
                if retries >= retry.max_retries {
                    return Err(CompactionError::RetriesExhausted { retries, source });
                }
                retries += 1;
                tracing::warn!(error = ?source, "Reconnecting... {retries}/{}", retry.max_retries);
                let wait = retry.backoff.saturating_mul(1u32 << (retries - 1).min(16));
                if !wait.is_zero() {
                    tokio::time::sleep(wait).await;
                }
            }
            Err(AttemptError::Fatal(source)) => return Err(CompactionError::Fatal(source)),
        }
    }
}

#[cfg(test)]
#[path = "compaction_tests.rs"]
mod tests;
