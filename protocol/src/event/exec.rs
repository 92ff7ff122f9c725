//! Shell command events: begin, streamed output, end.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::items::ExecCommandSource;
use crate::items::ParsedCommand;

/// A command started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExecCommandBeginEvent {
    /// Links begin, output and end (and the model's tool call).
    pub call_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plugin_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub script_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub process_id: Option<String>,
    #[serde(default)]
    pub turn_id: String,
    /// Milliseconds since the Unix epoch (0 when the writer did not say).
    #[serde(default)]
    #[ts(type = "number")]
    pub started_at_ms: i64,
    pub command: Vec<String>,
    /// The working directory (a path or a `file://` URI, as written).
    pub cwd: String,
    #[serde(default)]
    pub parsed_cmd: Vec<ParsedCommand>,
    #[serde(default)]
    pub source: ExecCommandSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interaction_input: Option<String>,
}

/// A chunk of a running command's output. The chunk is raw bytes (base64 on the wire),
/// because output need not be UTF-8 and may split a character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExecCommandOutputDeltaEvent {
    pub call_id: String,
    pub stream: ExecOutputStream,
    #[serde(with = "super::serde_helpers::base64_bytes")]
    #[schemars(with = "String")]
    #[ts(type = "string")]
    pub chunk: Vec<u8>,
}

/// Which output stream a chunk came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum ExecOutputStream {
    Stdout,
    Stderr,
}

/// A command finished (or was declined).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExecCommandEndEvent {
    pub call_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plugin_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub script_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub process_id: Option<String>,
    #[serde(default)]
    pub turn_id: String,
    /// Milliseconds since the Unix epoch (0 when the writer did not say).
    #[serde(default)]
    #[ts(type = "number")]
    pub completed_at_ms: i64,
    pub command: Vec<String>,
    pub cwd: String,
    #[serde(default)]
    pub parsed_cmd: Vec<ParsedCommand>,
    #[serde(default)]
    pub source: ExecCommandSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interaction_input: Option<String>,
    /// Older writers split the output; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stdout: Option<String>,
    /// Older writers split the output; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stderr: Option<String>,
    /// stdout and stderr interleaved as produced.
    #[serde(default)]
    pub aggregated_output: String,
    pub exit_code: i32,
    #[ts(type = "{ secs: number, nanos: number }")]
    pub duration: Duration,
    /// Older writers stored the output formatted for the model; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub formatted_output: Option<String>,
    /// Absent in files written before the status existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<ExecCommandStatus>,
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum ExecCommandStatus {
    Completed,
    Failed,
    Declined,
}

/// The agent looked at an image file (`view_image` tool).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ViewImageToolCallEvent {
    pub call_id: String,
    /// The image's path (or `file://` URI), as written.
    pub path: String,
}
