//! Session tables in Parquet: a home's threads, turns, items and token usage, partitioned by
//! day, written incrementally, for DuckDB, Spark, Trino and every engine that reads Parquet.
//!
//! Every row comes from an answer that already exists, never a second rule:
//! - `token_usage`: [`crate::UsageScan`], one row per model response exactly as `usage`
//!   counts it (a forked child's copied parent prefix left out);
//! - `turns`: the client view and the app-server's `ThreadBuilder`, the turns `thread` shows
//!   (statuses, times), plus the turns a rollback removed (`rolled_back`);
//! - `items`: each response item, a call named by codex-protocol's `tool_name` (what `inspect` counts) and
//!   completed by its end events (`items.rs`);
//! - `threads`: the thread's own session meta, over every file of the thread.
//!
//! Discovery is [`crate::all_rollout_files`]; the files of one thread id (continuation
//! pieces) make one thread. Each file is read once as a stream (`scan.rs`).
//!
//! **Incremental rule** (`manifest.rs`): a thread is written again only when its files
//! changed (new, grown, rewritten, removed). A file compressed to `.jsonl.zst` or moved to
//! `archived_sessions/` is recognised by its thread id and content (decoded length, lines,
//! first and last line) and writes nothing. The partitions a changed thread's rows fall on,
//! before and after, are rebuilt whole: the unchanged threads that also have rows there are
//! read again for them. An unchanged home writes nothing, not even the manifest.
//!
//! **Atomic per partition** (`partition.rs`): temporary file, then rename; the manifest last.
//!
//! **One person or a team** (`layout.rs`): `OUT/<table>/day=…` for one person, or, with
//! [`TableOptions::person`], `OUT/<table>/person=NAME/day=…`, so that many people write into
//! one folder, each only into their own partitions; one run at a time per writer (a lock).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use codex_rollout::CodexHome;
use rayon::prelude::*;

mod columns;
mod fingerprint;
mod items;
mod layout;
mod manifest;
mod partition;
mod pending;
mod rows;
mod scan;

pub use columns::{SCHEMA_VERSION, SCHEMA_VERSION_KEY, table_schema};
pub use manifest::MANIFEST_FILE;
pub use partition::{PART_FILE, PartitionCounts};
pub use rows::{ItemRow, Table, ThreadRow, ThreadRows, TokenRow, TurnRow};

use items::TextOptions;
use layout::Layout;
use layout::PartitionKey;
use manifest::{FileEntry, Fingerprint, Manifest, ThreadEntry};
use partition::{PartitionSet, remove_stale_temps};
use pending::Pending;

use crate::list::FoundRollout;
use crate::redact::{RedactionReport, Redactor};

/// Threads read in parallel at a time: the rows of this many threads are in memory at once.
const THREADS_PER_BATCH: usize = 32;

/// What to write.
#[derive(Debug, Clone, Default)]
pub struct TableOptions {
    /// Keep each item's text in `items.text` (otherwise only its length).
    pub with_text: bool,
    /// Mask text, commands, paths and names with the export's redaction rules.
    pub redact: bool,
    /// Write the team layout, as this person: `OUT/<table>/person=NAME/day=…`. A name is a
    /// letter, then letters, digits, `.`, `_` or `-` (at most 64).
    pub person: Option<String>,
}

/// Why tables could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// A session file or the home could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The home's folders could not be walked.
    #[error("cannot list the sessions of {path}: {message}")]
    Home {
        /// The home.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A session file could not be loaded whole (the fallback of the turn view).
    #[error("cannot load {path}: {message}")]
    Load {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The output could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The Parquet writer refused.
    #[error("cannot write {path}: {message}")]
    Parquet {
        /// The file.
        path: PathBuf,
        /// The writer's message.
        message: String,
    },
    /// A redaction pattern did not compile.
    #[error(transparent)]
    Redaction(#[from] crate::redact::BadPattern),
    /// A person's name an engine would not read back as written.
    #[error(
        "{name:?} cannot name a person's partitions: use a letter, then letters, digits, `.`, \
         `_` or `-` (at most 64)"
    )]
    Person {
        /// The name given.
        name: String,
    },
    /// The output folder holds tables of the other layout (one person's, or a team's).
    #[error(
        "{out} holds tables of the other layout ({found}): one person's tables (no --person) \
         and a team's (--person) cannot share a folder, as no engine reads a table \
         partitioned two ways; write into another folder"
    )]
    MixedLayout {
        /// The output folder.
        out: PathBuf,
        /// What was found of the other layout.
        found: PathBuf,
    },
    /// Another run writes the same tables (the same folder, the same person) right now.
    #[error("another run is writing these tables (it holds {path}); try again when it ends")]
    Busy {
        /// The lock file.
        path: PathBuf,
    },
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableRun {
    /// Threads in the home.
    pub threads: usize,
    /// Threads read because they are new or changed.
    pub changed: usize,
    /// Unchanged threads read again because they share a rewritten partition.
    pub reread: usize,
    /// Threads whose files were compressed or moved, recognised as already written.
    pub recognised: usize,
    /// Threads gone from the home, removed from the tables.
    pub removed: usize,
    /// Partitions written and removed.
    pub partitions: PartitionCounts,
    /// Rows written per table (in the rewritten partitions).
    pub rows: BTreeMap<&'static str, u64>,
    /// What `--redact` masked in the rows written.
    pub redaction: Option<RedactionReport>,
    /// The damaged files read (their rows are what could be read), each once.
    pub damaged: Vec<(PathBuf, crate::Damage)>,
}

