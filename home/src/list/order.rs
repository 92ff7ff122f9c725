//! The orders a listing runs in ([`ListOrder`]: by creation or by last change, either way)
//! and the position a page ends at ([`Cursor`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, Timelike, Utc};
use codex_rollout::{
    CodexHome, OrderKey, RolloutFileName, SessionsFolder, folder_files, order_key,
};
use codex_rollout::{Result, RolloutError};
use uuid::Uuid;

use super::SessionSummary;

/// A position in a listing's order: the time the listing orders by (creation, or last
/// change), then the thread and rollout ids. What comes next is what lies strictly beyond it
/// in the listing's direction, or from it on for an inclusive cursor (the one a page gives
/// for turning back, [`super::SessionsPage::backwards_cursor`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cursor {
    created: DateTime<Utc>,
    thread_id: Uuid,
    rollout_id: Option<Uuid>,
    inclusive: bool,
}

impl Cursor {
    /// The cursor just after the file `name` in the listing order by creation.
    pub fn after(name: RolloutFileName) -> Self {
        Self::beyond(order_key(&name))
    }

    /// The cursor just beyond `key`.
    pub(super) fn beyond((created, thread_id, rollout_id): OrderKey) -> Self {
        Self {
            created,
            thread_id,
            rollout_id,
            inclusive: false,
        }
    }

    /// The cursor at `key`, which the next page holds.
    pub(super) fn at(key: OrderKey) -> Self {
        Self {
            inclusive: true,
            ..Self::beyond(key)
        }
    }

    pub(super) fn key(&self) -> OrderKey {
        (self.created, self.thread_id, self.rollout_id)
    }
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let precision = match self.created.nanosecond() {
            0 => SecondsFormat::Secs,
            _ => SecondsFormat::Millis,
        };
        write!(
            f,
            "{}|{}",
            self.created.to_rfc3339_opts(precision, true),
            self.thread_id.hyphenated()
        )?;
        if let Some(rollout_id) = self.rollout_id {
            write!(f, "_{}", rollout_id.hyphenated())?;
        }
        match self.inclusive {
            true => f.write_str(INCLUSIVE_MARK),
            false => Ok(()),
        }
    }
}

impl FromStr for Cursor {
    type Err = RolloutError;

    /// Parses the `<RFC 3339 time>|<uuid>[_<rollout uuid>][|incl]` form [`Cursor`] displays
    /// as.
    fn from_str(text: &str) -> Result<Self> {
        let invalid = || RolloutError::InvalidCursor(text.to_string());
        let (exclusive, inclusive) = match text.strip_suffix(INCLUSIVE_MARK) {
            Some(exclusive) => (exclusive, true),
            None => (text, false),
        };
        let (time, ids) = exclusive.split_once('|').ok_or_else(invalid)?;
        let created = DateTime::parse_from_rfc3339(time)
            .map_err(|_| invalid())?
            .with_timezone(&Utc);
        let (thread, rollout) = match ids.split_once('_') {
            Some((thread, rollout)) => (thread, Some(rollout)),
            None => (ids, None),
        };
        let thread_id = Uuid::parse_str(thread).map_err(|_| invalid())?;
        let rollout_id = rollout
            .map(|rollout| Uuid::parse_str(rollout).map_err(|_| invalid()))
            .transpose()?;
        Ok(Self {
            created,
            thread_id,
            rollout_id,
            inclusive,
        })
    }
}

/// What ends an inclusive cursor's text.
const INCLUSIVE_MARK: &str = "|incl";

/// The time a listing orders threads by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ListKey {
    /// The creation time its file name records.
    #[default]
    Created,
    /// The file's last change, to the millisecond.
    Updated,
}

/// The order of a listing: by which time, which way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListOrder {
    /// The time.
    pub key: ListKey,
    /// Newest first (else oldest first).
    pub newest_first: bool,
}

impl Default for ListOrder {
    /// Newest created first: the order of `codex resume` and `codex-thread list`.
    fn default() -> Self {
        Self {
            key: ListKey::Created,
            newest_first: true,
        }
    }
}

/// The files of `folder` in `order`, beyond `cursor`, each with its key. Newest created
/// first is walked folder by folder, opening none; another order stats or sorts every file
/// first.
pub(super) fn ordered_files(
    home: &CodexHome,
    folder: SessionsFolder,
    order: ListOrder,
    cursor: Option<&Cursor>,
) -> Result<Box<dyn Iterator<Item = (OrderKey, RolloutFileName, PathBuf)>>> {
    let lazy = order == ListOrder::default() && !cursor.is_some_and(|cursor| cursor.inclusive);
    if lazy {
        let anchor = cursor.map(Cursor::key);
        let folders = folder.file_folders(home, anchor)?;
        return Ok(Box::new(folders.into_iter().flat_map(move |dir| {
            folder_files(&dir, anchor)
                .into_iter()
                .map(|(name, path)| (order_key(&name), name, path))
        })));
    }
    let mut files = Vec::new();
    for dir in folder.file_folders(home, None)? {
        for (name, path) in folder_files(&dir, None) {
            let key = match order.key {
                ListKey::Created => order_key(&name),
                ListKey::Updated => updated_key(&path, &name),
            };
            files.push((key, name, path));
        }
    }
    files.sort_by_key(|(key, ..)| *key);
    if order.newest_first {
        files.reverse();
    }
    if let Some(cursor) = cursor {
        let anchor = cursor.key();
        files.retain(|(key, ..)| match (order.newest_first, cursor.inclusive) {
            (true, false) => *key < anchor,
            (true, true) => *key <= anchor,
            (false, false) => *key > anchor,
            (false, true) => *key >= anchor,
        });
    }
    Ok(Box::new(files.into_iter()))
}

/// The key of a file in the order of its last change: its modification time to the
/// millisecond (the epoch when the file system does not say), then its ids.
fn updated_key(path: &Path, name: &RolloutFileName) -> OrderKey {
    let modified = std::fs::metadata(path)
        .and_then(|metadata| metadata.modified())
        .map(DateTime::<Utc>::from)
        .unwrap_or_default();
    (to_millis(modified), name.thread_id, name.rollout_id)
}

/// `at` without what lies below the millisecond.
fn to_millis(at: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(at.timestamp_millis()).unwrap_or(at)
}

/// The key a listed session has in the order by `key`.
pub(super) fn listed_key(summary: &SessionSummary, key: ListKey) -> OrderKey {
    match key {
        ListKey::Created => order_key(&summary.name),
        ListKey::Updated => (
            to_millis(summary.updated_at.unwrap_or_default()),
            summary.name.thread_id,
            summary.name.rollout_id,
        ),
    }
}
