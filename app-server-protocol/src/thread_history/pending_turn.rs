//! A turn being rebuilt, with the bookkeeping that lets one visible item be recorded several
//! ways without showing twice.
//!
//! Depending on its version and settings, a core persists the same fact as a legacy event
//! (`agent_message`), as an item event (`item_completed` with the `TurnItem`), or both; a
//! compaction is both a `compacted` line and a `context_compacted` event. Each entry remembers
//! which record kinds it has absorbed; a second record of another kind with the same
//! fingerprint joins it instead of adding an item. The typed item wins when both exist,
//! because it carries the real item id, the one live clients saw.

use crate::v2::{
    ThreadItem, TimedThreadItem, Turn, TurnError, TurnItemsView, TurnStatus, UserInput,
};

/// Which kind of persisted record produced an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// An `item_completed` event carrying a `TurnItem`.
    Typed,
    /// A legacy event (`user_message`, `agent_message`, `exec_command_end`, ...).
    LegacyEvent,
}

#[derive(Debug, Clone)]
struct Entry {
    item: ThreadItem,
    /// Shown in the complete mode only (a recorded call Codex's records show no item of):
    /// invisible to every rule that decides Codex's items.
    recorded: bool,
    /// The times of the record that set `item` (only `item_completed` carries any).
    started_at_ms: Option<i64>,
    completed_at_ms: Option<i64>,
    origins: Vec<Origin>,
}

/// A turn under construction.
#[derive(Debug, Clone)]
pub(crate) struct PendingTurn {
    pub(crate) turn: Turn,
    /// Opened by `task_started` (as opposed to implied by a user message in old files).
    pub(crate) explicit: bool,
    /// The last error seen that decides a `failed` status.
    pub(crate) last_error: Option<TurnError>,
    entries: Vec<Entry>,
    /// The highest minted item id of entries shed ([`Self::shed_items`]).
    shed_minted: Option<u64>,
    /// Holds an item that was not kept (a history counting turns only keeps no item but the
    /// person's messages).
    holds_unkept: bool,
    /// The turn's place among the turns closed so far (`schedule`), set when it is closed.
    pub(crate) seq: u64,
    /// The index of the last rollout item recorded into this turn (`schedule`).
    pub(crate) last_touch: u64,
}

impl PendingTurn {
    pub(crate) fn new(
        id: String,
        root_turn_id: Option<String>,
        explicit: bool,
        started_at: Option<i64>,
    ) -> Self {
        Self {
            turn: Turn {
                id,
                root_turn_id,
                items: Vec::new(),
                items_view: TurnItemsView::Full,
                status: TurnStatus::InProgress,
                error: None,
                started_at,
                completed_at: None,
                duration_ms: None,
            },
            explicit,
            last_error: None,
            entries: Vec::new(),
            shed_minted: None,
            holds_unkept: false,
            seq: 0,
            last_touch: 0,
        }
    }

    /// A closed turn restored from what a first pass kept of it (`schedule::Settled`): its
    /// id and place, no items.
    pub(crate) fn restored(id: String, seq: u64, last_touch: u64, minted: Option<u64>) -> Self {
        let mut turn = Self::new(id, None, true, None);
        turn.turn.status = TurnStatus::Completed;
        turn.seq = seq;
        turn.last_touch = last_touch;
        turn.shed_minted = minted;
        turn
    }

