//! The writer task behind a [`crate::RolloutRecorder`]: the only code that touches a session
//! file while the session is live.
//!
//! One task per session owns the file and a byte buffer of accepted-but-unwritten lines. It
//! receives [`Command`]s over a bounded channel, in the order callers issued them, so the file
//! order is the acceptance order. Lines arrive already serialized (the caller's task pays for
//! serialization, in parallel with other sessions); the task only appends bytes.
//!
//! Writing is byte-exact: a pass writes the buffer with plain `write` calls and drops exactly
//! the bytes the OS accepted, so a failure in the middle of a line leaves the rest of that line
//! (and everything after it) buffered, and the retry continues where the file stopped: a
//! retried line is never duplicated or torn. The blocking syscalls run on tokio's blocking
//! pool so a slow disk never stalls the runtime.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::PathBuf;

use tokio::sync::{mpsc, oneshot};
use tracing::{debug, warn};

use crate::error::{Result, RolloutError};

/// Bound of the command channel: a producer that gets this far ahead of the disk waits.
pub(crate) const CHANNEL_CAPACITY: usize = 256;
/// Once this many bytes are buffered, the task writes even while more commands are queued, so
/// memory stays bounded under a fast producer.
const EAGER_WRITE_BYTES: usize = 64 * 1024;

/// Acknowledgement of a barrier command.
pub(crate) type Ack = oneshot::Sender<Result<()>>;

/// What a recorder handle asks its writer task to do.
#[derive(Debug)]
pub(crate) enum Command {
    /// Accept these bytes (whole `\n`-terminated lines). Not acknowledged: acceptance is the
    /// successful channel send.
    Append(Vec<u8>),
    /// Create the file if needed and write everything accepted so far.
    Persist(Ack),
    /// Write everything accepted so far; creates a deferred file only if lines are pending.
    Flush(Ack),
    /// Like [`Command::Flush`], then stop. If the drain fails the task keeps running so the
    /// caller can retry.
    Shutdown(Ack),
}

/// Whether a write pass may create the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Create {
    /// Create the file even with nothing pending ([`Command::Persist`]).
    Always,
    /// Create it only if something is pending ([`Command::Flush`], [`Command::Shutdown`]).
    IfPending,
    /// Never create it (opportunistic background writes before the first persist).
    Never,
}

/// The state the task owns.
#[derive(Debug)]
pub(crate) struct WriterState {
    path: PathBuf,
    /// Open handle, `None` before materialization and after a failure dropped it.
    file: Option<File>,
    /// Whether the file has been created (or, for a resumed session, existed).
    materialized: bool,
    /// The session-meta line, written first when a new file is created; `None` once it is in
    /// `pending` (or for a resumed file, which already has one).
    header: Option<Vec<u8>>,
    /// Accepted bytes not yet accepted by the OS.
    pending: Vec<u8>,
    /// The last error message logged, so a failing disk logs once per distinct problem.
    last_logged_error: Option<String>,
    /// A background write failed: wait for a barrier (which reports the error) instead of
    /// retrying on every accepted line.
    background_failed: bool,
}

impl WriterState {
    /// State of a new session whose file does not exist yet; `header` is its session-meta line.
    pub(crate) fn deferred(path: PathBuf, header: Vec<u8>) -> Self {
        Self {
            path,
            file: None,
            materialized: false,
            header: Some(header),
            pending: Vec::new(),
            last_logged_error: None,
            background_failed: false,
        }
    }

    /// State of a resumed session: the file is already open for append.
    pub(crate) fn resumed(path: PathBuf, file: File) -> Self {
        Self {
            path,
            file: Some(file),
            materialized: true,
            header: None,
            pending: Vec::new(),
            last_logged_error: None,
            background_failed: false,
        }
    }
}

/// Runs the task until a successful shutdown or until every handle is gone.
///
/// Accepted lines are not written the moment they arrive: waking the blocking pool for every
/// line would cost more than the line. They are written by the next barrier, in the
/// background once [`EAGER_WRITE_BYTES`] have accumulated, and when every handle is gone.
/// "Recorded" never promised more; "flushed" is the durability point.
pub(crate) async fn run(mut state: WriterState, mut rx: mpsc::Receiver<Command>) {
    let path = state.path.clone();
    loop {
        let Some(cmd) = rx.recv().await else {
            // Every handle is gone without a shutdown. Lines of a materialized file are still
            // written; a deferred file stays uncreated (nobody asked for it).
            let _ = background_write(state).await;
            return;
        };
        let (create, ack, stop_on_success) = match cmd {
            Command::Append(bytes) => {
                if state.pending.is_empty() {
                    state.pending = bytes;
                } else {
                    state.pending.extend_from_slice(&bytes);
                }
                if state.pending.len() >= EAGER_WRITE_BYTES && !state.background_failed {
                    match background_write(state).await {
                        Some(current) => state = current,
                        None => return,
                    }
                }
                continue;
            }
            Command::Persist(ack) => (Create::Always, ack, false),
            Command::Flush(ack) => (Create::IfPending, ack, false),
            Command::Shutdown(ack) => (Create::IfPending, ack, true),
        };
        let Some((current, result)) = write_pass(state, create).await else {
            let _ = ack.send(Err(RolloutError::Closed { path }));
            return;
        };
        let stop = stop_on_success && result.is_ok();
        let _ = ack.send(result);
        if stop {
            debug!(path = %path.display(), "rollout writer shut down");
            return;
        }
        state = current;
    }
}

