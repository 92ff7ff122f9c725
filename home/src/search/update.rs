//! Bringing the index up to date with a home's files (the life cycle in the parent's docs).
//!
//! A file is known by what it was when last read: size, mtime and a hash of its first
//! [`super::identity::HEAD_BYTES`] bytes. Unchanged and read to its end: nothing to do (one
//! `stat`). Grown, same head, plain, and its last read line still ends with `\n`: read on from
//! there. Anything else (shrunk, rewritten, a compressed file changed): read again from the
//! start.
//!
//! A file is read in batches; each batch is stored in one short transaction, with the row's
//! new position and reader state, and only if the row still holds what this reader started
//! from ([`Mark`](super::row::Mark)). So a reader that was stopped resumes where its last batch ended, and two
//! readers of one file never store it twice.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::{Connection, TransactionBehavior};
use tracing::warn;

use super::identity::{FileJob, Plan};
use super::read::{Read, read_files};
use super::row::{Mark, Stored, path_key};
use super::schema::{defer_text_index, restore_text_index};
use super::store::{delete_file, mark_of_row, store};
use super::{Failure, Result, SearchError};
use crate::list::FoundRollout;

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
    /// The damaged files read ([`crate::Damage`]), each once: what could be read is indexed.
    pub damaged: Vec<(std::path::PathBuf, crate::Damage)>,
}

/// Adds the damage one batch of `path` met to `damaged`: a file's first damage, its lines
/// summed over its batches.
fn note_file_damage(
    damaged: &mut Vec<(std::path::PathBuf, crate::Damage)>,
    path: &std::path::Path,
    damage: &crate::Damage,
) {
    match damaged.iter_mut().find(|(known, _)| known == path) {
        Some((_, known)) => known.lines += damage.lines,
        None => damaged.push((path.to_path_buf(), damage.clone())),
    }
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
    // A first build stores its entries without the text index, made once at the end (also
    // when storing failed; a build killed before then has it made when next opened).
    let deferred = defer_text_index(conn).map_err(sql)?;
    let stored = &stored;
    let abandoned = AtomicUsize::new(0);
    let stored_all = std::thread::scope(|scope| {
        let (sender, received) = std::sync::mpsc::sync_channel::<Read>(0);
        let abandoned = &abandoned;
        let reader =
            scope.spawn(move || read_files(files, stored, plain_build, &sender, abandoned));
        // The file being stored: its job, the row it must still find, whether its first
        // batch is to come, whether another process stores it.
        let mut current: Option<(FileJob<'_>, Option<Mark>, bool, bool)> = None;
        let unreadable = |report: &mut UpdateReport, file: &FoundRollout, err: &std::io::Error| {
            warn!(path = %file.path.display(), error = %err, "cannot read session file for the search index");
            report.unreadable += 1;
        };
        for message in &received {
            match message {
                Read::Unreadable(n, err) => unreadable(&mut report, &files[n], &err),
                Read::Start { file: n, now, plan } => {
                    if plan == Plan::FromStart {
                        report.read_whole += 1;
                    } else {
                        report.read_on += 1;
                    }
                    let key = path_key(&files[n].path);
                    let expect = stored.get(&key).map(|row| row.mark.clone());
                    let job = FileJob {
                        home,
                        key,
                        file: &files[n],
                        now,
                        read: plan,
                        plain_build,
                    };
                    current = Some((job, expect, true, false));
                }
                Read::Batch(n, batch) => {
                    let Some((job, expect, first, left)) = current.as_mut() else {
                        continue;
                    };
                    if *left || !std::ptr::eq(job.file, &files[n]) {
                        continue;
                    }
                    report.entries += batch.pending.len() as u64;
                    report.bytes += batch.read_bytes;
                    if let Some(damage) = &batch.damage {
                        note_file_damage(&mut report.damaged, &files[n].path, damage);
                    }
                    match store(conn, job, expect, first, &batch.position, &batch.pending) {
                        Ok(true) => {}
                        Ok(false) => {
                            // The reader stops this file at its next batch.
                            *left = true;
                            abandoned.store(n + 1, Ordering::Release);
                            report.left_to_others += 1;
                        }
                        Err(Failure::Sql(source)) => return Err(sql(source)),
                        Err(Failure::Io(err)) => unreadable(&mut report, &files[n], &err),
                    }
                }
                Read::Done(n, result) => {
                    if let Err(err) = result {
                        unreadable(&mut report, &files[n], &err);
                    }
                    if let Some((job, ..)) = current.take() {
                        progress(job.now.size.max(0) as u64);
                    }
                }
            }
        }
        if reader.join().is_err() {
            warn!(
                "the search index reader stopped unexpectedly; the files it did not read are read next time"
            );
        }
        Ok(report)
    });
    if deferred {
        restore_text_index(conn).map_err(sql)?;
    }
    stored_all
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
