//! Where a resumed recording continues: the file's history mode (from its first session
//! meta) and, for a paginated file, the ordinal after the last one it holds.
//!
//! Only the first line and the end of the file are read: the ordinal is found by reading
//! lines backwards from the end ([`ReverseLines`]; a torn or unparsable last line is skipped,
//! as loading skips it), so resuming a large file costs about one line, not the file.

use std::fs::File;
use std::path::Path;

use codex_protocol::rollout::HistoryMode;

use crate::error::{Result, RolloutError};
use crate::head::first_line_meta;
use crate::tail::reverse::ReverseLines;

/// What a resumed recorder needs to know about the file it appends to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ResumePoint {
    /// The file's history mode (legacy when its first line is no session meta or says none).
    pub(crate) mode: HistoryMode,
    /// The next line's ordinal: `Some` exactly when the file is paginated.
    pub(crate) next_ordinal: Option<u64>,
}

/// Reads the resume point of the rollout at `path`.
pub(crate) fn read_resume_point(path: &Path) -> Result<ResumePoint> {
    let io = |what: &'static str| move |err| RolloutError::io(what, path, err);
    let mut file = File::open(path).map_err(io("open rollout file for resume"))?;
    let mode = first_line_mode(&mut file).map_err(io("read rollout file"))?;
    if !mode.is_paginated() {
        return Ok(ResumePoint {
            mode,
            next_ordinal: None,
        });
    }
    let last = last_ordinal(&mut file).map_err(io("read rollout file"))?;
    Ok(ResumePoint {
        mode,
        next_ordinal: Some(last.map_or(0, |ordinal| ordinal.saturating_add(1))),
    })
}

/// The history mode the first line's session meta declares.
fn first_line_mode(file: &mut File) -> std::io::Result<HistoryMode> {
    Ok(
        first_line_meta(file)?.map_or(HistoryMode::Legacy, |(meta, _)| {
            meta.meta.effective_history_mode()
        }),
    )
}

/// The `ordinal` of the last line that has one, read backwards with the one backward reader
/// (a torn last line has none and is passed over).
fn last_ordinal(file: &mut File) -> std::io::Result<Option<u64>> {
    let mut lines = ReverseLines::new(file.try_clone()?)?;
    while let Some((_, line)) = lines.prev_line()? {
        if let Some(ordinal) = crate::line_ordinal(line) {
            return Ok(Some(ordinal));
        }
    }
    Ok(None)
}

#[cfg(test)]
#[path = "resume_point_tests.rs"]
mod tests;
