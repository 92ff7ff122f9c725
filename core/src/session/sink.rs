//! Where a session's output goes: the durable record and the client event stream.
//!
//! `codex-core` opens no files. A session hands what it records to a [`RolloutSink`]
//! (implemented by `codex-rollout`'s file recorder) and what clients should see to an
//! [`EventSink`] (the app-server projection, a TUI, a test). Both are object-safe traits so a
//! session holds them as `Arc<dyn ...>` and never knows the concrete writer.
//!
//! The contract, exactly:
//! - [`RolloutSink::record`] returning `Ok` means the items were **accepted**: queued in order
//!   behind everything accepted before. It does *not* mean they are on disk.
//! - [`RolloutSink::flush`] returning `Ok` means everything accepted before the call is written
//!   to the file.
//! - The session decides *what* it hands to the sink (every rollout item it records); the sink's
//!   persistence policy decides what of that is durable (it filters inside `record`).
//!
//! [`InMemoryRolloutSink`] and [`InMemoryEventSink`] keep everything in memory for tests and
//! for callers that want to inspect a session without a file.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::MutexGuard;

use codex_protocol::event::Event;
use codex_protocol::rollout::RolloutItem;

/// A boxed future, so the traits stay object-safe (`Arc<dyn RolloutSink>`).
pub type SinkFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why a sink refused or failed an operation.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// The sink was shut down (its writer task ended); nothing more is accepted.
    #[error("sink is closed")]
    Closed,
    /// Writing to the underlying file failed. Items accepted before stay queued for a retry.
    #[error("sink i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// Items could not be serialized for the record.
    #[error("sink could not serialize an item: {0}")]
    Serialize(#[from] serde_json::Error),
    /// Any other failure of a sink implementation, described in words.
    #[error("sink failed: {0}")]
    Other(String),
}

/// Durable record of a session. `record` returning Ok means the items were ACCEPTED (queued in
/// order), not that they are on disk; `flush` returning Ok means everything accepted before it
/// is written to the file.
pub trait RolloutSink: Send + Sync + std::fmt::Debug {
    /// Accepts `items` for the record, in order, after everything accepted before.
    fn record<'a>(&'a self, items: &'a [RolloutItem]) -> SinkFuture<'a, Result<(), SinkError>>;

    /// Resolves once everything accepted before this call is durable.
    fn flush(&self) -> SinkFuture<'_, Result<(), SinkError>>;
}

/// Where client-facing events go (the app-server projection, a TUI, a test).
pub trait EventSink: Send + Sync + std::fmt::Debug {
    /// Delivers one event. Events are sent in the order the session produces them.
    fn send(&self, event: Event) -> SinkFuture<'_, Result<(), SinkError>>;
}

/// Locks a test buffer, recovering from poisoning: a panicking test thread must not hide what
/// was recorded before it panicked.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A [`RolloutSink`] that keeps every accepted item in memory, unfiltered.
///
/// Clones share the same buffer, so a test keeps one clone and gives another to the session.
/// `flush` is immediate (memory is the durable medium here) and counted, so tests can assert a
/// flush happened.
#[derive(Debug, Clone, Default)]
pub struct InMemoryRolloutSink {
    items: Arc<Mutex<Vec<RolloutItem>>>,
    flushes: Arc<Mutex<usize>>,
    closed: Arc<Mutex<bool>>,
}

impl InMemoryRolloutSink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// A copy of everything accepted so far, in order.
    pub fn snapshot(&self) -> Vec<RolloutItem> {
        lock(&self.items).clone()
    }

    /// How many times `flush` succeeded.
    pub fn flush_count(&self) -> usize {
        *lock(&self.flushes)
    }

    /// Makes every later `record`/`flush` fail with [`SinkError::Closed`], as a recorder whose
    /// writer has shut down would. Lets tests check that a session survives a dead sink.
    pub fn close(&self) {
        *lock(&self.closed) = true;
    }

    fn is_closed(&self) -> bool {
        *lock(&self.closed)
    }
}

impl RolloutSink for InMemoryRolloutSink {
    fn record<'a>(&'a self, items: &'a [RolloutItem]) -> SinkFuture<'a, Result<(), SinkError>> {
        Box::pin(async move {
            if self.is_closed() {
                return Err(SinkError::Closed);
            }
            lock(&self.items).extend_from_slice(items);
            Ok(())
        })
    }

    fn flush(&self) -> SinkFuture<'_, Result<(), SinkError>> {
        Box::pin(async move {
            if self.is_closed() {
                return Err(SinkError::Closed);
            }
            *lock(&self.flushes) += 1;
            Ok(())
        })
    }
}

/// An [`EventSink`] that keeps every event in memory, in delivery order.
///
/// Clones share the same buffer.
#[derive(Debug, Clone, Default)]
pub struct InMemoryEventSink {
    events: Arc<Mutex<Vec<Event>>>,
}

impl InMemoryEventSink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// A copy of every event delivered so far, in order.
    pub fn snapshot(&self) -> Vec<Event> {
        lock(&self.events).clone()
    }

    /// Removes and returns every event delivered so far, so a test can assert one step at a
    /// time.
    pub fn drain(&self) -> Vec<Event> {
        std::mem::take(&mut *lock(&self.events))
    }
}

impl EventSink for InMemoryEventSink {
    fn send(&self, event: Event) -> SinkFuture<'_, Result<(), SinkError>> {
        Box::pin(async move {
            lock(&self.events).push(event);
            Ok(())
        })
    }
}

#[cfg(test)]
#[path = "sink_tests.rs"]
mod tests;
