//! `codex-thread notifications [FILE]`: the JSON-RPC messages a client would receive if the
//! session were replayed live, one per line.
//!
//! The replay is codex-home's ([`replay_notifications_once`]: the thread's `thread/started`, then
//! every persisted event and the item events core sent live for recorded response items,
//! projected through app-server-protocol's `EventProjector`, in file order; the turn index let
//! go after the first pass, as nothing follows the file); this command writes each message as
//! it comes. Standard input and the
//! sample are spooled into a temporary file first, and read the same way. Streaming deltas
//! are never persisted, so a replay has no `.../delta` notifications; approvals come out as
//! server requests (with an `id`).

use codex_home::replay_notifications_once;

use crate::error::{CommandResult, Status};
use crate::input::Source;
use crate::output::Output;
use crate::progress::Progress;
use crate::streamed::{SourceInput, source_size};

/// Runs `notifications`: JSON Lines in both modes (it is a stream of protocol messages).
pub(crate) fn run(source: &Source, out: &mut Output) -> CommandResult {
    let progress = Progress::for_bytes(source_size(source), "indexing");
    let input = SourceInput::new(source, &progress);
    replay_notifications_once(&input, |message| out.json_line(&message))?;
    Ok(Status::Ok)
}
