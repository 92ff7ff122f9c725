//! The typed messages: which methods exist, in which direction, with which payloads.
//!
//! [`ServerNotification`] is adjacently tagged (`{"method": ..., "params": ...}`), the request
//! enums are internally tagged with the id beside the method (`{"method", "id", "params"}`),
//! exactly as upstream spells them, so a message converts to and from the untyped
//! [`crate::jsonrpc`] envelope without reshaping.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::jsonrpc::{JSONRPCNotification, JSONRPCRequest, RequestId};
use crate::v2::{
    AgentMessageDeltaNotification, CommandExecutionOutputDeltaNotification,
    CommandExecutionRequestApprovalParams, ConfigReadParams, DeprecationNoticeNotification,
    ErrorNotification, FileChangeRequestApprovalParams, GetAccountParams, InitializeParams,
    ItemCompletedNotification, ItemStartedNotification, ModelListParams, PlanDeltaNotification,
    ReasoningSummaryPartAddedNotification, ReasoningSummaryTextDeltaNotification,
    ReasoningTextDeltaNotification, ServerRequestResolvedNotification, SkillsListParams,
    TerminalInteractionNotification, ThreadItemsListParams, ThreadListParams,
    ThreadLoadedListParams, ThreadNameUpdatedNotification, ThreadReadParams, ThreadResumeParams,
    ThreadRollbackParams, ThreadStartParams, ThreadStartedNotification,
    ThreadStatusChangedNotification, ThreadTokenUsageUpdatedNotification, ThreadTurnsListParams,
    ThreadUnsubscribeParams, TurnCompletedNotification, TurnDiffUpdatedNotification,
    TurnInterruptParams, TurnStartParams, TurnStartedNotification, WarningNotification,
};

/// A message converted to or from its JSON envelope did not have the expected shape.
#[derive(Debug, thiserror::Error)]
pub enum MessageConversionError {
    /// The JSON did not match any method's payload.
    #[error("message `{method}` does not match its schema: {source}")]
    Shape {
        /// The method the message claimed.
        method: String,
        /// What serde reported.
        #[source]
        source: serde_json::Error,
    },
}

/// Everything the server tells a client without expecting an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "method", content = "params")]
pub enum ServerNotification {
    /// A turn hit an error.
    #[serde(rename = "error")]
    Error(ErrorNotification),
    /// A thread was created or loaded.
    #[serde(rename = "thread/started")]
    ThreadStarted(ThreadStartedNotification),
    /// A thread's status changed.
    #[serde(rename = "thread/status/changed")]
    ThreadStatusChanged(ThreadStatusChangedNotification),
    /// A thread was named.
    #[serde(rename = "thread/name/updated")]
    ThreadNameUpdated(ThreadNameUpdatedNotification),
    /// Token usage changed.
    #[serde(rename = "thread/tokenUsage/updated")]
    ThreadTokenUsageUpdated(ThreadTokenUsageUpdatedNotification),
    /// A turn started.
    #[serde(rename = "turn/started")]
    TurnStarted(TurnStartedNotification),
    /// A turn ended.
    #[serde(rename = "turn/completed")]
    TurnCompleted(TurnCompletedNotification),
    /// The turn's combined diff changed.
    #[serde(rename = "turn/diff/updated")]
    TurnDiffUpdated(TurnDiffUpdatedNotification),
    /// An item started.
    #[serde(rename = "item/started")]
    ItemStarted(ItemStartedNotification),
    /// An item completed.
    #[serde(rename = "item/completed")]
    ItemCompleted(ItemCompletedNotification),
    /// Agent message text streamed.
    #[serde(rename = "item/agentMessage/delta")]
    AgentMessageDelta(AgentMessageDeltaNotification),
    /// Plan text streamed.
    #[serde(rename = "item/plan/delta")]
    PlanDelta(PlanDeltaNotification),
    /// Command output streamed.
    #[serde(rename = "item/commandExecution/outputDelta")]
    CommandExecutionOutputDelta(CommandExecutionOutputDeltaNotification),
    /// Input was written to a running command.
    #[serde(rename = "item/commandExecution/terminalInteraction")]
    TerminalInteraction(TerminalInteractionNotification),
    /// Reasoning summary text streamed.
    #[serde(rename = "item/reasoning/summaryTextDelta")]
    ReasoningSummaryTextDelta(ReasoningSummaryTextDeltaNotification),
    /// A reasoning summary paragraph began.
    #[serde(rename = "item/reasoning/summaryPartAdded")]
    ReasoningSummaryPartAdded(ReasoningSummaryPartAddedNotification),
    /// Raw reasoning text streamed.
    #[serde(rename = "item/reasoning/textDelta")]
    ReasoningTextDelta(ReasoningTextDeltaNotification),
    /// A server request was answered or cancelled.
    #[serde(rename = "serverRequest/resolved")]
    ServerRequestResolved(ServerRequestResolvedNotification),
    /// A warning.
    #[serde(rename = "warning")]
    Warning(WarningNotification),
    /// A deprecation notice.
    #[serde(rename = "deprecationNotice")]
    DeprecationNotice(DeprecationNoticeNotification),
}

