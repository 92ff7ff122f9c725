//! [`RolloutRecorder`]: the file-backed durable record of one live session.
//!
//! Guarantees, in the words of the sink contract:
//! - **recorded** ([`RolloutRecorder::record_items`] returned `Ok`): the durable items were
//!   serialized, stamped with the time and queued behind everything recorded before. They
//!   are in memory, not yet necessarily in the file.
//! - **flushed** ([`RolloutRecorder::flush`] returned `Ok`): every line recorded before the
//!   call has been handed to the operating system, in order, as whole lines. It survives the
//!   process being killed (it is not `fsync`ed: a power loss may still lose it).
//! - **persisted** ([`RolloutRecorder::persist`]): the file exists, with the session meta as
//!   its first line, and holds everything recorded so far. A new session's file is created
//!   lazily: nothing touches the disk until the first persist (or a flush or shutdown with
//!   lines pending), so a session abandoned before its first turn leaves no file behind.
//! - A failing write is reported to the caller of the barrier (persist, flush, shutdown);
//!   the unwritten lines stay queued and the next barrier retries them.
//!
//! - The file's history mode (the meta's `history_mode`; absent means legacy) decides what is
//!   durable ([`crate::policy`]); a paginated file numbers every line with `ordinal` (0 for the
//!   session meta), and a resumed paginated file continues after its last ordinal.
//!
//! Handles are cheap clones sharing one writer task.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use codex_core::{RolloutSink, SinkError, SinkFuture};
use codex_protocol::rollout::{
    HistoryMode, RolloutItem, RolloutLineRef, SessionMeta, SessionMetaLine,
};
use codex_protocol::thread_id::ThreadId;
use tokio::io::{AsyncReadExt, AsyncSeekExt};
use tokio::sync::{mpsc, oneshot};
use tracing::debug;

use crate::error::{Result, RolloutError};
use crate::layout::CodexHome;
use crate::policy::{is_persisted_rollout_item, prepare_for_persistence};
use crate::resume_point::read_resume_point;
use crate::timestamp::{LineTimestampCache, format_line_timestamp, now_line_timestamp};
use crate::writer::{self, Command, Staging, WriterState};
use codex_core::Clock;

/// A handle on a session's rollout file. Clone it freely: clones feed the same writer, in
/// the order their calls reach it.
#[derive(Debug, Clone)]
pub struct RolloutRecorder {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    tx: mpsc::Sender<Command>,
    /// Accepted lines on their way to the writer task (see [`crate::writer`]).
    staging: Arc<Staging>,
    path: PathBuf,
    /// The file's history mode: what is durable, and whether lines carry ordinals.
    mode: HistoryMode,
    /// Where line timestamps come from when not the system clock (a reproducible recording).
    clock: Option<Arc<dyn Clock>>,
}

impl RolloutRecorder {
    /// Starts recording a new session under `home`. The file path is chosen now (dated by the
    /// meta's `timestamp`, or now if that does not parse; named by the meta's thread id) but
    /// the file is created only on the first persist; `meta` becomes its first line.
    ///
    /// Must be called inside a tokio runtime (the writer is a task on it); outside one it
    /// fails with [`RolloutError::NoRuntime`].
    pub fn create(home: &CodexHome, meta: SessionMetaLine) -> Result<Self> {
        let created = DateTime::parse_from_rfc3339(&meta.meta.timestamp)
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or_else(|_| Utc::now());
        let path = home.rollout_path(created, *meta.meta.id.as_uuid());
        Self::create_at(path, meta)
    }

    /// Starts recording a new session into an explicit file path (tools and tests that do not
    /// follow the dated layout). Deferred like [`RolloutRecorder::create`].
    pub fn create_at(path: impl Into<PathBuf>, meta: SessionMetaLine) -> Result<Self> {
        Self::create_at_with(path, meta, None)
    }

