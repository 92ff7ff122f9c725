//! What the commands over a home's threads share (`search`, `view`, `rescue`): where the
//! search index is and a search with its failures as the command's, and the command that
//! resumes a thread in Codex.

use std::path::{Path, PathBuf};

use codex_home::{Hit, Query, SearchError, SearchIndex, UpdateReport, update_and_search};
use codex_rollout::CodexHome;

use crate::error::Failure;

/// `--index PATH`, else the user's cache directory.
pub(crate) fn index_path(explicit: Option<PathBuf>) -> Result<PathBuf, Failure> {
    match explicit {
        Some(path) => Ok(path),
        None => SearchIndex::default_path().map_err(|err| Failure::Usage(err.to_string())),
    }
}

/// The index at `index` brought up to date with `home`, then asked `query`
/// ([`update_and_search`]); a query that does not parse is a usage error.
pub(crate) fn search_home(
    index: &Path,
    home: &CodexHome,
    query: &Query,
) -> Result<(Vec<Hit>, UpdateReport, Option<String>), Failure> {
    update_and_search(index, home, query, &mut |_| {}).map_err(|err| match err {
        SearchError::Query { .. } => Failure::Usage(err.to_string()),
        other => Failure::Unreadable(other.to_string()),
    })
}

/// The command that resumes thread `thread_id` in Codex: `codex resume <id>`.
pub(crate) fn resume_command(thread_id: impl std::fmt::Display) -> String {
    format!("codex resume {thread_id}")
}
