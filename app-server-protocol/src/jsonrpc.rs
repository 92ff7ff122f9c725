//! The JSON-RPC-like envelope every app-server message travels in.
//!
//! The upstream app server speaks "JSON-RPC without the version": messages never carry
//! `"jsonrpc": "2.0"`, request ids are a string or an integer, notifications are
//! `{method, params?}`, requests `{id, method, params?}`, responses `{id, result}` and errors
//! `{id, error: {code, message, data?}}`. Clients written against upstream parse exactly these
//! shapes, so this module reproduces them and nothing more; the typed layer on top lives in
//! [`crate::common`].

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The version string the upstream protocol claims to follow. It is never serialized: the
/// constant exists only so code can name the dialect it speaks.
pub const JSONRPC_VERSION: &str = "2.0";

/// Identifies a request so its response can be paired with it. Either side picks the id; the
/// other echoes it back unchanged, string or integer alike.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(untagged)]
pub enum RequestId {
    /// A textual id, echoed verbatim.
    String(String),
    /// A numeric id. Integers beyond 2^53 would lose precision in a JavaScript client, so
    /// servers mint small counters.
    Integer(i64),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::String(value) => f.write_str(value),
            Self::Integer(value) => write!(f, "{value}"),
        }
    }
}

impl From<i64> for RequestId {
    fn from(value: i64) -> Self {
        Self::Integer(value)
    }
}

impl From<&str> for RequestId {
    fn from(value: &str) -> Self {
        Self::String(value.to_owned())
    }
}

/// Any one message on the wire, in either direction. Untagged: the shape (which keys are
/// present) says what it is, exactly as a JSON-RPC peer decides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(untagged)]
pub enum JSONRPCMessage {
    /// Has `id` and `method`: expects a response.
    Request(JSONRPCRequest),
    /// Has `method` but no `id`: fire and forget.
    Notification(JSONRPCNotification),
    /// Has `id` and `result`: the success answer to a request.
    Response(JSONRPCResponse),
    /// Has `id` and `error`: the failure answer to a request.
    Error(JSONRPCError),
}

/// A request: the receiver must answer with a response or an error carrying the same id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct JSONRPCRequest {
    /// Echoed back by the answer.
    pub id: RequestId,
    /// Which operation, e.g. `turn/start` or `item/commandExecution/requestApproval`.
    pub method: String,
    /// The operation's arguments; absent for methods that take none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub params: Option<serde_json::Value>,
}

/// A notification: no answer is expected or possible.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct JSONRPCNotification {
    /// What happened, e.g. `item/completed`.
    pub method: String,
    /// The payload; absent for notifications without one (such as `initialized`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub params: Option<serde_json::Value>,
}

/// The success answer to a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct JSONRPCResponse {
    /// The id of the request being answered.
    pub id: RequestId,
    /// The method-specific response payload.
    pub result: serde_json::Value,
}

/// The failure answer to a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct JSONRPCError {
    /// What went wrong.
    pub error: JSONRPCErrorError,
    /// The id of the request being answered.
    pub id: RequestId,
}

/// The body of a [`JSONRPCError`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct JSONRPCErrorError {
    /// A JSON-RPC style error code (e.g. -32600 for an invalid request).
    #[ts(type = "number")]
    pub code: i64,
    /// Human-readable explanation.
    pub message: String,
    /// Optional structured detail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub data: Option<serde_json::Value>,
}

/// Error code for a request whose method is unknown to the receiver.
pub const METHOD_NOT_FOUND_ERROR_CODE: i64 = -32601;
/// Error code for a request whose params do not match the method's shape.
pub const INVALID_PARAMS_ERROR_CODE: i64 = -32602;
/// Error code for a request that is otherwise malformed.
pub const INVALID_REQUEST_ERROR_CODE: i64 = -32600;
/// Error code for a failure inside the receiver.
pub const INTERNAL_ERROR_CODE: i64 = -32603;
