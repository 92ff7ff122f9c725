//! What a client is shown of one session file, for `thread`, `view`, `inspect` and `export`:
//! the items of its client view (codex-rollout's [`ClientView`]) streamed into a builder, or,
//! for a file that continues another thread's history (a `history_base`), its resolved chain;
//! read once, or twice for a thread whose turns are handed on as they become final
//! ([`PlannedThread`]).

use std::path::Path;

use codex_app_server_protocol::transcript::ThreadFacts;
use codex_app_server_protocol::v2::{ThreadFile, Turn};
use codex_app_server_protocol::{
    BuiltThread, ThreadBuilder, ThreadHistoryBuilder, TranscriptMode, TurnSchedule,
};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{
    ClientView, CodexHome, TurnRecords, history_base_of_file, home_of_rollout_path,
    load_rollout_with_base,
};
use uuid::Uuid;

use crate::error::Failure;
use crate::input::Source;
use crate::progress::Progress;
use crate::streamed::{ItemsSeen, stream_again, stream_session};

/// Streams the client view of `source` into a builder made by `new`. The view's rule is
/// decided from the first items; when the end of the file says another rule was needed, the
/// file is streamed once more with the rule known, into a fresh builder (a file is never
/// held).
pub(crate) fn stream_client_view<B>(
    source: &Source,
    progress: &Progress,
    new: impl Fn() -> B,
    feed: impl FnMut(&mut B, &RolloutItem),
) -> Result<B, Failure> {
    stream_client_view_again(source, progress, new, feed).map(|(builder, _)| builder)
}

/// What a later pass needs to hand on the same client view items again ([`ViewRead::again`]).
#[derive(Debug, Clone)]
pub(crate) struct ViewRead {
    seen: ItemsSeen,
    rule: TurnRecords,
    thread_id: ThreadId,
}

/// [`stream_client_view`], with what a later pass needs to read the same items again.
fn stream_client_view_again<B>(
    source: &Source,
    progress: &Progress,
    new: impl Fn() -> B,
    mut feed: impl FnMut(&mut B, &RolloutItem),
) -> Result<(B, ViewRead), Failure> {
    let mut view = ClientView::streaming();
    let mut builder = new();
    let mut thread_id = None;
    let seen = stream_session(source, progress, |line| {
        if let Some(format) = line.format() {
            view.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            if let (None, Some(meta)) = (thread_id, rollout_line.item.session_meta()) {
                thread_id = Some(meta.meta.id);
            }
            view.push(line.number, line.raw, &rollout_line.item, &mut |item| {
                feed(&mut builder, item);
            });
        }
    })?;
    let thread_id = thread_id.unwrap_or_else(|| ThreadId::from_uuid(Uuid::nil()));
    let changed = match view.finish(&mut |item| feed(&mut builder, item)) {
        Ok(rule) => {
            let read = ViewRead {
                seen,
                rule,
                thread_id,
            };
            return Ok((builder, read));
        }
        Err(changed) => changed,
    };
    tracing::debug!(%changed, source = %source.name(), "reading the file again");
    let read = ViewRead {
        seen,
        rule: changed.file,
        thread_id,
    };
    let mut builder = new();
    read.again(source, "reading", |item| {
        feed(&mut builder, item);
        Ok(())
    })?;
    Ok((builder, read))
}

impl ViewRead {
    /// Hands `visit` the client view's items of `source` again, by the rule the first pass
    /// settled, up to the last line it read; stops at the first error `visit` returns.
    fn again(
        &self,
        source: &Source,
        label: &str,
        mut visit: impl FnMut(&RolloutItem) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let mut view = ClientView::for_rule(self.rule, self.thread_id);
        let mut failed = None;
        let mut push = |item: &RolloutItem| {
            if failed.is_none() {
                failed = visit(item).err();
            }
        };
        stream_again(
            source,
            label,
            self.seen,
            ("read", "read"),
            |_, line, rollout_line| {
                view.push(line.number, line.raw, &rollout_line.item, &mut push);
                Ok(())
            },
        )?;
        // The rule is known, so the view cannot find that another one was needed.
        let _known = view.finish(&mut push);
        failed.map_or(Ok(()), Err)
    }
}

