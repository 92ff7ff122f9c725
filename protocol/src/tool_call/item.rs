//! The item a client is shown for a call, before it runs: a command, a patch or an MCP call
//! in progress, its id the call's.

use std::path::Path;
use std::path::PathBuf;

use crate::items::CommandExecutionItem;
use crate::items::CommandExecutionStatus;
use crate::items::FileChange;
use crate::items::FileChangeItem;
use crate::items::McpToolCallItem;
use crate::items::McpToolCallStatus;
use crate::items::TurnItem;

use super::ToolInvocation;

/// The in-progress item of a call that `invocation` read, with id `id`; `None` for a tool
/// without one ([`ToolInvocation::Other`]). A command without a directory of its own runs in
/// `turn_cwd`, and a patch's relative paths are relative to it (when it is not empty), as the
/// tool applies them.
pub fn call_item(invocation: &ToolInvocation, id: String, turn_cwd: &str) -> Option<TurnItem> {
    match invocation {
        ToolInvocation::Command {
            command,
            cwd,
            source,
        } => Some(TurnItem::CommandExecution(CommandExecutionItem {
            id,
            plugin_id: None,
            script_path: None,
            process_id: None,
            command: command.clone(),
            cwd: cwd.clone().unwrap_or_else(|| turn_cwd.to_string()),
            parsed_cmd: Vec::new(),
            source: *source,
            interaction_input: None,
            status: CommandExecutionStatus::InProgress,
            aggregated_output: None,
            exit_code: None,
            duration: None,
        })),
        ToolInvocation::ApplyPatch { changes } => Some(TurnItem::FileChange(FileChangeItem {
            id,
            changes: changes
                .iter()
                .map(|(path, change)| (resolve(turn_cwd, path), resolve_change(turn_cwd, change)))
                .collect(),
            status: None,
            auto_approved: None,
            stdout: None,
            stderr: None,
        })),
        ToolInvocation::Mcp {
            server,
            tool,
            arguments,
        } => Some(TurnItem::McpToolCall(McpToolCallItem {
            id,
            server: server.clone(),
            tool: tool.clone(),
            arguments: arguments.clone(),
            connector_id: None,
            mcp_app_resource_uri: None,
            mcp_app_ui: None,
            link_id: None,
            app_name: None,
            action_name: None,
            plugin_id: None,
            read_only_hint: None,
            template_id: None,
            status: McpToolCallStatus::InProgress,
            result: None,
            error: None,
            duration: None,
        })),
        ToolInvocation::Other => None,
    }
}

/// `path` resolved against `cwd`: unchanged when it is absolute or `cwd` is empty.
fn resolve(cwd: &str, path: &str) -> String {
    if cwd.is_empty() || Path::new(path).is_absolute() {
        return path.to_string();
    }
    Path::new(cwd).join(path).display().to_string()
}

/// `change` with its move destination resolved against `cwd`.
fn resolve_change(cwd: &str, change: &FileChange) -> FileChange {
    match change {
        FileChange::Update {
            unified_diff,
            move_path: Some(target),
        } => FileChange::Update {
            unified_diff: unified_diff.clone(),
            move_path: Some(PathBuf::from(resolve(cwd, &target.display().to_string()))),
        },
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn patch_paths_resolve_against_the_turn_cwd_unless_absolute_or_without_one() {
        let moved = FileChange::Update {
            unified_diff: String::new(),
            move_path: Some(PathBuf::from("b.rs")),
        };
        assert_eq!(resolve("/repo", "a.rs"), "/repo/a.rs");
        assert_eq!(resolve("/repo", "/etc/hosts"), "/etc/hosts");
        assert_eq!(resolve("", "a.rs"), "a.rs");
        assert_eq!(
            resolve_change("/repo", &moved),
            FileChange::Update {
                unified_diff: String::new(),
                move_path: Some(PathBuf::from("/repo/b.rs")),
            }
        );
    }
}