impl TableRun {
    /// Whether the run wrote nothing at all.
    pub fn wrote_nothing(&self) -> bool {
        self.partitions == PartitionCounts::default() && self.changed == 0 && self.removed == 0
    }
}

/// Writes the tables of `home` into `out` (created when missing), only what changed since
/// the last run there. `progress` is told the decoded... bytes of each file read.
pub fn write_tables(
    home: &CodexHome,
    out: &Path,
    options: &TableOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TableRun, TableError> {
    let layout = Layout::new(out, options.person.as_deref())?;
    std::fs::create_dir_all(out).map_err(|source| TableError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let _lock = layout.lock()?;
    remove_stale_temps(&layout);
    let manifest_dir = layout.manifest_dir();
    let redactor = redactor_of(options)?;
    let text = TextOptions {
        with_text: options.with_text,
        redactor: redactor.as_ref(),
    };
    let previous = Manifest::read(&manifest_dir)?.filter(|manifest| {
        manifest.schema_version == SCHEMA_VERSION
            && manifest.with_text == options.with_text
            && manifest.redact == options.redact
    });
    let full_rewrite = previous.is_none();
    let previous = previous.unwrap_or_default();
    let mut manifest = Manifest {
        schema_version: SCHEMA_VERSION,
        with_text: options.with_text,
        redact: options.redact,
        threads: BTreeMap::new(),
    };
    let mut run = TableRun {
        redaction: redactor.as_ref().map(Redactor::report),
        ..TableRun::default()
    };
    let mut partitions = PartitionSet::new(&layout, BTreeSet::new());
    let mut pending = Pending::default();
    if full_rewrite {
        // Whatever is on disk (another schema version, other options) is replaced or removed.
        for key in layout.partitions_on_disk() {
            partitions.mark_dirty(key);
        }
    }

    let threads = threads_of(home)?;
    let names = thread_names(home)?;
    run.threads = threads.len();
    let mut changed: Vec<(&String, &Vec<FoundRollout>)> = Vec::new();
    let mut unchanged: Vec<(&String, &Vec<FoundRollout>)> = Vec::new();
    for (thread_id, pieces) in &threads {
        let old = previous.threads.get(thread_id);
        match classify(pieces, old)? {
            Kind::Same(entry) => {
                manifest.threads.insert(thread_id.clone(), entry);
                unchanged.push((thread_id, pieces));
            }
            Kind::Recognised(entry) => {
                run.recognised += 1;
                manifest.threads.insert(thread_id.clone(), entry);
                unchanged.push((thread_id, pieces));
            }
            Kind::Changed => {
                if let Some(old) = old {
                    mark_entry_dirty(&mut partitions, old);
                }
                changed.push((thread_id, pieces));
            }
        }
    }
    for (thread_id, old) in &previous.threads {
        if !threads.contains_key(thread_id) {
            run.removed += 1;
            mark_entry_dirty(&mut partitions, old);
        }
    }

    // Changed threads: every partition their rows fall on is rewritten.
    run.changed = changed.len();
    pipelined(&names, &changed, text, progress, |scanned| {
        for (thread_id, (rows, fingerprints, report)) in scanned {
            for key in keys_of(&rows) {
                partitions.mark_dirty(key);
            }
            let entry = entry_of(
                threads.get(thread_id).map_or(&[][..], Vec::as_slice),
                fingerprints,
                &rows,
            )?;
            run.damaged.extend(rows.damaged.iter().cloned());
            pending.add(&mut partitions, rows, &mut run.rows)?;
            merge_report(&mut run.redaction, &report);
            manifest.threads.insert(thread_id.clone(), entry);
        }
        Ok(())
    })?;

    // Unchanged threads that share a rewritten partition are read again for it.
    let reread: Vec<(&String, &Vec<FoundRollout>)> = unchanged
        .into_iter()
        .filter(|(thread_id, _)| {
            manifest.threads.get(*thread_id).is_some_and(|entry| {
                Table::ALL.iter().any(|table| {
                    entry
                        .days_of(*table)
                        .iter()
                        .any(|day| partitions.is_dirty((*table, *day)))
                })
            })
        })
        .collect();
    run.reread = reread.len();
    pipelined(&names, &reread, text, progress, |scanned| {
        for (_, (rows, _, report)) in scanned {
            run.damaged.extend(rows.damaged.iter().cloned());
            pending.add(&mut partitions, rows, &mut run.rows)?;
            merge_report(&mut run.redaction, &report);
        }
        Ok(())
    })?;

    pending.flush(&mut partitions)?;
    let nothing_dirty = partitions.dirty().is_empty();
    run.partitions = partitions.commit()?;
    if !(nothing_dirty && manifest == previous) {
        manifest.write(&manifest_dir)?;
    }
    Ok(run)
}

/// The rows of one thread of `home`, as `write_tables` writes them (for tests and tools that
/// want the rows without Parquet).
pub fn thread_rows(
    home: &CodexHome,
    thread_id: &str,
    options: &TableOptions,
) -> Result<Option<ThreadRows>, TableError> {
    let threads = threads_of(home)?;
    let Some(pieces) = threads.get(thread_id) else {
        return Ok(None);
    };
    let redactor = redactor_of(options)?;
    let text = TextOptions {
        with_text: options.with_text,
        redactor: redactor.as_ref(),
    };
    Ok(Some(
        scan::scan_thread(&thread_names(home)?, pieces, text)?.0,
    ))
}

enum Kind {
    Same(ThreadEntry),
    Recognised(ThreadEntry),
    Changed,
}

type Scanned = (ThreadRows, Vec<Fingerprint>, RedactionReport);

/// The export's masks when `--redact` asks for them (this machine's host name and no extra
/// patterns).
fn redactor_of(options: &TableOptions) -> Result<Option<Redactor>, TableError> {
    if !options.redact {
        return Ok(None);
    }
    Ok(Some(Redactor::for_this_machine(&[])?))
}

/// The files of `home` grouped by thread id, each thread's pieces oldest first.
fn threads_of(home: &CodexHome) -> Result<BTreeMap<String, Vec<FoundRollout>>, TableError> {
    let files = crate::list::all_rollout_files(home).map_err(|source| TableError::Home {
        path: home.root.clone(),
        message: source.to_string(),
    })?;
    let mut threads: BTreeMap<String, Vec<FoundRollout>> = BTreeMap::new();
    for file in files {
        threads
            .entry(file.name.thread_id.to_string())
            .or_default()
            .push(file);
    }
    for pieces in threads.values_mut() {
        pieces.sort_by_key(|piece| piece.name);
    }
    Ok(threads)
}

/// The names of the home's session index, read once.
fn thread_names(home: &CodexHome) -> Result<HashMap<String, String>, TableError> {
    home.thread_names().map_err(|source| TableError::Read {
        path: home.root.join(codex_rollout::SESSION_INDEX_FILE),
        source,
    })
}

/// Whether a thread's files are the ones `old` recorded, as they were or moved.
fn classify(pieces: &[FoundRollout], old: Option<&ThreadEntry>) -> Result<Kind, TableError> {
    let Some(old) = old else {
        return Ok(Kind::Changed);
    };
    let stats = pieces
        .iter()
        .map(|piece| stat(&piece.path))
        .collect::<Result<Vec<_>, _>>()?;
    let same = old.files.len() == pieces.len()
        && old.files.iter().zip(pieces.iter().zip(&stats)).all(
            |(file, (piece, (size, modified)))| {
                file.path == piece.path && file.size == *size && file.modified_ns == *modified
            },
        );
    if same {
        return Ok(Kind::Same(old.clone()));
    }
    if old.files.len() != pieces.len() {
        return Ok(Kind::Changed);
    }
    // Moved or compressed: the same contents under other names.
    let mut files = Vec::with_capacity(pieces.len());
    for (piece, (size, modified_ns)) in pieces.iter().zip(stats) {
        let fingerprint = scan::fingerprint_file(&piece.path)?;
        files.push(FileEntry {
            path: piece.path.clone(),
            size,
            modified_ns,
            fingerprint,
        });
    }
    let mut now: Vec<&Fingerprint> = files.iter().map(|file| &file.fingerprint).collect();
    let mut before: Vec<&Fingerprint> = old.files.iter().map(|file| &file.fingerprint).collect();
    now.sort_by(|a, b| {
        (&a.first_line, &a.last_line, a.bytes).cmp(&(&b.first_line, &b.last_line, b.bytes))
    });
    before.sort_by(|a, b| {
        (&a.first_line, &a.last_line, a.bytes).cmp(&(&b.first_line, &b.last_line, b.bytes))
    });
    if now != before {
        return Ok(Kind::Changed);
    }
    Ok(Kind::Recognised(ThreadEntry {
        files,
        days: old.days.clone(),
    }))
}

/// A file's size and modification time (nanoseconds since the epoch).
fn stat(path: &Path) -> Result<(u64, u128), TableError> {
    let metadata = std::fs::metadata(path).map_err(|source| TableError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let modified = metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    Ok((metadata.len(), modified))
}

fn entry_of(
    pieces: &[FoundRollout],
    fingerprints: Vec<Fingerprint>,
    rows: &ThreadRows,
) -> Result<ThreadEntry, TableError> {
    let mut files = Vec::with_capacity(pieces.len());
    for (piece, fingerprint) in pieces.iter().zip(fingerprints) {
        let (size, modified_ns) = stat(&piece.path)?;
        files.push(FileEntry {
            path: piece.path.clone(),
            size,
            modified_ns,
            fingerprint,
        });
    }
    let days = rows
        .days()
        .into_iter()
        .map(|(table, days)| (table.name().to_string(), days))
        .collect();
    Ok(ThreadEntry { files, days })
}

fn mark_entry_dirty(partitions: &mut PartitionSet, entry: &ThreadEntry) {
    for table in Table::ALL {
        for day in entry.days_of(table) {
            partitions.mark_dirty((table, *day));
        }
    }
}

fn keys_of(rows: &ThreadRows) -> Vec<PartitionKey> {
    rows.days()
        .into_iter()
        .flat_map(|(table, days)| days.into_iter().map(move |day| (table, day)))
        .collect()
}

/// Scans `threads` [`THREADS_PER_BATCH`] at a time and hands each scanned batch to `consume`
/// (rows into their partitions, Parquet encoding) while the next batch is being scanned: at
/// most two batches are in memory, and writing overlaps reading when rayon has two threads.
fn pipelined<'a>(
    names: &HashMap<String, String>,
    threads: &[(&'a String, &Vec<FoundRollout>)],
    text: TextOptions<'_>,
    progress: &(dyn Fn(u64) + Sync),
    mut consume: impl FnMut(Vec<(&'a String, Scanned)>) -> Result<(), TableError> + Send,
) -> Result<(), TableError> {
    let mut batches = threads.chunks(THREADS_PER_BATCH);
    let mut current = match batches.next() {
        Some(batch) => Some(scan_batch(names, batch, text, progress)?),
        None => None,
    };
    while let Some(scanned) = current.take() {
        let next_batch = batches.next();
        let (next, consumed) = rayon::join(
            || next_batch.map(|batch| scan_batch(names, batch, text, progress)),
            || consume(scanned),
        );
        consumed?;
        current = next.transpose()?;
    }
    Ok(())
}

/// Reads a batch of threads in parallel, in the batch's order.
fn scan_batch<'a>(
    names: &HashMap<String, String>,
    batch: &[(&'a String, &Vec<FoundRollout>)],
    text: TextOptions<'_>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<(&'a String, Scanned)>, TableError> {
    batch
        .par_iter()
        .map(|(thread_id, pieces)| {
            let scanned = scan::scan_thread(names, pieces, text)?;
            progress(scanned.1.iter().map(|print| print.bytes).sum());
            Ok((*thread_id, scanned))
        })
        .collect()
}

fn merge_report(into: &mut Option<RedactionReport>, from: &RedactionReport) {
    let Some(into) = into else {
        return;
    };
    for (kind, count) in &from.counts {
        match into.counts.iter_mut().find(|(known, _)| known == kind) {
            Some((_, total)) => *total += count,
            None => into.counts.push((kind.clone(), *count)),
        }
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "table/commit_tests.rs"]
mod commit_tests;
