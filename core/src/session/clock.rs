//! Where a session reads the time and mints ids: injected, so that a recording can be made
//! reproducible (the bundled sample, tests) without rewriting what was recorded.
//!
//! A live session uses [`SystemClock`] and [`RandomIds`] (the defaults of
//! [`super::Session::new`]); [`SteppingClock`] and [`SequentialIds`] give the same values on
//! every run. Every time a session stamps (item events, turn start and end, a history item's
//! `create_time`, a tool's duration) and every id it mints (`msg_…`, `fc_…`, the ids of turn
//! items whose item has none) comes from here, and codex-rollout's recorder can stamp its
//! lines from the same clock.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use uuid::Uuid;

/// A source of time.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The wall-clock time now.
    fn now(&self) -> SystemTime;

    /// A monotonic reading for durations: only the difference of two readings means anything.
    fn monotonic(&self) -> Duration;
}

/// A source of fresh ids.
pub trait IdSource: Send + Sync + fmt::Debug {
    /// A UUID not handed out before by this source.
    fn next_uuid(&self) -> Uuid;
}

/// The operating system's clocks: the wall clock, and [`Instant`] for durations.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose monotonic readings count from now.
    pub(crate) fn new() -> Self {
        Self {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }

    fn monotonic(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// Time-ordered random ids (UUID v7), as upstream mints them.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RandomIds;

impl IdSource for RandomIds {
    fn next_uuid(&self) -> Uuid {
        Uuid::now_v7()
    }
}

/// A clock that starts at a fixed instant and moves forward by a fixed step at every reading
/// (wall or monotonic), so a recording made with it is the same on every run and its times
/// still increase.
#[derive(Debug)]
pub struct SteppingClock {
    start: SystemTime,
    step: Duration,
    readings: AtomicU64,
}

impl SteppingClock {
    /// A clock whose first reading is `start`, each later one `step` after the previous.
    pub fn new(start: SystemTime, step: Duration) -> Self {
        Self {
            start,
            step,
            readings: AtomicU64::new(0),
        }
    }

    fn tick(&self) -> Duration {
        let reading = self.readings.fetch_add(1, Ordering::Relaxed);
        self.step
            .saturating_mul(u32::try_from(reading).unwrap_or(u32::MAX))
    }
}

impl Clock for SteppingClock {
    fn now(&self) -> SystemTime {
        self.start + self.tick()
    }

    fn monotonic(&self) -> Duration {
        self.tick()
    }
}

/// Ids from a counter: `base + 1`, `base + 2`, … as UUIDs, the same on every run.
#[derive(Debug)]
pub struct SequentialIds {
    base: u128,
    issued: AtomicU64,
}

impl SequentialIds {
    /// A source whose first id is `base + 1`.
    pub fn new(base: Uuid) -> Self {
        Self {
            base: base.as_u128(),
            issued: AtomicU64::new(0),
        }
    }
}

impl IdSource for SequentialIds {
    fn next_uuid(&self) -> Uuid {
        let issued = self.issued.fetch_add(1, Ordering::Relaxed) + 1;
        Uuid::from_u128(self.base.wrapping_add(u128::from(issued)))
    }
}

/// A fresh item id: from `ids` when the caller has a session's source, else from `otherwise`
/// (the upstream minting of a projection used outside a session, e.g. `parse_turn_item`).
pub(crate) fn fresh_item_id(
    ids: Option<&dyn IdSource>,
    otherwise: impl FnOnce() -> String,
) -> String {
    ids.map_or_else(otherwise, |ids| ids.next_uuid().to_string())
}

/// `at` in whole milliseconds since the Unix epoch (0 before it), the unit of item events.
pub(crate) fn unix_ms(at: SystemTime) -> i64 {
    at.duration_since(UNIX_EPOCH)
        .map(|elapsed| i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

/// `at` as fractional Unix seconds (0 before the epoch), the unit of `create_time`.
pub(crate) fn unix_seconds_f64(at: SystemTime) -> f64 {
    at.duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs_f64())
        .unwrap_or_default()
}

#[cfg(test)]
#[path = "clock_tests.rs"]
mod tests;
