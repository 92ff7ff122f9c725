//! Large rollouts made of real lines, for the benchmarks and the equivalence tests.
//!
//! The first real session meta, then the enveloped lines of the real fixtures (their metas
//! and compactions left out) repeated until the file has the size asked for, with generated
//! `compacted` lines (a replacement history and a window number, or copies of a real one
//! without a number) and `thread_rolled_back`
//! markers where the [`Shape`] puts them, and optionally a torn last line. Nothing is held in
//! memory but the real lines: the file is written as it is generated.

#![allow(dead_code)]

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{HistoryMode, ParsedLine, RolloutItem, parse_rollout_line};
use codex_test_support::{non_empty_lines, real_jsonl_files};

/// The real lines a generated file is made of.
#[derive(Debug, Clone)]
pub(crate) struct RealLines {
    /// The first real enveloped session meta.
    pub meta: Vec<u8>,
    /// Every other enveloped line of the real files, in order (no metas, no compactions).
    pub body: Vec<Vec<u8>>,
    /// The lines are those of paginated files: a compaction is written as Codex writes one
    /// there, its `compacted` line followed by a completed `ContextCompaction` item.
    pub paginated: bool,
    /// The first real `compacted` line with a replacement history and no window number (as
    /// Codex wrote them before 0.150), for [`Shape::real_compactions`].
    pub compaction: Option<Vec<u8>>,
}

/// The real lines, `None` without the real fixtures.
///
/// A file whose turn starts disagree with the ids its turns record later is left out (a
/// capture trimmed by hand, its turn ids replaced): repeated a thousand times, each such turn
/// would join every turn before it into one segment (core's rule for a `task_started` of
/// another turn), which no writer produces, and resume would rightly read the whole file.
pub(crate) fn real_lines() -> Option<RealLines> {
    lines_of_files(false)
}

/// The real lines of the paginated files alone (the format Codex writes by default since
/// 0.151: every item with its own id, every turn opened by a `task_started` naming it), with
/// the first paginated session meta; `None` without the real fixtures.
pub(crate) fn real_paginated_lines() -> Option<RealLines> {
    lines_of_files(true)
}

fn lines_of_files(paginated_only: bool) -> Option<RealLines> {
    let mut meta = None;
    let mut body = Vec::new();
    let mut compaction = None;
    for path in real_jsonl_files().ok()?? {
        let Ok(lines) = non_empty_lines(&path) else {
            continue;
        };
        let parsed: Vec<(&Vec<u8>, ParsedLine)> = lines
            .iter()
            .filter_map(|line| Some((line, parse_rollout_line(line).ok()?)))
            .collect();
        if !turn_ids_agree(parsed.iter().map(|(_, parsed)| parsed)) {
            continue;
        }
        let paginated = parsed.iter().any(|(_, parsed)| {
            matches!(parsed.item(), Some(RolloutItem::SessionMeta(meta))
                if meta.meta.history_mode == Some(HistoryMode::Paginated))
        });
        if paginated_only && !paginated {
            continue;
        }
        for (line, parsed) in &parsed {
            if parsed.is_legacy() {
                continue;
            }
            match parsed.item() {
                Some(RolloutItem::SessionMeta(_)) => {
                    meta.get_or_insert_with(|| (*line).clone());
                }
                Some(RolloutItem::Compacted(compacted))
                    if compacted.replacement_history.is_some()
                        && compacted.window().0.is_none() =>
                {
                    compaction.get_or_insert_with(|| (*line).clone());
                }
                Some(RolloutItem::Compacted(_)) | None => {}
                Some(_) => body.push((*line).clone()),
            }
        }
    }
    Some(RealLines {
        meta: meta?,
        body,
        paginated: paginated_only,
        compaction,
    })
}

/// Whether every turn of a file's parsed lines records only the id its `task_started` gave
/// it.
fn turn_ids_agree<'a>(lines: impl Iterator<Item = &'a ParsedLine>) -> bool {
    let mut opener: Option<String> = None;
    for parsed in lines {
        let recorded = match parsed.item() {
            Some(RolloutItem::EventMsg(EventMsg::TurnStarted(started))) => {
                opener = Some(started.turn_id.clone()).filter(|id| !id.is_empty());
                continue;
            }
            Some(RolloutItem::EventMsg(EventMsg::TurnComplete(complete))) => {
                Some(complete.turn_id.as_str())
            }
            Some(RolloutItem::EventMsg(EventMsg::TurnAborted(aborted))) => {
                aborted.turn_id.as_deref()
            }
            Some(RolloutItem::TurnContext(context)) => context.turn_id.as_deref(),
            _ => None,
        };
        if let (Some(opener), Some(recorded)) = (&opener, recorded.filter(|id| !id.is_empty()))
            && opener != recorded
        {
            return false;
        }
    }
    true
}

