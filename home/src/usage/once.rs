//! Each response counted once, whatever files hold it.
//!
//! A home can hold one session in several files: a copy in `sessions/` and in
//! `archived_sessions/`, a `.jsonl.zst` beside the plain file it was compressed from, an
//! excerpt, or the pieces of a thread continued across files (0.159+). Each file is counted on
//! its own first ([`super::file_usage`]); then, for every thread held by more than one file,
//! the files are read again response by response and a response already counted from an
//! earlier file of the same thread is left out.
//!
//! **Identity of a response**: its thread (the file's first `session_meta`), its timestamp as
//! written (to the millisecond) and its counts. Two copies of a line agree on all three; two
//! responses of one thread never share a millisecond in the files Codex writes. The model is
//! not part of it: an excerpt that starts inside a turn does not know it.
//! Counting from a file's first running total by its `last_token_usage` (the parent module's
//! "missing history" rule) makes an excerpt count a response as the whole file does. Pieces
//! of one thread hold different responses, so nothing of theirs is left out. A fork is
//! another thread: its copied prefix is left out by the scan itself, not here.

use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use codex_protocol::thread_id::ThreadId;

use super::group::DayGroups;
use super::{FileUsage, ResponseUsage, SessionUsage, Tokens};

/// What makes two responses of one thread the same response.
type ResponseKey = (DateTime<Utc>, Tokens);

/// Leaves out of `sessions` every response an earlier session of the same thread already
/// counted, and returns how many were left out. `rescan` reads a session's file again with
/// every response apart ([`super::file_usage`]); a file it cannot read again keeps what it
/// counted (its responses still mark what later files repeat when they are apart). The kept
/// responses are merged per model and local day in `zone`, as
/// [`super::file_usage_by_day`] does; each session's `repeated_responses` says what it lost.
pub fn count_each_response_once(
    sessions: &mut [SessionUsage],
    zone: Tz,
    mut rescan: impl FnMut(&SessionUsage) -> Option<FileUsage>,
) -> usize {
    let mut threads: BTreeMap<ThreadId, Vec<usize>> = BTreeMap::new();
    for (index, session) in sessions.iter().enumerate() {
        if let Some(thread) = session.usage.thread_id {
            threads.entry(thread).or_default().push(index);
        }
    }
    let mut left_out = 0;
    for indexes in threads.values().filter(|indexes| indexes.len() > 1) {
        let mut seen = SeenResponses::default();
        for &index in indexes {
            let Some(session) = sessions.get_mut(index) else {
                continue;
            };
            let Some(apart) = rescan(session) else {
                seen.mark(&session.usage.responses);
                continue;
            };
            let (new, repeated) = seen.keep_new(apart.responses);
            let mut groups = DayGroups::new(zone);
            let mut kept = Vec::new();
            for response in new {
                groups.add(&mut kept, response);
            }
            session.usage.responses = kept;
            session.usage.repeated_responses = repeated;
            left_out += repeated;
        }
    }
    left_out
}

/// The responses the earlier files of one thread held (the rule of the module docs), for a
/// reader that takes a thread's files one after another (`usage`, the tables).
#[derive(Debug, Default)]
pub(crate) struct SeenResponses {
    keys: HashSet<ResponseKey>,
}

impl SeenResponses {
    /// The responses of the thread's next file that no earlier file held, and how many it
    /// repeated; all of them are then held. Responses within one file are never compared.
    pub(crate) fn keep_new(
        &mut self,
        responses: Vec<ResponseUsage>,
    ) -> (Vec<ResponseUsage>, usize) {
        let (repeated, new): (Vec<ResponseUsage>, Vec<ResponseUsage>) = responses
            .into_iter()
            .partition(|response| self.keys.contains(&key_of(response)));
        self.mark(&repeated);
        self.mark(&new);
        (new, repeated.len())
    }

    fn mark(&mut self, responses: &[ResponseUsage]) {
        self.keys.extend(responses.iter().map(key_of));
    }
}

fn key_of(response: &ResponseUsage) -> ResponseKey {
    (response.timestamp, response.tokens)
}

#[cfg(test)]
#[path = "once_tests.rs"]
mod tests;