/// A write that nobody waits for: failures are logged (once per message) and the bytes stay
/// buffered for the next barrier, which retries and reports. `None` if the runtime is gone.
async fn background_write(state: WriterState) -> Option<WriterState> {
    if !state.materialized || state.pending.is_empty() {
        return Some(state);
    }
    let (mut state, result) = write_pass(state, Create::Never).await?;
    if let Err(err) = result {
        debug!(error = %err, "background rollout write failed; will retry at the next flush");
        state.background_failed = true;
    }
    Some(state)
}

/// Runs one blocking write pass on the blocking pool and hands the state back. `None` when
/// the pass could not run (the runtime is shutting down): the task then stops.
async fn write_pass(state: WriterState, create: Create) -> Option<(WriterState, Result<()>)> {
    let joined = tokio::task::spawn_blocking(move || {
        let mut state = state;
        let result = state.write_with_recovery(create);
        (state, result)
    })
    .await;
    match joined {
        Ok(done) => Some(done),
        Err(join) => {
            warn!(error = %join, "rollout write pass did not complete; writer stops");
            None
        }
    }
}

impl WriterState {
    /// One write pass; on failure drops the handle, reopens and tries once more, reporting
    /// only the second failure (a stale handle, e.g. after the file was moved, heals itself).
    fn write_with_recovery(&mut self, create: Create) -> Result<()> {
        let wanted = match create {
            Create::Always => true,
            Create::IfPending => self.materialized || !self.pending.is_empty(),
            Create::Never => self.materialized,
        };
        if !wanted {
            return Ok(());
        }
        let result = self.write_once().or_else(|first| {
            self.log_once(&first);
            self.file = None;
            self.write_once()
        });
        match &result {
            Ok(()) => {
                self.last_logged_error = None;
                self.background_failed = false;
            }
            Err(second) => self.log_once(second),
        }
        result
    }

    /// Opens the file if needed (writing the header first for a new file), then writes all
    /// pending bytes, keeping whatever the OS did not accept.
    fn write_once(&mut self) -> Result<()> {
        let file = match self.file.as_mut() {
            Some(file) => file,
            None => {
                let file = self.open()?;
                self.file.insert(file)
            }
        };
        let result = drain_into(&mut self.pending, file);
        result.map_err(|err| RolloutError::io("write rollout file", &self.path, err))
    }

    /// Creates the folders and opens the file for append; on the first creation moves the
    /// session-meta line to the front of the pending bytes.
    fn open(&mut self) -> Result<File> {
        if let Some(parent) = self.path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|err| RolloutError::io("create session directory", parent, err))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|err| RolloutError::io("open rollout file", &self.path, err))?;
        if let Some(header) = self.header.take() {
            self.pending.splice(0..0, header);
        }
        if !self.materialized {
            debug!(path = %self.path.display(), "rollout file materialized");
        }
        self.materialized = true;
        Ok(file)
    }

    fn log_once(&mut self, err: &RolloutError) {
        let message = err.to_string();
        if self.last_logged_error.as_deref() != Some(message.as_str()) {
            warn!(error = %message, "rollout write failed; lines stay buffered");
            self.last_logged_error = Some(message);
        }
    }
}

/// Writes `pending` into `out` and removes exactly the bytes `out` accepted, so after an error
/// `pending` starts with the first byte not written (possibly in the middle of a line).
fn drain_into(pending: &mut Vec<u8>, out: &mut impl Write) -> std::io::Result<()> {
    let mut written = 0;
    let result = loop {
        if written == pending.len() {
            break Ok(());
        }
        match out.write(&pending[written..]) {
            Ok(0) => break Err(std::io::Error::from(ErrorKind::WriteZero)),
            Ok(n) => written += n,
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => break Err(err),
        }
    };
    pending.drain(..written);
    result
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
