//! What counts as a Codex home: the one rule every command that takes `--home` applies
//! before it reads (or writes) anything there, so a mistyped home is the same clear error
//! everywhere instead of an empty answer.
//!
//! A Codex home is an existing folder holding at least one thing Codex writes there: the
//! `sessions/` or `archived_sessions/` folder, the thread name index
//! (`session_index.jsonl`), the prompt history (`history.jsonl`), `config.toml`,
//! `auth.json`, `version.json`, or a state database (`state.sqlite`, `state_*.sqlite`).
//! Codex creates one of them on its first run, so a home it has used always passes; an empty
//! or unrelated folder does not.

use std::path::{Path, PathBuf};

use codex_rollout::CodexHome;

/// The entries whose presence makes a folder a Codex home (besides a state database).
pub(crate) const HOME_MARKERS: &[&str] = &[
    "sessions",
    "archived_sessions",
    "session_index.jsonl",
    "history.jsonl",
    "config.toml",
    "auth.json",
    "version.json",
];

/// Why a folder is not a Codex home.
#[derive(Debug, thiserror::Error)]
pub enum NotAHome {
    /// No folder was named and there is no default one (no `$CODEX_HOME`, no `$HOME`).
    #[error("cannot find the Codex home ({0}); pass --home DIR")]
    Unnamed(codex_rollout::RolloutError),
    /// Nothing is at the path.
    #[error("Codex home {path} does not exist")]
    Missing {
        /// The home folder asked for.
        path: PathBuf,
    },
    /// The path is a file, not a folder.
    #[error("Codex home {path} is not a folder")]
    NotAFolder {
        /// The home folder asked for.
        path: PathBuf,
    },
    /// The folder holds nothing Codex writes.
    #[error(
        "{path} is not a Codex home: it holds no sessions/, archived_sessions/, \
         session_index.jsonl, history.jsonl, config.toml, auth.json, version.json or \
         state database"
    )]
    Unmarked {
        /// The home folder asked for.
        path: PathBuf,
    },
    /// The folder could not be read.
    #[error("cannot read Codex home {path}: {source}")]
    Unreadable {
        /// The home folder asked for.
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
}

impl NotAHome {
    /// Whether the command line is to blame (no home named and none by default), not the
    /// folder.
    pub fn is_usage(&self) -> bool {
        matches!(self, Self::Unnamed(_))
    }
}

/// The Codex home named by `home`, else `$CODEX_HOME`, else `~/.codex`, when it is one
/// ([`check_home`]): the home every command that reads one reads.
pub fn resolve_home(home: Option<&Path>) -> Result<CodexHome, NotAHome> {
    let home = CodexHome::resolve(home.map(Path::to_path_buf)).map_err(NotAHome::Unnamed)?;
    check_home(&home)?;
    Ok(home)
}

/// Whether `home` is a Codex home (module docs); reads the folder's entries, writes nothing.
pub fn check_home(home: &CodexHome) -> Result<(), NotAHome> {
    let path = home.root.clone();
    let metadata = match std::fs::metadata(&path) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Err(NotAHome::Missing { path });
        }
        Err(source) => return Err(NotAHome::Unreadable { path, source }),
    };
    if !metadata.is_dir() {
        return Err(NotAHome::NotAFolder { path });
    }
    if HOME_MARKERS
        .iter()
        .any(|marker| path.join(marker).symlink_metadata().is_ok())
    {
        return Ok(());
    }
    let entries = match std::fs::read_dir(&path) {
        Ok(entries) => entries,
        Err(source) => return Err(NotAHome::Unreadable { path, source }),
    };
    let is_state_database = |name: &str| {
        name.starts_with("state") && (name.ends_with(".sqlite") || name.ends_with(".db"))
    };
    let marked = entries
        .flatten()
        .any(|entry| entry.file_name().to_str().is_some_and(is_state_database));
    if marked {
        Ok(())
    } else {
        Err(NotAHome::Unmarked { path })
    }
}

#[cfg(test)]
#[path = "home_rule_tests.rs"]
mod tests;
