//! Where session files live: the Codex home and the dated file layout under it.
//!
//! `<home>/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<thread uuid>.jsonl`. The folder
//! date and the file-name time are the session's creation time in **UTC** (upstream uses local
//! time to name files but parses names as UTC; we write what we read, so the listing order and
//! the cursor never depend on the machine's time zone). The time uses `-` instead of `:` so
//! the name is valid on filesystems that forbid colons.
//!
//! Upstream also writes, and this crate reads: `<home>/archived_sessions/` (the same names,
//! flat, not dated), revert copies `rollout-<time>-<thread uuid>_<rollout uuid>.jsonl` (a
//! `thread/revert` keeps the thread id and writes a new file), and compressed files with a
//! `.zst` suffix after `.jsonl` (see [`crate::source`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Datelike, NaiveDateTime, Utc};
use uuid::Uuid;

use crate::error::{Result, RolloutError};
use crate::source::Compression;

mod folders;

pub(crate) use folders::find_rollout_by_rollout_id;
pub use folders::{OrderKey, SessionsFolder, find_first_rollout, folder_files, order_key};

/// Folder under the home that holds live sessions.
pub(crate) const SESSIONS_SUBDIR: &str = "sessions";
/// Folder under the home that holds archived sessions (flat, not dated). This crate lists and
/// finds them but does not archive yet.
pub const ARCHIVED_SESSIONS_SUBDIR: &str = "archived_sessions";
/// What upstream appends to `.jsonl` when it compresses a rollout with zstd.
pub const COMPRESSED_SUFFIX: &str = ".zst";
/// The file in the home where Codex keeps thread names.
pub const SESSION_INDEX_FILE: &str = "session_index.jsonl";
/// The home's configuration file.
const CONFIG_FILE: &str = "config.toml";
/// The provider Codex uses when its config names none.
const DEFAULT_MODEL_PROVIDER: &str = "openai";

/// One line of `session_index.jsonl`.
#[derive(serde::Deserialize)]
struct SessionIndexEntry {
    id: String,
    thread_name: String,
    #[serde(default)]
    updated_at: Option<String>,
}

/// Environment variable that overrides the default home.
pub const CODEX_HOME_ENV: &str = "CODEX_HOME";

const FILE_PREFIX: &str = "rollout-";
const FILE_SUFFIX: &str = ".jsonl";
/// `YYYY-MM-DDThh-mm-ss`: 19 characters.
const FILE_TIME_FORMAT: &str = "%Y-%m-%dT%H-%M-%S";
const FILE_TIME_LEN: usize = 19;

/// The root folder all session files live under.
///
/// Configurable so tests and tools can point at a temporary folder; [`CodexHome::resolve`]
/// gives the default the Codex CLI uses.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodexHome {
    /// The home folder itself.
    pub root: PathBuf,
}

impl CodexHome {
    /// A home at an explicit folder (need not exist yet: it is created on first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The explicit folder if given, else `$CODEX_HOME` (when set and non-empty), else
    /// `~/.codex`.
    pub fn resolve(explicit: Option<PathBuf>) -> Result<Self> {
        Self::resolve_with(explicit, |name| std::env::var_os(name))
    }