    /// The entries Codex shows (recorded calls of the complete mode aside).
    fn codex_entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|entry| !entry.recorded)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.codex_entries().next().is_none() && !self.holds_unkept
    }

    /// Notes an item this turn holds without keeping it.
    pub(crate) fn note_unkept_item(&mut self) {
        self.holds_unkept = true;
    }

    pub(crate) fn has_user_message(&self) -> bool {
        self.codex_entries()
            .any(|entry| matches!(entry.item, ThreadItem::UserMessage { .. }))
    }

    /// True when the turn holds user messages and nothing else yet: a `task_started` that
    /// follows belongs to this same turn (some cores write it after the user message).
    pub(crate) fn holds_only_user_messages(&self) -> bool {
        !self.is_empty()
            && !self.holds_unkept
            && self
                .codex_entries()
                .all(|entry| matches!(entry.item, ThreadItem::UserMessage { .. }))
    }

    /// Whether the turn shows an item of `id` (Codex's or a recorded call's).
    pub(crate) fn shows(&self, id: &str) -> bool {
        self.entries.iter().any(|entry| entry.item.id() == id)
    }

    /// Adds a recorded call's item (complete mode), unless an item of its id is shown.
    pub(crate) fn add_recorded(&mut self, item: ThreadItem) {
        if self.shows(item.id()) {
            return;
        }
        self.entries.push(Entry {
            item,
            recorded: true,
            started_at_ms: None,
            completed_at_ms: None,
            origins: Vec::new(),
        });
    }

    /// Adds a compaction Codex shows no item for (a `compacted` line; complete mode), unless
    /// the turn's last item is the compaction Codex shows for it.
    pub(crate) fn add_recorded_compaction(&mut self, id: String) {
        if self
            .entries
            .last()
            .is_some_and(|entry| matches!(entry.item, ThreadItem::ContextCompaction { .. }))
        {
            return;
        }
        self.entries.push(Entry {
            item: ThreadItem::ContextCompaction { id },
            recorded: true,
            started_at_ms: None,
            completed_at_ms: None,
            origins: Vec::new(),
        });
    }

    /// Replaces the recorded call's item of the same id, if the turn shows one.
    pub(crate) fn replace_recorded(&mut self, item: ThreadItem) {
        if let Some(entry) = self
            .entries
            .iter_mut()
            .rev()
            .find(|entry| entry.recorded && entry.item.id() == item.id())
        {
            entry.item = item;
        }
    }

    /// True when `item` would merge into an existing entry (same id, or the same fact seen
    /// through another kind of record) rather than add one.
    pub(crate) fn absorbs(&self, item: &ThreadItem, origin: Origin) -> bool {
        if item.id().is_empty() {
            return self.twin_position(item, origin).is_some();
        }
        self.codex_entries()
            .any(|entry| entry.item.id() == item.id())
            || self.twin_position(item, origin).is_some()
    }

    /// Records `item`, merging it with an entry for the same fact when there is one:
    /// same id first, then (for messages and compactions, whose legacy records carry no id)
    /// same kind and fingerprint from a different record kind.
    pub(crate) fn record(&mut self, timed: TimedThreadItem, origin: Origin) {
        let TimedThreadItem {
            item,
            started_at_ms,
            completed_at_ms,
        } = timed;
        // At most one entry has an id (a recorded call's is added only when none has it).
        let mut position = self
            .entries
            .iter()
            .position(|entry| !item.id().is_empty() && entry.item.id() == item.id());
        // Codex shows an item of a recorded call's id: Codex's is the one shown, where
        // Codex shows it.
        if let Some(index) = position
            && self.entries[index].recorded
        {
            self.entries.remove(index);
            position = None;
        }
        // Codex's item for the compaction whose `compacted` line was just before it.
        if matches!(item, ThreadItem::ContextCompaction { .. })
            && position.is_none()
            && self.entries.last().is_some_and(|entry| {
                entry.recorded && matches!(entry.item, ThreadItem::ContextCompaction { .. })
            })
        {
            self.entries.pop();
        }
        let position = position.or_else(|| self.twin_position(&item, origin));
        let Some(position) = position else {
            self.entries.push(Entry {
                item,
                recorded: false,
                started_at_ms,
                completed_at_ms,
                origins: vec![origin],
            });
            return;
        };
        let entry = &mut self.entries[position];
        let existing_is_typed = entry.origins.contains(&Origin::Typed);
        if origin == Origin::Typed || !existing_is_typed {
            let mut item = item;
            if item.id().is_empty() {
                item.set_id(entry.item.id().to_owned());
            }
            entry.item = item;
            entry.started_at_ms = started_at_ms;
            entry.completed_at_ms = completed_at_ms;
        }
        if !entry.origins.contains(&origin) {
            entry.origins.push(origin);
        }
    }

    fn twin_position(&self, item: &ThreadItem, origin: Origin) -> Option<usize> {
        let fingerprint = fingerprint(item)?;
        self.entries.iter().position(|entry| {
            !entry.recorded
                && !entry.origins.contains(&origin)
                && entry.item.kind() == item.kind()
                && fingerprint_matches(&entry.item, &fingerprint)
        })
    }

    /// Appends a legacy reasoning paragraph (summary, or raw content when `raw`) to the last
    /// item when it is a reasoning item built from legacy events; otherwise starts one.
    ///
    /// Legacy events carry no item boundary. A core writes an item's summaries before its raw
    /// content, so a summary after raw content starts the next item; consecutive items
    /// without raw content cannot be told apart and merge.
    pub(crate) fn record_reasoning(
        &mut self,
        text: String,
        raw: bool,
        new_id: impl FnOnce() -> String,
    ) {
        // The last item Codex shows: a recorded call after it does not part its paragraphs.
        let last = self.entries.iter_mut().rev().find(|entry| !entry.recorded);
        if let Some(Entry {
            item: ThreadItem::Reasoning {
                summary, content, ..
            },
            origins,
            ..
        }) = last
            && origins.as_slice() == [Origin::LegacyEvent]
            && (raw || content.is_empty())
        {
            if raw {
                content.push(text);
            } else {
                summary.push(text);
            }
            return;
        }
        let (summary, content) = if raw {
            (Vec::new(), vec![text])
        } else {
            (vec![text], Vec::new())
        };
        self.entries.push(Entry {
            item: ThreadItem::Reasoning {
                id: new_id(),
                summary,
                content,
            },
            recorded: false,
            started_at_ms: None,
            completed_at_ms: None,
            origins: vec![Origin::LegacyEvent],
        });
    }

    /// The highest `item-<n>` id among the turn's items, if any was minted.
    pub(crate) fn highest_minted_item(&self) -> Option<u64> {
        self.codex_entries()
            .filter_map(|entry| entry.item.id().strip_prefix("item-")?.parse().ok())
            .max()
            .max(self.shed_minted)
    }

    /// Drops the turn's items, keeping what numbering needs of them (a turn no record will
    /// change, in a history that counts turns only).
    pub(crate) fn shed_items(&mut self) {
        self.shed_minted = self.highest_minted_item();
        self.entries = Vec::new();
    }

    /// The finished turn with its items in recorded order.
    pub(crate) fn into_turn(self) -> Turn {
        let mut turn = self.turn;
        turn.items = self
            .entries
            .into_iter()
            .map(|entry| {
                TimedThreadItem::new(entry.item, entry.started_at_ms, entry.completed_at_ms)
            })
            .collect();
        turn
    }
}

/// What identifies a fact across record kinds when no shared id exists.
fn fingerprint(item: &ThreadItem) -> Option<String> {
    match item {
        ThreadItem::AgentMessage { text, .. } => Some(text.clone()),
        ThreadItem::UserMessage { content, .. } => Some(user_text(content)),
        ThreadItem::ContextCompaction { .. } => Some(String::new()),
        _ => None,
    }
}

fn fingerprint_matches(item: &ThreadItem, expected: &str) -> bool {
    fingerprint(item).is_some_and(|actual| actual == expected)
}

fn user_text(content: &[UserInput]) -> String {
    content
        .iter()
        .filter_map(|input| match input {
            UserInput::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}
