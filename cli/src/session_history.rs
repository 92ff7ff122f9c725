//! A source's model history for `history` and `prompt`: codex-home's [`SessionHistory`]
//! (read from the end, or through the chain a fork by reference continues), its failures as
//! the command's exit codes, and the lines it skipped told on standard error.

use std::path::PathBuf;

use codex_home::{HistoryError, SessionHistory};
use codex_rollout::HistoryBaseError;

use crate::error::Failure;
use crate::input::Source;
use crate::output::warn;
use crate::progress::Progress;
use crate::streamed::SourceInput;

/// The history of `source` (which must be readable as a file: standard input and the sample
/// are spooled into one), its base resolved through `home` when it continues another thread.
pub(crate) fn load(source: &Source, home: Option<PathBuf>) -> Result<SessionHistory, Failure> {
    let name = source.name();
    let path = source
        .path()
        .ok_or_else(|| Failure::Usage(format!("{name} must be read as a file")))?;
    let hidden = Progress::hidden();
    let input = SourceInput::new(source, &hidden);
    let history =
        SessionHistory::load(&input, path, home.as_deref()).map_err(|error| match error {
            HistoryError::Read(error) => Failure::from(error),
            HistoryError::Base(error) => base_failure(error),
        })?;
    if history.unreadable_lines() > 0 {
        warn(&format!(
            "{name}: {} unreadable line(s) ignored in the part read; `codex-thread validate` \
             lists them",
            history.unreadable_lines()
        ));
    }
    Ok(history)
}

/// The failure of a base that cannot be resolved: a parent that cannot be found or read is
/// unreadable input (exit 2), one that does not fit the base is wrong content (exit 1).
fn base_failure(err: HistoryBaseError) -> Failure {
    match err {
        HistoryBaseError::MissingParent { .. } => Failure::Unreadable(format!(
            "{err}; pass --home DIR to search another Codex home"
        )),
        HistoryBaseError::Lookup { .. } | HistoryBaseError::Unreadable { .. } => {
            Failure::Unreadable(err.to_string())
        }
        other => Failure::Content(other.to_string()),
    }
}
