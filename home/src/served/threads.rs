//! `thread/list` and `thread/read`: the threads of a home, a page at a time, and one thread,
//! with or without its turns.
//!
//! A listed thread is built from its file's head (app-server-protocol's `ThreadBuilder`, the
//! builder `thread/read` with turns uses), never from the whole file, so a page costs its
//! threads' heads: the model and reasoning effort are those of the first turn context the
//! head records. Codex's list reads its state database, which keeps no thread source: a
//! listed thread says none, as Codex's does; `thread/read` says what the meta records.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use codex_app_server_protocol::v2::{
    SortDirection, Thread, ThreadListCwdFilter, ThreadListParams, ThreadListResponse,
    ThreadLoadedListResponse, ThreadReadParams, ThreadReadResponse, ThreadSortKey,
    ThreadUnsubscribeParams, ThreadUnsubscribeResponse, ThreadUnsubscribeStatus,
};
use codex_app_server_protocol::{BuiltThread, ThreadBuilder, TranscriptMode};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{CodexHome, RolloutStream, open_rollout};
use uuid::Uuid;

use super::list_params::{ListedIds, checked_ids};
use super::{ServeError, ServedHome};
use crate::read::{HomeThreads, describe_home_file};
use crate::{
    Cursor, FileInput, HEAD_RECORD_LIMIT, ListKey, ListOrder, ReadError, SessionSummary,
    USER_EVENT_SCAN_LIMIT, find_rollout_by_thread_id, list_sessions_where, read_thread,
    summarize_rollout_file,
};

/// Threads a `thread/list` page holds when the request names no limit.
const DEFAULT_PAGE: u32 = 25;

/// The source kinds listed when a request names none: the interactive ones.
const INTERACTIVE_KINDS: [&str; 2] = ["cli", "vscode"];

impl ServedHome {
    /// `thread/list`: a page of the threads `params` asks for, without their turns.
    pub fn thread_list(&self, params: &ThreadListParams) -> Result<ThreadListResponse, ServeError> {
        let mut response = ThreadListResponse {
            data: Vec::new(),
            next_cursor: None,
            backwards_cursor: None,
            read_states: serde_json::Map::new(),
        };
        let ids = checked_ids(params)?;
        // Session files record no section, no project and no attachment (Codex keeps them in
        // its state database): a thread of one is none's, and attached to none.
        let in_a_section = matches!(params.section_id, Some(Some(_)));
        let in_a_project = matches!(params.project_id, Some(Some(_)));
        if in_a_section
            || in_a_project
            || ids.attached_to.is_some()
            || params.sort_key == Some(ThreadSortKey::SectionPosition)
        {
            return Ok(response);
        }
        let order = ListOrder {
            key: match params.sort_key.unwrap_or_default() {
                ThreadSortKey::CreatedAt => ListKey::Created,
                _ => ListKey::Updated,
            },
            newest_first: params.sort_direction.unwrap_or_default() == SortDirection::Desc,
        };
        let cursor = params
            .cursor
            .as_deref()
            .map(|text| {
                text.parse::<Cursor>().map_err(|_| ServeError::BadCursor {
                    cursor: text.to_owned(),
                })
            })
            .transpose()?;
        let limit = params.limit.unwrap_or(DEFAULT_PAGE).max(1) as usize;
        let threads = HomeThreads::of(&self.home)?;
        let descendants = match ids.ancestor {
            Some(ancestor) => Some(descendants_of(&self.home, ancestor)?),
            None => None,
        };
        let filter = ListFilter::of(params, ids, descendants, &threads);
        let archived = params.archived.unwrap_or(false);
        let page = list_sessions_where(
            &self.home,
            archived,
            (order, limit, cursor.as_ref()),
            &|summary| filter.keeps(summary),
        )?;
        for summary in &page.items {
            let mut thread = listed_thread(summary, &threads)?;
            thread.thread_source = None;
            response.data.push(thread);
        }
        response.next_cursor = page.next_cursor.map(|cursor| cursor.to_string());
        response.backwards_cursor = page.backwards_cursor.map(|cursor| cursor.to_string());
        Ok(response)
    }

