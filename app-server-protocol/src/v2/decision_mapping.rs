//! Approval decisions between the client vocabulary and the core's `ReviewDecision`: a server
//! turns the client's answer into the decision the core waits for, and the core's offered
//! decisions into what a client may answer.

use codex_protocol::event::{
    NetworkPolicyAmendment as CoreAmendment, NetworkPolicyRuleAction, ReviewDecision,
};

use super::approval::{
    CommandExecutionApprovalDecision, FileChangeApprovalDecision, NetworkPolicyAmendment,
};

/// The rejection text the core records when a person declines.
const DECLINED: &str = "declined by the user";

impl From<CommandExecutionApprovalDecision> for ReviewDecision {
    fn from(decision: CommandExecutionApprovalDecision) -> Self {
        match decision {
            CommandExecutionApprovalDecision::Accept => Self::Approved,
            CommandExecutionApprovalDecision::AcceptForSession => Self::ApprovedForSession,
            CommandExecutionApprovalDecision::AcceptWithExecpolicyAmendment {
                execpolicy_amendment,
            } => Self::ApprovedExecpolicyAmendment {
                proposed_execpolicy_amendment: execpolicy_amendment,
            },
            CommandExecutionApprovalDecision::ApplyNetworkPolicyAmendment {
                network_policy_amendment,
            } => Self::NetworkPolicyAmendment {
                network_policy_amendment: core_amendment(network_policy_amendment),
            },
            CommandExecutionApprovalDecision::Decline => Self::Denied {
                rejection: DECLINED.to_owned(),
            },
            CommandExecutionApprovalDecision::Cancel => Self::Abort,
        }
    }
}

impl From<FileChangeApprovalDecision> for ReviewDecision {
    fn from(decision: FileChangeApprovalDecision) -> Self {
        match decision {
            FileChangeApprovalDecision::Accept => Self::Approved,
            FileChangeApprovalDecision::AcceptForSession => Self::ApprovedForSession,
            FileChangeApprovalDecision::Decline => Self::Denied {
                rejection: DECLINED.to_owned(),
            },
            FileChangeApprovalDecision::Cancel => Self::Abort,
        }
    }
}

impl From<ReviewDecision> for CommandExecutionApprovalDecision {
    /// Denied and timed-out decisions read as `decline` (the agent continues), an abort as
    /// `cancel`; an MCP policy amendment has no command counterpart and reads as a session
    /// approval.
    fn from(decision: ReviewDecision) -> Self {
        match decision {
            ReviewDecision::Approved => Self::Accept,
            ReviewDecision::ApprovedForSession | ReviewDecision::ApprovedMcpPolicyAmendment => {
                Self::AcceptForSession
            }
            ReviewDecision::ApprovedExecpolicyAmendment {
                proposed_execpolicy_amendment,
            } => Self::AcceptWithExecpolicyAmendment {
                execpolicy_amendment: proposed_execpolicy_amendment,
            },
            ReviewDecision::NetworkPolicyAmendment {
                network_policy_amendment,
            } => Self::ApplyNetworkPolicyAmendment {
                network_policy_amendment: network_policy_amendment.into(),
            },
            ReviewDecision::Denied { .. } | ReviewDecision::TimedOut => Self::Decline,
            ReviewDecision::Abort => Self::Cancel,
        }
    }
}

fn core_amendment(amendment: NetworkPolicyAmendment) -> CoreAmendment {
    CoreAmendment {
        host: amendment.host,
        action: match amendment.action {
            super::approval::NetworkPolicyRuleAction::Allow => NetworkPolicyRuleAction::Allow,
            super::approval::NetworkPolicyRuleAction::Deny => NetworkPolicyRuleAction::Deny,
        },
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn command_decisions_round_trip_through_the_core() {
        let decisions = vec![
            CommandExecutionApprovalDecision::Accept,
            CommandExecutionApprovalDecision::AcceptForSession,
            CommandExecutionApprovalDecision::AcceptWithExecpolicyAmendment {
                execpolicy_amendment: vec!["cargo".to_owned()],
            },
            CommandExecutionApprovalDecision::ApplyNetworkPolicyAmendment {
                network_policy_amendment: NetworkPolicyAmendment {
                    host: "example.com".to_owned(),
                    action: super::super::approval::NetworkPolicyRuleAction::Deny,
                },
            },
            CommandExecutionApprovalDecision::Decline,
            CommandExecutionApprovalDecision::Cancel,
        ];
        for decision in decisions {
            let core = ReviewDecision::from(decision.clone());
            assert_eq!(CommandExecutionApprovalDecision::from(core), decision);
        }
        assert_eq!(
            CommandExecutionApprovalDecision::from(ReviewDecision::TimedOut),
            CommandExecutionApprovalDecision::Decline
        );
        assert_eq!(
            ReviewDecision::from(FileChangeApprovalDecision::Cancel),
            ReviewDecision::Abort
        );
    }
}
