//! A session as the messages a client of Codex's app-server receives: [`replay_notifications`]
//! replays a file from its start, and the [`NotificationReplay`] it returns goes on with the
//! lines Codex appends ([`NotificationReplay::follow`]), so a client subscribed to a thread
//! being written gets its `turn/*` and `item/*` notifications as they are recorded.
//!
//! The events come from codex-rollout's [`Replayer`]: every persisted event, plus the
//! `item_started` / `item_completed` pairs core sent live for recorded response items when the
//! file did not persist them. They are projected, in order, through app-server-protocol's
//! [`EventProjector`], the same stateful projection a live app server runs, after the
//! thread's `thread/started` (when the file has a session meta). The projector's clock follows
//! the file: each event is projected at its replay time. Streaming deltas are never
//! persisted, so a replay has no `.../delta` notifications; approvals come out as server
//! requests (with an `id`).
//!
//! A file is read twice as a stream, so memory is the turn index, not the file: a first pass
//! takes the turn index the replay asks ([`StreamedTurnIndex`]: which items are a person's
//! message) and the first session meta, a second pass replays each line as it is read. The
//! first pass parses only the lines that can change the index
//! ([`StreamedTurnIndex::may_pass_over`], and the line after a message item), so its turns
//! are numbered by line; the second parses every line but those whose items the replay takes
//! only the time of ([`Replayer::may_pass_over`]). The second pass stops at the last line the
//! first read an item from, so a session Codex is still appending to is replayed as it was at
//! the first pass; a file rewritten in between is an error.
//!
//! Following reads on from the end of the last complete line replayed, one line at a time,
//! with the turn index fed as it goes ([`Replayer::learn`]). Whether a person's message item
//! starts a turn the index may learn only from the next line (Codex writes the item, then its
//! `user_message` record): such a last line is held back (the lines before it are not) until the next line comes, or until
//! the file has been still for [`HOLD_POLLS`] polls (a file that never records its turns).
//! A compressed file, or an input that is no file, has nothing to follow: Codex never appends
//! to one. A file that shrank was rewritten, and following it ends with an error.

use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use codex_app_server_protocol::thread_from_session_meta;
use codex_app_server_protocol::v2::ThreadStartedNotification;
use codex_app_server_protocol::{EventProjector, ServerMessage, ServerNotification};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{Compression, ReplayedEvent, Replayer, RolloutReader, StreamedTurnIndex};

use crate::follow::ReadPoint;
use crate::{Passes, ReadError, SessionInput, stream_again_lines, stream_session_where};

/// Polls of a still file after which a held last line is replayed anyway (see the module
/// docs).
pub const HOLD_POLLS: u32 = 4;

/// A replay of a session into client messages, which can go on as the file grows (see the
/// module docs).
#[derive(Debug)]
pub struct NotificationReplay {
    index: StreamedTurnIndex,
    replayer: Replayer,
    projection: Projection,
    /// The file followed and where its next line starts; `None` when nothing can follow (a
    /// compressed file, an input that is no file).
    next: Option<(PathBuf, ReadPoint)>,
    /// Lines read into the index but not replayed yet (see the module docs).
    held: Vec<HeldLine>,
    /// Polls since the file last grew.
    idle: u32,
}

/// A line read on but not replayed yet.
#[derive(Debug)]
struct HeldLine {
    number: usize,
    raw: Vec<u8>,
    item: RolloutItem,
}

/// The projection of a replay into protocol messages.
struct Projection {
    now_ms: Arc<AtomicI64>,
    projector: EventProjector,
}

impl std::fmt::Debug for Projection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Projection")
            .field("projector", &self.projector)
            .finish_non_exhaustive()
    }
}

impl Projection {
    fn new(thread_id: ThreadId) -> Self {
        let now_ms = Arc::new(AtomicI64::new(0));
        let clock = Arc::clone(&now_ms);
        let projector = EventProjector::with_clock(thread_id.to_string(), move || {
            clock.load(Ordering::Relaxed)
        });
        Self { now_ms, projector }
    }

    /// The messages of `event`, at the event's time.
    fn project(&mut self, event: &ReplayedEvent) -> Vec<ServerMessage> {
        self.now_ms
            .store(event.at_ms.unwrap_or_default(), Ordering::Relaxed);
        self.projector.project(&event.msg)
    }
}

/// Whether the first pass reads `raw`: every line but those the turn index may pass over.
fn indexed(raw: &[u8]) -> bool {
    !StreamedTurnIndex::may_pass_over(raw)
}

/// Whether the second pass reads `raw` (besides every line the first passed over): every line
/// but those the replay may take unparsed.
fn replayed(raw: &[u8]) -> bool {
    !Replayer::may_pass_over(raw)
}

/// Replays `input` from its start, handing `emit` each message in order (the thread's
/// `thread/started` first, when the file has a session meta) and stopping at the first error
/// `emit` returns; the replay, to follow the file on with (see the module docs).
pub fn replay_notifications<E: From<ReadError>>(
    input: &dyn SessionInput,
    emit: impl FnMut(ServerMessage) -> Result<(), E>,
) -> Result<NotificationReplay, E> {
    replay(input, true, emit)
}

/// [`replay_notifications`] for a reader that will not follow the file: the turn index is let
/// go once the first pass has read it, so what the second pass keeps is the positions of the
/// turns' records (a byte or two a turn), not the index of every rule.
pub fn replay_notifications_once<E: From<ReadError>>(
    input: &dyn SessionInput,
    emit: impl FnMut(ServerMessage) -> Result<(), E>,
) -> Result<(), E> {
    replay(input, false, emit).map(drop)
}