    /// `thread/loaded/list`: none; a server of saved sessions loads no thread.
    pub fn thread_loaded_list(&self) -> ThreadLoadedListResponse {
        ThreadLoadedListResponse::default()
    }

    /// `thread/unsubscribe` asked of no connection: `notSubscribed` for a thread of the
    /// home, `notLoaded` for any other ([`super::ServedConnection`] answers for the threads
    /// it follows).
    pub fn thread_unsubscribe(
        &self,
        params: &ThreadUnsubscribeParams,
    ) -> Result<ThreadUnsubscribeResponse, ServeError> {
        let status = match self.thread_path(&params.thread_id) {
            Ok(_) => ThreadUnsubscribeStatus::NotSubscribed,
            Err(ServeError::UnknownThread { .. }) => ThreadUnsubscribeStatus::NotLoaded,
            Err(error) => return Err(error),
        };
        Ok(ThreadUnsubscribeResponse { status })
    }

    /// `thread/read`: the thread, with its turns when asked (read whole, in Codex mode).
    pub fn thread_read(&self, params: &ThreadReadParams) -> Result<ThreadReadResponse, ServeError> {
        let path = self.thread_path(&params.thread_id)?;
        let summary = match params.include_turns {
            true => None,
            false => summarize_rollout_file(&path)?,
        };
        let thread = match summary {
            Some(summary) => listed_thread(&summary, &HomeThreads::of(&self.home)?)?,
            None => self.whole_thread(&path, &params.thread_id)?,
        };
        Ok(ThreadReadResponse {
            thread,
            read_state: None,
        })
    }

    /// The file of thread `thread_id` (live, else archived); an unknown or malformed id is
    /// a thread Codex cannot read either.
    pub(super) fn thread_path(&self, thread_id: &str) -> Result<PathBuf, ServeError> {
        let unknown = || ServeError::UnknownThread {
            thread_id: thread_id.to_owned(),
        };
        let id = ThreadId::from_string(thread_id).map_err(|_| unknown())?;
        find_rollout_by_thread_id(&self.home, id)?.ok_or_else(unknown)
    }

    /// The thread of the file at `path` with every turn, as Codex's `thread/read` shows it.
    pub(super) fn whole_thread(&self, path: &Path, thread_id: &str) -> Result<Thread, ServeError> {
        let input = FileInput(path.to_path_buf());
        match read_thread(&input, Some(&self.home.root), TranscriptMode::Codex, None)? {
            BuiltThread::Thread(thread) => Ok(*thread),
            BuiltThread::TurnsOnly(_) => Err(ServeError::UnknownThread {
                thread_id: thread_id.to_owned(),
            }),
        }
    }
}

/// The thread a listed session shows, without turns: its file's head built as a thread is,
/// then what its home (`threads`) says of it; the listing's preview when the head has none
/// (a thread continued in another file lists its first piece's).
fn listed_thread(summary: &SessionSummary, threads: &HomeThreads) -> Result<Thread, ServeError> {
    let mut built = thread_head(&summary.path)?;
    describe_home_file(&mut built, &summary.path, threads)?;
    let BuiltThread::Thread(mut thread) = built else {
        return Err(ServeError::UnknownThread {
            thread_id: summary.thread_id().to_string(),
        });
    };
    thread.turns.clear();
    if thread.preview.is_empty() {
        thread.preview = summary.preview.clone();
    }
    Ok(*thread)
}

/// The thread the head of the file at `path` builds: fed until it has its identity and
/// preview, or for as many lines as a listing reads of a head.
fn thread_head(path: &Path) -> Result<BuiltThread, ServeError> {
    let io = |source| {
        ServeError::Read(ReadError::Io {
            name: path.display().to_string(),
            source,
        })
    };
    let mut builder = ThreadBuilder::in_mode(TranscriptMode::Codex);
    let mut stream = RolloutStream::new(open_rollout(path).map_err(io)?).map_err(io)?;
    for _ in 0..HEAD_RECORD_LIMIT + USER_EVENT_SCAN_LIMIT {
        let Some(line) = stream.next_line().map_err(io)? else {
            break;
        };
        if let Some(rollout_line) = line.line() {
            builder.handle_rollout_item(&rollout_line.item);
        }
        if builder.has_identity() && builder.preview().is_some() {
            break;
        }
    }
    Ok(builder.finish())
}

