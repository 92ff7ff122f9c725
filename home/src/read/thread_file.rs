//! What a session file's place says of its thread beyond its lines: the history it continues
//! (a fork by reference's parent, a continuation's earlier pieces), and what its home records
//! of it (its name, the provider the home assumes, the file's path and time) and what the
//! home's Codex resumes it with (`ResumedWith`).

use std::collections::HashMap;
use std::path::Path;

use codex_app_server_protocol::BuiltThread;
use codex_app_server_protocol::v2::ThreadFile;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_rollout::{
    CodexHome, SESSION_INDEX_FILE, history_base_of_file, home_of_rollout_path,
    load_rollout_with_base,
};

use super::ReadError;

/// The items of the file at `path` with its history base resolved (the parent's prefix, then
/// its own lines), fed to `feed`, when the file continues another thread's history; `false`
/// when it does not (then nothing is fed). The parent is found through `home`, else the home
/// the file lies in, else the default one; a missing parent is an error that names it.
pub fn feed_with_base(
    path: &Path,
    home: Option<&Path>,
    mut feed: impl FnMut(&RolloutItem),
) -> Result<bool, ReadError> {
    if !continues_another(path) {
        return Ok(false);
    }
    let home = home_of(path, home)?;
    let resolved = load_rollout_with_base(&home, path).map_err(|source| ReadError::Base {
        path: path.to_path_buf(),
        source: Box::new(source),
    })?;
    for item in resolved.items() {
        feed(item);
    }
    Ok(true)
}

/// Whether the file at `path` continues another thread's history (its first line names a
/// `history_base`): a fork by reference or a continuation file.
pub fn continues_another(path: &Path) -> bool {
    matches!(history_base_of_file(path), Ok(Some(_)))
}

/// The home named by `home` (which must be one: [`crate::check_home`]), else the one `path`
/// lies in, else the default one.
pub fn home_of(path: &Path, home: Option<&Path>) -> Result<CodexHome, ReadError> {
    if let Some(root) = home {
        let home = CodexHome::new(root.to_path_buf());
        crate::check_home(&home)?;
        return Ok(home);
    }
    if let Some(home) = home_of_rollout_path(path) {
        return Ok(home);
    }
    CodexHome::resolve(None).map_err(|error| ReadError::NoHome {
        path: path.to_path_buf(),
        message: error.to_string(),
    })
}

/// Adds to `built` (when it has a session meta) what the file at `path` and its home say of
/// the thread beyond its lines: its path, modification time, name and the default provider
/// (the home is `home` when given, else the one the file lies in, else the default one).
pub fn describe_thread_file(
    built: &mut BuiltThread,
    path: &Path,
    home: Option<&Path>,
) -> Result<(), ReadError> {
    if let BuiltThread::Thread(thread) = built {
        let file = thread_file(path, home, &thread.id)?;
        thread.describe_file(file);
    }
    Ok(())
}

/// What `path` and its home say of the thread beyond its lines.
fn thread_file(path: &Path, home: Option<&Path>, thread_id: &str) -> Result<ThreadFile, ReadError> {
    let home = home_of(path, home)?;
    let name = home
        .thread_name(thread_id)
        .map_err(|source| ReadError::Home {
            path: home.root.join(SESSION_INDEX_FILE),
            source,
        })?;
    file_facts(path, name, home.default_model_provider())
}

/// What a home says of its threads, read once to describe many of its files
/// ([`describe_home_file`]): their names and the provider it assumes.
#[derive(Debug, Clone)]
pub(crate) struct HomeThreads {
    /// The threads' names, by id.
    pub(crate) names: HashMap<String, String>,
    default_model_provider: String,
}

impl HomeThreads {
    /// The provider the home assumes for a file that records none.
    pub(crate) fn default_model_provider(&self) -> &str {
        &self.default_model_provider
    }

    /// What `home` says of its threads now.
    pub(crate) fn of(home: &CodexHome) -> Result<Self, ReadError> {
        let names = home.thread_names().map_err(|source| ReadError::Home {
            path: home.root.join(SESSION_INDEX_FILE),
            source,
        })?;
        Ok(Self {
            names,
            default_model_provider: home.default_model_provider(),
        })
    }
}

/// [`describe_thread_file`] of a file of the home `threads` describes.
pub(crate) fn describe_home_file(
    built: &mut BuiltThread,
    path: &Path,
    threads: &HomeThreads,
) -> Result<(), ReadError> {
    if let BuiltThread::Thread(thread) = built {
        let name = threads.names.get(&thread.id).cloned();
        let file = file_facts(path, name, threads.default_model_provider.clone())?;
        thread.describe_file(file);
    }
    Ok(())
}

/// The file's own facts (its absolute path, its modification time) beside its home's.
fn file_facts(
    path: &Path,
    name: Option<String>,
    default_model_provider: String,
) -> Result<ThreadFile, ReadError> {
    let unreadable = |source| ReadError::Home {
        path: path.to_path_buf(),
        source,
    };
    let modified = std::fs::metadata(path)
        .and_then(|metadata| metadata.modified())
        .map_err(unreadable)?;
    let modified_at = modified
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
        });
    let absolute = std::path::absolute(path).map_err(unreadable)?;
    Ok(ThreadFile {
        path: absolute.display().to_string(),
        modified_at,
        name,
        default_model_provider,
    })
}

/// What the home's Codex resumes a thread with, beyond the thread's own file: the model
/// provider (the one its meta records, else the home's) and the model (the one the home's
/// `config.toml` names, whatever the file recorded: Codex 0.171 resumes with it; `None`
/// when the home names none, and Codex then takes its own release's default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumedWith {
    /// The provider the resumed thread's requests go to.
    pub model_provider: String,
    /// The model the home configures, if any.
    pub configured_model: Option<String>,
}

impl ResumedWith {
    /// What `home`'s Codex resumes a thread whose first session meta is `meta` with.
    pub fn of(home: &CodexHome, meta: Option<&SessionMetaLine>) -> Self {
        Self {
            model_provider: meta
                .and_then(|meta| meta.meta.model_provider.clone())
                .unwrap_or_else(|| home.default_model_provider()),
            configured_model: home.configured_model(),
        }
    }
}
