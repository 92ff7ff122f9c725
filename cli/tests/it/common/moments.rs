//! Random moments to kill a process at, for the crash tests: a small deterministic generator
//! (xorshift) from a seed that is printed, or taken from `CRASH_SEED` to replay a run.

#![allow(clippy::print_stderr)] // The seed is reported on stderr (run with --nocapture).

use std::time::Duration;

/// Moments drawn uniformly below a length.
pub(crate) struct Moments(u64);

impl Moments {
    /// From `CRASH_SEED`, else from the clock; the seed is printed either way.
    pub(crate) fn seeded() -> Self {
        let seed = std::env::var("CRASH_SEED")
            .ok()
            .and_then(|seed| seed.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|since| since.as_nanos() as u64 | 1)
                    .unwrap_or(0x9E37_79B9_7F4A_7C15)
            });
        eprintln!("CRASH_SEED={seed}");
        Self(seed)
    }

    /// A moment in `[0, below)`.
    pub(crate) fn next(&mut self, below: Duration) -> Duration {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let nanos = below.as_nanos().max(1) as u64;
        Duration::from_nanos(self.0 % nanos)
    }
}
