//! The `local_shell_call` payload: a command the model asked to run on the user's machine.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// Progress of a local shell call as the model reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum LocalShellStatus {
    /// `completed`.
    Completed,
    /// `in_progress`.
    InProgress,
    /// `incomplete`.
    Incomplete,
}

/// What the local shell call asks for, tagged by `type`. Only `exec` exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LocalShellAction {
    /// Run a command; its fields sit next to `"type": "exec"`.
    Exec(LocalShellExecAction),
}

/// A command to execute. The optional fields are nullable on the wire: written as `null`
/// when absent, the way the provider sends them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct LocalShellExecAction {
    /// Program and arguments, not a shell string.
    pub command: Vec<String>,
    /// How long the command may run, in milliseconds; `null` for no limit given.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub timeout_ms: Option<u64>,
    /// The directory to run in; `null` when not given.
    #[serde(default)]
    pub working_directory: Option<String>,
    /// Extra environment; sorted so the same action always serializes the same way.
    #[serde(default)]
    pub env: Option<BTreeMap<String, String>>,
    /// The user to run as; `null` when not given.
    #[serde(default)]
    pub user: Option<String>,
}
