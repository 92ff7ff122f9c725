//! The head of a rollout file: the session meta its first line holds, read once, for the
//! readers that need only that (a fork from the end, a resumed recorder, whether a file
//! continues another's history).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use codex_protocol::rollout::{LineFormat, RolloutItem, SessionMetaLine};
use codex_protocol::thread_id::ThreadId;

use crate::layout::parse_rollout_file_name;

use crate::load::lines::{LineOutcome, read_line};
use crate::stream::RolloutStream;

/// Lines at the top of a file a thread's session meta is looked for in: Codex writes it first;
/// a few lines of slack for odd files.
const META_LINES: usize = 8;

/// The thread a file records, the one answer every command gives: its first session meta's
/// id (among its first lines; plain or compressed), else the id its name carries (a file
/// without a meta); `None` when it has neither.
pub fn thread_id_of_file(path: &Path) -> io::Result<Option<ThreadId>> {
    if let Some(meta) = session_meta_of_file(path)? {
        return Ok(Some(meta.meta.id));
    }
    Ok(path
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(parse_rollout_file_name)
        .map(|name| ThreadId::from_uuid(name.thread_id)))
}

/// The first session meta of the file at `path` (among its first lines; plain or
/// compressed): what the file says of its thread (its id, history mode, history base).
pub fn session_meta_of_file(path: &Path) -> io::Result<Option<SessionMetaLine>> {
    let mut stream = RolloutStream::open(path)?;
    while let Some(line) = stream.next_line()? {
        if line.number > META_LINES {
            break;
        }
        if let Some(RolloutItem::SessionMeta(meta)) = line.line().map(|line| &line.item) {
            return Ok(Some(SessionMetaLine::clone(meta)));
        }
    }
    Ok(None)
}

/// The session meta on the first line of `file` (read from its start), with the line's
/// format; `None` when the first line is not a session meta (or cannot be read as one).
pub(crate) fn first_line_meta(
    file: &mut File,
) -> io::Result<Option<(SessionMetaLine, LineFormat)>> {
    file.seek(SeekFrom::Start(0))?;
    meta_of_first_line(&mut *file)
}

/// The session meta on the first line `reader` reads, with the line's format.
pub(crate) fn meta_of_first_line(
    reader: impl Read,
) -> io::Result<Option<(SessionMetaLine, LineFormat)>> {
    let mut first = Vec::new();
    BufReader::new(reader).read_until(b'\n', &mut first)?;
    if first.last() == Some(&b'\n') {
        first.pop();
    }
    Ok(match read_line(1, &first).outcome {
        LineOutcome::Line(line, format) => match line.item {
            RolloutItem::SessionMeta(meta) => Some((*meta, format)),
            _ => None,
        },
        _ => None,
    })
}

/// The first session meta among the first `max_lines` lines `reader` reads (plain bytes; a
/// caller decodes a compressed file first), with the raw line and its format; `None` when
/// those lines hold none.
pub(crate) fn first_meta_within(
    reader: impl Read,
    max_lines: usize,
) -> io::Result<Option<FirstMeta>> {
    let mut stream = RolloutStream::new(reader)?;
    while let Some(line) = stream.next_line()? {
        if line.number > max_lines {
            break;
        }
        let (Some(format), Some(rollout_line)) = (line.format(), line.line()) else {
            continue;
        };
        if let RolloutItem::SessionMeta(meta) = &rollout_line.item {
            return Ok(Some(FirstMeta {
                meta: meta.clone(),
                raw: line.raw.to_vec(),
                format,
            }));
        }
    }
    Ok(None)
}

/// A file's first session meta, as [`first_meta_within`] finds it.
pub(crate) struct FirstMeta {
    /// The meta.
    pub(crate) meta: Box<SessionMetaLine>,
    /// Its line's bytes, without the line end.
    pub(crate) raw: Vec<u8>,
    /// Its line's format.
    pub(crate) format: LineFormat,
}