/// The threads `ancestor` spawned, at any depth, live or archived: each session's parent as
/// its meta records it, followed up (a chain that loops ends where it meets itself).
fn descendants_of(home: &CodexHome, ancestor: Uuid) -> Result<HashSet<Uuid>, ServeError> {
    let mut parents = HashMap::new();
    let order = ListOrder {
        key: ListKey::Created,
        newest_first: true,
    };
    for archived in [false, true] {
        let page = list_sessions_where(home, archived, (order, usize::MAX, None), &|_| true)?;
        for summary in &page.items {
            let (_, parent) = summary.source();
            if let Some(parent) = parent.and_then(|parent| Uuid::parse_str(&parent).ok()) {
                parents.insert(*summary.thread_id().as_uuid(), parent);
            }
        }
    }
    let spawned_by_ancestor = |thread: Uuid| {
        let mut seen = HashSet::new();
        let mut at = thread;
        while let Some(&parent) = parents.get(&at) {
            if parent == ancestor {
                return true;
            }
            if !seen.insert(parent) {
                return false;
            }
            at = parent;
        }
        false
    };
    Ok(parents
        .keys()
        .copied()
        .filter(|thread| spawned_by_ancestor(*thread))
        .collect())
}

/// What `thread/list` keeps besides the archive flag and the order.
struct ListFilter<'a> {
    kinds: Vec<String>,
    providers: Option<Vec<String>>,
    cwd: Option<ThreadListCwdFilter>,
    search: Option<String>,
    /// The home's thread names, which a search term may match.
    names: &'a HashMap<String, String>,
    parent: Option<Uuid>,
    /// The threads an `ancestorThreadId` spawned, at any depth.
    descendants: Option<HashSet<Uuid>>,
    excluded: Vec<Uuid>,
    /// Only these, when given (an empty list keeps none).
    included: Option<Vec<Uuid>>,
}

impl<'a> ListFilter<'a> {
    fn of(
        params: &ThreadListParams,
        ids: ListedIds,
        descendants: Option<HashSet<Uuid>>,
        threads: &'a HomeThreads,
    ) -> Self {
        let kinds = match params.source_kinds.as_deref() {
            None | Some([]) => INTERACTIVE_KINDS
                .iter()
                .map(|kind| (*kind).to_owned())
                .collect(),
            Some(kinds) => kinds.to_vec(),
        };
        let providers = match params.model_providers.as_deref() {
            None => Some(vec![threads.default_model_provider().to_owned()]),
            Some([]) => None,
            Some(providers) => Some(providers.to_vec()),
        };
        Self {
            kinds,
            providers,
            cwd: params.cwd.clone(),
            search: params.search_term.clone(),
            names: &threads.names,
            parent: ids.parent,
            descendants,
            excluded: ids.excluded,
            included: ids.included,
        }
    }

    fn keeps(&self, summary: &SessionSummary) -> bool {
        let meta = &summary.session_meta.meta;
        let id = *meta.id.as_uuid();
        let (source, parent) = summary.source();
        let provider = meta.model_provider.as_deref();
        self.kinds.iter().any(|kind| kind == source.kind())
            && self.providers.as_ref().is_none_or(|providers| {
                provider.is_none_or(|provider| providers.iter().any(|one| one == provider))
            })
            && self
                .cwd
                .as_ref()
                .is_none_or(|cwd| cwd.matches(&meta.cwd.display().to_string()))
            && self.search.as_ref().is_none_or(|term| {
                // Codex's rule: a case-sensitive substring of the name or the preview.
                let name = self.names.get(&meta.id.to_string());
                summary.preview.contains(term.as_str())
                    || name.is_some_and(|name| name.contains(term.as_str()))
            })
            && self.parent.is_none_or(|wanted| {
                parent.is_some_and(|parent| Uuid::parse_str(&parent).ok() == Some(wanted))
            })
            && self
                .descendants
                .as_ref()
                .is_none_or(|descendants| descendants.contains(&id))
            && !self.excluded.contains(&id)
            && self
                .included
                .as_ref()
                .is_none_or(|included| included.contains(&id))
    }
}

#[cfg(test)]
#[path = "threads_tests.rs"]
mod tests;
