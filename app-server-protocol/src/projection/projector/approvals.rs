//! Approvals: the core's approval events become server requests; each open request is
//! resolved exactly once, when the client answers, when its item goes ahead, or when the turn
//! ends.

use codex_protocol::event::{ApplyPatchApprovalRequestEvent, ExecApprovalRequestEvent};

use super::{EventProjector, PendingRequest, ServerMessage, notify, turn_id_or};
use crate::common::{ServerNotification, ServerRequest};
use crate::jsonrpc::RequestId;
use crate::v2::{
    CommandAction, CommandExecutionRequestApprovalParams, FileChangeRequestApprovalParams,
    ServerRequestResolvedNotification, shell_join,
};

impl EventProjector {
    pub(super) fn exec_approval(&mut self, event: &ExecApprovalRequestEvent) -> ServerMessage {
        let request_id = self.open_request(&event.call_id);
        ServerMessage::Request(ServerRequest::CommandExecutionRequestApproval {
            request_id,
            params: CommandExecutionRequestApprovalParams {
                thread_id: self.thread_id.clone(),
                turn_id: turn_id_or(&event.turn_id, self.turn_id()),
                item_id: event.call_id.clone(),
                started_at_ms: (self.clock)(),
                approval_id: event.approval_id.clone(),
                reason: event.reason.clone(),
                command: Some(shell_join(&event.command)),
                cwd: Some(event.cwd.display().to_string()),
                command_actions: Some(
                    event
                        .parsed_cmd
                        .iter()
                        .cloned()
                        .map(CommandAction::from)
                        .collect(),
                ),
                proposed_execpolicy_amendment: event.proposed_execpolicy_amendment.clone(),
                proposed_network_policy_amendments: event
                    .proposed_network_policy_amendments
                    .clone()
                    .map(|amendments| amendments.into_iter().map(Into::into).collect()),
            },
        })
    }

    pub(super) fn patch_approval(
        &mut self,
        event: &ApplyPatchApprovalRequestEvent,
    ) -> ServerMessage {
        let request_id = self.open_request(&event.call_id);
        ServerMessage::Request(ServerRequest::FileChangeRequestApproval {
            request_id,
            params: FileChangeRequestApprovalParams {
                thread_id: self.thread_id.clone(),
                turn_id: turn_id_or(&event.turn_id, self.turn_id()),
                item_id: event.call_id.clone(),
                started_at_ms: (self.clock)(),
                reason: event.reason.clone(),
                grant_root: event
                    .grant_root
                    .as_ref()
                    .map(|root| root.display().to_string()),
            },
        })
    }

    pub(super) fn open_request(&mut self, item_id: &str) -> RequestId {
        let request_id = RequestId::Integer(self.next_request_id);
        self.next_request_id += 1;
        self.pending.insert(
            request_id.clone(),
            PendingRequest {
                item_id: item_id.to_owned(),
            },
        );
        request_id
    }

    /// The item went ahead or ended: its open approvals are settled.
    pub(super) fn resolve_item(&mut self, item_id: &str, out: &mut Vec<ServerMessage>) {
        let settled: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, pending)| pending.item_id == item_id)
            .map(|(id, _)| id.clone())
            .collect();
        for request_id in settled {
            self.pending.remove(&request_id);
            out.push(notify(self.resolved(request_id)));
        }
    }

    /// A turn boundary cancels every open approval.
    pub(super) fn resolve_all(&mut self, out: &mut Vec<ServerMessage>) {
        for request_id in std::mem::take(&mut self.pending).into_keys() {
            out.push(notify(self.resolved(request_id)));
        }
    }

    pub(super) fn resolved(&self, request_id: RequestId) -> ServerNotification {
        ServerNotification::ServerRequestResolved(ServerRequestResolvedNotification {
            thread_id: self.thread_id.clone(),
            request_id,
        })
    }
}
