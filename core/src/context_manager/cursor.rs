//! The transcript cursor: may a consumer read only what was appended since it last looked?
//!
//! A consumer that has already read a history (a reviewer, an exporter) wants to send only the
//! new tail next time. Item counts alone cannot tell "grew by appending" from "was rewritten
//! and happens to be as long"; a version alone cannot tell where the new tail starts. The
//! cursor pairs the two: the history's rewrite generation ([`ContextManager::history_version`])
//! and how many items the consumer has seen.
//!
//! [`ContextManager::history_version`]: super::ContextManager::history_version

/// Where a consumer stopped reading a history: the rewrite generation it read, and how many
/// items it had seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TranscriptCursor {
    /// The history's rewrite generation when this cursor was taken.
    pub history_version: u64,
    /// Number of history items visible when this cursor was taken.
    pub entry_count: usize,
}

/// What a consumer must read to catch up with the current history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TranscriptRead {
    /// The history only grew: items `[already_seen..]` are new, everything before is unchanged.
    Delta {
        /// Items the consumer has already read; the delta starts at this index.
        already_seen: usize,
    },
    /// The history was rewritten (compaction, rollback, resume, trimming): read all of it.
    Full,
}

impl TranscriptCursor {
    /// Decides how a consumer holding `seen` catches up with `self` (the current cursor).
    ///
    /// Delta only when the generation is the same and the consumer has not seen more items than
    /// exist now; anything else falls back to a full read, which is always correct.
    pub fn read_since(self, seen: TranscriptCursor) -> TranscriptRead {
        if seen.history_version == self.history_version && seen.entry_count <= self.entry_count {
            TranscriptRead::Delta {
                already_seen: seen.entry_count,
            }
        } else {
            TranscriptRead::Full
        }
    }

    /// Like [`TranscriptCursor::read_since`] for a consumer that may have read nothing yet
    /// (`None` means a first read, which is always full).
    pub fn read_since_opt(self, seen: Option<TranscriptCursor>) -> TranscriptRead {
        match seen {
            Some(seen) => self.read_since(seen),
            None => TranscriptRead::Full,
        }
    }
}
