//! The seams of a turn: the model call, tool execution and interruption.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use codex_protocol::event::TokenUsage;
use codex_protocol::models::ResponseItem;
use tokio::sync::watch;

use crate::prompt::EncodedRequest;

/// A boxed future, so the traits stay object-safe.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What one sampling request produced: the completed output items, in provider order, and the
/// token usage the provider reported.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelResponse {
    pub items: Vec<ResponseItem>,
    pub token_usage: Option<TokenUsage>,
}

impl ModelResponse {
    /// A response with `items` and no usage.
    pub fn new(items: Vec<ResponseItem>) -> Self {
        Self {
            items,
            token_usage: None,
        }
    }

    /// Adds reported usage.
    pub fn with_usage(mut self, usage: TokenUsage) -> Self {
        self.token_usage = Some(usage);
        self
    }
}

/// Why a sampling request failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The prompt does not fit the model's context window.
    #[error("context window exceeded")]
    ContextWindowExceeded,
    /// The stream broke or the provider returned an error.
    #[error("model stream failed: {0}")]
    Stream(String),
}

/// The model provider. A real client streams a Responses request; tests script the items.
pub trait ModelClient: Send + Sync + std::fmt::Debug {
    /// Sends one request and resolves with the completed output items.
    fn sample<'a>(
        &'a self,
        request: &'a EncodedRequest,
    ) -> BoxFuture<'a, Result<ModelResponse, ModelError>>;
}

/// Runs tool calls. Given a recorded call item, resolves with the output item that answers it
/// (`function_call_output`, `custom_tool_call_output` or `tool_search_output`).
pub trait ToolExecutor: Send + Sync + std::fmt::Debug {
    fn execute<'a>(&'a self, call: &'a ResponseItem) -> BoxFuture<'a, ResponseItem>;
}

/// A cloneable interruption flag for one turn: the person pressed Esc, a new submission
/// replaced the turn. Whoever holds a clone may interrupt; the turn driver races every model
/// call and tool run against it.
#[derive(Debug, Clone)]
pub struct TurnInterrupt {
    flag: Arc<watch::Sender<bool>>,
}

impl Default for TurnInterrupt {
    fn default() -> Self {
        Self::new()
    }
}

impl TurnInterrupt {
    /// A flag that is not set.
    pub fn new() -> Self {
        let (flag, _) = watch::channel(false);
        Self {
            flag: Arc::new(flag),
        }
    }

    /// Sets the flag; every waiter wakes up.
    pub fn interrupt(&self) {
        self.flag.send_replace(true);
    }

    /// Whether the flag is set.
    pub fn is_interrupted(&self) -> bool {
        *self.flag.borrow()
    }

    /// Resolves once the flag is set (immediately if it already is).
    pub async fn wait(&self) {
        let mut receiver = self.flag.subscribe();
        // The sender lives as long as `self`, so `wait_for` only ends when the flag is set.
        let _ = receiver.wait_for(|set| *set).await;
    }
}
