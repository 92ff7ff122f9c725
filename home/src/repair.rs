//! What Codex would show wrongly in a home, and the fix ([`find_repairs`], [`apply_repairs`]).
//!
//! Codex 0.169 shows a thread from its own state (`reference/codex-state.md`): a row per
//! thread in `state_5.sqlite`, and for a paginated thread the history it projected into
//! `thread_history_1.sqlite`. Files copied, synced or restored into a home, a state database
//! deleted or rebuilt, all leave threads Codex lists without a name, does not list, or opens
//! empty. Each finding says which thread, what Codex would show and why, from the files and
//! Codex's state read side by side (read only: [`crate::codex_state`]).
//!
//! The fixes go through Codex's own app-server, as `import` does (`thread/resume` without
//! turns then `thread/unsubscribe` to project a paginated thread from where its projection
//! stopped, `thread/read` to register a legacy one, `thread/name/set` for a lost name). What
//! no fix reaches is reported and left: a row whose file is gone (Codex hides it), a fork
//! whose parent the home lacks.
//!
//! Two fixes need more, with no Codex holding any thread of the home for writing: a file whose
//! ordinals do not rise (Codex skips the rest of it) is written again with rising ones, its
//! old bytes kept in the trash ([`ordinals::rewrite_ordinals`]); and its projected history, or
//! that of a projection that says it is complete while it holds fewer items than the file
//! records (which no catch-up would ever fill: Codex projects from the offset its
//! projection-state row says), is deleted so that Codex projects the file from the beginning:
//! a direct write to Codex's state, of those files' rows only, in one transaction, after a
//! consistent copy of the database is written beside it, refused for a schema version this
//! version was not tested on ([`state::forget_projections`]). A thread continued in other
//! files has each of them projected as `import` does (its `pieces` module).

mod ordinals;

pub use ordinals::RewriteError;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use codex_protocol::rollout::HistoryMode;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{CodexHome, RolloutStream, line_tags, session_meta_of_file};
use serde::Serialize;

use crate::codex_state::{self as state, StateWriteError, rollout_key};
use crate::import::{ImportError, ImportedThread, Registration, register_threads, sort_pieces};
use crate::writer_lock::{being_written, held_thread};
use crate::{all_rollout_files, find_rollout_by_thread_id};

/// What repair found in a home.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RepairReport {
    /// Whether the home has Codex state at all (without it there is nothing to repair:
    /// Codex builds its state from the files on its first start).
    pub has_state: bool,
    /// Codex's databases and their newest migration.
    pub schema: Vec<(String, i64)>,
    /// The threads looked at.
    pub threads: usize,
    /// What Codex would show wrongly.
    pub findings: Vec<Finding>,
    /// Every thread looked at with its files, oldest first: what [`apply_repairs`] registers,
    /// from the one listing the findings came from.
    #[serde(skip)]
    pieces: BTreeMap<String, Vec<PathBuf>>,
}

/// One thing Codex would show wrongly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The thread.
    pub thread_id: String,
    /// Its file (or the file Codex's row names, for a row without one).
    pub path: PathBuf,
    /// What is wrong, and why (its fields beside the others on the wire).
    #[serde(flatten)]
    pub problem: Problem,
}

/// What Codex would show wrongly, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum Problem {
    /// Codex has no row for the thread: lists that read only its state do not show it.
    NoRow,
    /// Codex projected none of a paginated thread's history: it opens empty.
    Unprojected,
    /// Codex projected only the file's first bytes: the later turns are missing.
    ProjectedBehind {
        /// Bytes projected.
        projected: u64,
        /// The file's size.
        size: u64,
    },
    /// Codex's projection says it is complete, yet holds fewer items than the file records.
    StaleProjection {
        /// Items projected.
        projected: u64,
        /// Items the file records.
        recorded: u64,
    },
    /// The home's index names the thread; Codex's row lost the name.
    NameLost {
        /// The name the index gives.
        name: String,
    },
    /// Codex's row names a file that is not there: Codex hides the thread.
    RowWithoutFile,
    /// The file continues a thread the home does not hold: Codex cannot show it.
    ParentMissing {
        /// The thread it continues.
        parent: String,
    },
    /// The file's ordinals repeat or go backwards: Codex skips the lines from there on.
    OrdinalsOutOfOrder {
        /// The first line whose ordinal is not above the one before.
        line: usize,
    },
    /// The file's last line has no ordinal: Codex cannot resume the thread.
    LastLineWithoutOrdinal,
}

impl Problem {
    /// Whether `--apply` fixes it (through Codex's app-server).
    pub fn fixable(&self) -> bool {
        matches!(
            self,
            Self::NoRow
                | Self::Unprojected
                | Self::ProjectedBehind { .. }
                | Self::StaleProjection { .. }
                | Self::NameLost { .. }
                | Self::OrdinalsOutOfOrder { .. }
                | Self::LastLineWithoutOrdinal
        )
    }
}