/// The replay of both: `follow` keeps the index (and the place to read on from).
fn replay<E: From<ReadError>>(
    input: &dyn SessionInput,
    follow: bool,
    mut emit: impl FnMut(ServerMessage) -> Result<(), E>,
) -> Result<NotificationReplay, E> {
    let mut index = StreamedTurnIndex::default();
    let mut meta: Option<SessionMetaLine> = None;
    let passes = Passes {
        first: indexed,
        later: replayed,
    };
    // The lines the second pass passes over that held no item (they did not parse): their
    // time must not move the replay's clock, as a line without an item is never pushed.
    let mut itemless = Vec::new();
    let first = stream_session_where(input, &passes, |line| {
        if line.passed_over() && index.reads_next_item() {
            line.read_in_full();
        }
        if line.line().is_none() && !line.passed_over() && !replayed(line.raw) {
            itemless.push(line.number);
        }
        if let Some(format) = line.format() {
            index.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            index.push_at(line.number, &rollout_line.item);
            if let (None, Some(first)) = (&meta, rollout_line.item.session_meta()) {
                meta = Some(first.clone());
            }
        }
    })?;
    let thread_id = meta
        .as_ref()
        .map_or_else(ThreadId::unrecorded, |meta| meta.meta.id);
    // The turns are numbered by line (the first pass could not count the items it passed
    // over), so the replay is fed line numbers too.
    let mut replayer = Replayer::new(thread_id, &index);
    if !follow {
        index = StreamedTurnIndex::default();
    }
    let mut projection = Projection::new(thread_id);
    if let Some(meta) = &meta {
        emit(ServerMessage::Notification(
            ServerNotification::ThreadStarted(ThreadStartedNotification {
                thread: Box::new(thread_from_session_meta(meta)),
            }),
        ))?;
    }
    let mut end = ReadPoint::default();
    stream_again_lines(
        input,
        "replaying",
        &first,
        &passes,
        ("replayed", "replay"),
        |line| {
            if line.terminated {
                end = ReadPoint::after(line);
            }
            if line.passed_over() {
                if itemless.binary_search(&line.number).is_err() {
                    replayer.pass_over(line.raw);
                }
                return Ok(());
            }
            let Some(rollout_line) = line.line() else {
                return Ok(());
            };
            let mut emitted = Ok(());
            replayer.push(
                line.number,
                line.number,
                line.raw,
                &rollout_line.item,
                &mut |event| {
                    for message in projection.project(&event) {
                        if emitted.is_ok() {
                            emitted = emit(message);
                        }
                    }
                },
            );
            emitted
        },
    )?;
    let next = input
        .file()
        .filter(|_| follow)
        .map(|path| (path.to_path_buf(), end))
        .filter(|(path, _)| is_plain(path));
    Ok(NotificationReplay {
        index,
        replayer,
        projection,
        next,
        held: Vec::new(),
        idle: 0,
    })
}

/// Whether `path` is a plain file (one Codex may append to).
pub(crate) fn is_plain(path: &std::path::Path) -> bool {
    File::open(path)
        .and_then(|mut file| RolloutReader::new(&mut file).map(|reader| reader.compression()))
        .is_ok_and(|compression| compression == Compression::Plain)
}

impl NotificationReplay {
    /// Whether the replay can go on as its file grows (a plain file).
    pub fn follows(&self) -> bool {
        self.next.is_some()
    }

    /// The messages of the complete lines written since the last call (or since the replay),
    /// in order (see the module docs); none when nothing was written or nothing follows.
    pub fn follow(&mut self) -> Result<Vec<ServerMessage>, ReadError> {
        let Some((path, point)) = &mut self.next else {
            return Ok(Vec::new());
        };
        let name = path.display().to_string();
        let io = |source| ReadError::Io {
            name: name.clone(),
            source,
        };
        let file = File::open(&*path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size < point.offset {
            return Err(ReadError::Changed {
                name: name.clone(),
                done: "followed".to_owned(),
                redo: "follow".to_owned(),
                before: point.offset as usize,
                now: size as usize,
            });
        }
        let mut grew = false;
        if size > point.offset {
            let (index, held) = (&mut self.index, &mut self.held);
            grew = point
                .read_on(file, |line| {
                    if let Some(format) = line.format() {
                        index.note_format(format);
                    }
                    if let Some(rollout_line) = line.line() {
                        index.push_at(line.number, &rollout_line.item);
                        held.push(HeldLine {
                            number: line.number,
                            raw: line.raw.to_vec(),
                            item: rollout_line.item.clone(),
                        });
                    } else if line.problem.is_some() {
                        tracing::warn!(input = %name, line = line.number, "an unreadable line was not replayed");
                    }
                })
                .map_err(io)?;
        }
        self.idle = if grew { 0 } else { self.idle + 1 };
        let waiting = self.index.reads_next_item() && self.idle < HOLD_POLLS;
        let ready = self.held.len() - usize::from(waiting && !self.held.is_empty());
        Ok(self.replay_held(ready))
    }

    /// Replays the first `count` lines held, by the turns the index knows now.
    fn replay_held(&mut self, count: usize) -> Vec<ServerMessage> {
        if count == 0 {
            return Vec::new();
        }
        self.replayer.learn(&self.index);
        let mut messages = Vec::new();
        let projection = &mut self.projection;
        for held in self.held.drain(..count) {
            self.replayer.push(
                held.number,
                held.number,
                &held.raw,
                &held.item,
                &mut |event| messages.extend(projection.project(&event)),
            );
        }
        messages
    }
}

#[cfg(test)]
#[path = "replay_tests.rs"]
mod tests;
