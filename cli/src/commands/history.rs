//! `codex-thread history [FILE]`: the model history a resumed session would hold, as JSON
//! Lines of ResponseItems.
//!
//! The history is codex-rollout's reconstruction (`reconstruct_history_from_rollout`): the
//! newest surviving compaction's replacement history as the base, then the items after it
//! replayed through core's `ContextManager`, rollbacks applied where they were recorded. It is
//! the raw history (what history keeps), not the prompt projection (`prompt` shows that).

use codex_rollout::reconstruct::{ReconstructedHistory, reconstruct_history_from_rollout};

use crate::error::{CommandResult, Status};
use crate::input::{Session, Source, load_session};
use crate::output::{Output, note};

/// Rebuilds the model history of `session`.
pub fn reconstruct(session: &Session) -> ReconstructedHistory {
    reconstruct_history_from_rollout(session.items())
}

/// Runs `history`: JSON Lines in both modes, with a one-line summary on standard error in
/// human mode.
pub fn run(source: &Source, out: &mut Output) -> CommandResult {
    let session = load_session(source)?;
    let rebuilt = reconstruct(&session);
    for item in rebuilt.history.raw_items() {
        out.json_line(item)?;
    }
    if !out.is_json() {
        let base = match rebuilt.stats.base_compaction {
            Some(_) => ", starting from the last compaction's replacement history",
            None => "",
        };
        note(&format!(
            "{}: {} history item(s){base}; {} rollback(s) applied",
            session.name(),
            rebuilt.history.len(),
            rebuilt.stats.rollbacks_applied,
        ));
    }
    Ok(Status::Ok)
}
