//! The end of a parent prefix: where `end_byte_offset` and/or `end_ordinal_exclusive` cut a
//! parent rollout's lines, checked against those lines. The resolver and the writer of forks
//! by reference both use it, so a fork never writes a base the resolver would refuse.

use codex_protocol::rollout::HistoryBase;

use crate::load::RolloutContents;

/// Why a parent's lines do not have the prefix a `history_base` names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrefixProblem {
    /// The base says neither where the prefix ends in bytes nor in ordinals.
    #[error("history_base gives neither end_byte_offset nor end_ordinal_exclusive")]
    NoEnd,
    /// `end_byte_offset` falls inside a line.
    #[error("end_byte_offset {offset} is not at the start of a line")]
    NotLineBoundary {
        /// The offset the base gives.
        offset: u64,
    },
    /// `end_byte_offset` lies past the parent's last byte.
    #[error("end_byte_offset {offset} is beyond the end of the parent ({len} byte(s))")]
    BeyondEnd {
        /// The offset the base gives.
        offset: u64,
        /// The parent's length in uncompressed bytes.
        len: u64,
    },
    /// `end_ordinal_exclusive` is given but no line of the parent has an `ordinal`.
    #[error("end_ordinal_exclusive {ordinal} is given, but no line of the parent has an ordinal")]
    NoOrdinals {
        /// The ordinal the base gives.
        ordinal: u64,
    },
    /// The parent's lines end before the ordinal the base names.
    #[error("end_ordinal_exclusive {ordinal} is beyond the parent's last ordinal {last}")]
    OrdinalBeyondEnd {
        /// The ordinal the base gives.
        ordinal: u64,
        /// The last ordinal the parent holds.
        last: u64,
    },
    /// The byte offset and the ordinal name different lines.
    #[error(
        "end_byte_offset {offset} and end_ordinal_exclusive {ordinal} name different lines: \
         line {line}, {side} the offset, has ordinal {found}"
    )]
    Disagree {
        /// The offset the base gives.
        offset: u64,
        /// The ordinal the base gives.
        ordinal: u64,
        /// The parent's line (1-based) that contradicts them.
        line: usize,
        /// `"before"` or `"after"`.
        side: &'static str,
        /// That line's ordinal.
        found: u64,
    },
}

/// Where a prefix ends in the parent's lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PrefixEnd {
    /// The prefix's length in the parent's uncompressed bytes (a line boundary).
    pub(crate) byte: usize,
    /// The number of the parent's items inside the prefix.
    pub(crate) items: usize,
}

/// The end of the prefix of `contents` that `base` names, checked: an offset must be a line
/// boundary within the parent; an ordinal must be found among the parent's lines; when both
/// are given, every line before the offset has an ordinal below `end_ordinal_exclusive` and
/// every line after it one at least as large.
pub(crate) fn prefix_end(
    contents: &RolloutContents,
    base: &HistoryBase,
) -> Result<PrefixEnd, PrefixProblem> {
    let by_bytes = base
        .end_byte_offset
        .map(|offset| byte_cut(contents.bytes(), offset))
        .transpose()?;
    let byte = match (by_bytes, base.end_ordinal_exclusive) {
        (None, None) => return Err(PrefixProblem::NoEnd),
        (Some(byte), None) => byte,
        (Some(byte), Some(ordinal)) => check_ordinal_at(contents, byte, ordinal)?,
        (None, Some(ordinal)) => ordinal_cut(contents, ordinal)?,
    };
    Ok(PrefixEnd {
        byte,
        items: items_before(contents, byte),
    })
}

/// The ordinal a fork by reference writes for a prefix of `byte` bytes: see
/// [`ordinal_for_cut`].
pub(crate) fn ordinal_at(contents: &RolloutContents, byte: usize) -> Option<u64> {
    ordinal_for_cut(ordinals_around(contents, byte))
}

/// The ordinal a fork by reference writes for a cut with these lines around it: the ordinal
/// of the first line after the cut that has one, else one more than the last before it;
/// `None` when no line has an ordinal (a legacy parent). The whole-file and the streamed
/// fork both ask it.
pub(crate) fn ordinal_for_cut(around: Around) -> Option<u64> {
    match around {
        (_, Some((_, ordinal))) => Some(ordinal),
        (Some((_, last)), None) => Some(last.saturating_add(1)),
        (None, None) => None,
    }
}

