//! Writing day partitions atomically: `part-0.parquet` in each partition's folder (where that
//! folder is, one person's or a team's layout, is `layout.rs`'s answer).
//!
//! Each partition being rewritten is written whole into a hidden temporary file in its folder
//! (`.part-0.parquet.tmp-<pid>`, a name no `*.parquet` glob and no Hive-style reader picks
//! up), then renamed over the old one: a reader sees the old partition or the new one, never
//! a part of one, and a run killed half way leaves the old table readable. A partition that
//! has no rows any more is removed.
//!
//! Memory does not grow with the home: rows are handed over one thread at a time, a writer's
//! buffered row group is flushed at [`ROW_GROUP_BYTES`], all of them when together they pass
//! [`BUFFERED_BYTES`] (checked every few writes), and no file stays open between writes (a home
//! spanning years has thousands of partitions, more than a process may keep open).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use arrow_array::RecordBatch;
use arrow_schema::DataType;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use super::TableError;
use super::columns::{SCHEMA_VERSION, SCHEMA_VERSION_KEY, table_schema};
use super::layout::{Layout, PartitionKey};
use super::rows::Table;

/// The file name of a partition's data.
pub const PART_FILE: &str = "part-0.parquet";

/// A writer's buffered row group is written out past this size.
pub(super) const ROW_GROUP_BYTES: usize = 8 << 20;

/// All buffered row groups are written out when together they pass this size.
pub(super) const BUFFERED_BYTES: usize = 64 << 20;

/// Partitions closed and synced at a time when committing (most of a sync is waiting for
/// the disk, not the CPU).
const SYNC_WORKERS: usize = 8;

/// How many writes pass between two checks of [`BUFFERED_BYTES`] (one write adds at most a
/// thread's rows of one day).
const BUFFER_CHECK_WRITES: usize = 64;

/// The partitions being rewritten in one run.
pub(crate) struct PartitionSet {
    layout: Layout,
    dirty: BTreeSet<PartitionKey>,
    open: BTreeMap<PartitionKey, OpenPartition>,
    writes: usize,
}

struct OpenPartition {
    temp: PathBuf,
    writer: ArrowWriter<BufWriter<AppendFile>>,
}

impl std::fmt::Debug for PartitionSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartitionSet")
            .field("layout", &self.layout)
            .field("dirty", &self.dirty.len())
            .field("open", &self.open.len())
            .finish()
    }
}

/// What committing wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PartitionCounts {
    /// Partitions written (created or replaced).
    pub written: usize,
    /// Partitions removed because no row falls on them any more.
    pub removed: usize,
}

impl PartitionSet {
    /// Rewrites `dirty`, in `layout`'s folders.
    pub(crate) fn new(layout: &Layout, dirty: BTreeSet<PartitionKey>) -> Self {
        Self {
            layout: layout.clone(),
            dirty,
            open: BTreeMap::new(),
            writes: 0,
        }
    }

    /// Whether `key` is being rewritten.
    pub(crate) fn is_dirty(&self, key: PartitionKey) -> bool {
        self.dirty.contains(&key)
    }

    /// Rewrites `key` too.
    pub(crate) fn mark_dirty(&mut self, key: PartitionKey) {
        self.dirty.insert(key);
    }

    /// The partitions being rewritten.
    pub(crate) fn dirty(&self) -> &BTreeSet<PartitionKey> {
        &self.dirty
    }

