//! Full-text search over every session of a home, through an SQLite FTS5 index (SQLite is
//! compiled in, nothing needs installing; this crate is the only one that builds it).
//!
//! The index is a cache, never the source of truth: it can be deleted at any time and is
//! rebuilt from the session files. [`SearchIndex::update`] brings it up to date with a home
//! before a query reads it: a file that grew is read from the end of its last complete line
//! (a half-written last line waits for its `\n`), a file rewritten, shrunk or recompressed is
//! read again, a file that went away is dropped. What is indexed of each item is decided in
//! one place ([`extract`]); user-turn numbers come from the turn index's streaming rule
//! ([`codex_rollout::TurnTally`]).
//!
//! Several processes may update and query one index at once: the database is in WAL mode
//! (readers never wait for a writer), writers wait for each other ([`BUSY_TIMEOUT`]) and hold
//! the write lock only to store one batch of one file, and each batch is stored only if the
//! file's row still says what the reader started from (otherwise another process indexed
//! that file meanwhile and the batch is dropped). A file that is not an index, or an index
//! of another schema, is deleted and rebuilt, and [`SearchIndex::rebuilt`] says why.
//!
//! ```
//! use codex_home::{Query, SearchIndex};
//! use codex_rollout::CodexHome;
//!
//! let dir = tempfile::tempdir()?;
//! let day = dir.path().join("sessions/2025/09/25");
//! std::fs::create_dir_all(&day)?;
//! std::fs::write(
//!     day.join("rollout-2025-09-25T01-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"),
//!     concat!(
//!         r#"{"timestamp":"2025-09-25T01:22:20.083Z","type":"response_item","payload":"#,
//!         r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the flaky parser test"}]}}"#,
//!         "\n",
//!     ),
//! )?;
//! let mut index = SearchIndex::open(&dir.path().join("index.sqlite"))?;
//! index.update(&CodexHome::new(dir.path()))?;
//! let hits = index.search(&CodexHome::new(dir.path()), &Query::new("flaky pars"))?;
//! assert_eq!(hits.len(), 1);
//! assert_eq!(hits[0].snippet, "fix the [flaky] [pars]er test");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

use codex_rollout::CodexHome;

mod anchor;
mod extract;
mod identity;
mod query;
mod read;
mod row;
mod schema;
mod snippet;
mod store;
mod syntax;
mod update;

pub use anchor::HitAnchor;
pub use extract::{OUTPUT_CAP, Role, TextKind};
pub use query::{Hit, Order, Query};
pub use syntax::Syntax;
pub use update::UpdateReport;

/// How long a writer waits for another process's write lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Why the index could not be opened, updated or queried.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// SQLite refused an operation on the index at `path`.
    #[error("search index {path}: {source}")]
    Index {
        /// The index file.
        path: PathBuf,
        /// SQLite's answer.
        #[source]
        source: rusqlite::Error,
    },
    /// The filesystem refused an operation on `path`.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being attempted.
        action: &'static str,
        /// The file or folder concerned.
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The query has nothing to look for, or is not valid FTS5 syntax ([`Syntax::Fts`]).
    #[error("bad search query {query:?}: {message}")]
    Query {
        /// The query as given.
        query: String,
        /// SQLite's explanation.
        message: String,
    },
    /// The system has no cache directory to put the index in.
    #[error("no cache directory found for the search index; pass --index PATH")]
    NoCacheDir,
    /// The home's sessions could not be listed.
    #[error(transparent)]
    Home(#[from] codex_rollout::RolloutError),
}

/// The result type of this module.
pub(crate) type Result<T, E = SearchError> = std::result::Result<T, E>;

/// An open search index (see the module docs).
#[derive(Debug)]
pub struct SearchIndex {
    conn: Connection,
    path: PathBuf,
    rebuilt: Option<String>,
    /// Build as the index was built before texts were shared and lines skipped by their tags
    /// (every line parsed, one text per entry): only the tests set it, to compare answers.
    plain_build: bool,
}

impl SearchIndex {
    /// Where the index lives by default: `<user cache dir>/codex-thread/index.sqlite`.
    pub fn default_path() -> Result<PathBuf> {
        dirs::cache_dir()
            .map(|dir| dir.join("codex-thread").join("index.sqlite"))
            .ok_or(SearchError::NoCacheDir)
    }