    /// [`CodexHome::resolve`] with the environment supplied by the caller, so the rule can be
    /// tested without mutating the process environment.
    pub(crate) fn resolve_with(
        explicit: Option<PathBuf>,
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Self> {
        if let Some(root) = explicit {
            return Ok(Self::new(root));
        }
        if let Some(home) = env(CODEX_HOME_ENV).filter(|v| !v.is_empty()) {
            return Ok(Self::new(home));
        }
        match env("HOME").filter(|v| !v.is_empty()) {
            Some(home) => Ok(Self::new(PathBuf::from(home).join(".codex"))),
            None => Err(RolloutError::NoHome),
        }
    }

    /// `<home>/sessions`.
    pub fn sessions_dir(&self) -> PathBuf {
        self.root.join(SESSIONS_SUBDIR)
    }

    /// `<home>/archived_sessions`.
    pub fn archived_sessions_dir(&self) -> PathBuf {
        self.root.join(ARCHIVED_SESSIONS_SUBDIR)
    }

    /// The name a person gave thread `thread_id` through Codex, if any: Codex keeps names in
    /// `<home>/session_index.jsonl` (`{"id", "thread_name", "updated_at"}` per line), never in
    /// the rollout; of several lines for one thread the newest `updated_at` wins (the later
    /// line on a tie). A missing index names no thread; a line that is not such an object is
    /// passed over, as Codex passes it over.
    pub fn thread_name(&self, thread_id: &str) -> std::io::Result<Option<String>> {
        Ok(self
            .thread_names_where(|id| id == thread_id)?
            .remove(thread_id))
    }

    /// Every thread name of the index, by thread id, by [`Self::thread_name`]'s rule: for a
    /// caller that names many threads (one read of the index, not one per thread).
    pub fn thread_names(&self) -> std::io::Result<std::collections::HashMap<String, String>> {
        self.thread_names_where(|_| true)
    }

    fn thread_names_where(
        &self,
        wanted: impl Fn(&str) -> bool,
    ) -> std::io::Result<std::collections::HashMap<String, String>> {
        let text = match std::fs::read_to_string(self.root.join(SESSION_INDEX_FILE)) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(std::collections::HashMap::new());
            }
            Err(error) => return Err(error),
        };
        let mut newest: std::collections::HashMap<String, (String, String)> =
            std::collections::HashMap::new();
        for line in text.lines() {
            let Ok(entry) = serde_json::from_str::<SessionIndexEntry>(line) else {
                continue;
            };
            if !wanted(&entry.id) {
                continue;
            }
            let updated_at = entry.updated_at.unwrap_or_default();
            match newest.get(&entry.id) {
                Some((at, _)) if updated_at < *at => {}
                _ => {
                    newest.insert(entry.id, (updated_at, entry.thread_name));
                }
            }
        }
        Ok(newest
            .into_iter()
            .map(|(id, (_, name))| (id, name))
            .collect())
    }

    /// The model provider this home's Codex uses for a session that does not record its own
    /// (files before `model_provider` was written): `model_provider` at the top of
    /// `<home>/config.toml`, else Codex's default, `openai`. A config that cannot be read or
    /// parsed gives the default.
    pub fn default_model_provider(&self) -> String {
        self.config()
            .and_then(|config| config.model_provider)
            .unwrap_or_else(|| DEFAULT_MODEL_PROVIDER.to_owned())
    }

    /// The model `model` at the top of `<home>/config.toml` names, when it names one.
    pub fn configured_model(&self) -> Option<String> {
        self.config().and_then(|config| config.model)
    }

    /// The top-level keys of `<home>/config.toml` this crate reads; `None` when it cannot be
    /// read or parsed.
    fn config(&self) -> Option<TopConfig> {
        std::fs::read_to_string(self.root.join(CONFIG_FILE))
            .ok()
            .and_then(|text| toml::from_str::<TopConfig>(&text).ok())
    }

    /// The file a session created at `created` with thread id `thread_id` is written to.
    pub fn rollout_path(&self, created: DateTime<Utc>, thread_id: Uuid) -> PathBuf {
        self.sessions_dir()
            .join(format!("{:04}", created.year()))
            .join(format!("{:02}", created.month()))
            .join(format!("{:02}", created.day()))
            .join(rollout_file_name(created, thread_id))
    }
}

/// The keys of a home's `config.toml` read here.
#[derive(serde::Deserialize)]
struct TopConfig {
    model: Option<String>,
    model_provider: Option<String>,
}

