//! The lines a forked or sub-agent child copied from its parent (see the parent's module
//! docs), decided one item at a time so that streaming readers (token usage, disk usage,
//! search) and whole-file readers ([`parent_prefix`]) ask the same rule.

use std::ops::Range;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The lines a child's file copied from its parent: the parent's replayed `session_meta` and
/// the items after it, up to the child's own first turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParentPrefix {
    /// The thread the lines came from (the replayed meta's id).
    pub parent_thread_id: ThreadId,
    /// Item indices of the copied lines (the replayed meta first).
    pub items: Range<usize>,
}

/// The copied parent prefix of a file whose first `session_meta` is its own, if it has one.
pub fn parent_prefix(items: &[RolloutItem]) -> Option<ParentPrefix> {
    let mut scan = ParentPrefixScan::default();
    let mut prefix: Option<ParentPrefix> = None;
    for (index, item) in items.iter().enumerate() {
        match scan.push(item) {
            Provenance::Copied { parent_thread_id } => match &mut prefix {
                Some(prefix) => prefix.items.end = index + 1,
                None => {
                    prefix = Some(ParentPrefix {
                        parent_thread_id,
                        items: index..index + 1,
                    });
                }
            },
            Provenance::Own if prefix.is_some() => break,
            Provenance::Own => {}
        }
    }
    prefix
}

/// Whose an item is: the file's own thread's, or copied from a parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provenance {
    /// Written by the file's own thread.
    Own,
    /// Part of the prefix copied from thread `parent_thread_id`.
    Copied {
        /// The parent whose lines these are.
        parent_thread_id: ThreadId,
    },
}

/// The parent-prefix rule fed one item at a time, in file order: [`ParentPrefixScan::push`]
/// says of each item whether it was copied from a parent. Holds a few words of state,
/// serializable so that a reader can stop and resume in the middle of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParentPrefixScan {
    state: ScanState,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
enum ScanState {
    /// No `session_meta` yet: nothing can be told apart, everything is the file's own.
    #[default]
    BeforeOwnMeta,
    /// The file's own meta was seen; a meta of another thread would start a prefix.
    Own {
        own: ThreadId,
        created_ms: Option<u64>,
    },
    /// Inside the copied prefix.
    Copied {
        own: ThreadId,
        created_ms: Option<u64>,
        parent: ThreadId,
    },
    /// The prefix ended (or there can be none after it): the rest is the file's own.
    Done,
}

impl ParentPrefixScan {
    /// Whose `item` (the next item of the file) is.
    pub fn push(&mut self, item: &RolloutItem) -> Provenance {
        match self.state {
            ScanState::BeforeOwnMeta => {
                if let RolloutItem::SessionMeta(meta) = item {
                    self.state = ScanState::Own {
                        own: meta.meta.id,
                        created_ms: uuid_v7_millis(meta.meta.id.as_uuid()),
                    };
                }
                Provenance::Own
            }
            ScanState::Own { own, created_ms } => match item {
                RolloutItem::SessionMeta(meta) if meta.meta.id != own => {
                    self.state = ScanState::Copied {
                        own,
                        created_ms,
                        parent: meta.meta.id,
                    };
                    Provenance::Copied {
                        parent_thread_id: meta.meta.id,
                    }
                }
                _ => Provenance::Own,
            },
            ScanState::Copied {
                own,
                created_ms,
                parent,
            } => {
                let ends = match item {
                    RolloutItem::EventMsg(EventMsg::TurnStarted(started)) => {
                        minted_after(&started.turn_id, created_ms)
                    }
                    RolloutItem::SessionMeta(meta) => meta.meta.id == own,
                    _ => false,
                };
                if ends {
                    self.state = ScanState::Done;
                    Provenance::Own
                } else {
                    Provenance::Copied {
                        parent_thread_id: parent,
                    }
                }
            }
            ScanState::Done => Provenance::Own,
        }
    }
}

/// Whether the UUID v7 `turn_id` was minted at or after `created` (Unix ms). A turn id that
/// is not a v7 UUID, or a thread id that is not one, cannot be placed in time: such a turn is
/// taken as the child's own, so at worst the copied prefix is reported shorter than it is.
fn minted_after(turn_id: &str, created: Option<u64>) -> bool {
    let Some(created) = created else {
        return true;
    };
    Uuid::parse_str(turn_id)
        .ok()
        .and_then(|uuid| uuid_v7_millis(&uuid))
        .is_none_or(|minted| minted >= created)
}

/// The creation time (Unix ms) a UUID v7 carries.
fn uuid_v7_millis(uuid: &Uuid) -> Option<u64> {
    let (seconds, nanos) = uuid.get_timestamp()?.to_unix();
    Some(seconds * 1000 + u64::from(nanos / 1_000_000))
}