    /// [`RolloutRecorder::create_at`] with every line stamped by `clock` instead of the system
    /// clock: a recording that is the same on every run when the session uses the same clock
    /// (core's [`codex_core::Clock`]).
    pub fn create_at_with_clock(
        path: impl Into<PathBuf>,
        meta: SessionMetaLine,
        clock: Arc<dyn Clock>,
    ) -> Result<Self> {
        Self::create_at_with(path, meta, Some(clock))
    }

    fn create_at_with(
        path: impl Into<PathBuf>,
        meta: SessionMetaLine,
        clock: Option<Arc<dyn Clock>>,
    ) -> Result<Self> {
        let path = path.into();
        let mode = meta.meta.effective_history_mode();
        let mut ordinal = mode.is_paginated().then_some(0);
        let mut header = Vec::new();
        let timestamp = match &clock {
            Some(clock) => format_line_timestamp(DateTime::<Utc>::from(clock.now())),
            None => now_line_timestamp(),
        };
        append_line(
            &mut header,
            &timestamp,
            &mut ordinal,
            &RolloutItem::SessionMeta(Box::new(meta)),
        )?;
        Self::spawn(
            path.clone(),
            WriterState::deferred(path, header),
            mode,
            ordinal,
            clock,
        )
    }

    /// Resumes recording into an existing session file: opens it for append now (no new
    /// session meta is written) and, when its last line lacks a newline (a writer killed
    /// mid-line), writes one first so the next line starts on a line of its own.
    ///
    /// The file's first session meta gives its history mode; a paginated file's new lines
    /// continue after the last `ordinal` found in it.
    pub async fn resume(path: impl Into<PathBuf>) -> Result<Self> {
        let path = path.into();
        let file = open_for_append(&path).await?;
        let point = read_resume_point(&path)?;
        Self::spawn(
            path.clone(),
            WriterState::resumed(path, file),
            point.mode,
            point.next_ordinal,
            None,
        )
    }

