//! Bringing the index up to date with a home's files (the life cycle in the parent's docs).
//!
//! A file is known by what it was when last read: size, mtime and a hash of its first
//! [`super::identity::HEAD_BYTES`] bytes. Unchanged and read to its end: nothing to do (one `stat`). Grown, same
//! head, plain, and its last read line still ends with `\n`: read on from there. Anything
//! else (shrunk, rewritten, a compressed file changed): read again from the start.
//!
//! A file is read in batches; each batch is stored in one short transaction, with the row's
//! new position and reader state, and only if the row still holds what this reader started
//! from ([`Mark`]). So a reader that was stopped resumes where its last batch ended, and two
//! readers of one file never store it twice.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};

use codex_protocol::rollout::RolloutItem;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::{Deserialize, Serialize};
use tracing::warn;

use super::extract::texts_of;
use super::identity::{Identity, Plan, identity, plan};
use super::{Result, SearchError};
use crate::list::FoundRollout;
use codex_rollout::Compression;
use codex_rollout::RolloutFileName;
use codex_rollout::{ParentPrefixScan, Provenance, TurnTally};
use codex_rollout::{RolloutStream, StreamedContent};

/// A batch is stored when its texts reach this many bytes.
const BATCH_BYTES: usize = 8 * 1024 * 1024;

/// What an update did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpdateReport {
    /// Session files of the home.
    pub files: usize,
    /// Files read from their start (new, rewritten or recompressed).
    pub read_whole: usize,
    /// Files read on from where they had stopped.
    pub read_on: usize,
    /// Files dropped because they are gone.
    pub dropped: usize,
    /// Files another process was indexing at the same time (left to it).
    pub left_to_others: usize,
    /// Files that could not be read (warned about).
    pub unreadable: usize,
    /// Texts added.
    pub entries: u64,
    /// Bytes read from files (decoded).
    pub bytes: u64,
}

/// What the reader of a file carries from one line to the next, stored with the file's row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct ReaderState {
    tally: TurnTally,
    #[serde(default)]
    prefix: ParentPrefixScan,
    cwd: Option<String>,
    model: Option<String>,
    seen_meta: bool,
    /// The thread the file holds: its first session meta's id (the file name's only when it
    /// has none), the one answer every command gives.
    #[serde(default)]
    thread_id: Option<String>,
}

/// What a file's row says, compared before storing a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mark {
    pub(crate) id: i64,
    pub(crate) size: i64,
    pub(crate) mtime_ns: i64,
    pub(crate) head_hash: i64,
    pub(crate) read_bytes: i64,
    pub(crate) read_lines: i64,
}

/// A file's row as the update found it.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub(crate) mark: Mark,
    pub(crate) head_len: i64,
    pub(crate) complete: bool,
    state: String,
}

pub(crate) fn update(
    conn: &mut Connection,
    index: &Path,
    home: &str,
    files: &[FoundRollout],
    progress: &mut dyn FnMut(u64),
) -> Result<UpdateReport> {
    let sql = |source| SearchError::Index {
        path: index.to_path_buf(),
        source,
    };
    let mut report = UpdateReport {
        files: files.len(),
        ..UpdateReport::default()
    };
    let stored = stored_files(conn, home).map_err(sql)?;
    let present: HashSet<String> = files.iter().map(|file| path_key(&file.path)).collect();
    let gone: Vec<i64> = stored
        .iter()
        .filter(|(path, _)| !present.contains(*path))
        .map(|(_, row)| row.mark.id)
        .collect();
    if !gone.is_empty() {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        for id in &gone {
            delete_file(&tx, *id).map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        report.dropped = gone.len();
    }
    for file in files {
        let key = path_key(&file.path);
        let row = stored.get(&key);
        let outcome = identity(&file.path, row.map(|row| row.head_len)).and_then(|now| {
            let plan = plan(row, &now, &file.path)?;
            if plan == Plan::UpToDate {
                return Ok(None);
            }
            let read = plan;
            // What is stored from now on: the full head of the file as it is.
            Ok(Some((identity(&file.path, None)?, read)))
        });
        let (now, read) = match outcome {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(err) => {
                warn!(path = %file.path.display(), error = %err, "cannot read session file for the search index");
                report.unreadable += 1;
                continue;
            }
        };
        let job = FileJob {
            home,
            key: &key,
            file,
            now,
            read,
            row,
        };
        match index_file(conn, &job, &mut report) {
            Ok(stored_all) => {
                if !stored_all {
                    report.left_to_others += 1;
                }
            }
            Err(Failure::Io(err)) => {
                warn!(path = %file.path.display(), error = %err, "cannot read session file for the search index");
                report.unreadable += 1;
            }
            Err(Failure::Sql(source)) => return Err(sql(source)),
        }
        progress(now.size.max(0) as u64);
    }
    Ok(report)
}

struct FileJob<'a> {
    home: &'a str,
    key: &'a str,
    file: &'a FoundRollout,
    now: Identity,
    read: Plan,
    row: Option<&'a Stored>,
}

