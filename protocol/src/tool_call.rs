//! What a tool call is, as a client sees it: a shell command, a patch, a call to an MCP
//! server's tool, or some other function.
//!
//! The one answer to "what does this call run": core's turn driver asks it before a call runs
//! (and announces the run with the matching turn item: `CommandExecution`, `FileChange` or
//! `McpToolCall`), app-server-protocol's complete transcript asks it of every call a file
//! records, and codex-home asks it for the paths a patch touches.
//!
//! Why here: the names are the harness's tool names, and the arguments are read the way its
//! tool handlers read them; none of it needs IO, and every layer above needs the same answer.

use std::collections::BTreeMap;

mod item;
mod output;
mod patch;
mod recorded;

use serde_json::Value;

use crate::items::ExecCommandSource;
use crate::items::FileChange;
use crate::models::LocalShellAction;
use crate::models::ResponseItem;

pub use item::call_item;
pub use output::{OutputFacts, output_facts};
use patch::parse_patch;
pub use recorded::{completed_by_exec_end, completed_by_output, exec_end_item, recorded_call_item};

/// How MCP tool names start: `mcp__<server>__<tool>`, or a `mcp__<server>__` namespace.
pub const MCP_TOOL_PREFIX: &str = "mcp__";
/// What separates an MCP server's name from its tool's.
pub const MCP_TOOL_DELIMITER: &str = "__";

/// The shell a string command (`shell_command`, `exec_command`) runs in when the call does
/// not name one.
const DEFAULT_SHELL: &str = "bash";

/// The kind of tool a call invokes, with what its item shows.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolInvocation {
    /// A shell command: `shell` and `container.exec` (an argument vector), `shell_command`
    /// and `exec_command` (a string run by a shell), or the built-in `local_shell`.
    Command {
        /// Program and arguments.
        command: Vec<String>,
        /// The working directory the call names; without one, the turn's.
        cwd: Option<String>,
        /// `unified_exec_startup` for `exec_command` (an interactive process), else `agent`.
        source: ExecCommandSource,
    },
    /// A patch (`apply_patch`, freeform or with an `input` argument, or a shell command
    /// `["apply_patch", <patch>]`): the files it changes.
    ApplyPatch {
        /// What the patch changes, keyed by the paths as the patch writes them (the item
        /// resolves relative ones against the turn's working directory).
        changes: BTreeMap<String, FileChange>,
    },
    /// A tool of an MCP server.
    Mcp {
        /// The server's name.
        server: String,
        /// The tool's name on that server.
        tool: String,
        /// The arguments as JSON (`null` when the call has none; the raw text as a string
        /// when it is not JSON).
        arguments: Value,
    },
    /// Any other tool (or a call whose arguments do not parse, which its tool refuses
    /// without running): no item of its own.
    Other,
}

impl ToolInvocation {
    /// Recognises the harness's tools by name (and MCP tools by their `mcp__` prefix or
    /// namespace) and reads their arguments.
    pub fn of_call(call: &ResponseItem) -> Self {
        match call {
            ResponseItem::LocalShellCall {
                action: LocalShellAction::Exec(exec),
                ..
            } => Self::command(exec.command.clone(), exec.working_directory.clone()),
            ResponseItem::FunctionCall {
                name,
                namespace,
                arguments,
                ..
            } => Self::of_function(name, namespace.as_deref(), arguments),
            ResponseItem::CustomToolCall { name, input, .. } if name == "apply_patch" => {
                Self::patch(input)
            }
            _ => Self::Other,
        }
    }

    fn of_function(name: &str, namespace: Option<&str>, arguments: &str) -> Self {
        if let Some((server, tool)) = mcp_server_and_tool(namespace, name) {
            return Self::Mcp {
                server,
                tool,
                arguments: json_arguments(arguments),
            };
        }
        let Ok(args) = serde_json::from_str::<Value>(arguments) else {
            return Self::Other;
        };
        let workdir = string_field(&args, "workdir");
        match name {
            "shell" | "container.exec" => {
                let Some(command) = string_vector(args.get("command")) else {
                    return Self::Other;
                };
                match command.as_slice() {
                    [program, patch] if program == "apply_patch" || program == "applypatch" => {
                        Self::patch(patch)
                    }
                    _ => Self::command(command, workdir),
                }
            }
            "shell_command" => match string_field(&args, "command") {
                Some(script) => Self::command(shell_invocation(&args, script), workdir),
                None => Self::Other,
            },
            "exec_command" => match string_field(&args, "cmd") {
                Some(script) => Self::Command {
                    command: shell_invocation(&args, script),
                    cwd: workdir,
                    source: ExecCommandSource::UnifiedExecStartup,
                },
                None => Self::Other,
            },
            "apply_patch" => match args.get("input").and_then(Value::as_str) {
                Some(patch) => Self::patch(patch),
                None => Self::Other,
            },
            _ => Self::Other,
        }
    }

