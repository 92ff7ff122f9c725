//! The head of a rollout file: the session meta its first line holds, read once, for the
//! readers that need only that (a fork from the end, a resumed recorder, whether a file
//! continues another's history).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};

use codex_protocol::rollout::{LineFormat, RolloutItem, SessionMetaLine};

use crate::load::lines::{LineOutcome, read_line};

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
