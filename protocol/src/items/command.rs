//! Shell commands: the command-execution item and the types its events share.

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// A shell command run during the turn, with its result once finished.
///
/// Older writers also wrote `stdout`, `stderr` and `formatted_output` (the output split, and
/// formatted for the model); upstream dropped them, and so does this item: they are accepted
/// and ignored on read (the rollout reader keeps such a line's original text), and never
/// written. `aggregated_output` is the output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct CommandExecutionItem {
    /// The item id (the tool call's id, in practice).
    pub id: String,
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
    /// The command as argv.
    pub command: Vec<String>,
    /// The working directory (a path or a `file://` URI, as written).
    pub cwd: String,
    /// What the command does, as parsed for display (read a file, list, search...).
    #[serde(default)]
    pub parsed_cmd: Vec<ParsedCommand>,
    /// Who started the command; `agent` when absent.
    #[serde(default)]
    pub source: ExecCommandSource,
    /// Text written to an interactive process, when that is what this item is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interaction_input: Option<String>,
    /// Where the command stands.
    pub status: CommandExecutionStatus,
    /// stdout and stderr interleaved as produced; omitted when not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub aggregated_output: Option<String>,
    /// The process's exit code, once it exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub exit_code: Option<i32>,
    /// How long the command ran (`{"secs":…,"nanos":…}`), once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "{ secs: number, nanos: number }")]
    pub duration: Option<Duration>,
}

/// Where a command execution stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum CommandExecutionStatus {
    /// `in_progress`: still running.
    InProgress,
    /// `completed`: ran and exited with 0.
    Completed,
    /// `failed`: exited non-zero or could not run.
    Failed,
    /// The person (or policy) refused to run it.
    Declined,
}

/// Who started a command.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum ExecCommandSource {
    /// The model asked for it (the default, and the only source older files know).
    #[default]
    Agent,
    /// The person ran it from the composer (`!cmd`).
    UserShell,
    /// The start of an interactive (unified exec) process.
    UnifiedExecStartup,
    /// Input sent to a running interactive process.
    UnifiedExecInteraction,
}

/// A command understood well enough to summarise it ("read foo.rs", "search TODO").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(tag = "type", rename_all = "snake_case")]
pub enum ParsedCommand {
    /// `read`: the command reads a file.
    Read {
        /// The command text this part stands for.
        cmd: String,
        /// The file's name, for display.
        name: String,
        /// The file read.
        #[ts(type = "string")]
        path: PathBuf,
    },
    /// `list_files`: the command lists a directory.
    ListFiles {
        /// The command text this part stands for.
        cmd: String,
        /// The directory listed, when the command names one.
        path: Option<String>,
    },
    /// `search`: the command searches files.
    Search {
        /// The command text this part stands for.
        cmd: String,
        /// What is searched for, when known.
        query: Option<String>,
        /// Where it searches, when the command names it.
        path: Option<String>,
    },
    /// `unknown`: a command not understood.
    Unknown {
        /// The command text.
        cmd: String,
    },
}
