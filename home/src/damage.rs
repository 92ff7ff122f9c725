//! A damaged session file, as every command over a home reports it: the first line that
//! cannot be read, what is wrong with it, and how many such lines there are.
//!
//! Why here: each command reads a home's files its own way (usage parses only the lines it
//! counts, the tables every line), but "is this file damaged, and where" has one answer, so
//! that `usage` and `table` name the same files, with the same words, for plain and `.jsonl.zst`
//! files alike. A file is damaged when a line cannot be read ([`is_damage`]): a compressed
//! stream that ends in damage (a truncated or corrupt `.zst`), a torn line (JSON that ends
//! inside a value), bytes that are not UTF-8, a line that is not a JSON object (NUL padding
//! left by a crash). A blank line damages nothing, and a line of a newer kind is read, not
//! damaged. What the command could read is still counted; the binary says the answer is
//! partial.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use codex_rollout::{LineProblem, ProblemKind, RolloutStream};

mod frames;

/// The damage of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// The first damaged line (1-based).
    pub line: usize,
    /// What is wrong with it.
    pub kind: ProblemKind,
    /// The reader's words for it.
    pub message: String,
    /// How many lines are damaged (a damaged `.zst` ends at its first).
    pub lines: usize,
}

/// Whether a line problem of `kind` damages the file (see the module docs).
pub fn is_damage(kind: ProblemKind) -> bool {
    kind.is_unreadable() && !matches!(kind, ProblemKind::Blank | ProblemKind::Mismatch)
}

/// Notes `problem` in `damage` (a file's damage so far) when it damages the file.
pub fn note_damage(damage: &mut Option<Damage>, problem: &LineProblem) {
    if !is_damage(problem.kind) {
        return;
    }
    match damage {
        Some(damage) => damage.lines += 1,
        None => {
            *damage = Some(Damage {
                line: problem.line,
                kind: problem.kind,
                message: problem.message.clone(),
                lines: 1,
            });
        }
    }
}

/// Whether `raw` may be a damaged line, by its ends: every whole line Codex writes is a JSON
/// object, `{` to `}`. A reader that passes over lines without parsing them parses those
/// that fail this test, so that a torn or NUL-padded line is never passed over unseen.
pub fn may_be_damaged(raw: &[u8]) -> bool {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    raw.first() != Some(&b'{') || raw.last() != Some(&b'}')
}

/// The damage of the file at `path`, for a command that does not read files whole (`list`):
/// a quick test first, by the file's end (a plain file ends with a `\n`; a compressed one
/// ends where its last zstd frame ends, `frames::frames_whole`), then, only for a file that
/// fails it, a read of every line to say where ([`note_damage`]). A plain file torn or
/// padded in its middle, or a compressed block corrupt inside, passes the quick test: the
/// commands that read every line report those.
pub fn file_damage(path: &Path) -> std::io::Result<Option<Damage>> {
    let mut file = std::fs::File::open(path)?;
    let mut magic = [0u8; 4];
    let read = file.read(&mut magic)?;
    let compressed = read == 4 && u32::from_le_bytes(magic) == 0xFD2F_B528;
    file.seek(SeekFrom::Start(0))?;
    let whole = if compressed {
        frames::frames_whole(&mut file)?
    } else {
        let length = file.seek(SeekFrom::End(0))?;
        let mut last = [0u8; 1];
        if length > 0 {
            file.seek(SeekFrom::End(-1))?;
            file.read_exact(&mut last)?;
        }
        length == 0 || last[0] == b'\n'
    };
    if whole {
        return Ok(None);
    }
    let mut stream = RolloutStream::open(path)?;
    let mut damage = None;
    while let Some(line) = stream.next_line_where(may_be_damaged)? {
        if let Some(problem) = &line.problem {
            note_damage(&mut damage, problem);
        }
    }
    Ok(damage)
}

#[cfg(test)]
#[path = "damage_tests.rs"]
mod tests;
