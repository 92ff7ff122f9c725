//! The reading side of an update, on a thread of its own: for each file of the home in turn,
//! what must be read of it (its identity against its row, `identity.rs`), then its lines
//! (the typed parse of the lines that can change what is indexed, the turn tally, the texts
//! and their keys), handed to the storing side in batches.
//!
//! The reader runs one batch ahead of storing, across files too: while the writer stores a
//! file's last batch (FTS5's tokenizing and merging, most of the time), the next file is
//! already being read, so on two cores the parse costs no wall time in a home of many small
//! files either. At most two batches are in memory, the one being read and the one being
//! stored.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;

use codex_protocol::rollout::RolloutItem;

use super::extract::texts_of;
use super::identity::{Identity, Plan, identity, plan};
use super::row::{ReaderState, Stored, path_key};
use super::store::{Pending, Position, text_key};
use crate::list::FoundRollout;
use codex_rollout::Compression;
use codex_rollout::line_tags;
use codex_rollout::{Provenance, RolloutStream, StreamedContent};

/// A batch is stored when its texts reach this many bytes.
const BATCH_BYTES: usize = 8 * 1024 * 1024;

/// What the reader hands the writer, file by file (`file` is the index in the update's list).
pub(super) enum Read {
    /// The file must be read (`plan`), and is what `now` says; its batches follow.
    Start {
        file: usize,
        now: Identity,
        plan: Plan,
    },
    /// A batch of the file started last.
    Batch(usize, Batch),
    /// The file started last is read to where it ends, or could not be read further.
    Done(usize, std::io::Result<()>),
    /// The file could not even be looked at (its identity or plan failed).
    Unreadable(usize, std::io::Error),
}

/// Reads every file of `files` that is not up to date with its row in `stored`, in order,
/// sending what it finds to `sender`; stops when nobody receives. `abandoned` holds one more
/// than the index of a file the writer gave up storing (another process stores it): its
/// reading stops at its next batch.
pub(super) fn read_files(
    files: &[FoundRollout],
    stored: &HashMap<String, Stored>,
    plain: bool,
    sender: &SyncSender<Read>,
    abandoned: &AtomicUsize,
) {
    for (n, file) in files.iter().enumerate() {
        let row = stored.get(&path_key(&file.path));
        let outcome = identity(&file.path, row.map(|row| row.head_len)).and_then(|now| {
            let plan = plan(row, &now, &file.path)?;
            if plan == Plan::UpToDate {
                return Ok(None);
            }
            // What is stored from now on: the full head of the file as it is.
            Ok(Some((identity(&file.path, None)?, plan)))
        });
        let (now, plan) = match outcome {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(err) => {
                if sender.send(Read::Unreadable(n, err)).is_err() {
                    return;
                }
                continue;
            }
        };
        if sender.send(Read::Start { file: n, now, plan }).is_err() {
            return;
        }
        let mut send = |batch| {
            abandoned.load(Ordering::Acquire) != n + 1 && sender.send(Read::Batch(n, batch)).is_ok()
        };
        let result = read_file(file, row, now, plan, plain, &mut send);
        if sender.send(Read::Done(n, result)).is_err() {
            return;
        }
    }
}

/// Reads what `plan` says of `file` (from its start, or on from where its row stopped).
fn read_file(
    file: &FoundRollout,
    row: Option<&Stored>,
    now: Identity,
    plan: Plan,
    plain: bool,
    send: &mut dyn FnMut(Batch) -> bool,
) -> std::io::Result<()> {
    let (state, start_bytes, start_lines) = match (plan, row) {
        (Plan::ReadOn, Some(row)) => (
            serde_json::from_str::<ReaderState>(&row.state).unwrap_or_default(),
            row.mark.read_bytes.max(0) as u64,
            row.mark.read_lines.max(0) as usize,
        ),
        _ => (ReaderState::default(), 0, 0),
    };
    let mut handle = File::open(&file.path)?;
    let stream = if start_bytes > 0 && !now.compressed {
        handle.seek(SeekFrom::Start(start_bytes))?;
        RolloutStream::resume(handle, start_lines, start_bytes)?
    } else {
        RolloutStream::new(handle)?
    };
    let compressed = now.compressed || stream.compression() == Compression::Zstd;
    let start = Position {
        bytes: start_bytes,
        lines: start_lines,
        state,
        complete: false,
    };
    read_batches(stream, start, compressed, plain, send)
}

/// One batch of a file's texts, with where it ends.
pub(super) struct Batch {
    pub(super) pending: Vec<Pending>,
    pub(super) position: Position,
    /// Decoded bytes of the lines read for it.
    pub(super) read_bytes: u64,
    /// The damage met in the lines read for it ([`crate::Damage`]).
    pub(super) damage: Option<crate::Damage>,
}

/// Reads `stream` from `position` and hands its texts to `send` in batches of about
/// [`BATCH_BYTES`], the last (possibly empty) one marking the file complete where it is;
/// stops when `send` says nobody stores them any more.
fn read_batches<R: std::io::Read>(
    mut stream: RolloutStream<R>,
    mut position: Position,
    compressed: bool,
    plain: bool,
    send: &mut dyn FnMut(Batch) -> bool,
) -> std::io::Result<()> {
    let start_lines = position.lines;
    let mut state = position.state.clone();
    let mut batch: Vec<Pending> = Vec::new();
    let mut batch_bytes = 0;
    let mut read_bytes = 0;
    let mut damage = None;
    loop {
        // A line read before (a compressed file is decoded from its start) is not parsed.
        let read_before = stream.lines_read() < start_lines;
        let Some(line) = stream.next_line_where(|raw| {
            !read_before && (plain || can_hold_answers(raw) || crate::may_be_damaged(raw))
        })?
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
        if let Some(problem) = &line.problem {
            crate::note_damage(&mut damage, problem);
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
                damage: damage.take(),
            };
            if !send(full) {
                return Ok(());
            }
            batch_bytes = 0;
        }
    }
    position.state = state;
    // A writer that stopped has nothing more to store.
    send(Batch {
        pending: batch,
        position,
        read_bytes,
        damage,
    });
    Ok(())
}

/// Whether the line `raw` can change what is indexed, told from its type tags where Codex
/// writes them (codex-rollout's `line_tags`), so the rest is not parsed: the items texts come from
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
