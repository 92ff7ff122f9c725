//! The session list of a home: live sessions (or archived ones) newest first, each thread
//! once (codex-home's `list_threads_of`), sub-agents under their parent; and the search over
//! the home's full-text index.

use std::collections::HashMap;
use std::path::Path;

use codex_home::{
    Hit, ListedSession, Order, Query, SessionSummary, SourceFilter, list_threads_of,
    nest_sub_agents,
};
use codex_rollout::CodexHome;

use crate::error::Failure;
pub(crate) use crate::home_threads::resume_command;
use crate::home_threads::{index_path, search_home};

/// Sessions shown at most.
pub(crate) const LIST_LIMIT: usize = 500;

/// One row of the list.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// The thread, by its newest file, as `list` shows it.
    pub session: ListedSession,
    /// When it was created, to the minute in the local zone (`2026-03-30 19:22`).
    pub created: String,
    /// Listed under its parent (which is in the list).
    pub nested: bool,
}

impl Row {
    /// Whether the row passes the list's filter: `model:TEXT` matches the model alone,
    /// `source:TEXT` the source kind alone; any other text matches the date, thread id,
    /// name, cwd, model or first message (case insensitive, a part of any of them).
    pub(crate) fn matches(&self, filter: &str) -> bool {
        let filter = filter.trim().to_lowercase();
        let session = &self.session;
        let model = session.model.as_deref().unwrap_or_default();
        if let Some(wanted) = filter.strip_prefix("model:") {
            return model.to_lowercase().contains(wanted.trim());
        }
        if let Some(source) = filter.strip_prefix("source:") {
            return session.source.to_lowercase().contains(source.trim());
        }
        filter.is_empty()
            || [
                self.created.as_str(),
                &session.thread_id,
                session.name.as_deref().unwrap_or_default(),
                &session.cwd,
                model,
                &session.preview,
            ]
            .iter()
            .any(|field| field.to_lowercase().contains(&filter))
    }

    /// The command that resumes the thread in Codex.
    pub(crate) fn resume_command(&self) -> String {
        resume_command(&self.session.thread_id)
    }
}

/// The sessions of `home` that `filter` keeps, newest first, each thread once, sub-agents
/// under their parent.
pub(crate) fn rows(
    home: &CodexHome,
    archived: bool,
    filter: &SourceFilter,
) -> Result<Vec<Row>, Failure> {
    let summaries = list_threads_of(home, archived, LIST_LIMIT, filter)
        .map_err(|error| Failure::Unreadable(error.to_string()))?;
    let names = home.thread_names().unwrap_or_default();
    Ok(nest_sub_agents(summaries)
        .into_iter()
        .map(|(summary, nested)| row(summary, nested, &names))
        .collect())
}

fn row(summary: SessionSummary, nested: bool, names: &HashMap<String, String>) -> Row {
    let session = ListedSession::of(summary, names);
    Row {
        created: crate::output::local_minute(&session.created_at),
        session,
        nested,
    }
}

/// The hits of `text` in `home`'s index (brought up to date first), newest first.
pub(crate) fn search(
    home: &CodexHome,
    index: Option<&Path>,
    text: &str,
) -> Result<Vec<Hit>, Failure> {
    let index = index_path(index.map(Path::to_path_buf))?;
    let mut query = Query::new(text);
    query.limit = 200;
    query.order = Order::Newest;
    Ok(search_home(&index, home, &query)?.0)
}

/// The first term of a search (typed text: every term is looked for as written): what find
/// in thread looks for in a thread opened from a hit.
pub(crate) fn find_text(query: &str) -> String {
    query
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}