impl ServerNotification {
    /// The wire method name, e.g. `item/completed`.
    pub fn method(&self) -> &'static str {
        match self {
            Self::Error(_) => "error",
            Self::ThreadStarted(_) => "thread/started",
            Self::ThreadStatusChanged(_) => "thread/status/changed",
            Self::ThreadNameUpdated(_) => "thread/name/updated",
            Self::ThreadTokenUsageUpdated(_) => "thread/tokenUsage/updated",
            Self::TurnStarted(_) => "turn/started",
            Self::TurnCompleted(_) => "turn/completed",
            Self::TurnDiffUpdated(_) => "turn/diff/updated",
            Self::ItemStarted(_) => "item/started",
            Self::ItemCompleted(_) => "item/completed",
            Self::AgentMessageDelta(_) => "item/agentMessage/delta",
            Self::PlanDelta(_) => "item/plan/delta",
            Self::CommandExecutionOutputDelta(_) => "item/commandExecution/outputDelta",
            Self::TerminalInteraction(_) => "item/commandExecution/terminalInteraction",
            Self::ReasoningSummaryTextDelta(_) => "item/reasoning/summaryTextDelta",
            Self::ReasoningSummaryPartAdded(_) => "item/reasoning/summaryPartAdded",
            Self::ReasoningTextDelta(_) => "item/reasoning/textDelta",
            Self::ServerRequestResolved(_) => "serverRequest/resolved",
            Self::Warning(_) => "warning",
            Self::DeprecationNotice(_) => "deprecationNotice",
        }
    }

    /// The untyped envelope, ready to send.
    pub fn to_jsonrpc(&self) -> Result<JSONRPCNotification, serde_json::Error> {
        to_envelope(self)
    }
}

impl TryFrom<JSONRPCNotification> for ServerNotification {
    type Error = MessageConversionError;

    fn try_from(value: JSONRPCNotification) -> Result<Self, MessageConversionError> {
        from_envelope(&value.method.clone(), value)
    }
}

/// Everything the server asks a client and waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "method")]
pub enum ServerRequest {
    /// May the agent run this command?
    #[serde(rename = "item/commandExecution/requestApproval")]
    CommandExecutionRequestApproval {
        /// Request id, echoed by the response.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// What is asked.
        params: CommandExecutionRequestApprovalParams,
    },
    /// May the agent apply this patch?
    #[serde(rename = "item/fileChange/requestApproval")]
    FileChangeRequestApproval {
        /// Request id, echoed by the response.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// What is asked.
        params: FileChangeRequestApprovalParams,
    },
}

impl ServerRequest {
    /// The wire method name.
    pub fn method(&self) -> &'static str {
        match self {
            Self::CommandExecutionRequestApproval { .. } => "item/commandExecution/requestApproval",
            Self::FileChangeRequestApproval { .. } => "item/fileChange/requestApproval",
        }
    }

    /// The request id.
    pub fn id(&self) -> &RequestId {
        match self {
            Self::CommandExecutionRequestApproval { request_id, .. }
            | Self::FileChangeRequestApproval { request_id, .. } => request_id,
        }
    }

    /// The untyped envelope, ready to send.
    pub fn to_jsonrpc(&self) -> Result<JSONRPCRequest, serde_json::Error> {
        to_envelope(self)
    }
}

