//! One turn of the agent loop, against any [`ModelClient`] and [`ToolExecutor`].
//!
//! [`TurnRunner::run`] drives a turn the way the upstream session does, in this order:
//! 1. `task_started`, then the turn's settings (`turn_context`) when the runner has them
//!    ([`TurnRunner::with_turn_settings`]): every real file of a version that writes turn
//!    starts has them in this order, and the rollback segments (a segment runs from one
//!    `task_started` to the next) depend on it;
//! 2. on the thread's first turn, the initial context is recorded;
//! 3. the person's submission is recorded (`raw_response_item`, `item_started` /
//!    `item_completed` of the `UserMessage`, the legacy `user_message`);
//! 4. sampling: the prompt (session base instructions + history projection + tools) is
//!    encoded for the model's wire format and sent; every completed output item is recorded
//!    in provider order. A tool call is recorded *before* its tool runs;
//! 5. the calls run one by one; a command, a patch or an MCP call is announced as a turn item
//!    around its run (`item_started` and its begin event, the run, `item_completed` and its
//!    end event: `tool_items.rs`); each output is recorded; if there were calls, sample again
//!    (the follow-up), else the turn ends;
//! 6. `task_complete` with the last agent message.
//!
//! Every model call and tool run races the [`TurnInterrupt`]. On interruption the running
//! tool's item completes as failed, the turn records a `<turn_aborted>` context note and emits
//! `turn_aborted`; the call whose tool was running stays in history without an output, so the
//! next prompt answers it with a synthesized `aborted` output (prompt normalization) and the
//! model learns what happened.
//!
//! Every turn item the driver produces (user message, agent message, reasoning, tool items)
//! gets an `item_completed`, so a file that keeps those events (paginated history) holds the
//! whole client view.
//!
//! The driver is library code so that other crates can produce realistic sessions with a
//! scripted model ([`ScriptedModel`], [`ScriptedTools`]) and a real rollout recorder.

pub(crate) mod model;
pub(crate) mod scripted;
mod tool_items;

use codex_protocol::event::ErrorEvent;
use codex_protocol::event::EventMsg;
use codex_protocol::event::TokenCountEvent;
use codex_protocol::event::TurnAbortReason;
use codex_protocol::event::TurnAbortedEvent;
use codex_protocol::event::TurnCompleteEvent;
use codex_protocol::event::TurnStartedEvent;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, TurnContextItem};
use codex_protocol::user_input::UserInput;

use super::config::TurnContext;
use super::initial_context::InitialContextInputs;
use super::state::Session;
use super::user_input::InMemoryMediaFiles;
use super::user_input::MediaFiles;
use crate::contextual::fragments::ContextFragment;
use crate::prompt::ToolSpec;
use crate::prompt::encode_request;

pub use codex_protocol::tool_call::ToolInvocation;
pub use model::BoxFuture;
pub use model::ModelClient;
pub use model::ModelError;
pub use model::ModelResponse;
pub use model::ToolExecutor;
pub use model::ToolRun;
pub use model::TurnInterrupt;
pub use scripted::ScriptedModel;
pub use scripted::ScriptedTools;

/// How a turn ended, when it did not fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnOutcome {
    /// The model finished without further tool calls.
    Completed {
        /// The text of the turn's last assistant message, if it had one.
        last_agent_message: Option<String>,
    },
    /// The turn was interrupted.
    Aborted,
}

/// Why a turn failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error(transparent)]
    /// The model request failed.
    Model(#[from] ModelError),
    /// The model kept calling tools past the sampling limit.
    #[error("turn exceeded {0} sampling requests")]
    TooManySamplingRequests(usize),
}

/// Default limit of sampling requests in one turn.
pub(crate) const DEFAULT_MAX_SAMPLING_REQUESTS: usize = 64;

/// What a turn runs against. Build with [`TurnRunner::new`] and the `with_*` methods.
#[derive(Debug)]
pub struct TurnRunner<'a> {
    model: &'a dyn ModelClient,
    tools: &'a dyn ToolExecutor,
    tool_specs: Vec<ToolSpec>,
    files: &'a dyn MediaFiles,
    initial_context: InitialContextInputs,
    max_sampling_requests: usize,
    cwd: String,
    turn_settings: Option<TurnContextItem>,
}