/// The home a rollout file at `path` belongs to, when the path has the home layout:
/// `<home>/sessions/YYYY/MM/DD/<file>` or `<home>/archived_sessions/<file>`. Work that must
/// ask the home about a file given by path (its writer lock) uses it; `None` for a file
/// kept anywhere else.
pub fn home_of_rollout_path(path: &Path) -> Option<CodexHome> {
    let folder = path.parent()?;
    if folder.file_name()? == ARCHIVED_SESSIONS_SUBDIR {
        return Some(CodexHome::new(folder.parent()?));
    }
    let day = folder;
    let month = day.parent()?;
    let year = month.parent()?;
    let sessions = year.parent()?;
    let dated = [(day, 2), (month, 2), (year, 4)].iter().all(|(dir, len)| {
        dir.file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.len() == *len && name.bytes().all(|b| b.is_ascii_digit()))
    });
    if dated && sessions.file_name()? == SESSIONS_SUBDIR {
        return Some(CodexHome::new(sessions.parent()?));
    }
    None
}

/// `rollout-<YYYY-MM-DDThh-mm-ss>-<uuid>.jsonl` for a session created at `created`.
pub(crate) fn rollout_file_name(created: DateTime<Utc>, thread_id: Uuid) -> String {
    format!(
        "{FILE_PREFIX}{}-{}{FILE_SUFFIX}",
        created.format(FILE_TIME_FORMAT),
        thread_id.hyphenated()
    )
}

/// What a session file's name says about it, without opening it.
///
/// The derived order is by creation time, then thread id, then rollout id, then compression;
/// listings walk it in reverse (newest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RolloutFileName {
    /// Creation time, to the second (the name has no finer precision).
    pub created: DateTime<Utc>,
    /// The thread id in the name.
    pub thread_id: Uuid,
    /// The rollout id of a revert copy (`…-<thread uuid>_<rollout uuid>.jsonl`): the file
    /// upstream's `thread/revert` writes keeps the thread id and names the new physical
    /// rollout by this id. `None` for an ordinary file, whose rollout is the thread itself.
    pub rollout_id: Option<Uuid>,
    /// [`Compression::Zstd`] for a `.jsonl.zst` name. The name only suggests it: readers
    /// decide by the file's first bytes.
    pub compression: Compression,
}

impl RolloutFileName {
    /// The rollout this file is: the rollout id of a continuation file, else the thread id
    /// (an ordinary file's rollout is its thread). A `history_base` names a file by this id.
    pub fn rollout(&self) -> Uuid {
        self.rollout_id.unwrap_or(self.thread_id)
    }
}

/// The rollout id of the session file at `path`, from its name ([`RolloutFileName::rollout`]);
/// `None` when the name is not a rollout file name.
pub(crate) fn rollout_id_of_path(path: &Path) -> Option<Uuid> {
    let name = path.file_name()?.to_str()?;
    parse_rollout_file_name(name).map(|name| name.rollout())
}

/// Parses `rollout-<time>-<uuid>.jsonl`, `rollout-<time>-<uuid>_<rollout uuid>.jsonl` (a
/// revert copy), and either with `.zst` appended (compressed). `None` for anything else:
/// listing skips such files.
pub fn parse_rollout_file_name(name: &str) -> Option<RolloutFileName> {
    let (name, compression) = match name.strip_suffix(COMPRESSED_SUFFIX) {
        Some(plain) => (plain, Compression::Zstd),
        None => (name, Compression::Plain),
    };
    let core = name.strip_prefix(FILE_PREFIX)?.strip_suffix(FILE_SUFFIX)?;
    let time = core.get(..FILE_TIME_LEN)?;
    let ids = core.get(FILE_TIME_LEN..)?.strip_prefix('-')?;
    let (thread_id, rollout_id) = match ids.split_once('_') {
        Some((thread, rollout)) => (
            Uuid::parse_str(thread).ok()?,
            Some(Uuid::parse_str(rollout).ok()?),
        ),
        None => (Uuid::parse_str(ids).ok()?, None),
    };
    let naive = NaiveDateTime::parse_from_str(time, FILE_TIME_FORMAT).ok()?;
    Some(RolloutFileName {
        created: naive.and_utc(),
        thread_id,
        rollout_id,
        compression,
    })
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