impl TryFrom<JSONRPCRequest> for ServerRequest {
    type Error = MessageConversionError;

    fn try_from(value: JSONRPCRequest) -> Result<Self, MessageConversionError> {
        from_envelope(&value.method.clone(), value)
    }
}

/// The requests a client sends that this crate types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "method")]
pub enum ClientRequest {
    /// Open the connection.
    #[serde(rename = "initialize")]
    Initialize {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Who the client is.
        params: InitializeParams,
    },
    /// Start a thread.
    #[serde(rename = "thread/start")]
    ThreadStart {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Options.
        params: ThreadStartParams,
    },
    /// Resume a persisted thread.
    #[serde(rename = "thread/resume")]
    ThreadResume {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Which thread.
        params: ThreadResumeParams,
    },
    /// Read a thread.
    #[serde(rename = "thread/read")]
    ThreadRead {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Which thread.
        params: ThreadReadParams,
    },
    /// List threads, a page at a time.
    #[serde(rename = "thread/list")]
    ThreadList {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Filters, order and page.
        // Boxed: by far the largest params of the enum.
        #[serde(default)]
        params: Box<ThreadListParams>,
    },
    /// The ids of the threads loaded in the server.
    #[serde(rename = "thread/loaded/list")]
    ThreadLoadedList {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Page.
        #[serde(default)]
        params: ThreadLoadedListParams,
    },
    /// Stops following a thread on this connection.
    #[serde(rename = "thread/unsubscribe")]
    ThreadUnsubscribe {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// The thread.
        params: ThreadUnsubscribeParams,
    },
    /// A page of a thread's turns.
    #[serde(rename = "thread/turns/list")]
    ThreadTurnsList {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Which thread, which page.
        params: ThreadTurnsListParams,
    },
    /// A page of a thread's items.
    #[serde(rename = "thread/items/list")]
    ThreadItemsList {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Which thread (or turn), which page.
        params: ThreadItemsListParams,
    },
    /// The signed-in account.
    #[serde(rename = "account/read")]
    GetAccount {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Options.
        #[serde(default)]
        params: GetAccountParams,
    },
    /// The models a client may pick.
    #[serde(rename = "model/list")]
    ModelList {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Page.
        #[serde(default)]
        params: ModelListParams,
    },
    /// Managed configuration requirements.
    #[serde(rename = "configRequirements/read")]
    ConfigRequirementsRead {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
    },
    /// The effective configuration.
    #[serde(rename = "config/read")]
    ConfigRead {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Options.
        #[serde(default)]
        params: ConfigReadParams,
    },
    /// The skills of some directories.
    #[serde(rename = "skills/list")]
    SkillsList {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Which directories.
        #[serde(default)]
        params: SkillsListParams,
    },
    /// Drop the last turns of a thread.
    #[serde(rename = "thread/rollback")]
    ThreadRollback {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Which thread, how many turns.
        params: ThreadRollbackParams,
    },
    /// Start a turn.
    #[serde(rename = "turn/start")]
    TurnStart {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Input.
        params: TurnStartParams,
    },
    /// Interrupt the running turn.
    #[serde(rename = "turn/interrupt")]
    TurnInterrupt {
        /// Request id.
        #[serde(rename = "id")]
        request_id: RequestId,
        /// Which turn.
        params: TurnInterruptParams,
    },
}

impl ClientRequest {
    /// Every method this type holds, as [`ClientRequest::method`] spells it: what a server
    /// tells apart from a method it does not know when a request's params do not parse.
    pub const METHODS: [&'static str; 17] = [
        "initialize",
        "thread/start",
        "thread/resume",
        "thread/read",
        "thread/list",
        "thread/loaded/list",
        "thread/unsubscribe",
        "thread/turns/list",
        "thread/items/list",
        "account/read",
        "model/list",
        "configRequirements/read",
        "config/read",
        "skills/list",
        "thread/rollback",
        "turn/start",
        "turn/interrupt",
    ];

