//! Opening a large session from its end: the last turns, read backwards, so the last screen
//! shows without reading the whole file; the rest is read when the person scrolls to the top.
//!
//! Only a plain file that records its turns for clients (`item_completed` or `user_message`
//! events in the part read) and continues no other file's history is opened this way;
//! anything else is read whole ([`super::load::load_file`]). The part read starts at a turn's
//! `task_started` line, so the turns shown are whole.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use codex_home::read_head_summary;
use codex_protocol::event::EventMsg;
use codex_protocol::parse_rollout_line;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::tail::reverse::ReverseLines;

use super::load::{Feed, Loaded};
use crate::error::Failure;

/// Files at least this large open from their end.
pub const TAIL_FROM_BYTES: u64 = 32 * 1024 * 1024;
/// Turns read from the end.
pub const TAIL_TURNS: usize = 20;
/// Bytes read backwards at most; the turns found by then are shown.
const TAIL_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// The first bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The last turns of the session at `path`, when it is large enough and fit to be read from
/// its end (see the module docs); `None` when it should be read whole.
pub fn load_tail(path: &Path) -> Result<Option<Loaded>, Failure> {
    let unreadable =
        |error: std::io::Error| Failure::Unreadable(format!("{}: {error}", path.display()));
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size < TAIL_FROM_BYTES {
        return Ok(None);
    }
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|mut file| file.read_exact(&mut magic))
        .map_err(unreadable)?;
    if magic == ZSTD_MAGIC {
        return Ok(None);
    }
    let Ok(head) = read_head_summary(path) else {
        return Ok(None);
    };
    let Some(meta) = head.session_meta else {
        return Ok(None);
    };
    if meta.meta.history_base.is_some() {
        return Ok(None);
    }
    let mut lines = ReverseLines::new(File::open(path).map_err(unreadable)?).map_err(unreadable)?;
    let mut kept: Vec<RolloutItem> = Vec::new();
    let mut turns = 0;
    let mut start = size;
    let mut client_records = false;
    while let Some((offset, raw)) = lines.prev_line().map_err(unreadable)? {
        if offset == 0 {
            // The whole file was read backwards: it is not large after all.
            return Ok(None);
        }
        let Some(item) = parse_rollout_line(raw)
            .ok()
            .and_then(|parsed| parsed.into_line())
        else {
            continue;
        };
        let item = item.item;
        client_records |= matches!(
            &item,
            RolloutItem::EventMsg(EventMsg::ItemCompleted(_) | EventMsg::UserMessage(_))
        );
        let opens_turn = matches!(&item, RolloutItem::EventMsg(EventMsg::TurnStarted(_)));
        kept.push(item);
        if opens_turn {
            turns += 1;
            start = offset;
            if turns >= TAIL_TURNS || size - offset >= TAIL_MAX_BYTES {
                break;
            }
        }
    }
    if turns == 0 || !client_records {
        return Ok(None);
    }
    // Only from the oldest turn start read: the lines before it belong to a turn cut short.
    let first_turn = kept
        .iter()
        .rposition(|item| matches!(item, RolloutItem::EventMsg(EventMsg::TurnStarted(_))))
        .unwrap_or(0);
    kept.truncate(first_turn + 1);
    let mut feed = Feed::default();
    feed.push(&RolloutItem::SessionMeta(Box::new(meta)));
    for item in kept.iter().rev() {
        feed.push(item);
    }
    let mut loaded = feed.finish();
    loaded.skipped_bytes = start;
    Ok(Some(loaded))
}
