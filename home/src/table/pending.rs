//! Rows waiting for their partition: a thread's rows are moved into one buffer per
//! partition being rewritten, and written out as one record batch per partition when the
//! buffers together pass [`PENDING_ROWS`] (and at the end), not a small batch per thread and
//! day: Parquet's cost is per batch and per column, not per row.

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::NaiveDate;

use super::TableError;
use super::columns::{RowsOf, record_batch};
use super::layout::PartitionKey;
use super::partition::PartitionSet;
use super::rows::{ItemRow, Table, ThreadRow, ThreadRows, TokenRow, TurnRow, day_of};

/// Rows held before the buffers are written out.
pub(super) const PENDING_ROWS: usize = 64 * 1024;

/// The rows of one partition.
#[derive(Debug)]
enum Buffer {
    Threads(Vec<ThreadRow>),
    Turns(Vec<TurnRow>),
    Items(Vec<ItemRow>),
    Tokens(Vec<TokenRow>),
}

/// Rows waiting, per partition.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    buffers: BTreeMap<PartitionKey, Buffer>,
    rows: usize,
}

impl Pending {
    /// Moves `rows` into the buffers of the partitions being rewritten (rows of other
    /// partitions are dropped), counting them per table into `counts`; writes the buffers out
    /// when they hold enough.
    pub(crate) fn add(
        &mut self,
        partitions: &mut PartitionSet,
        rows: ThreadRows,
        counts: &mut BTreeMap<&'static str, u64>,
    ) -> Result<(), TableError> {
        let created = rows.thread.created_at.and_then(day_of);
        let day = |ms: Option<i64>| ms.and_then(day_of).or(created);
        let mut keep = |key: (Table, Option<NaiveDate>)| {
            let (table, Some(day)) = key else {
                return None;
            };
            partitions.is_dirty((table, day)).then(|| {
                *counts.entry(table.name()).or_default() += 1;
                self.rows += 1;
                (table, day)
            })
        };
        let buffers = &mut self.buffers;
        if let Some(key) = keep((Table::Threads, created))
            && let Buffer::Threads(rows_of) = buffer(buffers, key)
        {
            rows_of.push(rows.thread);
        }
        for turn in rows.turns {
            if let Some(key) = keep((Table::Turns, day(turn.started_at)))
                && let Buffer::Turns(rows_of) = buffer(buffers, key)
            {
                rows_of.push(turn);
            }
        }
        for item in rows.items {
            if let Some(key) = keep((Table::Items, day(item.timestamp)))
                && let Buffer::Items(rows_of) = buffer(buffers, key)
            {
                rows_of.push(item);
            }
        }
        for token in rows.tokens {
            if let Some(key) = keep((Table::TokenUsage, day(Some(token.timestamp))))
                && let Buffer::Tokens(rows_of) = buffer(buffers, key)
            {
                rows_of.push(token);
            }
        }
        if self.rows >= PENDING_ROWS {
            self.flush(partitions)?;
        }
        Ok(())
    }

    /// Writes every buffer out to its partition.
    pub(crate) fn flush(&mut self, partitions: &mut PartitionSet) -> Result<(), TableError> {
        for (key, buffer) in std::mem::take(&mut self.buffers) {
            let batch = match &buffer {
                Buffer::Threads(rows) => record_batch(RowsOf::Threads(&refs(rows))),
                Buffer::Turns(rows) => record_batch(RowsOf::Turns(&refs(rows))),
                Buffer::Items(rows) => record_batch(RowsOf::Items(&refs(rows))),
                Buffer::Tokens(rows) => record_batch(RowsOf::Tokens(&refs(rows))),
            }
            .map_err(|error| TableError::Parquet {
                path: PathBuf::from(format!("{}/day={}", key.0.name(), key.1)),
                message: error.to_string(),
            })?;
            partitions.write(key, &batch)?;
        }
        self.rows = 0;
        Ok(())
    }
}

/// One row on its way to a buffer.
/// The buffer of partition `key`, made on first use: rows move straight into it (a row is
/// moved once, not through a list of placed rows first).
fn buffer(buffers: &mut BTreeMap<PartitionKey, Buffer>, key: PartitionKey) -> &mut Buffer {
    buffers.entry(key).or_insert_with(|| match key.0 {
        Table::Threads => Buffer::Threads(Vec::new()),
        Table::Turns => Buffer::Turns(Vec::new()),
        Table::Items => Buffer::Items(Vec::new()),
        Table::TokenUsage => Buffer::Tokens(Vec::new()),
    })
}

fn refs<T>(rows: &[T]) -> Vec<&T> {
    rows.iter().collect()
}