static NO_FILES: std::sync::LazyLock<InMemoryMediaFiles> =
    std::sync::LazyLock::new(InMemoryMediaFiles::new);

impl<'a> TurnRunner<'a> {
    /// A runner with no tool specs, no local files and no initial context.
    pub fn new(model: &'a dyn ModelClient, tools: &'a dyn ToolExecutor) -> Self {
        Self {
            model,
            tools,
            tool_specs: Vec::new(),
            files: &*NO_FILES,
            initial_context: InitialContextInputs::default(),
            max_sampling_requests: DEFAULT_MAX_SAMPLING_REQUESTS,
            cwd: String::new(),
            turn_settings: None,
        }
    }

    /// The turn's settings as the file records them (`turn_context`), recorded right after
    /// `task_started`; resume takes the previous turn's model and the reference context
    /// from it.
    pub fn with_turn_settings(mut self, settings: TurnContextItem) -> Self {
        self.turn_settings = Some(settings);
        self
    }

    /// The turn's working directory: where a command whose call names none runs, and what a
    /// patch's relative paths are relative to. Empty by default (such a command then shows an
    /// empty directory and patch paths stay as the patch writes them).
    pub fn with_cwd(mut self, cwd: impl Into<String>) -> Self {
        self.cwd = cwd.into();
        self
    }

    /// The tools offered to the model.
    pub fn with_tool_specs(mut self, tool_specs: Vec<ToolSpec>) -> Self {
        self.tool_specs = tool_specs;
        self
    }

    /// Where local images and audio of a submission are read from.
    pub fn with_files(mut self, files: &'a dyn MediaFiles) -> Self {
        self.files = files;
        self
    }

    /// The initial context recorded on the thread's first turn.
    pub fn with_initial_context(mut self, initial_context: InitialContextInputs) -> Self {
        self.initial_context = initial_context;
        self
    }

    /// Limit of sampling requests in one turn.
    pub fn with_max_sampling_requests(mut self, limit: usize) -> Self {
        self.max_sampling_requests = limit;
        self
    }

    /// Runs one turn; see the module docs for the order of everything it records and emits.
    pub async fn run(
        &self,
        session: &Session,
        turn: &TurnContext,
        inputs: &[UserInput],
        interrupt: &TurnInterrupt,
    ) -> Result<TurnOutcome, TurnError> {
        let started_at = session.now_unix_ms() / 1000;
        session
            .send_event(
                turn,
                EventMsg::TurnStarted(TurnStartedEvent {
                    started_at: Some(started_at.into()),
                    collaboration_mode_kind: if turn.plan_mode { "plan" } else { "default" }
                        .to_string(),
                    ..TurnStartedEvent::new(turn.sub_id.clone())
                }),
            )
            .await;
        if let Some(settings) = &self.turn_settings {
            session
                .persist_rollout_items(&[RolloutItem::TurnContext(Box::new(settings.clone()))])
                .await;
        }
        if session.clone_history().await.is_empty() {
            session
                .record_initial_context(turn, &self.initial_context)
                .await;
        }
        session
            .record_user_input_and_emit_turn_item(turn, inputs, self.files)
            .await;

        let mut last_agent_message = None;
        for _ in 0..self.max_sampling_requests {
            let Some(response) = self.sample(session, turn, interrupt).await else {
                return Ok(self.abort(session, turn).await);
            };
            let response = match response {
                Ok(response) => response,
                Err(err) => return Err(self.fail(session, turn, err).await),
            };
            let mut calls = Vec::new();
            for item in response.items {
                if let Some(text) = assistant_text(&item) {
                    last_agent_message = Some(text);
                }
                let is_client_call = item
                    .call_link()
                    .is_some_and(|link| link.is_call() && !link.server_side);
                let (recorded, _) = session.record_item_and_emit(turn, item).await;
                if is_client_call {
                    calls.push(recorded);
                }
            }
            if let Some(usage) = response.token_usage {
                let info = {
                    let mut state = session.state.lock().await;
                    state.history.update_token_info(&usage, None);
                    state.history.token_info()
                };
                session
                    .send_event(
                        turn,
                        EventMsg::TokenCount(TokenCountEvent {
                            info,
                            rate_limits: None,
                        }),
                    )
                    .await;
            }
            if calls.is_empty() {
                session
                    .send_event(
                        turn,
                        turn_complete_event(
                            turn,
                            session.now_unix_ms() / 1000,
                            last_agent_message.clone(),
                            None,
                            Some(started_at),
                        ),
                    )
                    .await;
                return Ok(TurnOutcome::Completed { last_agent_message });
            }
            for call in &calls {
                let Some(output) = self.run_tool(session, turn, call, interrupt).await else {
                    return Ok(self.abort(session, turn).await);
                };
                session.record_conversation_items(turn, &[output]).await;
            }
        }
        // The limit ends the turn as failed: an error, then a `task_complete` carrying it,
        // as for a model failure, so the turn is closed for every client and on resume.
        let err = TurnError::TooManySamplingRequests(self.max_sampling_requests);
        let message = err.to_string();
        session.send_event(turn, error_event(&message)).await;
        session
            .send_event(
                turn,
                turn_complete_event(
                    turn,
                    session.now_unix_ms() / 1000,
                    last_agent_message,
                    Some(ErrorEvent {
                        message,
                        codex_error_info: None,
                    }),
                    Some(started_at),
                ),
            )
            .await;
        Err(err)
    }

