//! `codex-thread history [FILE] [--home DIR]`: the model history a resumed session would hold,
//! as JSON Lines of ResponseItems.
//!
//! The history is codex-rollout's reconstruction (`reconstruct_history_from_rollout`): the
//! newest surviving compaction's replacement history as the base, then the items after it
//! replayed through core's `ContextManager`, rollbacks applied where they were recorded. It is
//! the raw history (what history keeps), not the prompt projection (`prompt` shows that).
//!
//! A plain or compressed file (standard input and the sample spooled into one) is rebuilt from
//! its end (codex-rollout's `tail`): the suffix reconstruction needs is surveyed, then
//! replayed from the base compaction, holding only the history; a file the tail cannot read
//! as a session fails with the streaming commands' checks.
//!
//! A fork by reference (a first session meta with a `history_base`) holds only the end of its
//! history: codex-rollout's `history_base` finds its parent by thread id under the Codex home
//! (`--home`, else the home the file lies in, else `$CODEX_HOME`, else `~/.codex`: the rule
//! `thread` and `view` follow too), plain or compressed, and puts the parent's prefix first;
//! the chain's items are held (the parent's prefix and the file's own lines). A parent that
//! cannot be found or read stops the command (exit 2), one that does not have the prefix the
//! base names too (exit 1); the history is never silently shorter.

use std::path::PathBuf;

use crate::error::{CommandResult, Status};
use crate::input::Source;
use crate::output::{Output, note};
use crate::session_history;

/// Runs `history`: JSON Lines in both modes, with a one-line summary on standard error in
/// human mode.
pub(crate) fn run(source: &Source, home: Option<PathBuf>, out: &mut Output) -> CommandResult {
    let history = session_history::load(source, home)?;
    let rebuilt = history.rebuilt();
    for item in rebuilt.history.raw_items() {
        out.json_line(item)?;
    }
    if !out.is_json() {
        let base = match rebuilt.stats.base_compaction {
            Some(_) => ", starting from the last compaction's replacement history",
            None => "",
        };
        let parents = match history.bases() {
            [] => String::new(),
            bases => format!(
                "; continues thread {}",
                bases
                    .iter()
                    .map(|base| base.thread_id.to_string())
                    .collect::<Vec<_>>()
                    .join(" <- ")
            ),
        };
        note(&format!(
            "{}: {} history item(s){base}; {} rollback(s) applied{parents}",
            source.name(),
            rebuilt.history.len(),
            rebuilt.stats.rollbacks_applied,
        ));
    }
    Ok(Status::Ok)
}
