//! How a turn's final status is decided, shared by the live projector and the history
//! builder so a live client and a resumed one agree.
//!
//! A turn that completes is `failed` when it carries an error (newer cores put it on
//! `turn_complete`) or when an error that affects turn status was seen during the turn;
//! otherwise `completed`. An aborted turn is `interrupted`, whatever the reason (interrupted,
//! replaced, review ended, budget limited).

use codex_protocol::event::{ErrorEvent, TurnAbortedEvent, TurnCompleteEvent};

use crate::v2::{TurnError, TurnStatus};

/// The final state of a turn: status, error and timing.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    /// Completed, failed or interrupted.
    pub status: TurnStatus,
    /// The error, only when failed.
    pub error: Option<TurnError>,
    /// Start time reported by the end event, Unix seconds.
    pub started_at: Option<i64>,
    /// End time, Unix seconds.
    pub completed_at: Option<i64>,
    /// Duration reported by the core.
    pub duration_ms: Option<i64>,
}

impl TurnOutcome {
    /// The outcome of `turn_complete`, given the last status-affecting error seen in the turn.
    pub fn from_complete(event: &TurnCompleteEvent, last_error: Option<TurnError>) -> Self {
        let error = event
            .error
            .as_ref()
            .and_then(turn_error_for_status)
            .or(last_error);
        Self {
            status: if error.is_some() {
                TurnStatus::Failed
            } else {
                TurnStatus::Completed
            },
            error,
            started_at: event.started_at.as_ref().and_then(|at| at.unix_seconds()),
            completed_at: event.completed_at.as_ref().and_then(|at| at.unix_seconds()),
            duration_ms: event.duration_ms,
        }
    }

    /// The outcome of `turn_aborted`.
    pub fn from_aborted(event: &TurnAbortedEvent) -> Self {
        Self {
            status: TurnStatus::Interrupted,
            error: None,
            started_at: event.started_at.as_ref().and_then(|at| at.unix_seconds()),
            completed_at: event.completed_at.as_ref().and_then(|at| at.unix_seconds()),
            duration_ms: event.duration_ms,
        }
    }
}

/// The turn error an error event implies, or `None` for errors that do not change the turn's
/// status (a refused rollback, a steer into a turn that cannot be steered).
pub fn turn_error_for_status(event: &ErrorEvent) -> Option<TurnError> {
    let affects = event
        .codex_error_info
        .as_ref()
        .is_none_or(|info| info.affects_turn_status());
    affects.then(|| TurnError::from(event.clone()))
}
