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
use rusqlite::{Connection, TransactionBehavior};
use serde::{Deserialize, Serialize};
use tracing::warn;

use super::extract::texts_of;
use super::identity::{Identity, Plan, identity, plan};
use super::store::{TextKey, delete_file, mark_of_row, store, text_key};
use super::{Result, SearchError};
use crate::list::FoundRollout;
use crate::usage::line_kind::line_tags;
use codex_rollout::Compression;
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
pub(super) struct ReaderState {
    tally: TurnTally,
    #[serde(default)]
    prefix: ParentPrefixScan,
    cwd: Option<String>,
    model: Option<String>,
    seen_meta: bool,
    /// The thread the file holds: its first session meta's id (the file name's only when it
    /// has none), the one answer every command gives.
    #[serde(default)]
    pub(super) thread_id: Option<String>,
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
    plain_build: bool,
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
            plain_build,
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

pub(super) struct FileJob<'a> {
    pub(super) home: &'a str,
    pub(super) key: &'a str,
    pub(super) file: &'a FoundRollout,
    pub(super) now: Identity,
    pub(super) read: Plan,
    pub(super) row: Option<&'a Stored>,
    /// Every line parsed and one text per entry (the tests' reference, `SearchIndex`'s
    /// `plain_build`).
    pub(super) plain_build: bool,
}

pub(super) enum Failure {
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
pub(super) struct Pending {
    pub(super) role: &'static str,
    pub(super) kind: &'static str,
    pub(super) turn: u32,
    pub(super) line: usize,
    pub(super) ts_ms: Option<i64>,
    pub(super) cwd: Option<String>,
    pub(super) model: Option<String>,
    /// Copied from a parent thread (a fork's or sub-agent's replayed prefix).
    pub(super) copied: bool,
    /// The text's content address (computed here, on the reading thread).
    pub(super) key: TextKey,
    pub(super) text: String,
}

/// Where a batch ends: the position and state stored with it.
pub(super) struct Position {
    pub(super) bytes: u64,
    pub(super) lines: usize,
    pub(super) state: ReaderState,
    pub(super) complete: bool,
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
        let plain = job.plain_build;
        let reader = scope.spawn(move || read_batches(stream, start, compressed, plain, &sender));
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
    plain: bool,
    sender: &std::sync::mpsc::SyncSender<Batch>,
) -> std::io::Result<()> {
    let start_lines = position.lines;
    let mut state = position.state.clone();
    let mut batch: Vec<Pending> = Vec::new();
    let mut batch_bytes = 0;
    let mut read_bytes = 0;
    loop {
        // A line read before (a compressed file is decoded from its start) is not parsed.
        let read_before = stream.lines_read() < start_lines;
        let Some(line) =
            stream.next_line_where(|raw| !read_before && (plain || can_hold_answers(raw)))?
        else {
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
                            key: text_key(&text.text),
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

/// Whether the line `raw` can change what is indexed, told from its type tags where Codex
/// writes them (`usage/line_kind.rs`), so the rest is not parsed: the items texts come from
/// (response items), what tags them (session metas, turn contexts) and what the turn tally
/// and the parent-prefix scan read (the `user_message`, `item_completed`, turn start, end and
/// abort and rollback events). A line of another shape (legacy, keys in another order) is
/// parsed.
fn can_hold_answers(raw: &[u8]) -> bool {
    let Some(tags) = line_tags(raw) else {
        return true;
    };
    match tags.line_type {
        b"response_item" | b"session_meta" | b"turn_context" => true,
        b"event_msg" => tags.payload_type.is_none_or(|payload_type| {
            matches!(
                payload_type,
                b"user_message"
                    | b"item_completed"
                    | b"task_started"
                    | b"turn_started"
                    | b"task_complete"
                    | b"turn_complete"
                    | b"turn_aborted"
                    | b"thread_rolled_back"
            )
        }),
        _ => false,
    }
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

/// How a path is stored: as the walk gave it.
fn path_key(path: &Path) -> String {
    PathBuf::from(path).display().to_string()
}
