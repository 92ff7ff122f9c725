//! The head of a plain rollout file: the session meta its first line holds, read once, for
//! the readers that need only that (a fork from the end, a resumed recorder).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};

use codex_protocol::rollout::{LineFormat, RolloutItem, SessionMetaLine};

use crate::load::lines::{LineOutcome, read_line};

/// The session meta on the first line of `file` (read from its start), with the line's
/// format; `None` when the first line is not a session meta (or cannot be read as one).
pub(crate) fn first_line_meta(
    file: &mut File,
) -> io::Result<Option<(SessionMetaLine, LineFormat)>> {
    file.seek(SeekFrom::Start(0))?;
    let mut first = Vec::new();
    BufReader::new(&mut *file).read_until(b'\n', &mut first)?;
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
