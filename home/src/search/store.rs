//! Storing a batch of a file's texts: its entries, each pointing at its text, and each
//! distinct text once in the FTS5 table (content-addressed by [`text_key`]), with the file's
//! new position, in one transaction; and dropping a file's entries with the texts no other
//! entry holds.
//!
//! A text is found by its key: the first 16 bytes of its SHA-256 (a collision between two
//! texts of one index would take 2^64 texts to expect). A hit on a text is a hit on every
//! entry that holds it, so queries list the same entries as an index of one text per entry;
//! only the BM25 rank is computed over distinct texts (a text repeated in many entries counts
//! once in its terms' document frequencies).

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};

use super::Failure;
use super::identity::{FileJob, Plan};
use super::row::{Mark, ReaderState};
use codex_rollout::RolloutFileName;

/// A text's content address in the index.
pub(super) type TextKey = [u8; 16];

/// The key of `text`: the first 16 bytes of its SHA-256.
pub(super) fn text_key(text: &str) -> TextKey {
    let digest = Sha256::digest(text.as_bytes());
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// Stores one batch with the file's new position, if the row still says `expect`; the first
/// batch of a read from the start replaces the file's old texts.
pub(super) fn store(
    conn: &mut Connection,
    job: &FileJob<'_>,
    expect: &mut Option<Mark>,
    first: &mut bool,
    position: &Position,
    batch: &[Pending],
) -> std::result::Result<bool, Failure> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let current = tx
        .query_row(
            "SELECT id, size, mtime_ns, head_hash, read_bytes, read_lines FROM files WHERE path = ?1",
            [&job.key],
            mark_of_row,
        )
        .optional()?;
    if current != *expect {
        return Ok(false);
    }
    let state = serde_json::to_string(&position.state).unwrap_or_default();
    let name: &RolloutFileName = &job.file.name;
    let thread_id = position
        .state
        .thread_id
        .clone()
        .unwrap_or_else(|| name.thread_id.hyphenated().to_string());
    let id = match &current {
        Some(mark) => {
            if *first && job.read == Plan::FromStart {
                delete_texts(&tx, mark.id)?;
            }
            tx.execute(
                "UPDATE files SET size = ?2, mtime_ns = ?3, head_len = ?4, head_hash = ?5,
                 read_bytes = ?6, read_lines = ?7, complete = ?8, state = ?9,
                 archived = ?10, compressed = ?11, thread_id = ?12 WHERE id = ?1",
                params![
                    mark.id,
                    job.now.size,
                    job.now.mtime_ns,
                    job.now.head_len,
                    job.now.head_hash,
                    position.bytes as i64,
                    position.lines as i64,
                    position.complete,
                    state,
                    job.file.archived,
                    job.now.compressed,
                    thread_id,
                ],
            )?;
            mark.id
        }
        None => {
            tx.execute(
                "INSERT INTO files (home, path, thread_id, archived, compressed, size, mtime_ns,
                 head_len, head_hash, read_bytes, read_lines, complete, state)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    job.home,
                    &job.key,
                    thread_id,
                    job.file.archived,
                    job.now.compressed,
                    job.now.size,
                    job.now.mtime_ns,
                    job.now.head_len,
                    job.now.head_hash,
                    position.bytes as i64,
                    position.lines as i64,
                    position.complete,
                    state,
                ],
            )?;
            tx.last_insert_rowid()
        }
    };
    store_entries(&tx, id, batch, !job.plain_build)?;
    tx.commit()?;
    *first = false;
    *expect = Some(Mark {
        id,
        size: job.now.size,
        mtime_ns: job.now.mtime_ns,
        head_hash: job.now.head_hash,
        read_bytes: position.bytes as i64,
        read_lines: position.lines as i64,
    });
    Ok(true)
}