/// Why repair could not look or fix.
#[derive(Debug, thiserror::Error)]
pub enum RepairError {
    /// The home's files could not be listed or read.
    #[error("{}: {source}", path.display())]
    Home {
        /// What could not be read.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Codex's state could not be read (or is of a shape this version does not know).
    #[error("cannot read Codex's state in {}: {source}", path.display())]
    State {
        /// The home.
        path: PathBuf,
        /// What SQLite said.
        #[source]
        source: rusqlite::Error,
    },
    /// The fix through Codex failed.
    #[error(transparent)]
    Fix(#[from] ImportError),
    /// Codex's state could not be changed.
    #[error(transparent)]
    StateWrite(#[from] StateWriteError),
    /// A file could not be written again with rising ordinals.
    #[error(transparent)]
    Rewrite(#[from] ordinals::RewriteError),
    /// A running Codex holds a thread of the home: its state is not written behind its back.
    #[error(
        "a running Codex holds thread {thread_id} of this home; close Codex and repair again \
         (nothing was changed)"
    )]
    CodexRunning {
        /// The thread held.
        thread_id: String,
    },
}

/// What Codex would show wrongly in `home` (see the module docs).
pub fn find_repairs(home: &CodexHome) -> Result<RepairReport, RepairError> {
    let root = &home.root;
    let codex = state::read_state(root).map_err(|source| RepairError::State {
        path: root.to_path_buf(),
        source,
    })?;
    let home_error = |source| RepairError::Home {
        path: root.to_path_buf(),
        source,
    };
    let mut report = RepairReport {
        has_state: codex.has_state,
        schema: codex.versions.clone(),
        ..RepairReport::default()
    };
    let names = home.thread_names().map_err(home_error)?;
    let threads = thread_pieces(home)?;
    report.threads = threads.len();
    for (id, pieces) in &threads {
        let Some(path) = pieces.last() else {
            continue;
        };
        let mut find = |path: &Path, problem| {
            report.findings.push(Finding {
                thread_id: id.clone(),
                path: path.to_path_buf(),
                problem,
            });
        };
        let meta = session_meta_of_file(path).map_err(home_error)?;
        if let Some(base) = meta
            .as_ref()
            .and_then(|meta| meta.meta.history_base.as_ref())
            && base.thread_id.to_string() != *id
            && find_rollout_by_thread_id(home, base.thread_id)
                .map_err(|error| home_error(io::Error::other(error.to_string())))?
                .is_none()
        {
            find(
                path,
                Problem::ParentMissing {
                    parent: base.thread_id.to_string(),
                },
            );
        }
        let paginated = meta
            .as_ref()
            .is_some_and(|meta| meta.meta.effective_history_mode() == HistoryMode::Paginated);
        for piece in pieces.iter().filter(|_| paginated) {
            let scan = scan_file(piece).map_err(home_error)?;
            if let Some(line) = scan.out_of_order {
                find(piece, Problem::OrdinalsOutOfOrder { line });
            }
            if scan.last_without_ordinal {
                find(piece, Problem::LastLineWithoutOrdinal);
            }
            if !codex.has_state {
                continue;
            }
            let projection = rollout_key(piece).and_then(|key| codex.projections.get(&key));
            match projection {
                None => find(piece, Problem::Unprojected),
                Some(projection) if projection.next_byte_offset < scan.size => {
                    // A thread Codex is writing now is projected as it goes.
                    if !being_written(home, id) {
                        find(
                            piece,
                            Problem::ProjectedBehind {
                                projected: projection.next_byte_offset,
                                size: scan.size,
                            },
                        );
                    }
                }
                Some(projection) if projection.items < scan.items => {
                    find(
                        piece,
                        Problem::StaleProjection {
                            projected: projection.items,
                            recorded: scan.items,
                        },
                    );
                }
                Some(_) => {}
            }
        }
        if !codex.has_state {
            continue;
        }
        match codex.rows.get(id) {
            None => find(path, Problem::NoRow),
            Some(row) => {
                if let Some(name) = names.get(id)
                    && row.name.as_ref() != Some(name)
                {
                    find(path, Problem::NameLost { name: name.clone() });
                }
            }
        }
    }
    for (id, row) in &codex.rows {
        if !threads.contains_key(id) && !row.rollout_path.exists() {
            report.findings.push(Finding {
                thread_id: id.clone(),
                path: row.rollout_path.clone(),
                problem: Problem::RowWithoutFile,
            });
        }
    }
    report.pieces = threads;
    Ok(report)
}

/// Every thread of `home` with its files, oldest first: Codex's row names the newest piece,
/// and keeps the projected history of each piece by its rollout id.
fn thread_pieces(home: &CodexHome) -> Result<BTreeMap<String, Vec<PathBuf>>, RepairError> {
    let files = all_rollout_files(home).map_err(|error| RepairError::Home {
        path: home.root.clone(),
        source: io::Error::other(error.to_string()),
    })?;
    let mut threads: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for found in files {
        threads
            .entry(found.name.thread_id.to_string())
            .or_default()
            .push(found.path);
    }
    threads.values_mut().for_each(sort_pieces);
    Ok(threads)
}

/// Fixes what `report` found that Codex's own app-server can (see [`Problem::fixable`]), with
/// the Codex executable `codex`; the threads Codex registered.
pub fn apply_repairs(
    report: &RepairReport,
    home: &CodexHome,
    codex: &OsStr,
) -> Result<Vec<ImportedThread>, RepairError> {
    let mut threads: BTreeMap<String, Registration> = BTreeMap::new();
    let mut placed = Vec::new();
    for finding in report
        .findings
        .iter()
        .filter(|finding| finding.problem.fixable())
    {
        let Ok(thread_id) = ThreadId::from_string(&finding.thread_id) else {
            continue;
        };
        if threads.contains_key(&finding.thread_id) {
            continue;
        }
        let pieces = report
            .pieces
            .get(&finding.thread_id)
            .cloned()
            .unwrap_or_default();
        let newest = pieces.last().unwrap_or(&finding.path);
        let meta = session_meta_of_file(newest).ok().flatten();
        let paginated = meta
            .as_ref()
            .is_some_and(|meta| meta.meta.effective_history_mode() == HistoryMode::Paginated);
        let parent = meta
            .and_then(|meta| meta.meta.history_base)
            .map(|base| base.thread_id)
            .filter(|parent| *parent != thread_id);
        placed.extend(pieces.iter().cloned());
        threads.insert(
            finding.thread_id.clone(),
            Registration {
                thread_id,
                paginated,
                parent,
                name: None,
                pieces,
            },
        );
    }
    for finding in &report.findings {
        if let (Problem::NameLost { name }, Some(registration)) =
            (&finding.problem, threads.get_mut(&finding.thread_id))
        {
            registration.name = Some(name.clone());
        }
    }
    if threads.is_empty() {
        return Ok(Vec::new());
    }
    // What Codex's own path cannot fix: files whose ordinals do not rise, written again, and
    // those threads' projected history and any stale one deleted so Codex projects them anew.
    let rewrite: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|finding| {
            matches!(
                finding.problem,
                Problem::OrdinalsOutOfOrder { .. } | Problem::LastLineWithoutOrdinal
            )
        })
        .collect();
    let mut forget: Vec<String> = report
        .findings
        .iter()
        .filter(|finding| matches!(finding.problem, Problem::StaleProjection { .. }))
        .chain(rewrite.iter().copied())
        .filter_map(|finding| rollout_key(&finding.path))
        .collect();
    forget.sort();
    forget.dedup();
    if !forget.is_empty() {
        if let Some(thread_id) = held_thread(home) {
            return Err(RepairError::CodexRunning { thread_id });
        }
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        for finding in &rewrite {
            if let Some(kept) = ordinals::rewrite_ordinals(home, &finding.path, stamp)? {
                tracing::info!(file = %finding.path.display(), kept = %kept.display(), "ordinals rewritten");
            }
        }
        if home.root.join(state::HISTORY_DATABASE).exists() {
            let backup = state::forget_projections(&home.root, &forget, stamp)?;
            tracing::info!(backup = %backup.display(), threads = forget.len(), "projected history reset");
        }
    }
    let registrations: Vec<Registration> = threads.into_values().collect();
    Ok(register_threads(home, codex, &registrations, &placed)?)
}

/// What repair reads of a paginated file: its size, the items it records, and its ordinals.
#[derive(Debug, Default)]
struct FileScan {
    size: u64,
    items: u64,
    out_of_order: Option<usize>,
    last_without_ordinal: bool,
}

/// Reads `path` once, from the line tags and each envelope's ordinal (no line is parsed).
fn scan_file(path: &Path) -> io::Result<FileScan> {
    let mut scan = FileScan::default();
    let mut stream = RolloutStream::open(path)?;
    let mut previous: Option<u64> = None;
    let mut last_has_ordinal = true;
    while let Some(line) = stream.next_line_where(|_| false)? {
        scan.size = line.offset + line.raw.len() as u64 + u64::from(line.terminated);
        if line.raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if line_tags(line.raw).is_some_and(|tags| tags.payload_type == Some(b"item_completed")) {
            scan.items += 1;
        }
        let ordinal = codex_rollout::line_ordinal(line.raw);
        last_has_ordinal = ordinal.is_some();
        if let Some(ordinal) = ordinal {
            if previous.is_some_and(|previous| ordinal <= previous) && scan.out_of_order.is_none() {
                scan.out_of_order = Some(line.number);
            }
            previous = Some(ordinal);
        }
    }
    scan.last_without_ordinal = !last_has_ordinal;
    Ok(scan)
}

#[cfg(test)]
#[path = "repair_tests.rs"]
mod tests;