    /// Appends `batch` (rows of `key`'s table) to partition `key`.
    pub(crate) fn write(
        &mut self,
        key: PartitionKey,
        batch: &RecordBatch,
    ) -> Result<(), TableError> {
        if !self.open.contains_key(&key) {
            let opened = self.open_partition(key)?;
            self.open.insert(key, opened);
        }
        let Some(open) = self.open.get_mut(&key) else {
            return Ok(());
        };
        let temp = open.temp.clone();
        let parquet_error = |source: parquet::errors::ParquetError| TableError::Parquet {
            path: temp.clone(),
            message: source.to_string(),
        };
        open.writer.write(batch).map_err(parquet_error)?;
        if open.writer.in_progress_size() > ROW_GROUP_BYTES {
            open.writer.flush().map_err(parquet_error)?;
        }
        // Summing every writer's estimate walks all their columns: done every few writes.
        self.writes += 1;
        if !self.writes.is_multiple_of(BUFFER_CHECK_WRITES) {
            return Ok(());
        }
        let buffered: usize = self
            .open
            .values()
            .map(|open| open.writer.in_progress_size())
            .sum();
        if buffered > BUFFERED_BYTES {
            for open in self.open.values_mut() {
                open.writer.flush().map_err(|source| TableError::Parquet {
                    path: open.temp.clone(),
                    message: source.to_string(),
                })?;
            }
        }
        Ok(())
    }

    /// Finishes every partition and puts it in place; removes dirty partitions no row was
    /// written to.
    pub(crate) fn commit(self) -> Result<PartitionCounts, TableError> {
        let mut counts = PartitionCounts::default();
        let finished = finish_all(self.open.into_iter().collect())?;
        let written: BTreeSet<PartitionKey> = finished.iter().map(|(key, _)| *key).collect();
        let mut steps = 0;
        for (key, temp) in finished {
            killed_here_in_tests(&mut steps)?;
            let target = self.layout.partition_dir(key).join(PART_FILE);
            std::fs::rename(&temp, &target).map_err(|source| TableError::Write {
                path: target.clone(),
                source,
            })?;
            counts.written += 1;
        }
        for key in self.dirty.difference(&written) {
            killed_here_in_tests(&mut steps)?;
            let dir = self.layout.partition_dir(*key);
            match std::fs::remove_file(dir.join(PART_FILE)) {
                Ok(()) => {
                    counts.removed += 1;
                    // Only an empty folder goes; anything else in it is left alone.
                    let _ = std::fs::remove_dir(&dir);
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(TableError::Write {
                        path: dir.join(PART_FILE),
                        source,
                    });
                }
            }
        }
        Ok(counts)
    }

    fn open_partition(&self, key: PartitionKey) -> Result<OpenPartition, TableError> {
        let dir = self.layout.partition_dir(key);
        std::fs::create_dir_all(&dir).map_err(|source| TableError::Write {
            path: dir.clone(),
            source,
        })?;
        let temp = dir.join(format!(".{PART_FILE}.tmp-{}", std::process::id()));
        // A fresh file: whatever a killed run left under this name goes.
        File::create(&temp).map_err(|source| TableError::Write {
            path: temp.clone(),
            source,
        })?;
        let sink = BufWriter::with_capacity(16 << 10, AppendFile { path: temp.clone() });
        let writer = ArrowWriter::try_new(sink, table_schema(key.0), Some(properties(key.0)))
            .map_err(|source| TableError::Parquet {
                path: temp.clone(),
                message: source.to_string(),
            })?;
        Ok(OpenPartition { temp, writer })
    }
}

