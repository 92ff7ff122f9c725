//! The inputs of a command that works over many sessions (`validate`, `inspect`, `list`,
//! `du`, `compress`, `usage`, `search`): what its path arguments and `--home` name is
//! codex-home's (`expand_session_args`: files, folders, `-`, thread ids, a home's sessions);
//! with no argument at all, [`WhenEmpty`] says what the command works on: the bundled sample
//! (single-session commands) or the default Codex home (`$CODEX_HOME`, else `~/.codex`).

use std::path::{Path, PathBuf};

use chrono_tz::Tz;
use codex_home::{NamedSession, day_zone, expand_session_args, expand_session_args_keeping_each};

use crate::error::Failure;
use crate::input::Source;
use crate::output::warn;

/// What a many-file command works on when it is given no path and no `--home`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WhenEmpty {
    /// The bundled sample session.
    Sample,
    /// Every session of the default Codex home.
    DefaultHome,
}

/// Expands `args` (files, folders, `-`, thread ids) and `home` into the sources to work on
/// (codex-home's `expand_session_args`). A path that does not exist, or a folder that cannot
/// be read, is an error naming it (exit 2); a home without sessions is an empty list.
pub(crate) fn expand_sources(
    args: &[PathBuf],
    home: Option<&Path>,
    when_empty: WhenEmpty,
) -> Result<Vec<Source>, Failure> {
    let named = expand_session_args(args, home, when_empty == WhenEmpty::DefaultHome)?;
    Ok(sources(
        named,
        args.is_empty() && home.is_none() && when_empty == WhenEmpty::Sample,
    ))
}

/// [`expand_sources`] for commands that report every named input in its place
/// (`validate`, `inspect`, `list`): a path that cannot be looked at, or a folder that holds no
/// rollout file, stays in the list as given (codex-home's
/// `expand_session_args_keeping_each`). With no path and no home: the bundled sample.
pub(crate) fn expand_sources_reporting_each(
    args: &[PathBuf],
    home: Option<&Path>,
) -> Result<Vec<Source>, Failure> {
    let named = expand_session_args_keeping_each(args, home)?;
    Ok(sources(named, args.is_empty() && home.is_none()))
}

/// The sources of `named`, then the sample when `sample`.
fn sources(named: Vec<NamedSession>, sample: bool) -> Vec<Source> {
    let named = named.into_iter().map(|named| match named {
        NamedSession::File(path) => Source::File(path),
        NamedSession::Stdin => Source::Stdin,
    });
    named.chain(sample.then_some(Source::Sample)).collect()
}

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

#[cfg(test)]
#[path = "inputs_tests.rs"]
mod tests;
