//! Reading a session file into what `view` shows: its turns (app-server-protocol's history
//! builder over codex-rollout's client view, as `thread` reads them) and the facts beside them
//! ([`ThreadFacts`]: model, tokens, rollbacks), from one pass over the file.
//!
//! A file that continues another's history (`history_base`) is read with its base resolved
//! through the home, so a continuation file shows as one thread. A file still being written
//! is read by [`super::follow::Follower`].

use std::path::Path;

use codex_app_server_protocol::ThreadHistoryBuilder;
use codex_app_server_protocol::transcript::ThreadFacts;
use codex_app_server_protocol::v2::Turn;
use codex_home::read_head_summary;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_rollout::CodexHome;
use codex_rollout::RolloutContents;
use codex_rollout::home_of_rollout_path;
use codex_rollout::load_rollout_with_base;
use codex_rollout::{ClientView, client_view_items};

use crate::error::Failure;
use crate::input::{Source, load_session};
use crate::progress::Progress;
use crate::streamed::stream_session;

/// A thread read from its file.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The first session meta, when the file has one.
    pub meta: Option<SessionMetaLine>,
    /// The turns, the last one `inProgress` when the file ends inside it.
    pub turns: Vec<Turn>,
    /// Model, tokens, rollbacks.
    pub facts: ThreadFacts,
    /// Bytes at the start of the file not read (a large file opened from its end).
    pub skipped_bytes: u64,
    /// Bytes at the end of the file not read (a large file paged back from its end).
    pub bytes_after: u64,
}

impl Loaded {
    /// The thread id, when the file has a session meta.
    pub fn thread_id(&self) -> Option<String> {
        self.meta.as_ref().map(|meta| meta.meta.id.to_string())
    }
}

/// What the builder and the facts are fed, item by item.
#[derive(Default)]
pub struct Feed {
    meta: Option<SessionMetaLine>,
    builder: ThreadHistoryBuilder,
    facts: ThreadFacts,
}

impl Feed {
    /// A feed of items that start inside a thread ([`ThreadFacts::mid_thread`]).
    pub fn mid_thread() -> Self {
        Self {
            facts: ThreadFacts::mid_thread(),
            ..Self::default()
        }
    }

    /// Takes one rollout item.
    pub fn push(&mut self, item: &RolloutItem) {
        if let (None, RolloutItem::SessionMeta(meta)) = (&self.meta, item) {
            self.meta = Some(meta.as_ref().clone());
        }
        self.builder.handle_rollout_item(item);
        self.facts.handle(item);
    }

    /// The thread fed so far.
    pub fn finish(self) -> Loaded {
        Loaded {
            meta: self.meta,
            turns: self.builder.finish(),
            facts: self.facts,
            skipped_bytes: 0,
            bytes_after: 0,
        }
    }
}

/// Reads the session at `path` (plain or `.zst`); `home` resolves a history base.
pub fn load_file(path: &Path, home: Option<&Path>) -> Result<Loaded, Failure> {
    if has_history_base(path) {
        let home = home_of(path, home)?;
        let resolved = load_rollout_with_base(&home, path)
            .map_err(|error| Failure::Content(format!("{}: {error}", path.display())))?;
        let mut feed = Feed::default();
        for item in resolved.items() {
            feed.push(item);
        }
        return Ok(feed.finish());
    }
    let source = Source::File(path.to_path_buf());
    let mut view = ClientView::streaming();
    let mut feed = Feed::default();
    let mut push = |item: &RolloutItem| feed.push(item);
    stream_session(&source, &Progress::hidden(), |line| {
        if let Some(format) = line.format() {
            view.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            view.push(line.number, line.raw, &rollout_line.item, &mut push);
        }
    })?;
    match view.finish(&mut push) {
        Ok(_) => Ok(feed.finish()),
        Err(changed) => {
            tracing::debug!(%changed, path = %path.display(), "loading the whole file");
            let session = load_session(&source)?;
            Ok(load_contents(session.contents()))
        }
    }
}

/// The thread of rollout contents already in memory.
pub fn load_contents(contents: &RolloutContents) -> Loaded {
    let mut feed = Feed::default();
    for item in client_view_items(contents).iter() {
        feed.push(item);
    }
    feed.finish()
}

/// Whether the file at `path` continues another thread's history.
pub fn has_history_base(path: &Path) -> bool {
    read_head_summary(path).is_ok_and(|head| {
        head.session_meta
            .is_some_and(|meta| meta.meta.history_base.is_some())
    })
}

/// The home named by `home`, else the one `path` lies in, else the default one.
fn home_of(path: &Path, home: Option<&Path>) -> Result<CodexHome, Failure> {
    Ok(match home {
        Some(root) => CodexHome::new(root),
        None => match home_of_rollout_path(path) {
            Some(home) => home,
            None => CodexHome::resolve(None).map_err(|error| Failure::Usage(error.to_string()))?,
        },
    })
}
