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
    /// Plugin id, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plugin_id: Option<String>,
    /// Script path, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub script_path: Option<String>,
    /// The interactive process, for commands run through the unified exec tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub process_id: Option<String>,
    /// The turn that ran the command; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// Milliseconds since the Unix epoch (0 when the writer did not say).
    #[serde(default)]
    #[ts(type = "number")]
    pub started_at_ms: i64,
    /// The command as argv.
    pub command: Vec<String>,
    /// The working directory (a path or a `file://` URI, as written).
    pub cwd: String,
    /// What the command does, as parsed for display; empty when absent.
    #[serde(default)]
    pub parsed_cmd: Vec<ParsedCommand>,
    /// Who started the command; `agent` when absent.
    #[serde(default)]
    pub source: ExecCommandSource,
    /// Text written to an interactive process, when that is what this event is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interaction_input: Option<String>,
}

/// A chunk of a running command's output. The chunk is raw bytes (base64 on the wire),
/// because output need not be UTF-8 and may split a character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExecCommandOutputDeltaEvent {
    /// The command this output belongs to.
    pub call_id: String,
    /// Whether the chunk came from stdout or stderr.
    pub stream: ExecOutputStream,
    /// The output bytes (base64 on the wire).
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
    /// `stdout`.
    Stdout,
    /// `stderr`.
    Stderr,
}

/// A command finished (or was declined).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExecCommandEndEvent {
    /// Links begin, output and end (and the model's tool call).
    pub call_id: String,
    /// Plugin id, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plugin_id: Option<String>,
    /// Script path, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub script_path: Option<String>,
    /// The interactive process, for commands run through the unified exec tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub process_id: Option<String>,
    /// The turn that ran the command; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// Milliseconds since the Unix epoch (0 when the writer did not say).
    #[serde(default)]
    #[ts(type = "number")]
    pub completed_at_ms: i64,
    /// The command as argv.
    pub command: Vec<String>,
    /// The working directory (a path or a `file://` URI, as written).
    pub cwd: String,
    /// What the command does, as parsed for display; empty when absent.
    #[serde(default)]
    pub parsed_cmd: Vec<ParsedCommand>,
    /// Who started the command; `agent` when absent.
    #[serde(default)]
    pub source: ExecCommandSource,
    /// Text written to an interactive process, when that is what this event is.
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
    /// The process's exit code.
    pub exit_code: i32,
    /// How long the command ran (`{"secs":…,"nanos":…}` on the wire).
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
    /// `completed`: the command ran and exited with 0.
    Completed,
    /// `failed`: the command exited non-zero or could not run.
    Failed,
    /// `declined`: the person (or policy) refused to run it.
    Declined,
}

/// The agent looked at an image file (`view_image` tool).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ViewImageToolCallEvent {
    /// The `view_image` tool call.
    pub call_id: String,
    /// The image's path (or `file://` URI), as written.
    pub path: String,
}
