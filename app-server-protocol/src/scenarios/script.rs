//! A small builder that emits the events a core sends for common actions, in the order the
//! core sends them (item events first, then the legacy events derived from them), with a
//! deterministic clock so scripted conversations are reproducible byte for byte.

use std::time::Duration;

use codex_protocol::event::{
    AgentMessageContentDeltaEvent, AgentMessageEvent, AgentReasoningEvent,
    AgentReasoningRawContentEvent, ApplyPatchApprovalRequestEvent, ErrorEvent, EventMsg,
    EventTimestamp, ExecApprovalRequestEvent, ExecCommandBeginEvent, ExecCommandEndEvent,
    ExecCommandOutputDeltaEvent, ExecCommandStatus, ExecOutputStream, ItemCompletedEvent,
    ItemStartedEvent, PatchApplyBeginEvent, PatchApplyEndEvent, ReasoningContentDeltaEvent,
    ThreadRolledBackEvent, TokenCountEvent, TokenUsage, TokenUsageInfo, TurnAbortReason,
    TurnAbortedEvent, TurnCompleteEvent, TurnStartedEvent, UserMessageEvent,
};
use codex_protocol::items::{
    AgentMessageContent, AgentMessageItem, CommandExecutionItem, CommandExecutionStatus,
    ExecCommandSource, FileChange, FileChangeItem, ParsedCommand, PatchApplyStatus, ReasoningItem,
    TurnItem, UserMessageItem,
};
use codex_protocol::models::MessagePhase;
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput as CoreUserInput;

use super::Step;

/// Scripted-time origin: 2025-06-15T15:06:40Z.
const EPOCH_SECONDS: i64 = 1_750_000_000;

/// Builds the steps of one scripted thread.
#[derive(Debug)]
pub struct Script {
    thread_id: ThreadId,
    steps: Vec<Step>,
    turn_id: String,
    turn_started_at: i64,
    seconds: i64,
    next_id: u32,
}

impl Script {
    /// An empty script for the thread `thread_id`, its clock at the scenarios' epoch.
    pub fn new(thread_id: ThreadId) -> Self {
        Self {
            thread_id,
            steps: Vec::new(),
            turn_id: String::new(),
            turn_started_at: EPOCH_SECONDS,
            seconds: EPOCH_SECONDS,
            next_id: 0,
        }
    }

    /// The steps written so far, in order.
    pub fn into_steps(self) -> Vec<Step> {
        self.steps
    }

    fn emit(&mut self, msg: EventMsg) {
        self.steps.push(Step::Core(msg));
    }

    fn tick(&mut self) -> i64 {
        self.seconds += 1;
        self.seconds * 1000
    }

    fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}_{:04}", self.next_id)
    }

    fn started(&mut self, item: TurnItem) {
        let started_at_ms = self.tick();
        self.emit(EventMsg::ItemStarted(ItemStartedEvent {
            thread_id: self.thread_id.to_string(),
            turn_id: self.turn_id.clone(),
            item,
            started_at_ms,
        }));
    }

    fn completed(&mut self, item: TurnItem) {
        let completed_at_ms = self.tick();
        self.emit(EventMsg::ItemCompleted(ItemCompletedEvent {
            thread_id: self.thread_id.to_string(),
            turn_id: self.turn_id.clone(),
            item,
            started_at_ms: None,
            completed_at_ms,
        }));
    }

    /// `task_started` for a new turn.
    pub fn start_turn(&mut self, turn_id: &str) {
        self.turn_id = turn_id.to_owned();
        self.seconds += 10;
        self.turn_started_at = self.seconds;
        self.emit(EventMsg::TurnStarted(TurnStartedEvent {
            started_at: Some(EventTimestamp::UnixSeconds(self.seconds)),
            model_context_window: Some(200_000),
            ..TurnStartedEvent::new(turn_id)
        }));
    }

    /// The person's message: item events, then the legacy `user_message`.
    pub fn user_message(&mut self, text: &str) {
        let item = UserMessageItem {
            id: self.id("user"),
            client_id: None,
            content: vec![CoreUserInput::text(text)],
        };
        self.started(TurnItem::UserMessage(item.clone()));
        self.completed(TurnItem::UserMessage(item));
        self.emit(EventMsg::UserMessage(UserMessageEvent {
            message: text.to_owned(),
            ..UserMessageEvent::default()
        }));
    }

    /// A reasoning summary streamed in `deltas`.
    pub fn reasoning(&mut self, deltas: &[&str]) {
        let id = self.id("rs");
        let text: String = deltas.concat();
        let empty = ReasoningItem {
            id: id.clone(),
            summary_text: Vec::new(),
            raw_content: Vec::new(),
        };
        self.started(TurnItem::Reasoning(empty));
        for delta in deltas {
            self.emit(EventMsg::ReasoningContentDelta(
                ReasoningContentDeltaEvent {
                    thread_id: self.thread_id.to_string(),
                    turn_id: self.turn_id.clone(),
                    item_id: id.clone(),
                    delta: (*delta).to_owned(),
                    summary_index: 0,
                },
            ));
        }
        let item = ReasoningItem {
            id,
            summary_text: vec![text.clone()],
            raw_content: vec!["raw thoughts".to_owned()],
        };
        self.completed(TurnItem::Reasoning(item));
        self.emit(EventMsg::AgentReasoning(AgentReasoningEvent { text }));
        self.emit(EventMsg::AgentReasoningRawContent(
            AgentReasoningRawContentEvent {
                text: "raw thoughts".to_owned(),
            },
        ));
    }

    /// An agent message streamed in `deltas`.
    pub fn agent_message(&mut self, deltas: &[&str], phase: MessagePhase) {
        let id = self.id("msg");
        let text: String = deltas.concat();
        let mut item = AgentMessageItem::new(id.clone(), Vec::new());
        item.phase = Some(phase.clone());
        self.started(TurnItem::AgentMessage(item.clone()));
        for delta in deltas {
            self.emit(EventMsg::AgentMessageContentDelta(
                AgentMessageContentDeltaEvent {
                    thread_id: self.thread_id.to_string(),
                    turn_id: self.turn_id.clone(),
                    item_id: id.clone(),
                    delta: (*delta).to_owned(),
                },
            ));
        }
        item.content = vec![AgentMessageContent::Text { text: text.clone() }];
        self.completed(TurnItem::AgentMessage(item));
        self.emit(EventMsg::AgentMessage(AgentMessageEvent {
            message: text,
            phase: Some(phase),
            ..AgentMessageEvent::default()
        }));
    }

    /// The core asks to run `argv`; returns the call id.
    pub fn exec_approval(&mut self, argv: &[&str]) -> String {
        let call_id = self.id("call");
        self.emit(EventMsg::ExecApprovalRequest(ExecApprovalRequestEvent {
            call_id: call_id.clone(),
            approval_id: None,
            turn_id: self.turn_id.clone(),
            command: argv.iter().map(|arg| (*arg).to_owned()).collect(),
            cwd: "/workspace/demo".into(),
            reason: Some("needs to run tests".to_owned()),
            network_approval_context: None,
            proposed_execpolicy_amendment: Some(vec![
                argv.first().copied().unwrap_or_default().to_owned(),
            ]),
            proposed_network_policy_amendments: None,
            additional_permissions: None,
            available_decisions: None,
            parsed_cmd: Vec::new(),
        }));
        call_id
    }

    /// A command as a current core runs it: `item_started` (CommandExecution), the legacy
    /// begin (sent twice, as a core retrying its announcement may), the output in `chunks` of
    /// raw bytes, `item_completed`, then the legacy end. What a session file keeps of it is
    /// the mode's choice: the end event in a legacy file, the completed item in a paginated
    /// one.
    pub fn exec_command(&mut self, call_id: &str, argv: &[&str], chunks: &[&[u8]], exit_code: i32) {
        let command: Vec<String> = argv.iter().map(|arg| (*arg).to_owned()).collect();
        let parsed_cmd = vec![ParsedCommand::Unknown {
            cmd: argv.join(" "),
        }];
        let mut item = CommandExecutionItem {
            id: call_id.to_owned(),
            plugin_id: None,
            script_path: None,
            process_id: None,
            command: command.clone(),
            cwd: "/workspace/demo".to_owned(),
            parsed_cmd: parsed_cmd.clone(),
            source: ExecCommandSource::Agent,
            interaction_input: None,
            status: CommandExecutionStatus::InProgress,
            aggregated_output: None,
            exit_code: None,
            duration: None,
        };
        self.started(TurnItem::CommandExecution(item.clone()));
        let begin = ExecCommandBeginEvent {
            call_id: call_id.to_owned(),
            plugin_id: None,
            script_path: None,
            process_id: None,
            turn_id: self.turn_id.clone(),
            started_at_ms: self.tick(),
            command: command.clone(),
            cwd: "/workspace/demo".to_owned(),
            parsed_cmd: parsed_cmd.clone(),
            source: ExecCommandSource::Agent,
            interaction_input: None,
        };
        self.emit(EventMsg::ExecCommandBegin(begin.clone()));
        self.emit(EventMsg::ExecCommandBegin(begin));
        let mut output = Vec::new();
        for chunk in chunks {
            output.extend_from_slice(chunk);
            self.emit(EventMsg::ExecCommandOutputDelta(
                ExecCommandOutputDeltaEvent {
                    call_id: call_id.to_owned(),
                    stream: ExecOutputStream::Stdout,
                    chunk: chunk.to_vec(),
                },
            ));
        }
        let aggregated_output = String::from_utf8_lossy(&output).into_owned();
        item.status = if exit_code == 0 {
            CommandExecutionStatus::Completed
        } else {
            CommandExecutionStatus::Failed
        };
        item.aggregated_output = Some(aggregated_output.clone());
        item.exit_code = Some(exit_code);
        item.duration = Some(Duration::from_millis(1250));
        self.completed(TurnItem::CommandExecution(item));
        let completed_at_ms = self.tick();
        self.emit(EventMsg::ExecCommandEnd(ExecCommandEndEvent {
            call_id: call_id.to_owned(),
            plugin_id: None,
            script_path: None,
            process_id: None,
            turn_id: self.turn_id.clone(),
            completed_at_ms,
            command,
            cwd: "/workspace/demo".to_owned(),
            parsed_cmd,
            source: ExecCommandSource::Agent,
            interaction_input: None,
            stdout: None,
            stderr: None,
            aggregated_output,
            exit_code,
            duration: Duration::from_millis(1250),
            formatted_output: None,
            status: Some(if exit_code == 0 {
                ExecCommandStatus::Completed
            } else {
                ExecCommandStatus::Failed
            }),
        }));
    }

    /// The core asks to apply a patch adding `path`; returns the call id.
    pub fn patch_approval(&mut self, path: &str) -> String {
        let call_id = self.id("patch");
        self.emit(EventMsg::ApplyPatchApprovalRequest(
            ApplyPatchApprovalRequestEvent {
                call_id: call_id.clone(),
                turn_id: self.turn_id.clone(),
                changes: [(
                    path.to_owned(),
                    FileChange::Add {
                        content: "hello\n".to_owned(),
                    },
                )]
                .into_iter()
                .collect(),
                reason: None,
                grant_root: None,
            },
        ));
        call_id
    }

    /// A patch adding `path`, applied (or not, when `success` is false), as a current core
    /// reports it: `item_started` (FileChange), the legacy begin, `item_completed`, the
    /// legacy end.
    pub fn patch_apply(&mut self, call_id: &str, path: &str, success: bool) {
        let changes: std::collections::BTreeMap<String, FileChange> = [(
            path.to_owned(),
            FileChange::Add {
                content: "hello\n".to_owned(),
            },
        )]
        .into_iter()
        .collect();
        let mut item = FileChangeItem {
            id: call_id.to_owned(),
            changes: changes.clone(),
            status: None,
            auto_approved: Some(false),
            stdout: None,
            stderr: None,
        };
        self.started(TurnItem::FileChange(item.clone()));
        self.emit(EventMsg::PatchApplyBegin(PatchApplyBeginEvent {
            call_id: call_id.to_owned(),
            turn_id: self.turn_id.clone(),
            auto_approved: false,
            changes: changes.clone(),
        }));
        item.status = Some(if success {
            PatchApplyStatus::Completed
        } else {
            PatchApplyStatus::Failed
        });
        item.stdout = Some(String::new());
        item.stderr = Some(String::new());
        self.completed(TurnItem::FileChange(item));
        self.emit(EventMsg::PatchApplyEnd(PatchApplyEndEvent {
            call_id: call_id.to_owned(),
            turn_id: self.turn_id.clone(),
            stdout: String::new(),
            stderr: String::new(),
            success,
            changes,
            status: None,
        }));
    }

    /// A token count after a model response.
    pub fn token_count(&mut self, last_total: i64) {
        let last = TokenUsage {
            input_tokens: last_total - 100,
            cached_input_tokens: 0,
            cache_write_input_tokens: 0,
            output_tokens: 100,
            reasoning_output_tokens: 20,
            total_tokens: last_total,
        };
        self.emit(EventMsg::TokenCount(TokenCountEvent {
            info: Some(TokenUsageInfo {
                total_token_usage: last,
                last_token_usage: last,
                model_context_window: Some(200_000),
            }),
            rate_limits: None,
        }));
    }

    /// An error event (the turn will fail).
    pub fn error(&mut self, message: &str, info: codex_protocol::event::CodexErrorInfo) {
        self.emit(EventMsg::Error(ErrorEvent {
            message: message.to_owned(),
            codex_error_info: Some(info),
        }));
    }

    /// `task_complete` for the running turn.
    pub fn complete_turn(&mut self, last_agent_message: Option<&str>) {
        self.seconds += 2;
        self.emit(EventMsg::TurnComplete(TurnCompleteEvent {
            last_agent_message: last_agent_message.map(str::to_owned),
            started_at: Some(EventTimestamp::UnixSeconds(self.turn_started_at)),
            completed_at: Some(EventTimestamp::UnixSeconds(self.seconds)),
            duration_ms: Some((self.seconds - self.turn_started_at) * 1000),
            ..TurnCompleteEvent::new(self.turn_id.clone())
        }));
    }

    /// `turn_aborted` for the running turn (the person interrupted it).
    pub fn abort_turn(&mut self) {
        self.seconds += 1;
        self.emit(EventMsg::TurnAborted(TurnAbortedEvent {
            root_turn_id: None,
            turn_id: Some(self.turn_id.clone()),
            reason: TurnAbortReason::Interrupted,
            error: None,
            started_at: Some(EventTimestamp::UnixSeconds(self.turn_started_at)),
            completed_at: Some(EventTimestamp::UnixSeconds(self.seconds)),
            duration_ms: Some((self.seconds - self.turn_started_at) * 1000),
        }));
    }

    /// The client answers the open approval for `item_id` with `decision` (JSON).
    pub fn client_answers(&mut self, item_id: &str, decision: serde_json::Value) {
        self.steps.push(Step::ClientAnswer {
            item_id: item_id.to_owned(),
            decision,
        });
    }

    /// The client rolls back the last `num_turns` turns; the core records the rollback.
    pub fn client_rollback(&mut self, num_turns: u32) {
        self.steps.push(Step::ClientRollback { num_turns });
        self.emit(EventMsg::ThreadRolledBack(ThreadRolledBackEvent {
            num_turns,
        }));
    }
}