    fn command(command: Vec<String>, cwd: Option<String>) -> Self {
        if command.is_empty() {
            return Self::Other;
        }
        Self::Command {
            command,
            cwd,
            source: ExecCommandSource::Agent,
        }
    }

    fn patch(patch: &str) -> Self {
        match parse_patch(patch) {
            Some(changes) => Self::ApplyPatch { changes },
            None => Self::Other,
        }
    }
}

/// The id the item of `call` takes: its call id, else its item id (a local shell call may
/// have only that); `None` when it has neither, or for an item that calls nothing.
pub fn call_item_id(call: &ResponseItem) -> Option<&str> {
    call.call_id()
        .or_else(|| call.id().map(|id| id.as_str()))
        .filter(|id| !id.is_empty())
}

/// The tool a call item names, as a person reads it: a function's name after its namespace
/// (`mcp__server__` then `tool`), a custom tool's name, or the built-in tool's (`local_shell`,
/// `tool_search`, `web_search`, `image_generation`); `None` for an item that calls nothing.
pub fn tool_name(item: &ResponseItem) -> Option<String> {
    let name = match item {
        ResponseItem::FunctionCall {
            name, namespace, ..
        } => match namespace {
            Some(namespace) => format!("{namespace}{name}"),
            None => name.clone(),
        },
        ResponseItem::CustomToolCall { name, .. } => name.clone(),
        ResponseItem::LocalShellCall { .. } => "local_shell".to_string(),
        ResponseItem::ToolSearchCall { .. } => "tool_search".to_string(),
        ResponseItem::WebSearchCall { .. } => "web_search".to_string(),
        ResponseItem::ImageGenerationCall { .. } => "image_generation".to_string(),
        _ => return None,
    };
    Some(name)
}

/// The server and tool of an MCP call: from a `mcp__<server>__` namespace and the name, or
/// from a `mcp__<server>__<tool>` name. Both parts must be non-empty.
pub fn mcp_server_and_tool(namespace: Option<&str>, name: &str) -> Option<(String, String)> {
    if let Some(server) = namespace.and_then(|namespace| namespace.strip_prefix(MCP_TOOL_PREFIX)) {
        let server = server.strip_suffix(MCP_TOOL_DELIMITER).unwrap_or(server);
        return (!server.is_empty() && !name.is_empty())
            .then(|| (server.to_string(), name.to_string()));
    }
    let (server, tool) = name
        .strip_prefix(MCP_TOOL_PREFIX)?
        .split_once(MCP_TOOL_DELIMITER)?;
    (!server.is_empty() && !tool.is_empty()).then(|| (server.to_string(), tool.to_string()))
}

/// `[shell, "-lc" | "-c", script]`: the call's `shell` (else bash), as a login shell unless
/// `login` is false.
fn shell_invocation(args: &Value, script: String) -> Vec<String> {
    let shell = string_field(args, "shell").unwrap_or_else(|| DEFAULT_SHELL.to_string());
    let login = args.get("login").and_then(Value::as_bool).unwrap_or(true);
    let flag = if login { "-lc" } else { "-c" };
    vec![shell, flag.to_string(), script]
}

fn string_field(args: &Value, key: &str) -> Option<String> {
    args.get(key).and_then(Value::as_str).map(str::to_string)
}

fn string_vector(value: Option<&Value>) -> Option<Vec<String>> {
    value?
        .as_array()?
        .iter()
        .map(|part| part.as_str().map(str::to_string))
        .collect()
}

pub(crate) fn json_arguments(arguments: &str) -> Value {
    if arguments.trim().is_empty() {
        return Value::Null;
    }
    serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_string()))
}

#[cfg(test)]
#[path = "tool_call/tool_call_tests.rs"]
mod tests;
