use super::*;
use crate::models::LocalShellExecAction;
use crate::models::LocalShellStatus;
use pretty_assertions::assert_eq;
use serde_json::json;

fn function(name: &str, arguments: Value) -> ResponseItem {
    ResponseItem::function_call(name, arguments.to_string(), "call_1")
}

fn command(parts: &[&str], cwd: Option<&str>, source: ExecCommandSource) -> ToolInvocation {
    ToolInvocation::Command {
        command: parts.iter().map(|part| (*part).to_string()).collect(),
        cwd: cwd.map(str::to_string),
        source,
    }
}

#[track_caller]
fn check(call: &ResponseItem, expected: ToolInvocation) {
    assert_eq!(ToolInvocation::of_call(call), expected);
}

const PATCH: &str = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";

fn patch_changes() -> ToolInvocation {
    ToolInvocation::ApplyPatch {
        changes: BTreeMap::from([(
            "a.txt".to_string(),
            FileChange::Add {
                content: "hi\n".to_string(),
            },
        )]),
    }
}

#[test]
fn shell_tools_are_commands() {
    check(
        &function(
            "shell",
            json!({"command": ["bash", "-lc", "ls"], "workdir": "/repo"}),
        ),
        command(
            &["bash", "-lc", "ls"],
            Some("/repo"),
            ExecCommandSource::Agent,
        ),
    );
    check(
        &function("container.exec", json!({"command": ["ls"]})),
        command(&["ls"], None, ExecCommandSource::Agent),
    );
    check(
        &function("shell_command", json!({"command": "ls -a", "login": false})),
        command(&["bash", "-c", "ls -a"], None, ExecCommandSource::Agent),
    );
    check(
        &function("exec_command", json!({"cmd": "cargo test", "shell": "zsh"})),
        command(
            &["zsh", "-lc", "cargo test"],
            None,
            ExecCommandSource::UnifiedExecStartup,
        ),
    );
    let local = ResponseItem::LocalShellCall {
        encrypted_content: None,
        id: None,
        call_id: Some("call_2".to_string()),
        status: LocalShellStatus::Completed,
        action: LocalShellAction::Exec(LocalShellExecAction {
            command: vec!["pwd".to_string()],
            working_directory: Some("/tmp".to_string()),
            ..LocalShellExecAction::default()
        }),
        internal_chat_message_metadata_passthrough: None,
    };
    check(
        &local,
        command(&["pwd"], Some("/tmp"), ExecCommandSource::Agent),
    );
}

#[test]
fn apply_patch_in_every_spelling_is_a_patch() {
    check(
        &ResponseItem::custom_tool_call("apply_patch", PATCH, "call_1"),
        patch_changes(),
    );
    check(
        &function("apply_patch", json!({"input": PATCH})),
        patch_changes(),
    );
    check(
        &function("shell", json!({"command": ["apply_patch", PATCH]})),
        patch_changes(),
    );
}

#[test]
fn mcp_tools_by_name_or_namespace() {
    check(
        &ResponseItem::function_call("mcp__docs__search", r#"{"q":"x"}"#, "call_1"),
        ToolInvocation::Mcp {
            server: "docs".to_string(),
            tool: "search".to_string(),
            arguments: json!({"q": "x"}),
        },
    );
    assert_eq!(
        ToolInvocation::of_function("js", Some("mcp__node_repl__"), ""),
        ToolInvocation::Mcp {
            server: "node_repl".to_string(),
            tool: "js".to_string(),
            arguments: Value::Null,
        }
    );
    assert_eq!(mcp_server_and_tool(None, "mcp__only"), None);
    assert_eq!(mcp_server_and_tool(None, "mcp____tool"), None);
    assert_eq!(
        json_arguments("not json"),
        Value::String("not json".to_string())
    );
}

#[test]
fn everything_else_has_no_item() {
    check(
        &function("view_image", json!({"path": "a.png"})),
        ToolInvocation::Other,
    );
    check(
        &ResponseItem::function_call("shell", "not json", "call_1"),
        ToolInvocation::Other,
    );
    check(
        &function("shell", json!({"command": []})),
        ToolInvocation::Other,
    );
    check(
        &ResponseItem::custom_tool_call("apply_patch", "not a patch", "call_1"),
        ToolInvocation::Other,
    );
    check(
        &ResponseItem::custom_tool_call("js_repl", "1 + 1", "call_1"),
        ToolInvocation::Other,
    );
    check(&ResponseItem::user_text("hi"), ToolInvocation::Other);
}