    /// The wire method name.
    pub fn method(&self) -> &'static str {
        match self {
            Self::Initialize { .. } => "initialize",
            Self::ThreadStart { .. } => "thread/start",
            Self::ThreadResume { .. } => "thread/resume",
            Self::ThreadRead { .. } => "thread/read",
            Self::ThreadRollback { .. } => "thread/rollback",
            Self::ThreadList { .. } => "thread/list",
            Self::ThreadLoadedList { .. } => "thread/loaded/list",
            Self::ThreadUnsubscribe { .. } => "thread/unsubscribe",
            Self::ThreadTurnsList { .. } => "thread/turns/list",
            Self::ThreadItemsList { .. } => "thread/items/list",
            Self::GetAccount { .. } => "account/read",
            Self::ModelList { .. } => "model/list",
            Self::ConfigRequirementsRead { .. } => "configRequirements/read",
            Self::ConfigRead { .. } => "config/read",
            Self::SkillsList { .. } => "skills/list",
            Self::TurnStart { .. } => "turn/start",
            Self::TurnInterrupt { .. } => "turn/interrupt",
        }
    }

    /// The request id.
    pub fn id(&self) -> &RequestId {
        match self {
            Self::Initialize { request_id, .. }
            | Self::ThreadStart { request_id, .. }
            | Self::ThreadResume { request_id, .. }
            | Self::ThreadRead { request_id, .. }
            | Self::ThreadRollback { request_id, .. }
            | Self::ThreadList { request_id, .. }
            | Self::ThreadLoadedList { request_id, .. }
            | Self::ThreadUnsubscribe { request_id, .. }
            | Self::ThreadTurnsList { request_id, .. }
            | Self::ThreadItemsList { request_id, .. }
            | Self::GetAccount { request_id, .. }
            | Self::ModelList { request_id, .. }
            | Self::ConfigRequirementsRead { request_id }
            | Self::ConfigRead { request_id, .. }
            | Self::SkillsList { request_id, .. }
            | Self::TurnStart { request_id, .. }
            | Self::TurnInterrupt { request_id, .. } => request_id,
        }
    }

    /// The untyped envelope, ready to send.
    pub fn to_jsonrpc(&self) -> Result<JSONRPCRequest, serde_json::Error> {
        to_envelope(self)
    }
}

impl TryFrom<JSONRPCRequest> for ClientRequest {
    type Error = MessageConversionError;

    fn try_from(value: JSONRPCRequest) -> Result<Self, MessageConversionError> {
        from_envelope(&value.method.clone(), value)
    }
}

/// Notifications a client sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "method")]
pub enum ClientNotification {
    /// The client processed the `initialize` response and is ready.
    #[serde(rename = "initialized")]
    Initialized,
}

/// Re-shapes a typed message into its envelope through JSON: both spell the same object.
fn to_envelope<T: Serialize, E: serde::de::DeserializeOwned>(
    message: &T,
) -> Result<E, serde_json::Error> {
    serde_json::from_value(serde_json::to_value(message)?)
}

fn from_envelope<E: Serialize, T: serde::de::DeserializeOwned>(
    method: &str,
    envelope: E,
) -> Result<T, MessageConversionError> {
    serde_json::to_value(envelope)
        .and_then(serde_json::from_value)
        .map_err(|source| MessageConversionError::Shape {
            method: method.to_owned(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::ClientRequest;

    /// `METHODS` names exactly the methods the type's schema lists, in its order.
    #[test]
    fn methods_are_the_schemas() -> Result<(), serde_json::Error> {
        let schema = serde_json::to_value(schemars::schema_for!(ClientRequest))?;
        let listed: Vec<String> = schema["oneOf"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|variant| variant["properties"]["method"]["const"].as_str())
            .map(str::to_owned)
            .collect();
        assert_eq!(listed, ClientRequest::METHODS);
        Ok(())
    }
}
