//! `codex-thread notifications [FILE]`: the JSON-RPC messages a client would receive if the
//! session were replayed live, one per line.
//!
//! The events come from codex-rollout's replay ([`Replayer`], the incremental
//! `replay_rollout`): every persisted event, plus the `item_started` / `item_completed` pairs
//! core sent live for recorded response items when the file did not persist them (see
//! `codex_rollout::replay`). This command only projects them, in order, through
//! app-server-protocol's [`EventProjector`], the same stateful projection a live app server
//! runs, after the thread's `thread/started` (when the file has a session meta).
//!
//! A file is read twice as a stream, so memory is the turn index, not the file: a first pass
//! takes the turn index the replay asks ([`StreamedTurnIndex`]: which items are a person's
//! message) and the first session meta, a second pass replays and writes each message as its
//! line is read. The first pass parses only the lines that can change the index (the turn
//! index's own rule, [`StreamedTurnIndex::may_pass_over`], from the lines' type tags, and
//! the line after a message item), so its turns are numbered by line; the second parses
//! every line but those whose items the replay takes only the time of (session metas,
//! compactions, turn contexts: [`Replayer::may_pass_over`], lines the first pass read whole),
//! and announces the unreadable lines of both. The second pass stops at the last line the first
//! read an item from, so a session Codex is still appending to is replayed as it was at the
//! first pass; a file rewritten in between is an error. Standard input and the sample are
//! spooled into a temporary file first, and read the same way.
//!
//! The projector's clock follows the file: each event is projected at its replay time.
//! Streaming deltas are never persisted, so a replay has no `.../delta` notifications;
//! approvals come out as server requests (with an `id`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use codex_app_server_protocol::thread_from_session_meta;
use codex_app_server_protocol::v2::ThreadStartedNotification;
use codex_app_server_protocol::{EventProjector, ServerMessage, ServerNotification};
use codex_protocol::rollout::SessionMetaLine;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::StreamedTurnIndex;
use codex_rollout::{ReplayedEvent, Replayer};
use uuid::Uuid;

use crate::error::{CommandResult, Status};
use crate::input::Source;
use crate::output::Output;
use crate::progress::Progress;
use crate::streamed::{SourceInput, source_size};
use codex_home::{Passes, stream_again_lines, stream_session_where};

/// The projection of a replay into protocol messages: the thread's start, then each event's
/// messages at the event's time.
struct Projection {
    now_ms: Arc<AtomicI64>,
    projector: EventProjector,
}

impl Projection {
    /// The projection of the replay of thread `thread_id`, and its first message when the
    /// file has a session meta.
    fn new(thread_id: ThreadId, meta: Option<&SessionMetaLine>) -> (Self, Option<ServerMessage>) {
        let now_ms = Arc::new(AtomicI64::new(0));
        let clock = Arc::clone(&now_ms);
        let projector = EventProjector::with_clock(thread_id.to_string(), move || {
            clock.load(Ordering::Relaxed)
        });
        let started = meta.map(|meta| {
            ServerMessage::Notification(ServerNotification::ThreadStarted(
                ThreadStartedNotification {
                    thread: Box::new(thread_from_session_meta(meta)),
                },
            ))
        });
        (Self { now_ms, projector }, started)
    }

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

/// Runs `notifications`: JSON Lines in both modes (it is a stream of protocol messages).
pub(crate) fn run(source: &Source, out: &mut Output) -> CommandResult {
    let mut index = StreamedTurnIndex::new();
    let mut meta: Option<SessionMetaLine> = None;
    let progress = Progress::for_bytes(source_size(source), "indexing");
    let passes = Passes {
        first: indexed,
        later: replayed,
    };
    // The lines the second pass passes over that held no item (they did not parse): their
    // time must not move the replay's clock, as a line without an item is never pushed.
    let mut itemless = Vec::new();
    let input = SourceInput::new(source, &progress);
    let first = stream_session_where(&input, &passes, |line| {
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
    let (records, turns) = index.finish();
    let thread_id = meta
        .as_ref()
        .map_or_else(|| ThreadId::from_uuid(Uuid::nil()), |meta| meta.meta.id);
    // The turns are numbered by line (the first pass could not count the items it passed
    // over), so the replay is fed line numbers too.
    let mut replayer = Replayer::new(thread_id, records, &turns);
    drop(turns);
    let (mut projection, started) = Projection::new(thread_id, meta.as_ref());
    if let Some(started) = started {
        out.json_line(&started)?;
    }
    stream_again_lines(
        &input,
        "replaying",
        &first,
        &passes,
        ("replayed", "replay"),
        |line| {
            if line.passed_over() {
                if itemless.binary_search(&line.number).is_err() {
                    replayer.pass_over(line.raw);
                }
                return Ok(());
            }
            let Some(rollout_line) = line.line() else {
                return Ok(());
            };
            let mut written = Ok(());
            replayer.push(
                line.number,
                line.number,
                line.raw,
                &rollout_line.item,
                &mut |event| {
                    for message in projection.project(&event) {
                        if written.is_ok() {
                            written = out.json_line(&message);
                        }
                    }
                },
            );
            written
        },
    )?;
    Ok(Status::Ok)
}