impl RealLines {
    /// The same lines without the real files' `thread_rolled_back` markers: a benchmark's
    /// late compaction then always survives (a copied rollback right after it would remove
    /// its turn, and resume would rightly read back further).
    pub(crate) fn without_rollbacks(&self) -> Self {
        Self {
            meta: self.meta.clone(),
            paginated: self.paginated,
            compaction: self.compaction.clone(),
            body: self
                .body
                .iter()
                .filter(|line| {
                    !line
                        .windows(20)
                        .any(|window| window == b"\"thread_rolled_back\"")
                })
                .cloned()
                .collect(),
        }
    }
}

/// Where the generated lines go, as fractions of the file's size.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shape {
    /// Size of the file, at least (it ends at the first whole body line past it).
    pub bytes: u64,
    /// A `compacted` line at each of these fractions.
    pub compactions: Vec<f64>,
    /// A `thread_rolled_back` of `num_turns` at each fraction.
    pub rollbacks: Vec<(f64, u32)>,
    /// End with the first half of a line, as a writer killed mid-line leaves it.
    pub torn_last_line: bool,
    /// The compactions are copies of a real one without a window number (the whole file's
    /// window then counts every compaction) instead of generated numbered ones.
    pub real_compactions: bool,
}

/// The generated files the streamed-versus-whole tests of the commands check: compactions
/// early and at the very end with a rollback after them, and a rollback past every turn with
/// a torn last line.
pub(crate) fn streamed_equivalence_shapes() -> [Shape; 2] {
    [
        Shape {
            bytes: 3 << 20,
            compactions: vec![0.3, 0.99],
            rollbacks: vec![(0.995, 2)],
            ..Shape::default()
        },
        Shape {
            bytes: 2 << 20,
            compactions: vec![0.5],
            rollbacks: vec![(0.9, 10_000)],
            torn_last_line: true,
            ..Shape::default()
        },
    ]
}

/// What was written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Written {
    pub bytes: u64,
    pub lines: u64,
}

const STAMP: &str = "2026-01-01T00:00:00.000Z";

fn compaction_line(window: u64) -> String {
    format!(
        concat!(
            r#"{{"timestamp":"{stamp}","type":"compacted","payload":{{"message":"generated compaction {window}","#,
            r#""replacement_history":[{{"type":"message","role":"user","content":[{{"type":"input_text","text":"what happened before compaction {window}"}}]}},"#,
            r#"{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"summary {window}"}}]}}],"window_number":{window}}}}}"#
        ),
        stamp = STAMP,
        window = window,
    )
}

/// The completed item a paginated file records after a compaction's `compacted` line.
fn compaction_item_line(window: u64) -> String {
    format!(
        concat!(
            r#"{{"timestamp":"{stamp}","type":"event_msg","payload":{{"type":"item_completed","#,
            r#""thread_id":"","turn_id":"","item":{{"type":"ContextCompaction","id":"compaction-{window}"}},"#,
            r#""completed_at_ms":1767225600000}}}}"#
        ),
        stamp = STAMP,
        window = window,
    )
}

fn rollback_line(num_turns: u32) -> String {
    format!(
        r#"{{"timestamp":"{STAMP}","type":"event_msg","payload":{{"type":"thread_rolled_back","num_turns":{num_turns}}}}}"#
    )
}