    /// Opens (or creates) the index at `path`, creating its folder. A file there that is not
    /// an index of this schema is replaced by an empty one ([`SearchIndex::rebuilt`]).
    pub fn open(path: &Path) -> Result<Self> {
        let (conn, rebuilt) = schema::open(path)?;
        Ok(Self {
            conn,
            path: path.to_path_buf(),
            rebuilt,
            plain_build: false,
        })
    }

    /// Opens the index at `path` only when it exists (for look-ups that must not create
    /// one); a broken index is `None` too.
    pub fn open_existing(path: &Path) -> Option<Self> {
        if !path.is_file() {
            return None;
        }
        let conn = schema::open_valid(path).ok()?;
        Some(Self {
            conn,
            path: path.to_path_buf(),
            rebuilt: None,
            plain_build: false,
        })
    }

    /// The index file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the index was recreated when it was opened (a corrupt file, another schema), if
    /// it was: worth telling the person, since the first query then reads every file.
    pub fn rebuilt(&self) -> Option<&str> {
        self.rebuilt.as_deref()
    }

    /// Brings the index up to date with every session file of `home` (see the module docs).
    /// A file that cannot be read is skipped with a warning and counted.
    pub fn update(&mut self, home: &CodexHome) -> Result<UpdateReport> {
        self.update_with(home, &mut |_| {})
    }

    /// [`SearchIndex::update`], calling `progress` with the bytes of each file as it is done
    /// (for a progress bar).
    pub fn update_with(
        &mut self,
        home: &CodexHome,
        progress: &mut dyn FnMut(u64),
    ) -> Result<UpdateReport> {
        let files = crate::list::all_rollout_files(home)?;
        let key = home_key(home);
        update::update(
            &mut self.conn,
            &self.path,
            &key,
            &files,
            self.plain_build,
            progress,
        )
    }

    /// The entries of `home` that match `query`.
    pub fn search(&self, home: &CodexHome, query: &Query) -> Result<Vec<Hit>> {
        query::search(&self.conn, &self.path, &home_key(home), query)
    }

    /// The indexed files of `home` whose thread id starts with `prefix` (lower case), as
    /// `(thread id, path)`, in path order.
    pub fn files_with_thread_prefix(
        &self,
        home: &CodexHome,
        prefix: &str,
    ) -> Result<Vec<(String, PathBuf)>> {
        query::files_with_thread_prefix(&self.conn, &self.path, &home_key(home), prefix)
    }
}

/// Opens the index at `path`, updates it with `home` and runs `query`; an index found
/// corrupt while doing so is deleted and rebuilt once (the report says so).
pub fn update_and_search(
    path: &Path,
    home: &CodexHome,
    query: &Query,
    progress: &mut dyn FnMut(u64),
) -> Result<(Vec<Hit>, UpdateReport, Option<String>)> {
    let attempt = |progress: &mut dyn FnMut(u64)| -> Result<_> {
        let mut index = SearchIndex::open(path)?;
        let report = index.update_with(home, progress)?;
        let hits = index.search(home, query)?;
        Ok((hits, report, index.rebuilt))
    };
    match attempt(progress) {
        Err(SearchError::Index { source, .. }) if schema::is_corruption(&source) => {
            schema::remove(path)?;
            let (hits, report, _) = attempt(progress)?;
            Ok((
                hits,
                report,
                Some(format!("the index was corrupt ({source}); rebuilt it")),
            ))
        }
        other => other,
    }
}

/// How a home is named in the index: its root, absolute when it can be made so.
fn home_key(home: &CodexHome) -> String {
    let root = &home.root;
    std::fs::canonicalize(root)
        .unwrap_or_else(|_| root.to_path_buf())
        .display()
        .to_string()
}

/// Why reading or storing one file failed (the update reports it and goes on).
pub(crate) enum Failure {
    Io(std::io::Error),
    Sql(rusqlite::Error),
}

impl From<rusqlite::Error> for Failure {
    fn from(error: rusqlite::Error) -> Self {
        Self::Sql(error)
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Self {
        Self::Io(error)
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
