//! The cut of a fork found in one forward pass, for the files whose end cannot tell it (a
//! compressed file, which cannot be read backwards; a pre-envelope file, or one that does not
//! start with its meta, whose turns only the whole file can count; a suffix that never
//! decides): the streamed turn index ([`StreamedTurnIndex`]) over every item, and the offset
//! of each item, so the pass holds a few words per item rather than the file.

use std::path::Path;

use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;

use super::ForkError;
use super::fork_point_dropping_turns;
use super::positions::ForkPoint;
use crate::stream::RolloutStream;
use crate::turns::StreamedTurnIndex;

/// Where a fork cuts its source, found forwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ForwardCut {
    /// Byte offset (of the decoded lines) of the first line not kept; the file's end when
    /// everything is kept.
    pub(crate) offset: u64,
    /// The thread the source records (its first session meta).
    pub(crate) thread_id: ThreadId,
}

/// The cut of a fork of `path` (plain or compressed) without its last `drop` user turns,
/// counted by the whole file's turn rule. Fails when the file has fewer turns, or records no
/// thread.
pub(crate) fn cut_forwards(path: &Path, drop: usize) -> Result<ForwardCut, ForkError> {
    let read_error = |source| ForkError::Io {
        action: "read fork source",
        path: path.to_path_buf(),
        source,
    };
    let mut stream = RolloutStream::open(path).map_err(read_error)?;
    let mut index = StreamedTurnIndex::default();
    let mut offsets = Vec::new();
    let mut thread_id = None;
    let mut end = 0;
    while let Some(line) = stream.next_line().map_err(read_error)? {
        if let Some(format) = line.format() {
            index.note_format(format);
        }
        let offset = line.offset;
        end = offset + line.raw.len() as u64 + u64::from(line.terminated);
        let Some(rollout_line) = line.line() else {
            continue;
        };
        if let (None, RolloutItem::SessionMeta(meta)) = (thread_id, &rollout_line.item) {
            thread_id = Some(meta.meta.id);
        }
        index.push(&rollout_line.item);
        offsets.push(offset);
    }
    let Some(thread_id) = thread_id else {
        return Err(ForkError::NoSessionMeta(path.to_path_buf()));
    };
    let (_, turns) = index.finish();
    let surviving: Vec<_> = turns.into_iter().filter(|turn| !turn.rolled_back).collect();
    let point =
        fork_point_dropping_turns(&surviving, drop).map_err(|too_few| ForkError::TooFewTurns {
            path: path.to_path_buf(),
            too_few,
        })?;
    let offset = match point {
        ForkPoint::BeforeItem(item) => offsets.get(item).copied().unwrap_or(end),
        _ => end,
    };
    Ok(ForwardCut { offset, thread_id })
}