/// A thread read in two passes, so the whole thread is never held: the first
/// ([`PlannedThread::read`]) gives the thread without its items, the facts a transcript shows
/// beside them and when each turn is final; the second ([`PlannedThread::turns`]) hands on
/// each turn once it is (app-server-protocol's `ThreadBuilder::planner` and `following`).
pub(crate) struct PlannedThread {
    /// The thread without its turns (what the header of a transcript needs).
    pub(crate) header: BuiltThread,
    /// How many turns the thread shows.
    pub(crate) turns: usize,
    /// What the transcript shows beside the items (tokens, rollbacks, the model).
    pub(crate) facts: ThreadFacts,
    /// The first session meta, when the items have one.
    pub(crate) meta: Option<SessionMetaLine>,
    schedule: TurnSchedule,
    again: Again,
}

/// How the turn a file leaves open is handed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LeftOpen {
    /// As a thread shows it, interrupted (`thread`, `export`: app-server-protocol's
    /// `ThreadBuilder`).
    Interrupted,
    /// As it stands, in progress (`view`, whose status line says the file left it open).
    InProgress,
}

/// The second pass's builder.
enum Second {
    Thread(Box<ThreadBuilder>),
    History(Box<ThreadHistoryBuilder>),
}

impl Second {
    fn handle(&mut self, item: &RolloutItem) {
        match self {
            Self::Thread(builder) => builder.handle_rollout_item(item),
            Self::History(builder) => builder.handle_rollout_item(item),
        }
    }

    fn take_final_turns(&mut self) -> Vec<Turn> {
        match self {
            Self::Thread(builder) => builder.take_final_turns(),
            Self::History(builder) => builder.take_final_turns(),
        }
    }

    fn finish(self) -> Vec<Turn> {
        match self {
            Self::Thread(builder) => match (*builder).finish() {
                BuiltThread::Thread(thread) => thread.turns,
                BuiltThread::TurnsOnly(turns) => turns,
            },
            Self::History(builder) => (*builder).finish(),
        }
    }
}

/// What the first pass keeps: the thread, the facts, the first session meta.
type First = (ThreadBuilder, ThreadFacts, Option<SessionMetaLine>);

/// How the second pass reads the items again.
enum Again {
    /// The client view of a file or a spooled stream.
    Stream(Source, ViewRead),
    /// A file that continues another thread's history: its resolved items, held.
    Items(Vec<RolloutItem>),
}

impl PlannedThread {
    /// The first pass over `source` (a file's history base resolved through `home`).
    pub(crate) fn read(
        source: &Source,
        home: Option<&Path>,
        progress: &Progress,
    ) -> Result<Self, Failure> {
        let new = || (ThreadBuilder::planner(), ThreadFacts::new(), None);
        let feed = |(builder, facts, meta): &mut First, item: &RolloutItem| {
            builder.handle_rollout_item(item);
            facts.handle(item);
            if let (None, Some(first)) = (&meta, item.session_meta()) {
                *meta = Some(first.clone());
            }
        };
        let mut based = Vec::new();
        let is_based = match source {
            Source::File(path) => feed_with_base(path, home, |item| based.push(item.clone()))?,
            _ => false,
        };
        let ((builder, facts, meta), again) = if is_based {
            let mut first = new();
            based.iter().for_each(|item| feed(&mut first, item));
            (first, Again::Items(based))
        } else {
            let (first, read) = stream_client_view_again(source, progress, new, feed)?;
            (first, Again::Stream(source.clone(), read))
        };
        let (header, schedule) = builder.finish_schedule();
        Ok(Self {
            header,
            turns: schedule.turns(),
            facts,
            meta,
            schedule,
            again,
        })
    }

    /// The thread without its turns (the first pass builds none), taken out.
    pub(crate) fn take_header(&mut self) -> BuiltThread {
        std::mem::replace(&mut self.header, BuiltThread::TurnsOnly(Vec::new()))
    }

