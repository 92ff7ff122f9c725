//! What the lines before a surveyed suffix add to its answer, read backwards for their own
//! line types and never surveyed.
//!
//! A suffix whose reverse scan knew everything the items before it could change (the base
//! compaction, the previous turn's settings, the reference) may still lack three answers of
//! the whole file, each of a line type of its own:
//! - the newest token usage (`event_msg` `token_count` with info) and the newest
//!   `turn_context`: the first such line met reading back from the suffix's start;
//! - the window, when no surviving compaction of the scan recorded one: the whole file's
//!   initial window, which counts every `compacted` line and takes the first `session_meta`'s
//!   window id, so the walk goes back to the file's first byte.
//!
//! The walk reads line starts back ([`ReverseLines`]) and a line's type tags where Codex
//! writes them ([`line_tags`]); only a line of a type asked is parsed (and a line whose tags
//! cannot be read, which must be). Its cost is reading the bytes, not parsing them.

use std::fs::File;
use std::io;
use std::path::Path;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};

use super::reverse::ReverseLines;
use crate::line_tags::line_tags;
use crate::load::lines::{LineOutcome, read_line};
use crate::reconstruct::{Earlier, Missing, Windows};

/// What the walk found, and how many bytes it read.
#[derive(Debug)]
pub(super) struct Walk {
    pub(super) earlier: Earlier,
    pub(super) bytes_read: u64,
}

/// Reads the lines before `start` (a line start of the plain file at `path`) back, for what
/// `missing` asks.
pub(super) fn read_earlier(path: &Path, start: u64, missing: Missing) -> io::Result<Walk> {
    let mut lines = ReverseLines::ending_at(File::open(path)?, start)?;
    let mut earlier = Earlier {
        windows: missing.window.then(Windows::default),
        ..Earlier::default()
    };
    // Walking back, the last meta met is the file's first.
    let mut first_meta: Option<Box<SessionMetaLine>> = None;
    let mut bytes_read = 0;
    loop {
        let asked = Asked {
            token_info: missing.token_info && earlier.token_info.is_none(),
            turn_context: missing.turn_context && earlier.newest_turn_context.is_none(),
            window: missing.window,
        };
        if asked == Asked::default() {
            break;
        }
        let Some((_, raw)) = lines.prev_line()? else {
            break;
        };
        bytes_read += raw.len() as u64 + 1;
        if !asked.may_be(raw) {
            continue;
        }
        let LineOutcome::Line(line, _) = read_line(0, raw).outcome else {
            continue;
        };
        match line.item {
            RolloutItem::EventMsg(EventMsg::TokenCount(count))
                if asked.token_info && count.info.is_some() =>
            {
                earlier.token_info = count.info;
            }
            RolloutItem::TurnContext(context) if asked.turn_context => {
                earlier.newest_turn_context = Some(*context);
            }
            RolloutItem::Compacted(compacted) => {
                if let Some(windows) = &mut earlier.windows {
                    windows.count(&compacted);
                }
            }
            RolloutItem::SessionMeta(meta) if asked.window => first_meta = Some(meta),
            _ => {}
        }
    }
    if let (Some(windows), Some(meta)) = (&mut earlier.windows, &first_meta) {
        windows.meet(meta);
    }
    Ok(Walk {
        earlier,
        bytes_read,
    })
}

/// The line types the walk still looks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Asked {
    token_info: bool,
    turn_context: bool,
    /// `compacted` and `session_meta` lines.
    window: bool,
}

impl Asked {
    /// Whether `raw` may be a line of a type asked: by its tags, or, for a line without them
    /// (a legacy line, keys in another order), always.
    fn may_be(self, raw: &[u8]) -> bool {
        let Some(tags) = line_tags(raw) else {
            return true;
        };
        match tags.line_type {
            b"event_msg" => self.token_info && tags.payload_type == Some(&b"token_count"[..]),
            b"turn_context" => self.turn_context,
            b"compacted" | b"session_meta" => self.window,
            _ => false,
        }
    }
}
