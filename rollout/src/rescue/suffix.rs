//! Where the shortest live suffix of a plain rollout starts: the latest line from which
//! reconstruction rebuilds the whole file's history, with the newest turn context and token
//! usage in it (the rule [`crate::tail`] uses to stop reading, asked here of each candidate
//! start, so the suffix is the shortest one, not the first one large enough).
//!
//! Lines are read backwards ([`ReverseLines`]); the suffix is checked each time it doubles,
//! and once one suffices the start is narrowed down by bisection between the last size that
//! did not and the first that did. Memory: the suffix's items and their offsets.

use std::fs::File;
use std::io;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;

use crate::load::lines::{LineOutcome, read_line};
use crate::reconstruct::suffix_suffices;
use crate::tail::reverse::ReverseLines;

/// Items read before the first check.
const FIRST_CHECK: usize = 16;

/// The file offset where the shortest sufficient suffix of `file` starts; `None` when no
/// suffix short of the whole file suffices.
pub(super) fn shortest_suffix_offset(file: File) -> io::Result<Option<u64>> {
    let mut lines = ReverseLines::new(file)?;
    // Newest first: each line's offset and its item (none for lines without one).
    let mut offsets: Vec<u64> = Vec::new();
    let mut items: Vec<Option<RolloutItem>> = Vec::new();
    let mut insufficient = 0;
    let mut next_check = FIRST_CHECK;
    let mut sufficient = None;
    while let Some((offset, raw)) = lines.prev_line()? {
        let item = match read_line(0, raw).outcome {
            LineOutcome::Line(line, _) => Some(line.item),
            _ => None,
        };
        offsets.push(offset);
        items.push(item);
        if items.len() >= next_check {
            if enough(&items, items.len()) {
                sufficient = Some(items.len());
                break;
            }
            insufficient = items.len();
            next_check = items.len().saturating_mul(2);
        }
    }
    // The start was reached between two checks: the whole file is the last candidate.
    if sufficient.is_none() && items.len() > insufficient && enough(&items, items.len()) {
        sufficient = Some(items.len());
    }
    let Some(mut high) = sufficient else {
        return Ok(None);
    };
    // The last line read back is the file's first: a suffix holding it is the whole file.
    let mut low = insufficient;
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if enough(&items, middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    if offsets.get(high - 1).is_none_or(|offset| *offset == 0) {
        return Ok(None);
    }
    Ok(offsets.get(high - 1).copied())
}

/// Whether the newest `count` lines' items suffice (the tail's rule).
fn enough(newest_first: &[Option<RolloutItem>], count: usize) -> bool {
    let suffix: Vec<RolloutItem> = newest_first[..count]
        .iter()
        .rev()
        .flatten()
        .cloned()
        .collect();
    let turn_context = suffix
        .iter()
        .any(|item| matches!(item, RolloutItem::TurnContext(_)));
    let token_info = suffix.iter().any(|item| {
        matches!(item, RolloutItem::EventMsg(EventMsg::TokenCount(count)) if count.info.is_some())
    });
    turn_context && token_info && suffix_suffices(&suffix)
}

/// The decoded offset where the shortest sufficient suffix of a compressed rollout starts;
/// `None` when none short of the whole file suffices, or when it cannot be told forwards.
///
/// A compressed file cannot be read backwards, so it is decoded forwards once, keeping only
/// the lines from the start of the turn of the newest compaction with a replacement history
/// (what the resume tail keeps of a compressed file); the shortest suffix is then found
/// among those by the same bisection. A compaction that a later rollback removed leaves too
/// little kept: `None`, and the caller says so.
pub(super) fn shortest_suffix_offset_streamed(path: &std::path::Path) -> io::Result<Option<u64>> {
    let mut stream = crate::stream::RolloutStream::open(path)?;
    let mut offsets: Vec<u64> = Vec::new();
    let mut items: Vec<Option<RolloutItem>> = Vec::new();
    let mut turn_start = 0;
    // Until a compaction is seen only the current turn is kept (a later compaction's turn
    // starts no earlier), so memory is the newest compaction's suffix or one turn.
    let mut seen_compaction = false;
    while let Some(line) = stream.next_line()? {
        let offset = line.offset;
        let item = line.into_line().map(|line| line.item);
        match &item {
            Some(RolloutItem::EventMsg(EventMsg::TurnStarted(_))) if !seen_compaction => {
                offsets.clear();
                items.clear();
                turn_start = 0;
            }
            Some(RolloutItem::EventMsg(EventMsg::TurnStarted(_))) => turn_start = items.len(),
            Some(RolloutItem::Compacted(compacted))
                if compacted.replacement_history.is_some() && turn_start > 0 =>
            {
                offsets.drain(..turn_start);
                items.drain(..turn_start);
                turn_start = 0;
                seen_compaction = true;
            }
            Some(RolloutItem::Compacted(compacted)) if compacted.replacement_history.is_some() => {
                seen_compaction = true;
            }
            _ => {}
        }
        offsets.push(offset);
        items.push(item);
    }
    Ok(shortest_of(&offsets, &items))
}

/// The bisection over lines kept oldest first.
fn shortest_of(offsets: &[u64], oldest_first: &[Option<RolloutItem>]) -> Option<u64> {
    let newest_first: Vec<Option<RolloutItem>> = oldest_first.iter().rev().cloned().collect();
    let newest_offsets: Vec<u64> = offsets.iter().rev().copied().collect();
    if newest_first.is_empty() || !enough(&newest_first, newest_first.len()) {
        return None;
    }
    let (mut low, mut high) = (0, newest_first.len());
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if enough(&newest_first, middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    newest_offsets
        .get(high - 1)
        .copied()
        .filter(|offset| *offset != 0)
}