/// Writes a rollout of `shape` made of `lines` to `path`.
pub(crate) fn write_rollout(path: &Path, lines: &RealLines, shape: &Shape) -> io::Result<Written> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    let mut written = Written { bytes: 0, lines: 0 };
    let put = |out: &mut BufWriter<File>, line: &[u8], written: &mut Written| {
        out.write_all(line)?;
        out.write_all(b"\n")?;
        written.bytes += line.len() as u64 + 1;
        written.lines += 1;
        io::Result::Ok(())
    };
    put(&mut out, &lines.meta, &mut written)?;
    let mut marks: Vec<(u64, String)> = Vec::new();
    let real_compaction = match (&lines.compaction, shape.real_compactions) {
        (Some(line), true) => Some(String::from_utf8_lossy(line).into_owned()),
        (None, true) => return Err(io::Error::other("the real files hold no compaction")),
        (_, false) => None,
    };
    for (window, at) in shape.compactions.iter().enumerate() {
        let (window, at) = (window as u64 + 1, (shape.bytes as f64 * at) as u64);
        let line = real_compaction
            .clone()
            .unwrap_or_else(|| compaction_line(window));
        marks.push((at, line));
        if lines.paginated {
            // Sorting is stable: the item stays right after its line.
            marks.push((at, compaction_item_line(window)));
        }
    }
    for (at, num_turns) in &shape.rollbacks {
        marks.push(((shape.bytes as f64 * at) as u64, rollback_line(*num_turns)));
    }
    marks.sort_by_key(|(at, _)| *at);
    let mut marks = marks.into_iter().peekable();
    let mut body = lines.body.iter().cycle();
    while written.bytes < shape.bytes {
        while let Some((_, line)) = marks.next_if(|(at, _)| *at <= written.bytes) {
            put(&mut out, line.as_bytes(), &mut written)?;
        }
        let Some(line) = body.next() else { break };
        put(&mut out, line, &mut written)?;
    }
    for (_, line) in marks {
        put(&mut out, line.as_bytes(), &mut written)?;
    }
    if shape.torn_last_line
        && let Some(line) = lines.body.iter().find(|line| line.len() > 40)
    {
        let half = &line[..line.len() / 2];
        out.write_all(half)?;
        written.bytes += half.len() as u64;
        written.lines += 1;
    }
    out.flush()?;
    Ok(written)
}

/// The hard shapes real files have, each a file of `bytes` (`cargo xtask bench-input` writes
/// them; every speed goal is measured on all of them): a compaction in the last 1 % with
/// rollbacks after it (the scale pass's shape), compactions at several depths, rollbacks
/// before and after the last compaction, a rollback reaching back past it (no compaction
/// applies), copies of a real compaction without a window number (the window counts them
/// all; the real lines' own rollbacks left out so the late one survives), a torn last line,
/// and no compaction at all. Each comes as (name, shape, whether the real lines keep their
/// own rollbacks); they always keep their images.
pub(crate) fn named_shapes(bytes: u64) -> Vec<(&'static str, Shape, bool)> {
    let shape = Shape {
        bytes,
        ..Shape::default()
    };
    vec![
        (
            "late-compaction",
            Shape {
                compactions: vec![0.99],
                rollbacks: vec![(0.995, 2), (0.998, 1)],
                ..shape.clone()
            },
            true,
        ),
        (
            "compactions-at-depths",
            Shape {
                compactions: vec![0.1, 0.5, 0.9, 0.99],
                ..shape.clone()
            },
            true,
        ),
        (
            "rollbacks-around-compaction",
            Shape {
                compactions: vec![0.4, 0.97],
                rollbacks: vec![(0.6, 3), (0.96, 2), (0.99, 1), (0.995, 1)],
                ..shape.clone()
            },
            true,
        ),
        (
            "rollback-past-compaction",
            Shape {
                compactions: vec![0.99],
                rollbacks: vec![(0.995, 1_000)],
                ..shape.clone()
            },
            true,
        ),
        (
            "unnumbered-compactions",
            Shape {
                compactions: vec![0.3, 0.99],
                rollbacks: vec![(0.998, 1)],
                real_compactions: true,
                ..shape.clone()
            },
            false,
        ),
        (
            "torn-last-line",
            Shape {
                compactions: vec![0.97],
                torn_last_line: true,
                ..shape.clone()
            },
            true,
        ),
        ("no-compaction", shape, true),
    ]
}

/// The sizes (MiB) of a benchmark's scale pass: the comma-separated list in the environment
/// variable `var`, else 100 and 1024.
pub(crate) fn scale_sizes_from(var: &str) -> Vec<u64> {
    std::env::var(var)
        .ok()
        .map(|text| {
            text.split(',')
                .filter_map(|size| size.trim().parse().ok())
                .collect()
        })
        .unwrap_or_else(|| vec![100, 1024])
}
