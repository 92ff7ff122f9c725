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

use codex_rollout::{LineProblem, ProblemKind};

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

#[cfg(test)]
#[path = "damage_tests.rs"]
mod tests;
