//! Scripted stand-ins for the model and the tools: fixed items, no network, no processes.
//!
//! They drive [`super::TurnRunner`] deterministically, in this crate's tests and in other
//! crates that want a realistic session (for example a sample rollout file written by the real
//! recorder).

use std::collections::HashMap;
use std::collections::VecDeque;
use std::sync::Mutex;

use codex_protocol::call_pairing::ToolCallKind;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;

use super::model::BoxFuture;
use super::model::ModelClient;
use super::model::ModelError;
use super::model::ModelResponse;
use super::model::ToolExecutor;
use super::model::ToolRun;
use super::model::TurnInterrupt;
use crate::prompt::EncodedRequest;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A [`ModelClient`] that answers each request with the next scripted response and remembers
/// every request it received, so a test can inspect exactly what the model was sent.
#[derive(Debug, Default)]
pub struct ScriptedModel {
    responses: Mutex<VecDeque<Result<ModelResponse, ModelError>>>,
    requests: Mutex<Vec<EncodedRequest>>,
}

impl ScriptedModel {
    /// A model that returns `responses` in order; once they run out, every request fails with
    /// a stream error.
    pub fn new(responses: Vec<ModelResponse>) -> Self {
        Self {
            responses: Mutex::new(responses.into_iter().map(Ok).collect()),
            requests: Mutex::new(Vec::new()),
        }
    }

    /// Appends a scripted failure.
    pub fn then_fail(self, error: ModelError) -> Self {
        lock(&self.responses).push_back(Err(error));
        self
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<EncodedRequest> {
        lock(&self.requests).clone()
    }
}

impl ModelClient for ScriptedModel {
    fn sample<'a>(
        &'a self,
        request: &'a EncodedRequest,
    ) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(async move {
            lock(&self.requests).push(request.clone());
            lock(&self.responses)
                .pop_front()
                .unwrap_or_else(|| Err(ModelError::Stream("script exhausted".to_string())))
        })
    }
}

/// A [`ToolExecutor`] that answers calls by tool name with fixed text (and, when scripted, an
/// exit code), optionally interrupting the turn when a given tool runs (the run then never
/// finishes, like a long command the person gave up on).
#[derive(Debug, Default)]
pub struct ScriptedTools {
    outputs: HashMap<String, String>,
    exit_codes: HashMap<String, i32>,
    interrupt_on: Option<(String, TurnInterrupt)>,
}

impl ScriptedTools {
    /// No scripted tools: every call answers `unknown tool`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls of `tool` answer `output`.
    pub fn with_output(mut self, tool: impl Into<String>, output: impl Into<String>) -> Self {
        self.outputs.insert(tool.into(), output.into());
        self
    }

    /// Calls of `tool` exit with `exit_code` (a failed command when it is not 0; the output
    /// item then says `success: false`). Without one, a run reports no exit code.
    pub fn with_exit_code(mut self, tool: impl Into<String>, exit_code: i32) -> Self {
        self.exit_codes.insert(tool.into(), exit_code);
        self
    }

    /// A call of `tool` sets `interrupt` and never completes.
    pub fn interrupting(mut self, tool: impl Into<String>, interrupt: TurnInterrupt) -> Self {
        self.interrupt_on = Some((tool.into(), interrupt));
        self
    }
}

/// The name of the tool a call item invokes (`local_shell` and `tool_search` for the
/// built-ins without a name).
fn tool_name(call: &ResponseItem) -> &str {
    match call {
        ResponseItem::FunctionCall { name, .. } | ResponseItem::CustomToolCall { name, .. } => name,
        ResponseItem::LocalShellCall { .. } => "local_shell",
        ResponseItem::ToolSearchCall { .. } => "tool_search",
        _ => "",
    }
}

/// The output item answering `call` with `text`, of the family the call's kind requires.
pub fn output_for_call(call: &ResponseItem, text: &str) -> ResponseItem {
    let call_id = call.call_id().unwrap_or_default().to_string();
    match call.call_link().map(|link| link.kind) {
        Some(ToolCallKind::CustomTool) => ResponseItem::custom_tool_call_output(call_id, text),
        Some(ToolCallKind::ToolSearch) => ResponseItem::ToolSearchOutput {
            id: None,
            call_id: Some(call_id),
            status: "completed".to_string(),
            execution: "client".to_string(),
            tools: Vec::new(),
            internal_chat_message_metadata_passthrough: None,
        },
        _ => {
            ResponseItem::function_call_output(call_id, FunctionCallOutputPayload::from_text(text))
        }
    }
}

impl ToolExecutor for ScriptedTools {
    fn execute<'a>(&'a self, call: &'a ResponseItem) -> BoxFuture<'a, ResponseItem> {
        Box::pin(async move { self.run(call).await.output })
    }

    fn run<'a>(&'a self, call: &'a ResponseItem) -> BoxFuture<'a, ToolRun> {
        Box::pin(async move {
            let name = tool_name(call);
            if let Some((tool, interrupt)) = &self.interrupt_on
                && tool == name
            {
                interrupt.interrupt();
                std::future::pending::<()>().await;
            }
            let text = self
                .outputs
                .get(name)
                .cloned()
                .unwrap_or_else(|| format!("unknown tool: {name}"));
            let mut output = output_for_call(call, &text);
            let Some(&exit_code) = self.exit_codes.get(name) else {
                return ToolRun::new(output);
            };
            if exit_code != 0
                && let ResponseItem::FunctionCallOutput { output, .. }
                | ResponseItem::CustomToolCallOutput { output, .. } = &mut output
            {
                output.success = Some(false);
            }
            ToolRun::new(output)
                .with_exit_code(exit_code)
                .with_stdout(text)
        })
    }
}