/// The offset as an index into `bytes`, when it is a line boundary: the start, the end, or
/// just after a `\n`.
fn byte_cut(bytes: &[u8], offset: u64) -> Result<usize, PrefixProblem> {
    let len = bytes.len();
    let cut = usize::try_from(offset)
        .ok()
        .filter(|cut| *cut <= len)
        .ok_or(PrefixProblem::BeyondEnd {
            offset,
            len: u64::try_from(len).unwrap_or(u64::MAX),
        })?;
    if cut == 0 || cut == len || bytes.get(cut - 1) == Some(&b'\n') {
        Ok(cut)
    } else {
        Err(PrefixProblem::NotLineBoundary { offset })
    }
}

/// Checks that the lines around `byte` agree with `ordinal`; returns `byte`.
fn check_ordinal_at(
    contents: &RolloutContents,
    byte: usize,
    ordinal: u64,
) -> Result<usize, PrefixProblem> {
    let offset = u64::try_from(byte).unwrap_or(u64::MAX);
    check_around(ordinals_around(contents, byte), offset, ordinal)?;
    Ok(byte)
}

/// Whether the lines around a cut at `offset` agree with `ordinal`: the nearest line with an
/// ordinal before it has a smaller one, the nearest at or after it one at least as large,
/// and some line has one.
pub(crate) fn check_around(around: Around, offset: u64, ordinal: u64) -> Result<(), PrefixProblem> {
    let disagree = |line, side, found| PrefixProblem::Disagree {
        offset,
        ordinal,
        line,
        side,
        found,
    };
    match around {
        (None, None) => Err(PrefixProblem::NoOrdinals { ordinal }),
        (Some((line, found)), _) if found >= ordinal => Err(disagree(line, "before", found)),
        (_, Some((line, found))) if found < ordinal => Err(disagree(line, "after", found)),
        (Some((_, last)), None) if last.saturating_add(1) < ordinal => {
            Err(PrefixProblem::OrdinalBeyondEnd { ordinal, last })
        }
        _ => Ok(()),
    }
}

/// The cut before the first line whose ordinal is at least `ordinal`; the end of the parent
/// when its last ordinal is `ordinal - 1`.
fn ordinal_cut(contents: &RolloutContents, ordinal: u64) -> Result<usize, PrefixProblem> {
    let mut last = None;
    for entry in contents.entries() {
        let Some(found) = crate::line_ordinal(contents.raw_line(entry)) else {
            continue;
        };
        if found >= ordinal {
            return Ok(entry.span.start);
        }
        last = Some(found);
    }
    match last {
        None => Err(PrefixProblem::NoOrdinals { ordinal }),
        Some(last) if last.saturating_add(1) < ordinal => {
            Err(PrefixProblem::OrdinalBeyondEnd { ordinal, last })
        }
        Some(_) => Ok(contents.bytes().len()),
    }
}

/// The nearest line with an ordinal before a cut and the nearest at or after it, each as
/// (line number, ordinal). Lines are the loader's entries (items, legacy markers, kept
/// opaque lines), never the lines it skips.
pub(crate) type Around = (Option<(usize, u64)>, Option<(usize, u64)>);

fn ordinals_around(contents: &RolloutContents, byte: usize) -> Around {
    let entries = contents.entries();
    let split = entries.partition_point(|entry| entry.span.start < byte);
    let with_ordinal = |entry: &crate::load::LineEntry| {
        crate::line_ordinal(contents.raw_line(entry)).map(|ordinal| (entry.number, ordinal))
    };
    let before = entries
        .get(..split)
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(with_ordinal);
    let after = entries
        .get(split..)
        .unwrap_or_default()
        .iter()
        .find_map(with_ordinal);
    (before, after)
}

/// The number of items on lines that start before `byte`.
fn items_before(contents: &RolloutContents, byte: usize) -> usize {
    let entries = contents.entries();
    let split = entries.partition_point(|entry| entry.span.start < byte);
    entries
        .get(split..)
        .unwrap_or_default()
        .iter()
        .find_map(crate::load::LineEntry::item)
        .unwrap_or(contents.items().len())
}
