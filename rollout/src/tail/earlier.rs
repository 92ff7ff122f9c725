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
//! The walk back reads line starts ([`ReverseLines`]) and a line's type tags where Codex
//! writes them ([`line_tags`]); only a line of a type asked is parsed (and a line whose tags
//! cannot be read, which must be). Once only the window is asked, the rest, from the file's
//! start, is read forwards a block at a time and searched for the two words (`"compacted"`,
//! `"session_meta"`): only the lines holding one are parsed, so its cost is reading the
//! bytes. (A line with neither word is no compaction; the one meta without its word, a bare
//! pre-envelope meta, records no window id, so the window is the same without it.)

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use memchr::memmem;

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
    // Where the walk back stopped: the lines before it are not read yet.
    let mut stopped_at = start;
    loop {
        // What is still asked: what `missing` asks, less what the walk has found.
        let asked = Missing {
            token_info: missing.token_info && earlier.token_info.is_none(),
            turn_context: missing.turn_context && earlier.newest_turn_context.is_none(),
            window: missing.window,
        };
        if !asked.token_info && !asked.turn_context {
            break;
        }
        let Some((offset, raw)) = lines.prev_line()? else {
            stopped_at = 0;
            break;
        };
        stopped_at = offset;
        bytes_read += raw.len() as u64 + 1;
        if !may_be(asked, raw) {
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
    if let Some(windows) = &mut earlier.windows {
        let (first, bytes) = count_forwards(path, stopped_at, windows)?;
        bytes_read += bytes;
        if let Some(meta) = first.as_ref().or(first_meta.as_ref()) {
            windows.meet(meta);
        }
    }
    Ok(Walk {
        earlier,
        bytes_read,
    })
}

/// Whether `raw` may be a line of a type `asked` (the window: `compacted` and `session_meta`
/// lines): by its tags, or, for a line without them (a legacy line, keys in another order),
/// always.
fn may_be(asked: Missing, raw: &[u8]) -> bool {
    let Some(tags) = line_tags(raw) else {
        return true;
    };
    match tags.line_type {
        b"event_msg" => asked.token_info && tags.payload_type == Some(&b"token_count"[..]),
        b"turn_context" => asked.turn_context,
        b"compacted" | b"session_meta" => asked.window,
        _ => false,
    }
}

/// Bytes read forwards per step.
const BLOCK_BYTES: usize = 4 << 20;

/// Counts into `windows` the `compacted` lines of the file's first `end` bytes (a line start),
/// and finds its first session meta, reading forwards a block at a time and parsing only the
/// lines that hold either word; with the bytes read.
fn count_forwards(
    path: &Path,
    end: u64,
    windows: &mut Windows,
) -> io::Result<(Option<Box<SessionMetaLine>>, u64)> {
    let compacted = memmem::Finder::new(super::COMPACTED_TAG);
    let session_meta = memmem::Finder::new(br#""session_meta""#);
    let mut file = File::open(path)?.take(end);
    let mut first_meta = None;
    let mut buf = Vec::with_capacity(2 * BLOCK_BYTES);
    let mut read = 0;
    loop {
        let got = (&mut file).take(BLOCK_BYTES as u64).read_to_end(&mut buf)?;
        read += got as u64;
        let at_end = got == 0;
        // Whole lines only; the rest waits for the next block (or is the last line).
        let whole = if at_end {
            buf.len()
        } else {
            match memchr::memrchr(b'\n', &buf) {
                Some(newline) => newline + 1,
                None => continue,
            }
        };
        let region = &buf[..whole];
        let mut starts: Vec<usize> = compacted
            .find_iter(region)
            .map(|hit| line_start(region, hit))
            .collect();
        if first_meta.is_none() {
            starts.extend(
                session_meta
                    .find_iter(region)
                    .map(|hit| line_start(region, hit)),
            );
        }
        starts.sort_unstable();
        starts.dedup();
        for line_start in starts {
            let rest = &region[line_start..];
            let raw = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
            let LineOutcome::Line(line, _) = read_line(0, raw).outcome else {
                continue;
            };
            match line.item {
                RolloutItem::Compacted(compacted) => windows.count(&compacted),
                RolloutItem::SessionMeta(meta) if first_meta.is_none() => first_meta = Some(meta),
                _ => {}
            }
        }
        buf.drain(..whole);
        if at_end {
            return Ok((first_meta, read));
        }
    }
}

/// The start of the line of `region` that holds byte `at`.
fn line_start(region: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &region[..at]).map_or(0, |newline| newline + 1)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    const COMPACTED: &str =
        r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"compacted","payload":{"message":"m"}}"#;

    fn message(text: &str) -> String {
        format!(
            r#"{{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}}}"#
        )
    }

    /// Every `compacted` line is counted once, wherever the blocks split the file: lines
    /// longer than a block, a word quoted in a message, two compactions in one block.
    #[test]
    fn counts_every_compaction_across_blocks() {
        let long = "x".repeat(BLOCK_BYTES + 1000);
        let lines = [
            message(&long),
            COMPACTED.to_owned(),
            message("the word compacted, quoted: \\\"compacted\\\""),
            COMPACTED.to_owned(),
            message(&long),
            message(&long),
            COMPACTED.to_owned(),
            message("last"),
        ];
        let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.jsonl");
        std::fs::write(&path, &text).unwrap();
        let mut windows = Windows::default();
        let (meta, read) = count_forwards(&path, text.len() as u64, &mut windows).unwrap();
        assert_eq!(windows.compactions, 3);
        assert!(windows.unnumbered_compaction);
        assert!(meta.is_none());
        assert_eq!(read, text.len() as u64);
        // Up to a line start only: the lines after it are not read.
        let cut = text.find(&message("last")).unwrap();
        let mut windows = Windows::default();
        let (_, read) = count_forwards(&path, cut as u64, &mut windows).unwrap();
        assert_eq!((windows.compactions, read), (3, cut as u64));
    }
}
