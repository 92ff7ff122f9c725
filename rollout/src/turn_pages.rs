//! Pages of whole turns of a plain rollout file, read on demand in either direction, so a
//! reader of a very large session holds only the turns it shows: [`turns_before`] reads
//! backwards from a byte offset with the one backward reader ([`ReverseLines`]),
//! [`turns_from`] reads forwards from one.
//!
//! A page starts at a turn's `task_started` line (or at the file's start) and ends where the
//! next turn starts (or at the end of the last complete line), so pages laid side by side
//! hold every line once and a client building turns from them sees whole turns.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;

use crate::load::lines::{LineOutcome, read_line};
use crate::stream::RolloutStream;
use crate::tail::reverse::ReverseLines;

/// Whole turns of a file: the items of the lines `start..end` (byte offsets).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnPage {
    /// Offset of the page's first line: a turn's start, or 0.
    pub start: u64,
    /// Offset just past the page's last line: the next turn's start, or the end of the last
    /// complete line read.
    pub end: u64,
    /// The items of the page's lines, in file order (lines that do not parse are left out).
    pub items: Vec<RolloutItem>,
    /// The turns the page starts (its `task_started` lines).
    pub turns: usize,
}

/// Whether `item` opens a turn.
fn opens_turn(item: &RolloutItem) -> bool {
    matches!(item, RolloutItem::EventMsg(EventMsg::TurnStarted(_)))
}

/// The item of a raw line, when it holds one: the loader's line rule, as the forward reader
/// ([`turns_from`]) and every streamed command read a line.
fn item_of(raw: &[u8]) -> Option<RolloutItem> {
    match read_line(0, raw).outcome {
        LineOutcome::Line(line, _) => Some(line.item),
        _ => None,
    }
}

/// The page of up to `turns` whole turns that ends at `end` (a line start, or the file's
/// length), read backwards; it stops early, at a turn start, once `max_bytes` are read. The
/// lines before the oldest turn start read belong to a turn cut short and are not in the
/// page, unless the reading reached the file's start (then the page starts at 0 and holds
/// the lines before the first turn too). An empty page when `end` is 0.
pub fn turns_before(path: &Path, end: u64, turns: usize, max_bytes: u64) -> io::Result<TurnPage> {
    let mut lines = ReverseLines::new(Prefix::new(File::open(path)?, end)?)?;
    let mut items = Vec::new();
    let mut found = 0;
    let mut start = end;
    while let Some((offset, raw)) = lines.prev_line()? {
        let item = item_of(raw);
        let opens = item.as_ref().is_some_and(opens_turn);
        if let Some(item) = item {
            items.push(item);
        }
        if offset == 0 {
            start = 0;
            break;
        }
        if opens {
            found += 1;
            start = offset;
            // Everything read so far is whole turns: the page may end here.
            if found >= turns || end - offset >= max_bytes {
                break;
            }
        }
    }
    if start > 0 {
        // Drop what was read before the oldest turn start (it was pushed last).
        let oldest = items.iter().rposition(opens_turn).unwrap_or(0);
        items.truncate(oldest + 1);
    }
    items.reverse();
    Ok(TurnPage {
        start,
        end,
        turns: items.iter().filter(|item| opens_turn(item)).count(),
        items,
    })
}

/// The page of up to `turns` whole turns from `start` (a line start), read forwards: it
/// ends before the next turn's start, or at the end of the file's last complete line.
pub fn turns_from(path: &Path, start: u64, turns: usize) -> io::Result<TurnPage> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut stream = RolloutStream::resume(file, 0, start)?;
    let mut page = TurnPage {
        start,
        end: start,
        items: Vec::new(),
        turns: 0,
    };
    while let Some(line) = stream.next_line()? {
        if !line.terminated {
            break;
        }
        let offset = line.offset;
        let next_end = offset + line.raw.len() as u64 + 1;
        let Some(item) = line.into_line().map(|line| line.item) else {
            page.end = next_end;
            continue;
        };
        if opens_turn(&item) {
            if page.turns == turns {
                break;
            }
            page.turns += 1;
        }
        page.items.push(item);
        page.end = next_end;
    }
    Ok(page)
}

/// The first `len` bytes of a file, as a reader that ends there.
struct Prefix {
    file: File,
    len: u64,
    position: u64,
}

impl Prefix {
    fn new(file: File, len: u64) -> io::Result<Self> {
        let len = len.min(file.metadata()?.len());
        Ok(Self {
            file,
            len,
            position: 0,
        })
    }
}

impl Read for Prefix {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.len.saturating_sub(self.position)).unwrap_or(usize::MAX);
        let want = buf.len().min(left);
        let read = self.file.read(&mut buf[..want])?;
        self.position += read as u64;
        Ok(read)
    }
}

impl Seek for Prefix {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(at) => Some(at),
            SeekFrom::End(delta) => self.len.checked_add_signed(delta),
            SeekFrom::Current(delta) => self.position.checked_add_signed(delta),
        }
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        self.position = self.file.seek(SeekFrom::Start(target))?;
        Ok(self.position)
    }
}

#[cfg(test)]
#[path = "turn_pages_tests.rs"]
mod tests;
