//! Reading a session file into what `view` shows: its turns (app-server-protocol's history
//! builder over codex-rollout's client view in the complete mode, as `thread`'s text shows
//! them) and the facts beside them
//! ([`ThreadFacts`]: model, tokens, rollbacks), from one pass over the file.
//!
//! A file that continues another's history (`history_base`) is read with its base resolved
//! through the home, so a continuation file shows as one thread. A file still being written
//! is read by [`super::follow::Follower`].

use std::path::Path;

use codex_app_server_protocol::transcript::ThreadFacts;
use codex_app_server_protocol::v2::Turn;
use codex_app_server_protocol::{ThreadHistoryBuilder, TranscriptMode};
use codex_home::{feed_with_base, stream_client_view};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};

use crate::error::Failure;
use crate::input::Source;
use crate::progress::Progress;
use crate::streamed::SourceInput;

/// A thread read from its file.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
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
    pub(crate) fn thread_id(&self) -> Option<String> {
        self.meta.as_ref().map(|meta| meta.meta.id.to_string())
    }
}

/// What the builder and the facts are fed, item by item. The turns are the complete
/// transcript (every call the file records, Codex's items among them).
#[derive(Debug, Clone)]
pub(crate) struct Feed {
    meta: Option<SessionMetaLine>,
    builder: ThreadHistoryBuilder,
    facts: ThreadFacts,
}

impl Default for Feed {
    fn default() -> Self {
        Self {
            meta: None,
            builder: ThreadHistoryBuilder::in_mode(TranscriptMode::Complete),
            facts: ThreadFacts::default(),
        }
    }
}

impl Feed {
    /// A feed of items that start inside a thread ([`ThreadFacts::mid_thread`]).
    pub(crate) fn mid_thread() -> Self {
        Self {
            facts: ThreadFacts::mid_thread(),
            ..Self::default()
        }
    }

    /// Takes one rollout item.
    pub(crate) fn push(&mut self, item: &RolloutItem) {
        if let (None, Some(meta)) = (&self.meta, item.session_meta()) {
            self.meta = Some(meta.clone());
        }
        self.builder.handle_rollout_item(item);
        self.facts.handle(item);
    }

    /// The thread fed so far.
    pub(crate) fn finish(self) -> Loaded {
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
pub(crate) fn load_file(path: &Path, home: Option<&Path>) -> Result<Loaded, Failure> {
    let mut based = Feed::default();
    if feed_with_base(path, home, |item| based.push(item))? {
        return Ok(based.finish());
    }
    let source = Source::File(path.to_path_buf());
    let progress = Progress::hidden();
    let input = SourceInput::new(&source, &progress);
    let feed = stream_client_view(&input, Feed::default, |feed, item| {
        feed.push(item);
    })?;
    Ok(feed.finish())
}
