//! What the path arguments of a command name: one session ([`thread_file_named`]: a file, or
//! a thread id), or, for a command over many sessions (`validate`, `inspect`, `list`, `du`,
//! `compress`, `usage`, `search`), any mix of files, folders and `-` and a whole Codex home,
//! expanded into one list ([`expand_session_args`]):
//!
//! - a file is taken as given (its name need not look like a rollout's);
//! - a folder is walked for rollout files (`rollout-….jsonl` and `.jsonl.zst`, each session
//!   once, plain preferred), by [`rollout_files_under`];
//! - `-` is standard input;
//! - a thread id, or a unique prefix of one, that names no file is that thread's file under
//!   the home (`--home`, else the default one; [`crate::find_thread`]);
//! - `--home DIR` adds every rollout file of that home (`sessions/` and `archived_sessions/`,
//!   by [`all_rollout_files`]);
//! - with no argument at all, the caller says whether the default home is meant.
//!
//! Why here: which files a command line names is one answer for every command, and it spans
//! a home's files, its search index and the home rule.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use codex_rollout::RolloutError;

use crate::{
    NotAHome, ThreadLookupError, all_rollout_files, find_thread, resolve_home, rollout_files_under,
    thread_prefix,
};

/// The argument that names standard input.
pub const STDIN_ARG: &str = "-";

/// One session the arguments name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamedSession {
    /// A file.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
}

/// Why the arguments name no list of sessions.
#[derive(Debug, thiserror::Error)]
pub enum SessionArgsError {
    /// The home named (or the default one) is no Codex home.
    #[error(transparent)]
    Home(#[from] NotAHome),
    /// A thread id prefix names no one thread.
    #[error(transparent)]
    Thread(#[from] ThreadLookupError),
    /// A path cannot be looked at.
    #[error("cannot read {}: {}", path.display(), io_message(source, MISSING))]
    Path {
        /// The path given.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A folder cannot be walked.
    #[error("cannot read folder {}: {}", path.display(), io_message(source, MISSING))]
    Folder {
        /// The folder given.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A home's session folders cannot be walked.
    #[error("cannot read the sessions of {}: {source}", home.display())]
    Sessions {
        /// The home's root.
        home: PathBuf,
        /// What failed.
        source: RolloutError,
    },
}

impl SessionArgsError {
    /// Whether the command line is to blame (no home to look in, an ambiguous thread
    /// prefix), not what it names.
    pub fn is_usage(&self) -> bool {
        match self {
            Self::Home(error) => error.is_usage(),
            Self::Thread(error) => matches!(error, ThreadLookupError::Ambiguous { .. }),
            _ => false,
        }
    }
}

/// How a missing path is told.
const MISSING: &str = "no such file or folder";

/// The operating system's message without its `(os error N)` suffix, lower-cased like the
/// rest of the messages; `missing` when the path does not exist.
pub fn io_message(error: &io::Error, missing: &str) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => missing.to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            let text = error.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text);
            text.to_lowercase()
        }
    }
}

/// The file `arg` names when it is a thread id (or a unique prefix of one) and no path of
/// that name exists, found under `home` (else the default home); `None` for every other
/// argument.
pub fn thread_file_named(
    arg: &Path,
    home: Option<&Path>,
) -> Result<Option<PathBuf>, SessionArgsError> {
    let Some(prefix) = thread_prefix(arg).filter(|_| !arg.exists()) else {
        return Ok(None);
    };
    Ok(Some(find_thread(&resolve_home(home)?, prefix)?))
}

/// Expands `args` (files, folders, `-`, thread ids) and `home` into the sessions to work on, in
/// the order given (a folder's files in path order, a home's live sessions then archived
/// ones, oldest first), each file once; with neither, the default home's sessions when
/// `default_home`, else none. A path that does not exist, or a folder that cannot be read, is
/// an error naming it; a home without sessions is an empty list.
pub fn expand_session_args(
    args: &[PathBuf],
    home: Option<&Path>,
    default_home: bool,
) -> Result<Vec<NamedSession>, SessionArgsError> {
    let mut sessions = Vec::new();
    for arg in args {
        sessions.extend(expand_one(arg, home)?);
    }
    let home = match (home, args.is_empty() && default_home) {
        (Some(home), _) => Some(resolve_home(Some(home))?),
        (None, true) => Some(resolve_home(None)?),
        (None, false) => None,
    };
    if let Some(home) = home {
        let files = all_rollout_files(&home).map_err(|source| SessionArgsError::Sessions {
            home: home.root.clone(),
            source,
        })?;
        sessions.extend(files.into_iter().map(|file| NamedSession::File(file.path)));
    }
    Ok(once_each(sessions))
}

/// [`expand_session_args`] for commands that report every named input in its place
/// (`validate`, `inspect`): a path that cannot be looked at, or a folder that holds no rollout
/// file, stays in the list as given, so the command reports why it could not be read there
/// instead of stopping before the others.
pub fn expand_session_args_keeping_each(
    args: &[PathBuf],
    home: Option<&Path>,
) -> Result<Vec<NamedSession>, SessionArgsError> {
    let mut sessions = Vec::new();
    for arg in args {
        if let Some(file) = thread_file_named(arg, home)? {
            sessions.push(NamedSession::File(file));
            continue;
        }
        let stdin = arg.as_os_str() == STDIN_ARG;
        let expanded = (stdin || arg.exists())
            .then(|| expand_one(arg, None).ok())
            .flatten();
        match expanded {
            Some(expanded) if stdin || !(arg.is_dir() && expanded.is_empty()) => {
                sessions.extend(expanded);
            }
            _ => sessions.push(NamedSession::File(arg.clone())),
        }
    }
    if home.is_some() {
        sessions.extend(expand_session_args(&[], home, false)?);
    }
    Ok(once_each(sessions))
}

/// The sessions one argument names (see the module docs).
fn expand_one(arg: &Path, home: Option<&Path>) -> Result<Vec<NamedSession>, SessionArgsError> {
    if arg.as_os_str() == STDIN_ARG {
        return Ok(vec![NamedSession::Stdin]);
    }
    if let Some(file) = thread_file_named(arg, home)? {
        return Ok(vec![NamedSession::File(file)]);
    }
    let metadata = std::fs::metadata(arg).map_err(|source| SessionArgsError::Path {
        path: arg.to_path_buf(),
        source,
    })?;
    if !metadata.is_dir() {
        return Ok(vec![NamedSession::File(arg.to_path_buf())]);
    }
    let files = rollout_files_under(arg).map_err(|source| SessionArgsError::Folder {
        path: arg.to_path_buf(),
        source,
    })?;
    Ok(files.into_iter().map(NamedSession::File).collect())
}

/// `sessions` with each file once, where it first appeared (given, then found again in a
/// folder or the home).
fn once_each(mut sessions: Vec<NamedSession>) -> Vec<NamedSession> {
    let mut seen = HashSet::new();
    sessions.retain(|session| match session {
        NamedSession::File(path) => seen.insert(path.clone()),
        NamedSession::Stdin => true,
    });
    sessions
}

#[cfg(test)]
#[path = "session_args_tests.rs"]
mod tests;