/// Inserts `batch`'s entries for file `file_id`, each text once: an entry whose text the index
/// (or this batch) already holds points at it; `distinct` false gives every entry a text of
/// its own (the plain layout the tests compare with).
fn store_entries(
    tx: &Connection,
    file_id: i64,
    batch: &[Pending],
    distinct: bool,
) -> rusqlite::Result<()> {
    let mut entry = tx.prepare_cached(
        "INSERT INTO entries (file_id, role, kind, turn, line, ts_ms, cwd, model, copied, text_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    let mut find = tx.prepare_cached("SELECT id FROM text_keys WHERE key = ?1")?;
    let mut add_key = tx.prepare_cached("INSERT INTO text_keys (key) VALUES (?1)")?;
    let mut add_text = tx.prepare_cached("INSERT INTO texts (rowid, text) VALUES (?1, ?2)")?;
    let mut known: HashMap<TextKey, i64> = HashMap::new();
    for pending in batch {
        let found = match known.get(&pending.key) {
            Some(id) => Some(*id),
            None if distinct => find
                .query_row([&pending.key[..]], |row| row.get(0))
                .optional()?,
            None => None,
        };
        let text_id = match found {
            Some(id) => id,
            None => {
                add_key.execute([distinct.then_some(&pending.key[..])])?;
                let id = tx.last_insert_rowid();
                add_text.execute(params![id, pending.text])?;
                id
            }
        };
        if distinct {
            known.insert(pending.key, text_id);
        }
        entry.execute(params![
            file_id,
            pending.role,
            pending.kind,
            pending.turn,
            pending.line as i64,
            pending.ts_ms,
            pending.cwd,
            pending.model,
            pending.copied,
            text_id,
        ])?;
    }
    Ok(())
}

pub(super) fn mark_of_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Mark> {
    Ok(Mark {
        id: row.get(0)?,
        size: row.get(1)?,
        mtime_ns: row.get(2)?,
        head_hash: row.get(3)?,
        read_bytes: row.get(4)?,
        read_lines: row.get(5)?,
    })
}

/// Drops the entries of file `file_id`, and the texts no other file's entry holds.
fn delete_texts(conn: &Connection, file_id: i64) -> rusqlite::Result<()> {
    let orphans: Vec<i64> = {
        let mut statement = conn.prepare_cached(
            "SELECT DISTINCT e.text_id FROM entries e WHERE e.file_id = ?1 AND NOT EXISTS
             (SELECT 1 FROM entries o WHERE o.text_id = e.text_id AND o.file_id <> ?1)",
        )?;
        let rows = statement.query_map([file_id], |row| row.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut text = conn.prepare_cached("DELETE FROM texts WHERE rowid = ?1")?;
    let mut key = conn.prepare_cached("DELETE FROM text_keys WHERE id = ?1")?;
    for id in orphans {
        text.execute([id])?;
        key.execute([id])?;
    }
    conn.execute("DELETE FROM entries WHERE file_id = ?1", [file_id])?;
    Ok(())
}

/// Drops file `file_id`: its row, its entries and the texts only it held.
pub(super) fn delete_file(conn: &Connection, file_id: i64) -> rusqlite::Result<()> {
    delete_texts(conn, file_id)?;
    conn.execute("DELETE FROM files WHERE id = ?1", [file_id])?;
    Ok(())
}

/// One text waiting in a batch.
pub(crate) struct Pending {
    pub(crate) role: &'static str,
    pub(crate) kind: &'static str,
    pub(crate) turn: u32,
    pub(crate) line: usize,
    pub(crate) ts_ms: Option<i64>,
    pub(crate) cwd: Option<String>,
    pub(crate) model: Option<String>,
    /// Copied from a parent thread (a fork's or sub-agent's replayed prefix).
    pub(crate) copied: bool,
    /// The text's content address (computed here, on the reading thread).
    pub(crate) key: TextKey,
    pub(crate) text: String,
}

/// Where a batch ends: the position and state stored with it.
pub(crate) struct Position {
    pub(crate) bytes: u64,
    pub(crate) lines: usize,
    pub(crate) state: ReaderState,
    pub(crate) complete: bool,
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
