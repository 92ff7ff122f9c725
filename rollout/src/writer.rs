//! The writer task behind a [`crate::RolloutRecorder`]: the only code that touches a session
//! file while the session is live.
//!
//! One task per session owns the file and a byte buffer of accepted-but-unwritten lines.
//! Lines arrive already serialized (the caller's task pays for serialization, in parallel with
//! other sessions) through a [`Staging`] buffer shared with the recorder handles: a caller
//! serializes its whole lines into it under the lock, so the file order is the acceptance
//! order across clones. Commands (barriers, wake-ups, back-pressure) travel over a bounded channel;
//! every command first moves the staged bytes into the task's own buffer, so a barrier covers
//! everything recorded before it was sent.
//!
//! Staging instead of one channel message per call is what makes recording cheap: a call is a
//! lock and the serialization itself, with no allocation, no copy handed across threads and
//! no wake-up of the task.
//! The task is woken only when [`EAGER_WRITE_BYTES`] have been staged, and a caller that finds
//! [`MAX_STAGED_BYTES`] staged waits for the task to take them (back-pressure).
//!
//! Writing is byte-exact: a pass writes the buffer with plain `write` calls and drops exactly
//! the bytes the OS accepted, so a failure in the middle of a line leaves the rest of that line
//! (and everything after it) buffered, and the retry continues where the file stopped: a
//! retried line is never duplicated or torn. The blocking syscalls run on tokio's blocking
//! pool so a slow disk never stalls the runtime.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{mpsc, oneshot};
use tracing::{debug, warn};

use crate::error::{Result, RolloutError};
use crate::timestamp::LineTimestampCache;

/// Bound of the command channel (barriers, wake-ups and back-pressure requests).
pub(crate) const CHANNEL_CAPACITY: usize = 256;
/// Once this many bytes are staged the task is woken, and once this many are buffered it
/// writes in the background, so a long turn reaches the OS before its flush.
pub(crate) const EAGER_WRITE_BYTES: usize = 64 * 1024;
/// A caller that finds this many bytes staged (the task has not kept up: a slow disk, or a
/// runtime that did not schedule it) waits until the task has taken and written them, so a
/// fast producer cannot run arbitrarily far ahead of the disk.
pub(crate) const MAX_STAGED_BYTES: usize = 1024 * 1024;

/// Acknowledgement of a barrier command.
pub(crate) type Ack = oneshot::Sender<Result<()>>;

/// Lines accepted from callers and not yet taken by the writer task, shared by every handle
/// of one recorder and its task.
#[derive(Debug, Default)]
pub(crate) struct Staging {
    inner: Mutex<Staged>,
}

/// The state behind [`Staging`]'s lock.
#[derive(Debug, Default)]
pub(crate) struct Staged {
    /// Whole `\n`-terminated lines, in acceptance order. Callers serialize straight into it
    /// (no intermediate copy) and truncate back if an item fails to serialize.
    pub(crate) bytes: Vec<u8>,
    /// The callers' line clock, here because every caller already holds this lock.
    pub(crate) clock: LineTimestampCache,
    /// A [`Command::Wake`] is on its way; no need to send another until the task takes.
    pub(crate) wake_sent: bool,
    /// The task has stopped: nothing more is accepted.
    pub(crate) closed: bool,
    /// The `ordinal` of the next line in a paginated file; `None` in a legacy file, whose
    /// lines carry none.
    pub(crate) next_ordinal: Option<u64>,
}

impl Staging {
    /// Locks the staged state. A poisoned lock (a panic while holding it, which only an
    /// allocation failure inside `extend_from_slice` could cause) still holds whole lines.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Staged> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Moves everything staged behind `pending` (swapping buffers when `pending` is empty, so
    /// capacity is recycled rather than reallocated) and clears the wake flag.
    fn take_into(&self, pending: &mut Vec<u8>) {
        let mut staged = self.lock();
        staged.wake_sent = false;
        if staged.bytes.is_empty() {
            return;
        }
        if pending.is_empty() {
            std::mem::swap(pending, &mut staged.bytes);
        } else {
            pending.extend_from_slice(&staged.bytes);
            staged.bytes.clear();
        }
    }

    /// Marks the task stopped if nothing is staged; otherwise leaves it open and says so.
    fn close_if_empty(&self) -> bool {
        let mut staged = self.lock();
        if staged.bytes.is_empty() {
            staged.closed = true;
        }
        staged.closed
    }

    fn close(&self) {
        self.lock().closed = true;
    }
}

/// What a recorder handle asks its writer task to do.
#[derive(Debug)]
pub(crate) enum Command {
    /// [`EAGER_WRITE_BYTES`] have been staged: take them and write in the background. Not
    /// acknowledged.
    Wake,
    /// [`MAX_STAGED_BYTES`] have been staged: take them, write in the background, then
    /// acknowledge, so the caller waits for the disk (back-pressure). A background failure is
    /// not reported here (the next barrier reports it).
    Drain(oneshot::Sender<()>),
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
pub(crate) async fn run(
    mut state: WriterState,
    staging: Arc<Staging>,
    mut rx: mpsc::Receiver<Command>,
) {
    let path = state.path.clone();
    loop {
        let Some(cmd) = rx.recv().await else {
            // Every handle is gone without a shutdown. Lines of a materialized file are still
            // written; a deferred file stays uncreated (nobody asked for it).
            staging.take_into(&mut state.pending);
            let _ = background_write(state).await;
            staging.close();
            return;
        };
        staging.take_into(&mut state.pending);
        let (create, ack, stop_on_success) = match cmd {
            Command::Wake | Command::Drain(_) => {
                if state.pending.len() >= EAGER_WRITE_BYTES && !state.background_failed {
                    match background_write(state).await {
                        Some(current) => state = current,
                        None => {
                            staging.close();
                            return;
                        }
                    }
                }
                if let Command::Drain(ack) = cmd {
                    let _ = ack.send(());
                }
                continue;
            }
            Command::Persist(ack) => (Create::Always, ack, false),
            Command::Flush(ack) => (Create::IfPending, ack, false),
            Command::Shutdown(ack) => (Create::IfPending, ack, true),
        };
        let Some((current, mut result)) = write_pass(state, create).await else {
            staging.close();
            let _ = ack.send(Err(RolloutError::Closed { path }));
            return;
        };
        state = current;
        if stop_on_success {
            // Lines another handle staged while the drain ran are written too before the
            // task stops: nothing accepted is dropped by a shutdown.
            while result.is_ok() && !staging.close_if_empty() {
                staging.take_into(&mut state.pending);
                let Some((current, again)) = write_pass(state, create).await else {
                    staging.close();
                    let _ = ack.send(Err(RolloutError::Closed { path }));
                    return;
                };
                state = current;
                result = again;
            }
        }
        let stop = stop_on_success && result.is_ok();
        let _ = ack.send(result);
        if stop {
            debug!(path = %path.display(), "rollout writer shut down");
            return;
        }
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
