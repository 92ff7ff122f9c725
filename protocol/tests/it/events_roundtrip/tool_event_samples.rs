//! Sample events of tools: commands, approvals, patches, web search, images, MCP, review.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use codex_protocol::event::*;
use codex_protocol::items::*;
use codex_protocol::models::WebSearchAction;
use serde_json::json;

use super::turn_item_samples::*;

pub(crate) fn tool_events() -> Vec<(&'static str, EventMsg)> {
    let invocation = McpInvocation {
        server: text("docs"),
        tool: text("search"),
        arguments: Some(json!({"q": "serde"})),
    };
    vec![
        (
            "exec_command_begin",
            EventMsg::ExecCommandBegin(ExecCommandBeginEvent {
                call_id: text("call_1"),
                plugin_id: None,
                script_path: None,
                process_id: None,
                turn_id: text("turn-1"),
                started_at_ms: 1_763_000_000_100,
                command: vec![text("ls")],
                cwd: text("/repo"),
                parsed_cmd: vec![ParsedCommand::ListFiles {
                    cmd: text("ls"),
                    path: None,
                }],
                source: ExecCommandSource::Agent,
                interaction_input: None,
            }),
        ),
        (
            "exec_command_output_delta",
            EventMsg::ExecCommandOutputDelta(ExecCommandOutputDeltaEvent {
                call_id: text("call_1"),
                stream: ExecOutputStream::Stderr,
                chunk: b"warn\xff\n".to_vec(),
            }),
        ),
        (
            "exec_command_end",
            EventMsg::ExecCommandEnd(ExecCommandEndEvent {
                call_id: text("call_1"),
                plugin_id: None,
                script_path: None,
                process_id: None,
                turn_id: text("turn-1"),
                completed_at_ms: 1_763_000_000_900,
                command: vec![text("ls")],
                cwd: text("/repo"),
                parsed_cmd: Vec::new(),
                source: ExecCommandSource::UserShell,
                interaction_input: None,
                stdout: None,
                stderr: None,
                aggregated_output: text("a.rs\n"),
                exit_code: 0,
                duration: Duration::from_millis(800),
                formatted_output: None,
                status: Some(ExecCommandStatus::Completed),
            }),
        ),
        (
            "view_image_tool_call",
            EventMsg::ViewImageToolCall(ViewImageToolCallEvent {
                call_id: text("call_4"),
                path: text("/repo/shot.png"),
            }),
        ),
        (
            "exec_approval_request",
            EventMsg::ExecApprovalRequest(ExecApprovalRequestEvent {
                call_id: text("call_8"),
                approval_id: None,
                turn_id: text("turn-1"),
                command: vec![text("curl"), text("https://example.com")],
                cwd: PathBuf::from("/repo"),
                reason: Some(text("needs network")),
                network_approval_context: Some(NetworkApprovalContext {
                    host: text("example.com"),
                    protocol: NetworkApprovalProtocol::Https,
                }),
                proposed_execpolicy_amendment: Some(vec![text("curl")]),
                proposed_network_policy_amendments: Some(vec![NetworkPolicyAmendment {
                    host: text("example.com"),
                    action: NetworkPolicyRuleAction::Allow,
                }]),
                additional_permissions: None,
                available_decisions: Some(vec![
                    ReviewDecision::Approved,
                    ReviewDecision::ApprovedExecpolicyAmendment {
                        proposed_execpolicy_amendment: vec![text("curl")],
                    },
                    ReviewDecision::ApprovedForSession,
                    ReviewDecision::NetworkPolicyAmendment {
                        network_policy_amendment: NetworkPolicyAmendment {
                            host: text("example.com"),
                            action: NetworkPolicyRuleAction::Deny,
                        },
                    },
                    ReviewDecision::default(),
                    ReviewDecision::Abort,
                ]),
                parsed_cmd: vec![ParsedCommand::Unknown {
                    cmd: text("curl https://example.com"),
                }],
            }),
        ),
        (
            "apply_patch_approval_request",
            EventMsg::ApplyPatchApprovalRequest(ApplyPatchApprovalRequestEvent {
                call_id: text("call_5"),
                turn_id: text("turn-1"),
                changes: sample_changes(),
                reason: None,
                grant_root: Some(PathBuf::from("/repo")),
            }),
        ),
        (
            "patch_apply_begin",
            EventMsg::PatchApplyBegin(PatchApplyBeginEvent {
                call_id: text("call_5"),
                turn_id: text("turn-1"),
                auto_approved: true,
                changes: sample_changes(),
            }),
        ),
        (
            "patch_apply_end",
            EventMsg::PatchApplyEnd(PatchApplyEndEvent {
                call_id: text("call_5"),
                turn_id: text("turn-1"),
                stdout: text("Success."),
                stderr: String::new(),
                success: true,
                changes: BTreeMap::new(),
                status: Some(PatchApplyStatus::Completed),
            }),
        ),
        (
            "web_search_begin",
            EventMsg::WebSearchBegin(WebSearchBeginEvent {
                call_id: text("ws_1"),
            }),
        ),
        (
            "web_search_end",
            EventMsg::WebSearchEnd(WebSearchEndEvent {
                call_id: text("ws_1"),
                query: text("'TODO' in https://example.com"),
                action: Some(WebSearchAction::FindInPage {
                    url: Some(text("https://example.com")),
                    pattern: Some(text("TODO")),
                }),
                results: None,
            }),
        ),
        (
            "image_generation_begin",
            EventMsg::ImageGenerationBegin(ImageGenerationBeginEvent {
                call_id: text("ig_1"),
            }),
        ),
        (
            "image_generation_end",
            EventMsg::ImageGenerationEnd(ImageGenerationEndEvent {
                call_id: text("ig_1"),
                status: text("completed"),
                revised_prompt: None,
                result: text("iVBORw0KGgo="),
                transparent_background: Some(true),
                failure: None,
                saved_path: None,
            }),
        ),
        (
            "mcp_tool_call_begin",
            EventMsg::McpToolCallBegin(McpToolCallBeginEvent {
                call_id: text("call_6"),
                turn_id: text("turn-1"),
                invocation: invocation.clone(),
                connector_id: None,
                mcp_app_resource_uri: None,
                mcp_app_ui: None,
                link_id: None,
                app_name: None,
                action_name: None,
                plugin_id: None,
                read_only_hint: Some(true),
            }),
        ),
        (
            "mcp_tool_call_end",
            EventMsg::McpToolCallEnd(McpToolCallEndEvent {
                call_id: text("call_6"),
                turn_id: text("turn-1"),
                invocation: invocation.clone(),
                connector_id: None,
                mcp_app_resource_uri: None,
                mcp_app_ui: None,
                link_id: None,
                app_name: None,
                action_name: None,
                plugin_id: None,
                read_only_hint: None,
                duration: Duration::from_millis(40),
                result: Ok(sample_call_tool_result()),
            }),
        ),
        (
            "mcp_tool_call_end_err",
            EventMsg::McpToolCallEnd(McpToolCallEndEvent {
                call_id: text("call_7"),
                turn_id: String::new(),
                invocation,
                connector_id: None,
                mcp_app_resource_uri: None,
                mcp_app_ui: None,
                link_id: None,
                app_name: None,
                action_name: None,
                plugin_id: None,
                read_only_hint: None,
                duration: Duration::ZERO,
                result: Err(text("server not running")),
            }),
        ),
        (
            "entered_review_mode",
            EventMsg::EnteredReviewMode(EnteredReviewModeEvent {
                target: Some(ReviewTarget::Custom {
                    instructions: text("focus on safety"),
                }),
                prompt: None,
                user_facing_hint: Some(text("custom review")),
                turn_id: Some(text("turn-4")),
                item_id: Some(text("item-review")),
            }),
        ),
        (
            "exited_review_mode",
            EventMsg::ExitedReviewMode(ExitedReviewModeEvent {
                turn_id: Some(text("turn-4")),
                item_id: Some(text("item-review")),
                review_output: Some(sample_review_output()),
            }),
        ),
    ]
}