    fn spawn(
        path: PathBuf,
        state: WriterState,
        mode: HistoryMode,
        next_ordinal: Option<u64>,
        clock: Option<Arc<dyn Clock>>,
    ) -> Result<Self> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| RolloutError::NoRuntime)?;
        let (tx, rx) = mpsc::channel(writer::CHANNEL_CAPACITY);
        let staging = Arc::new(Staging::default());
        staging.lock().next_ordinal = next_ordinal;
        runtime.spawn(writer::run(state, Arc::clone(&staging), rx));
        Ok(Self {
            inner: Arc::new(Inner {
                tx,
                staging,
                path,
                mode,
                clock,
            }),
        })
    }

    /// The history mode the file is written in.
    pub fn history_mode(&self) -> &HistoryMode {
        &self.inner.mode
    }

    /// The session file's path (known before the file exists).
    pub fn rollout_path(&self) -> &Path {
        &self.inner.path
    }

    /// Records the durable subset of `items` (see
    /// [`persisted_rollout_items`](crate::persisted_rollout_items)); the rest is dropped here.
    /// `Ok` means accepted, not written: see the module docs.
    pub async fn record_items(&self, items: &[RolloutItem]) -> Result<()> {
        let mode = &self.inner.mode;
        let durable = items
            .iter()
            .filter(|item| is_persisted_rollout_item(item, mode))
            .map(|item| prepare_for_persistence(item, mode));
        let signal = self.stage_items(durable)?;
        self.signal(signal).await
    }

    /// Records `items` as they are, without the persistence policy (callers that already
    /// filtered, or copy lines from another file).
    pub async fn record_canonical_items(&self, items: &[RolloutItem]) -> Result<()> {
        let signal = self.stage_items(items.iter().map(std::borrow::Cow::Borrowed))?;
        self.signal(signal).await
    }

    /// Serializes `items` (one timestamp for the call) and stages them as one contiguous run
    /// of lines; all or nothing. The task is signalled only when enough bytes are staged, and
    /// the call waits only when the task has fallen [`writer::MAX_STAGED_BYTES`] behind.
    fn stage_items<'a>(
        &self,
        items: impl Iterator<Item = std::borrow::Cow<'a, RolloutItem>>,
    ) -> Result<Signal> {
        let mut staged = self.inner.staging.lock();
        if staged.closed || self.inner.tx.is_closed() {
            return Err(self.closed());
        }
        let writer::Staged {
            bytes,
            clock,
            wake_sent,
            next_ordinal,
            ..
        } = &mut *staged;
        let before = bytes.len();
        let ordinal_before = *next_ordinal;
        let fixed = self
            .inner
            .clock
            .as_ref()
            .map(|clock| format_line_timestamp(DateTime::<Utc>::from(clock.now())));
        if let Err(err) = serialize_lines(bytes, clock, fixed.as_deref(), next_ordinal, items) {
            bytes.truncate(before);
            *next_ordinal = ordinal_before;
            return Err(err);
        }
        let len = bytes.len();
        Ok(if len >= writer::MAX_STAGED_BYTES {
            Signal::Drain
        } else if len >= writer::EAGER_WRITE_BYTES && !*wake_sent {
            *wake_sent = true;
            Signal::Wake
        } else {
            Signal::None
        })
    }

    /// Tells the writer task what [`RolloutRecorder::stage_items`] asked for.
    async fn signal(&self, signal: Signal) -> Result<()> {
        match signal {
            Signal::None => Ok(()),
            Signal::Wake => match self.inner.tx.try_send(Command::Wake) {
                // A full channel means commands are queued, and each takes the staged lines.
                Ok(()) | Err(mpsc::error::TrySendError::Full(_)) => Ok(()),
                Err(mpsc::error::TrySendError::Closed(_)) => Err(self.closed()),
            },
            Signal::Drain => {
                let (ack, taken) = oneshot::channel();
                self.inner
                    .tx
                    .send(Command::Drain(ack))
                    .await
                    .map_err(|_| self.closed())?;
                taken.await.map_err(|_| self.closed())
            }
        }
    }

    /// Creates the file if it does not exist yet (session meta first) and writes everything
    /// recorded so far. Idempotent.
    pub async fn persist(&self) -> Result<()> {
        self.barrier(Command::Persist).await
    }

    /// Writes everything recorded so far. Creates a deferred file only when lines are
    /// pending; with nothing recorded it is a no-op.
    pub async fn flush(&self) -> Result<()> {
        self.barrier(Command::Flush).await
    }

    /// Writes everything recorded so far, then stops the writer; later calls fail with
    /// [`RolloutError::Closed`]. If the final write fails the writer stays up and the error is
    /// returned, so the caller may retry.
    pub async fn shutdown(&self) -> Result<()> {
        self.barrier(Command::Shutdown).await
    }

    async fn barrier(&self, make: fn(writer::Ack) -> Command) -> Result<()> {
        let (ack, done) = oneshot::channel();
        self.inner
            .tx
            .send(make(ack))
            .await
            .map_err(|_| self.closed())?;
        done.await.map_err(|_| self.closed())?
    }

    fn closed(&self) -> RolloutError {
        RolloutError::Closed {
            path: self.inner.path.clone(),
        }
    }
}

/// A session meta for a session starting now: `timestamp` is the current UTC time (which
/// also dates the file) and `cli_version` this crate's version. Callers set the optional
/// fields (model provider, base instructions, git, ...) on the result.
pub fn new_session_meta(
    thread_id: ThreadId,
    cwd: impl Into<PathBuf>,
    originator: impl Into<String>,
) -> SessionMetaLine {
    SessionMetaLine {
        meta: SessionMeta::new(
            thread_id,
            now_line_timestamp(),
            cwd,
            originator,
            env!("CARGO_PKG_VERSION"),
        ),
        git: None,
    }
}

/// What a recording call must tell the writer task after staging its lines.
enum Signal {
    /// Nothing: the lines wait for the next barrier or wake-up.
    None,
    /// Enough is staged to be worth a background write.
    Wake,
    /// The task is far behind: wait for it (back-pressure).
    Drain,
}