    /// The thread's turns showing the items of `mode`, the one the file leaves open shown
    /// as `left_open` says, each handed to `visit` in order as soon as it is final; stops at
    /// the first error `visit` returns.
    pub(crate) fn turns(
        self,
        (mode, left_open): (TranscriptMode, LeftOpen),
        label: &str,
        mut visit: impl FnMut(Turn) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let mut builder = match left_open {
            LeftOpen::Interrupted => {
                Second::Thread(Box::new(ThreadBuilder::following(mode, self.schedule)))
            }
            LeftOpen::InProgress => Second::History(Box::new(
                ThreadHistoryBuilder::in_mode(mode).following(self.schedule),
            )),
        };
        let mut feed = |item: &RolloutItem| {
            builder.handle(item);
            builder
                .take_final_turns()
                .into_iter()
                .try_for_each(&mut visit)
        };
        match &self.again {
            Again::Stream(source, read) => read.again(source, label, &mut feed)?,
            Again::Items(items) => items.iter().try_for_each(&mut feed)?,
        }
        builder.finish().into_iter().try_for_each(visit)
    }
}

/// The items of the file at `path` with its history base resolved (the parent's prefix, then
/// its own lines), fed to `feed`, when the file continues another thread's history; `false`
/// when it does not (then nothing is fed). The parent is found through `home`, else the home
/// the file lies in, else the default one; a missing parent is an error that names it.
pub(crate) fn feed_with_base(
    path: &Path,
    home: Option<&Path>,
    mut feed: impl FnMut(&RolloutItem),
) -> Result<bool, Failure> {
    if !continues_another(path) {
        return Ok(false);
    }
    let home = home_of(path, home)?;
    let resolved = load_rollout_with_base(&home, path)
        .map_err(|error| Failure::Content(format!("{}: {error}", path.display())))?;
    for item in resolved.items() {
        feed(item);
    }
    Ok(true)
}

/// Whether the file at `path` continues another thread's history (its first line names a
/// `history_base`): a fork by reference or a continuation file.
pub(crate) fn continues_another(path: &Path) -> bool {
    matches!(history_base_of_file(path), Ok(Some(_)))
}

/// The home named by `home` (which must be one: [`crate::input::resolve_home`]), else the one
/// `path` lies in, else the default one.
pub(crate) fn home_of(path: &Path, home: Option<&Path>) -> Result<CodexHome, Failure> {
    Ok(match home {
        Some(root) => crate::input::resolve_home(Some(root))?,
        None => match home_of_rollout_path(path) {
            Some(home) => home,
            None => CodexHome::resolve(None).map_err(|error| Failure::Usage(error.to_string()))?,
        },
    })
}

/// Adds to `built` (when it has a session meta) what the file at `path` and its home say of
/// the thread beyond its lines: its path, modification time, name and the default provider
/// (the home is `home` when given, else the one the file lies in, else the default one).
pub(crate) fn describe_thread_file(
    built: &mut BuiltThread,
    path: &Path,
    home: Option<&Path>,
) -> Result<(), Failure> {
    if let BuiltThread::Thread(thread) = built {
        let file = thread_file(path, home, &thread.id)?;
        thread.describe_file(file);
    }
    Ok(())
}

/// What `path` and its home say of the thread beyond its lines. The home is `home` when
/// given, else the one the file lies in, else the default one.
fn thread_file(path: &Path, home: Option<&Path>, thread_id: &str) -> Result<ThreadFile, Failure> {
    let unreadable =
        |error: std::io::Error| Failure::Unreadable(format!("{}: {error}", path.display()));
    let home = home_of(path, home)?;
    let modified = std::fs::metadata(path)
        .and_then(|metadata| metadata.modified())
        .map_err(unreadable)?;
    let modified_at = modified
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
        });
    let absolute = std::path::absolute(path).map_err(unreadable)?;
    let name = home.thread_name(thread_id).map_err(|error| {
        Failure::Unreadable(format!(
            "{}: {error}",
            home.root()
                .join(codex_rollout::SESSION_INDEX_FILE)
                .display()
        ))
    })?;
    Ok(ThreadFile {
        path: absolute.display().to_string(),
        modified_at,
        name,
        default_model_provider: home.default_model_provider(),
    })
}