    /// One sampling request raced against the interrupt; `None` when interrupted.
    async fn sample(
        &self,
        session: &Session,
        turn: &TurnContext,
        interrupt: &TurnInterrupt,
    ) -> Option<Result<ModelResponse, ModelError>> {
        if interrupt.is_interrupted() {
            return None;
        }
        let prompt = session
            .build_prompt(turn, self.tool_specs.clone(), None)
            .await;
        let options = turn
            .model
            .request_options(Some(session.thread_id().to_string()));
        let request = encode_request(&prompt, &options);
        tokio::select! {
            response = self.model.sample(&request) => Some(response),
            () = interrupt.wait() => None,
        }
    }

    /// Records the interruption note and emits `turn_aborted`.
    async fn abort(&self, session: &Session, turn: &TurnContext) -> TurnOutcome {
        let note = ContextFragment::turn_aborted().into_message();
        session.record_conversation_items(turn, &[note]).await;
        session
            .send_event(
                turn,
                EventMsg::TurnAborted(TurnAbortedEvent {
                    root_turn_id: None,
                    turn_id: Some(turn.sub_id.clone()),
                    reason: TurnAbortReason::Interrupted,
                    error: None,
                    started_at: None,
                    completed_at: None,
                    duration_ms: None,
                }),
            )
            .await;
        TurnOutcome::Aborted
    }

    /// Emits the error and a `task_complete` carrying it.
    async fn fail(&self, session: &Session, turn: &TurnContext, err: ModelError) -> TurnError {
        let message = err.to_string();
        session.send_event(turn, error_event(&message)).await;
        session
            .send_event(
                turn,
                turn_complete_event(
                    turn,
                    session.now_unix_ms() / 1000,
                    None,
                    Some(ErrorEvent {
                        message,
                        codex_error_info: None,
                    }),
                    None,
                ),
            )
            .await;
        TurnError::Model(err)
    }
}

/// The `task_complete` event closing `turn`, successful or failed (`error`), so both endings
/// have one shape. With `started_at` (Unix seconds) the event also carries `completed_at`.
fn turn_complete_event(
    turn: &TurnContext,
    completed_at: i64,
    last_agent_message: Option<String>,
    error: Option<ErrorEvent>,
    started_at: Option<i64>,
) -> EventMsg {
    EventMsg::TurnComplete(TurnCompleteEvent {
        last_agent_message,
        error,
        started_at: started_at.map(Into::into),
        completed_at: started_at.map(|_| completed_at.into()),
        ..TurnCompleteEvent::new(turn.sub_id.clone())
    })
}

fn error_event(message: &str) -> EventMsg {
    EventMsg::Error(ErrorEvent {
        message: message.to_string(),
        codex_error_info: None,
    })
}

/// The visible text of an assistant message (its text parts concatenated), if it is one.
fn assistant_text(item: &ResponseItem) -> Option<String> {
    if item.role() != Some("assistant") {
        return None;
    }
    let text: String = item
        .message_content()?
        .iter()
        .filter_map(|part| part.text())
        .collect();
    (!text.is_empty()).then_some(text)
}