/// Serializes every item as a line stamped with the current time (or `fixed`, a recorder's own
/// clock's reading) onto `out` (the system clock is read only if there is an item).
fn serialize_lines<'a>(
    out: &mut Vec<u8>,
    clock: &mut LineTimestampCache,
    fixed: Option<&str>,
    ordinal: &mut Option<u64>,
    mut items: impl Iterator<Item = std::borrow::Cow<'a, RolloutItem>>,
) -> Result<()> {
    let Some(first) = items.next() else {
        return Ok(());
    };
    let timestamp = match fixed {
        Some(fixed) => fixed,
        None => clock.now(),
    };
    append_line(out, timestamp, ordinal, &first)?;
    for item in items {
        append_line(out, timestamp, ordinal, &item)?;
    }
    Ok(())
}

/// Serializes one line and its `\n` onto `out`; in a paginated file (`ordinal` is `Some`)
/// the line takes the next ordinal.
fn append_line(
    out: &mut Vec<u8>,
    timestamp: &str,
    ordinal: &mut Option<u64>,
    item: &RolloutItem,
) -> Result<()> {
    let line = RolloutLineRef {
        timestamp,
        ordinal: *ordinal,
        item,
    };
    serde_json::to_writer(&mut *out, &line).map_err(|source| RolloutError::Serialize {
        line_type: item.tag().to_string(),
        source,
    })?;
    out.push(b'\n');
    if let Some(next) = ordinal.as_mut() {
        *next += 1;
    }
    Ok(())
}

/// Opens an existing rollout for append, terminating a torn last line first.
async fn open_for_append(path: &Path) -> Result<std::fs::File> {
    let mut file = tokio::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)
        .await
        .map_err(|err| RolloutError::io("open rollout file for resume", path, err))?;
    let len = file
        .metadata()
        .await
        .map_err(|err| RolloutError::io("stat rollout file", path, err))?
        .len();
    if len > 0 {
        file.seek(std::io::SeekFrom::Start(len - 1))
            .await
            .map_err(|err| RolloutError::io("seek rollout file", path, err))?;
        let mut last = [0u8; 1];
        file.read_exact(&mut last)
            .await
            .map_err(|err| RolloutError::io("read rollout file", path, err))?;
        if last[0] != b'\n' {
            debug!(path = %path.display(), "resumed rollout ends mid-line; terminating it");
            tokio::io::AsyncWriteExt::write_all(&mut file, b"\n")
                .await
                .map_err(|err| RolloutError::io("write rollout file", path, err))?;
            tokio::io::AsyncWriteExt::flush(&mut file)
                .await
                .map_err(|err| RolloutError::io("write rollout file", path, err))?;
        }
    }
    Ok(file.into_std().await)
}

/// Converts this crate's error into the sink contract's error, keeping the I/O kind and the
/// message that names the file.
fn to_sink_error(err: RolloutError) -> SinkError {
    let message = err.to_string();
    match err {
        RolloutError::Closed { .. } => SinkError::Closed,
        RolloutError::Io { source, .. } => {
            SinkError::Io(std::io::Error::new(source.kind(), message))
        }
        RolloutError::Serialize { source, .. } => SinkError::Serialize(source),
        RolloutError::NoRuntime | RolloutError::NoHome | RolloutError::InvalidCursor(_) => {
            SinkError::Other(message)
        }
    }
}

/// The file recorder is core's durable sink: `record` applies the persistence policy.
impl RolloutSink for RolloutRecorder {
    fn record<'a>(&'a self, items: &'a [RolloutItem]) -> SinkFuture<'a, Result<(), SinkError>> {
        Box::pin(async move { self.record_items(items).await.map_err(to_sink_error) })
    }

    fn flush(&self) -> SinkFuture<'_, Result<(), SinkError>> {
        Box::pin(async move { RolloutRecorder::flush(self).await.map_err(to_sink_error) })
    }
}

#[cfg(test)]
#[path = "recorder_tests.rs"]
mod tests;
