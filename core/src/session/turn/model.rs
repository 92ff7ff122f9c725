//! The seams of a turn: the model call, tool execution and interruption.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use codex_protocol::event::TokenUsage;
use codex_protocol::mcp::CallToolResult;
use codex_protocol::models::ResponseItem;
use tokio::sync::watch;

use crate::prompt::EncodedRequest;
use codex_protocol::tool_call::ToolInvocation;

/// A boxed future, so the traits stay object-safe.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What one sampling request produced: the completed output items, in provider order, and the
/// token usage the provider reported.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelResponse {
    /// The items the model produced, in order.
    pub items: Vec<ResponseItem>,
    /// What the response cost, when the provider said.
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
///
/// Only [`ToolExecutor::execute`] is required. An executor that knows more about a run (a
/// command's exit code, its duration, what it printed, an MCP server's answer) also implements
/// [`ToolExecutor::run`]; one that knows which of its tools are MCP tools or commands under
/// other names implements [`ToolExecutor::invocation`]. The turn driver calls `invocation`,
/// then `run`, never `execute` directly.
pub trait ToolExecutor: Send + Sync + std::fmt::Debug {
    /// Runs `call` and resolves with the output item that answers it.
    fn execute<'a>(&'a self, call: &'a ResponseItem) -> BoxFuture<'a, ResponseItem>;

    /// Runs `call` and resolves with its output item plus what a client is shown about the
    /// run. The default runs [`ToolExecutor::execute`] and reports nothing more, so the driver
    /// derives the rest from the output item (see [`ToolRun`]).
    fn run<'a>(&'a self, call: &'a ResponseItem) -> BoxFuture<'a, ToolRun> {
        Box::pin(async move { ToolRun::new(self.execute(call).await) })
    }

    /// What kind of tool `call` invokes, which decides the item a client sees for it. The
    /// default recognises the harness's tool names ([`ToolInvocation::of_call`]).
    fn invocation(&self, call: &ResponseItem) -> ToolInvocation {
        ToolInvocation::of_call(call)
    }
}

/// What one tool run produced: the output item that answers the call (recorded in history),
/// and the facts about the run a client is shown in the call's item. Every fact is optional;
/// the driver fills a missing one as each field says.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolRun {
    /// The output item answering the call.
    pub output: ResponseItem,
    /// A command's exit code. When absent: 1 if the output item says it failed
    /// (`success: false`), else 0.
    pub exit_code: Option<i32>,
    /// What the tool printed on stdout (for a command, stdout and stderr interleaved). When
    /// absent, the output item's text.
    pub stdout: Option<String>,
    /// What the tool printed on stderr (a patch's error). When absent, empty, or for a failed
    /// patch without `stdout`, the output item's text.
    pub stderr: Option<String>,
    /// How long the tool ran. When absent, the time the driver measured around the run.
    pub duration: Option<Duration>,
    /// An MCP server's answer (`Err` when the call failed before the server answered). When
    /// absent, a result holding the output item's text.
    pub mcp_result: Option<Result<CallToolResult, String>>,
}

impl ToolRun {
    /// A run known only by its output item.
    pub fn new(output: ResponseItem) -> Self {
        Self {
            output,
            exit_code: None,
            stdout: None,
            stderr: None,
            duration: None,
            mcp_result: None,
        }
    }

    /// Adds the command's exit code.
    pub fn with_exit_code(mut self, exit_code: i32) -> Self {
        self.exit_code = Some(exit_code);
        self
    }

    /// Adds what the tool printed on stdout.
    pub fn with_stdout(mut self, stdout: impl Into<String>) -> Self {
        self.stdout = Some(stdout.into());
        self
    }

    /// Adds what the tool printed on stderr.
    pub fn with_stderr(mut self, stderr: impl Into<String>) -> Self {
        self.stderr = Some(stderr.into());
        self
    }

    /// Adds how long the tool ran.
    pub fn with_duration(mut self, duration: Duration) -> Self {
        self.duration = Some(duration);
        self
    }

    /// Adds the MCP server's answer.
    pub fn with_mcp_result(mut self, result: Result<CallToolResult, String>) -> Self {
        self.mcp_result = Some(result);
        self
    }
}

impl From<ResponseItem> for ToolRun {
    fn from(output: ResponseItem) -> Self {
        Self::new(output)
    }
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
