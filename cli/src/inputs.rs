//! The inputs of a command that works over many sessions (`validate`, `inspect`, `list`,
//! `du`, `compress`, `usage`, `search`): any mix of files, folders and `-`, or a whole Codex
//! home, expanded into one list of [`Source`]s in one place.
//!
//! - a file is taken as given (its name need not look like a rollout's);
//! - a folder is walked for rollout files (`rollout-….jsonl` and `.jsonl.zst`, each session
//!   once, plain preferred), by codex-rollout's [`rollout_files_under`];
//! - `-` is standard input;
//! - a thread id, or a unique prefix of one, that names no file is that thread's file under
//!   the home (`--home`, else the default one);
//! - `--home DIR` adds every rollout file of that home (`sessions/` and `archived_sessions/`,
//!   by [`all_rollout_files`]);
//! - with no argument at all, [`WhenEmpty`] says what the command works on: the bundled
//!   sample (single-session commands) or the default Codex home (`$CODEX_HOME`, else
//!   `~/.codex`).

use std::path::{Path, PathBuf};

use chrono_tz::Tz;
use codex_home::{all_rollout_files, day_zone, rollout_files_under};

use crate::error::{Failure, describe_or};
use crate::input::{STDIN_ARG, Source, resolve_home, thread_source};
use crate::output::warn;

/// How a missing path is told.
const MISSING: &str = "no such file or folder";

/// What a many-file command works on when it is given no path and no `--home`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WhenEmpty {
    /// The bundled sample session.
    Sample,
    /// Every session of the default Codex home.
    DefaultHome,
}

/// Expands `args` (files, folders, `-`) and `home` into the sources to work on, in the order
/// given (a folder's files in path order, a home's live sessions then archived ones, oldest
/// first), each file once. A path that does not exist, or a folder that cannot be read, is an
/// error naming it (exit 2); a home without sessions is an empty list.
pub(crate) fn expand_sources(
    args: &[PathBuf],
    home: Option<&Path>,
    when_empty: WhenEmpty,
) -> Result<Vec<Source>, Failure> {
    let mut sources = Vec::new();
    for arg in args {
        if arg.as_os_str() == STDIN_ARG {
            sources.push(Source::Stdin);
            continue;
        }
        if let Some(source) = thread_source(arg, home)? {
            sources.push(source);
            continue;
        }
        let metadata = std::fs::metadata(arg).map_err(|err| {
            Failure::Unreadable(format!(
                "cannot read {}: {}",
                arg.display(),
                describe_or(&err, MISSING)
            ))
        })?;
        if metadata.is_dir() {
            let files = rollout_files_under(arg).map_err(|err| {
                Failure::Unreadable(format!(
                    "cannot read folder {}: {}",
                    arg.display(),
                    describe_or(&err, MISSING)
                ))
            })?;
            sources.extend(files.into_iter().map(Source::File));
        } else {
            sources.push(Source::File(arg.clone()));
        }
    }
    let home = match (home, args.is_empty(), when_empty) {
        (Some(home), ..) => Some(resolve_home(Some(home))?),
        (None, true, WhenEmpty::DefaultHome) => Some(resolve_home(None)?),
        (None, true, WhenEmpty::Sample) => {
            sources.push(Source::Sample);
            None
        }
        (None, false, _) => None,
    };
    if let Some(home) = home {
        let files = all_rollout_files(&home).map_err(|err| {
            Failure::Unreadable(format!(
                "cannot read the sessions of {}: {err}",
                home.root.display()
            ))
        })?;
        sources.extend(files.into_iter().map(|file| Source::File(file.path)));
    }
    Ok(once_each(sources))
}

/// [`expand_sources`] for commands that report every named input in its place
/// (`validate`, `inspect`): a path that cannot be looked at, or a folder that holds no rollout
/// file, stays in the list as given, so the command reports why it could not be read there
/// instead of stopping before the others. With no path and no home: the bundled sample.
pub(crate) fn expand_sources_reporting_each(
    args: &[PathBuf],
    home: Option<&Path>,
) -> Result<Vec<Source>, Failure> {
    let mut sources = Vec::new();
    for arg in args {
        if let Some(source) = thread_source(arg, home)? {
            sources.push(source);
            continue;
        }
        let is_dir = arg.as_os_str() != STDIN_ARG && arg.is_dir();
        let expanded = if arg.as_os_str() == STDIN_ARG || arg.exists() {
            expand_sources(std::slice::from_ref(arg), None, WhenEmpty::Sample).ok()
        } else {
            None
        };
        match expanded {
            Some(expanded) if !(is_dir && expanded.is_empty()) => sources.extend(expanded),
            _ => sources.push(Source::File(arg.clone())),
        }
    }
    if home.is_some() || args.is_empty() {
        sources.extend(expand_sources(&[], home, WhenEmpty::Sample)?);
    }
    Ok(once_each(sources))
}

/// `sources` with each file once, where it first appeared (given, then found again in a folder
/// or the home).
fn once_each(mut sources: Vec<Source>) -> Vec<Source> {
    let mut seen = std::collections::HashSet::new();
    sources.retain(|source| match source {
        Source::File(path) => seen.insert(path.clone()),
        Source::Stdin | Source::Sample | Source::Spooled(_) => true,
    });
    sources
}

#[cfg(test)]
#[path = "inputs_tests.rs"]
mod tests;

/// The zone days are counted in, by codex-home's rule ([`codex_home::day_zone`]), saying so
/// when the local zone could not be told.
pub(crate) fn zone_of(name: Option<&str>) -> Result<Tz, Failure> {
    let found = day_zone(name).map_err(|err| Failure::Usage(err.to_string()))?;
    if let Some(tz) = &found.unread_tz {
        warn(&format!(
            "TZ={tz} names no IANA time zone; using {} (pass --timezone ZONE)",
            found.zone.name()
        ));
    }
    if found.guessed {
        warn("cannot tell the local time zone; using UTC (pass --timezone ZONE)");
    }
    Ok(found.zone)
}
