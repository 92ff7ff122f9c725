//! `codex-thread notifications [FILE]`: the JSON-RPC messages a client would receive if the
//! session were replayed live, one per line.
//!
//! The events come from codex-rollout's [`replay_rollout`]: every persisted event, plus the
//! `item_started` / `item_completed` pairs core sent live for recorded response items when
//! the file did not persist them (see `codex_rollout::replay`). This command only projects
//! them, in order, through app-server-protocol's [`EventProjector`], the same stateful
//! projection a live app server runs, after the thread's `thread/started` (when the file has
//! a session meta).
//!
//! The projector's clock follows the file: each event is projected at its replay time.
//! Streaming deltas are never persisted, so a replay has no `.../delta` notifications;
//! approvals come out as server requests (with an `id`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use codex_app_server_protocol::thread_history::thread_from_session_meta;
use codex_app_server_protocol::v2::ThreadStartedNotification;
use codex_app_server_protocol::{EventProjector, ServerMessage, ServerNotification};
use codex_rollout::replay::replay_rollout;

use crate::error::{CommandResult, Status};
use crate::input::{Session, Source, load_session};
use crate::output::Output;

/// The messages of a live replay of `session`, in order.
pub fn replay(session: &Session) -> Vec<ServerMessage> {
    let replay = replay_rollout(session.contents());
    let now_ms = Arc::new(AtomicI64::new(0));
    let clock = Arc::clone(&now_ms);
    let mut projector = EventProjector::with_clock(replay.thread_id.to_string(), move || {
        clock.load(Ordering::Relaxed)
    });
    let mut messages = Vec::new();
    if let Some(meta) = session.session_meta() {
        messages.push(ServerMessage::Notification(
            ServerNotification::ThreadStarted(ThreadStartedNotification {
                thread: Box::new(thread_from_session_meta(meta)),
            }),
        ));
    }
    for event in &replay.events {
        now_ms.store(event.at_ms.unwrap_or_default(), Ordering::Relaxed);
        messages.extend(projector.project(&event.msg));
    }
    messages
}

/// Runs `notifications`: JSON Lines in both modes (it is a stream of protocol messages).
pub fn run(source: &Source, out: &mut Output) -> CommandResult {
    let session = load_session(source)?;
    for message in replay(&session) {
        out.json_line(&message)?;
    }
    Ok(Status::Ok)
}