#[cfg(test)]
thread_local! {
    /// Tests only: how many renames and removals a commit on this thread makes before it
    /// stops as a run killed there would (nothing else of the run happens after it).
    pub(crate) static STEPS_BEFORE_KILL: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

/// Counts one step of a commit; in tests, stops the commit where [`STEPS_BEFORE_KILL`] says.
#[allow(clippy::unnecessary_wraps)] // Fails only in tests.
fn killed_here_in_tests(steps: &mut usize) -> Result<(), TableError> {
    #[cfg(test)]
    if STEPS_BEFORE_KILL.get() == Some(*steps) {
        return Err(TableError::Write {
            path: PathBuf::new(),
            source: std::io::Error::other("killed here by the test"),
        });
    }
    *steps += 1;
    Ok(())
}

/// How a partition of `table` is encoded: the schema version in the file's key-value metadata
/// (where every engine's metadata reader finds it; the Arrow schema's copy of it is inside
/// the encoded `ARROW:schema` entry only), Snappy (Spark's default, read by every engine, and
/// no per-page context to make, unlike zstd);
/// dictionaries only for the columns that repeat (strings, small integers), not for the 64-bit
/// numbers and times, which rarely repeat and cost a hash per value.
fn properties(table: Table) -> WriterProperties {
    let version = KeyValue::new(SCHEMA_VERSION_KEY.to_string(), SCHEMA_VERSION.to_string());
    let mut builder = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(vec![version]));
    for field in table_schema(table).fields() {
        if matches!(field.data_type(), DataType::Int64 | DataType::Timestamp(..)) {
            builder = builder
                .set_column_dictionary_enabled(ColumnPath::from(field.name().as_str()), false);
        }
    }
    builder.build()
}

/// Closes every writer (its last row groups encoded) and syncs its file, several at a time:
/// the encoding spreads over the cores, and the file system gathers the syncs that wait
/// together into one journal commit instead of one each.
fn finish_all(
    open: Vec<(PartitionKey, OpenPartition)>,
) -> Result<Vec<(PartitionKey, PathBuf)>, TableError> {
    let workers = open.len().clamp(1, SYNC_WORKERS);
    let queue = std::sync::Mutex::new(open.into_iter());
    // A poisoned lock still hands out the rest: a partition left unfinished would be removed.
    let next = || {
        queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .next()
    };
    let results: Vec<Result<Vec<(PartitionKey, PathBuf)>, TableError>> =
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|_| {
                    scope.spawn(|| -> Result<Vec<(PartitionKey, PathBuf)>, TableError> {
                        let mut done = Vec::new();
                        while let Some((key, open)) = next() {
                            done.push((key, finish(open)?));
                        }
                        Ok(done)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| {
                    handle.join().unwrap_or_else(|_| {
                        Err(TableError::Parquet {
                            path: PathBuf::new(),
                            message: "a partition writer panicked".to_string(),
                        })
                    })
                })
                .collect()
        });
    let mut finished = Vec::new();
    for result in results {
        finished.extend(result?);
    }
    Ok(finished)
}

/// Closes one partition's writer and syncs its temporary file; the file's path.
fn finish(open: OpenPartition) -> Result<PathBuf, TableError> {
    let temp = open.temp;
    let mut inner = open
        .writer
        .into_inner()
        .map_err(|source| TableError::Parquet {
            path: temp.clone(),
            message: source.to_string(),
        })?;
    inner
        .flush()
        .and_then(|()| File::open(&temp)?.sync_all())
        .map_err(|source| TableError::Write {
            path: temp.clone(),
            source,
        })?;
    Ok(temp)
}

/// Removes the temporary files a killed run of the same writer left in its partitions
/// (names starting with `.` and holding `.tmp-`), so they do not pile up; another person's
/// folders, whose run may be under way, are never looked in. Readers never see them either
/// way.
pub(crate) fn remove_stale_temps(layout: &Layout) {
    for table in Table::ALL {
        for (day, _) in layout.day_dirs(table) {
            let Ok(files) = std::fs::read_dir(day) else {
                continue;
            };
            for file in files.flatten() {
                let name = file.file_name();
                let name = name.to_string_lossy();
                if name.starts_with('.') && name.contains(".tmp-") {
                    tracing::debug!(path = %file.path().display(), "removing a stale temporary file");
                    let _ = std::fs::remove_file(file.path());
                }
            }
        }
    }
}

/// A file written by appending, opened for each write and closed after it, so that a writer
/// holds no file descriptor between writes.
struct AppendFile {
    path: PathBuf,
}

impl Write for AppendFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut file = OpenOptions::new().append(true).open(&self.path)?;
        file.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