enum Failure {
    Io(std::io::Error),
    Sql(rusqlite::Error),
}

impl From<rusqlite::Error> for Failure {
    fn from(error: rusqlite::Error) -> Self {
        Self::Sql(error)
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Self {
        Self::Io(error)
    }
}

/// One text waiting in a batch.
struct Pending {
    role: &'static str,
    kind: &'static str,
    turn: u32,
    line: usize,
    ts_ms: Option<i64>,
    cwd: Option<String>,
    model: Option<String>,
    /// Copied from a parent thread (a fork's or sub-agent's replayed prefix).
    copied: bool,
    text: String,
}

/// Where a batch ends: the position and state stored with it.
struct Position {
    bytes: u64,
    lines: usize,
    state: ReaderState,
    complete: bool,
}

/// Reads `job`'s file and stores its texts; `false` when another process was storing the same
/// file and this reader stepped back.
///
/// Reading (the typed parse and the texts of each line) runs on a thread of its own, one
/// batch ahead of storing (FTS5's tokenizing and merging, most of the time): on two cores the
/// parse costs no wall time. At most two batches are in memory, the one being read and the
/// one being stored.
fn index_file(
    conn: &mut Connection,
    job: &FileJob<'_>,
    report: &mut UpdateReport,
) -> std::result::Result<bool, Failure> {
    let (state, start_bytes, start_lines) = match (job.read, job.row) {
        (Plan::ReadOn, Some(row)) => (
            serde_json::from_str::<ReaderState>(&row.state).unwrap_or_default(),
            row.mark.read_bytes.max(0) as u64,
            row.mark.read_lines.max(0) as usize,
        ),
        _ => (ReaderState::default(), 0, 0),
    };
    if job.read == Plan::FromStart {
        report.read_whole += 1;
    } else {
        report.read_on += 1;
    }
    let mut expect = job.row.map(|row| row.mark.clone());
    let mut first = true;
    let mut file = File::open(&job.file.path)?;
    let compressed = job.now.compressed;
    let stream = if start_bytes > 0 && !compressed {
        file.seek(SeekFrom::Start(start_bytes))?;
        RolloutStream::resume(file, start_lines, start_bytes)?
    } else {
        RolloutStream::new(file)?
    };
    let compressed = compressed || stream.compression() == Compression::Zstd;
    let start = Position {
        bytes: start_bytes,
        lines: start_lines,
        state,
        complete: false,
    };
    std::thread::scope(|scope| {
        let (sender, batches) = std::sync::mpsc::sync_channel::<Batch>(0);
        let reader = scope.spawn(move || read_batches(stream, start, compressed, &sender));
        for batch in &batches {
            report.entries += batch.pending.len() as u64;
            report.bytes += batch.read_bytes;
            if !store(
                conn,
                job,
                &mut expect,
                &mut first,
                &batch.position,
                &batch.pending,
            )? {
                // Dropping the receiver stops the reader at its next batch.
                drop(batches);
                return Ok(false);
            }
        }
        match reader.join() {
            Ok(result) => result.map(|()| true).map_err(Failure::Io),
            Err(_) => Err(Failure::Io(std::io::Error::other(
                "the search index reader stopped unexpectedly",
            ))),
        }
    })
}

/// One batch of a file's texts, with where it ends.
struct Batch {
    pending: Vec<Pending>,
    position: Position,
    /// Decoded bytes of the lines read for it.
    read_bytes: u64,
}

/// Reads `stream` from `position` and sends its texts in batches of about [`BATCH_BYTES`],
/// the last (possibly empty) one marking the file complete where it is; stops when nobody
/// receives them any more.
fn read_batches<R: std::io::Read>(
    mut stream: RolloutStream<R>,
    mut position: Position,
    compressed: bool,
    sender: &std::sync::mpsc::SyncSender<Batch>,
) -> std::io::Result<()> {
    let start_lines = position.lines;
    let mut state = position.state.clone();
    let mut batch: Vec<Pending> = Vec::new();
    let mut batch_bytes = 0;
    let mut read_bytes = 0;
    loop {
        let Some(line) = stream.next_line()? else {
            position.complete = true;
            break;
        };
        if line.number <= start_lines {
            // A compressed file is decoded from its start: skip what was read before.
            continue;
        }
        if !line.terminated && !compressed {
            // A line still being written: it is read once it ends.
            position.complete = true;
            break;
        }
        let number = line.number;
        let end = line.offset + line.raw.len() as u64 + u64::from(line.terminated);
        if let StreamedContent::Line(rollout_line, format) = &line.content {
            let item = &rollout_line.item;
            let turn = state.tally.push(item, *format);
            let copied = matches!(state.prefix.push(item), Provenance::Copied { .. });
            follow_settings(&mut state, item);
            if let RolloutItem::ResponseItem(response) = item {
                let texts = texts_of(response);
                if !texts.is_empty() {
                    let ts_ms = chrono::DateTime::parse_from_rfc3339(&rollout_line.timestamp)
                        .ok()
                        .map(|at| at.timestamp_millis());
                    for text in texts {
                        batch_bytes += text.text.len();
                        batch.push(Pending {
                            role: text.role.as_str(),
                            kind: text.kind.as_str(),
                            turn,
                            line: number,
                            ts_ms,
                            cwd: state.cwd.clone(),
                            model: state.model.clone(),
                            copied,
                            text: text.text,
                        });
                    }
                }
            }
        }
        let damaged = line
            .problem
            .as_ref()
            .is_some_and(|problem| matches!(problem.kind, codex_rollout::ProblemKind::Damaged));
        position.bytes = end;
        position.lines = number;
        read_bytes += end - line.offset;
        if damaged {
            position.complete = true;
            break;
        }
        if batch_bytes >= BATCH_BYTES {
            position.state = state.clone();
            let full = Batch {
                pending: std::mem::take(&mut batch),
                position: Position {
                    state: position.state.clone(),
                    ..position
                },
                read_bytes: std::mem::take(&mut read_bytes),
            };
            if sender.send(full).is_err() {
                return Ok(());
            }
            batch_bytes = 0;
        }
    }
    position.state = state;
    // A receiver that stopped has nothing more to store.
    let _ = sender.send(Batch {
        pending: batch,
        position,
        read_bytes,
    });
    Ok(())
}

/// The cwd and model texts are tagged with: the file's own session meta, then each turn's
/// settings.
fn follow_settings(state: &mut ReaderState, item: &RolloutItem) {
    match item {
        RolloutItem::SessionMeta(meta) if !state.seen_meta => {
            state.seen_meta = true;
            state.cwd = Some(meta.meta.cwd.display().to_string());
            state.thread_id = Some(meta.meta.id.to_string());
        }
        RolloutItem::TurnContext(context) => {
            state.cwd = Some(context.cwd.display().to_string());
            state.model = Some(context.model.clone());
        }
        _ => {}
    }
}

/// Stores one batch with the file's new position, if the row still says `expect`; the first
/// batch of a read from the start replaces the file's old texts.
fn store(
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
            [job.key],
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
                    job.key,
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
    {
        let mut entry = tx.prepare_cached(
            "INSERT INTO entries (file_id, role, kind, turn, line, ts_ms, cwd, model, copied)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        let mut text = tx.prepare_cached("INSERT INTO texts (rowid, text) VALUES (?1, ?2)")?;
        for pending in batch {
            entry.execute(params![
                id,
                pending.role,
                pending.kind,
                pending.turn,
                pending.line as i64,
                pending.ts_ms,
                pending.cwd,
                pending.model,
                pending.copied,
            ])?;
            text.execute(params![tx.last_insert_rowid(), pending.text])?;
        }
    }
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

fn mark_of_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Mark> {
    Ok(Mark {
        id: row.get(0)?,
        size: row.get(1)?,
        mtime_ns: row.get(2)?,
        head_hash: row.get(3)?,
        read_bytes: row.get(4)?,
        read_lines: row.get(5)?,
    })
}

fn stored_files(conn: &Connection, home: &str) -> rusqlite::Result<HashMap<String, Stored>> {
    let mut statement = conn.prepare(
        "SELECT id, size, mtime_ns, head_hash, read_bytes, read_lines, path, head_len, complete,
         state FROM files WHERE home = ?1",
    )?;
    let rows = statement.query_map([home], |row| {
        Ok((
            row.get::<_, String>(6)?,
            Stored {
                mark: mark_of_row(row)?,
                head_len: row.get(7)?,
                complete: row.get(8)?,
                state: row.get(9)?,
            },
        ))
    })?;
    rows.collect()
}

fn delete_texts(conn: &Connection, file_id: i64) -> rusqlite::Result<()> {
    conn.execute(
        "DELETE FROM texts WHERE rowid IN (SELECT id FROM entries WHERE file_id = ?1)",
        [file_id],
    )?;
    conn.execute("DELETE FROM entries WHERE file_id = ?1", [file_id])?;
    Ok(())
}

fn delete_file(conn: &Connection, file_id: i64) -> rusqlite::Result<()> {
    delete_texts(conn, file_id)?;
    conn.execute("DELETE FROM files WHERE id = ?1", [file_id])?;
    Ok(())
}

/// How a path is stored: as the walk gave it.
fn path_key(path: &Path) -> String {
    PathBuf::from(path).display().to_string()
}
