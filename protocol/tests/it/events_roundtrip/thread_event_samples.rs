//! Samples of the thread-level and multi-agent events newer Codex versions write, in the
//! shapes real session files hold (0.126 to 0.155).

use codex_protocol::event::EventMsg;
use serde_json::json;

/// Parses a sample written as the JSON a real file holds.
fn event(value: serde_json::Value) -> Result<EventMsg, serde_json::Error> {
    serde_json::from_value(value)
}

pub(crate) fn thread_and_agent_events() -> Result<Vec<(&'static str, EventMsg)>, serde_json::Error>
{
    const THREAD: &str = "01a06421-3bf7-7ed2-a618-e42b6c961905";
    Ok(vec![
        (
            "thread_settings_applied",
            event(
                json!({"type": "thread_settings_applied", "thread_id": THREAD,
                "thread_settings": {"model": "gpt-6-astra", "model_provider_id": "openai",
                    "service_tier": "default", "approval_policy": "on-request",
                    "approvals_reviewer": "user", "permission_profile": {"type": "disabled"},
                    "cwd": "/projects", "reasoning_effort": "medium", "personality": "pragmatic",
                    "collaboration_mode": {"mode": "default"}}}),
            )?,
        ),
        (
            "thread_name_updated",
            event(json!({"type": "thread_name_updated", "thread_id": THREAD,
                "thread_name": "开发完整平台"}))?,
        ),
        (
            "thread_goal_updated",
            event(
                json!({"type": "thread_goal_updated", "threadId": THREAD, "turnId": "t1",
                "goal": {"objective": "ship", "status": "active", "tokensUsed": 0}}),
            )?,
        ),
        (
            "guardian_assessment",
            event(json!({"type": "guardian_assessment", "id": "622eae8c",
                "target_item_id": "call_k8", "turn_id": "t1", "status": "approved",
                "risk_level": "low", "user_authorization": "unknown",
                "rationale": "low risk", "decision_source": "agent",
                "action": {"type": "command", "source": "unified_exec",
                    "command": "node server.js", "cwd": "/w"}}))?,
        ),
        (
            "sub_agent_activity",
            event(json!({"type": "sub_agent_activity", "event_id": "call_Wax",
                "occurred_at_ms": 1783736641730i64, "agent_thread_id": THREAD,
                "agent_path": "/root/timer_audit", "kind": "started"}))?,
        ),
        (
            "collab_agent_spawn_begin",
            event(json!({"type": "collab_agent_spawn_begin", "call_id": "c1",
                "sender_thread_id": THREAD}))?,
        ),
        (
            "collab_agent_spawn_end",
            event(json!({"type": "collab_agent_spawn_end", "call_id": "c1",
                "sender_thread_id": THREAD, "new_thread_id": THREAD, "prompt": "audit",
                "model": "gpt-5.5", "status": "pending_init", "new_agent_nickname": "Ada"}))?,
        ),
        (
            "collab_agent_interaction_begin",
            event(json!({"type": "collab_agent_interaction_begin", "call_id": "c2"}))?,
        ),
        (
            "collab_agent_interaction_end",
            event(
                json!({"type": "collab_agent_interaction_end", "call_id": "c2",
                "receiver_thread_id": THREAD, "prompt": "more", "status": "running"}),
            )?,
        ),
        (
            "collab_waiting_begin",
            event(json!({"type": "collab_waiting_begin", "call_id": "c3"}))?,
        ),
        (
            "collab_waiting_end",
            event(json!({"type": "collab_waiting_end", "call_id": "c3",
                "agent_statuses": [{"thread_id": THREAD, "status": {"completed": "done"}}],
                "statuses": {}}))?,
        ),
        (
            "collab_close_begin",
            event(json!({"type": "collab_close_begin", "call_id": "c4"}))?,
        ),
        (
            "collab_close_end",
            event(json!({"type": "collab_close_end", "call_id": "c4",
                "receiver_thread_id": THREAD, "status": {"completed": null}}))?,
        ),
        (
            "collab_resume_begin",
            event(json!({"type": "collab_resume_begin", "call_id": "c5"}))?,
        ),
        (
            "collab_resume_end",
            event(json!({"type": "collab_resume_end", "call_id": "c5", "status": "running"}))?,
        ),
        (
            "auth_recovery_started",
            event(json!({"type": "auth_recovery_started"}))?,
        ),
        (
            "auth_recovery_completed",
            event(json!({"type": "auth_recovery_completed", "success": true}))?,
        ),
        (
            "elicitation_abandoned",
            event(json!({"type": "elicitation_abandoned", "server_name": "s", "id": 3}))?,
        ),
    ])
}
