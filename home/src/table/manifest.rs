//! `manifest.json`: what the last run wrote, so the next one writes only what changed.
//!
//! One entry per thread: its files (path, size, modification time and content fingerprint)
//! and the days each table's rows of it fall on. A thread is unchanged when its files are the
//! same paths with the same size and time, or, after a file was compressed or moved to
//! `archived_sessions/`, the same fingerprints (decoded length, line count, first and last
//! line). The manifest is written last, after every partition, through a temporary file and
//! a rename: a run cut short leaves the previous manifest, and the next run redoes its work.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::TableError;
use super::rows::Table;

/// The manifest's file name, in the output folder.
pub const MANIFEST_FILE: &str = "manifest.json";

/// A file's content identity: decoded bytes and lines, SHA-256 of its first and last line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Fingerprint {
    pub bytes: u64,
    pub lines: u64,
    pub first_line: String,
    pub last_line: String,
}

/// One file of a thread, as last written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileEntry {
    pub path: PathBuf,
    pub size: u64,
    pub modified_ns: u128,
    pub fingerprint: Fingerprint,
}

/// One thread, as last written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ThreadEntry {
    pub files: Vec<FileEntry>,
    /// Table name to the days its rows of this thread fall on.
    pub days: BTreeMap<String, Vec<NaiveDate>>,
}

impl ThreadEntry {
    pub(crate) fn days_of(&self, table: Table) -> &[NaiveDate] {
        self.days.get(table.name()).map_or(&[], Vec::as_slice)
    }
}

/// The whole manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    /// The schema version the tables were written with; another one rewrites everything.
    pub schema_version: u32,
    /// `--with-text` and `--redact` as last written; a change rewrites everything.
    pub with_text: bool,
    pub redact: bool,
    /// Thread id to entry.
    pub threads: BTreeMap<String, ThreadEntry>,
}

impl Manifest {
    /// The manifest in `dir`; an empty one when there is none, or it cannot be read as one
    /// (then everything is written again).
    pub(crate) fn read(dir: &Path) -> Result<Option<Manifest>, TableError> {
        let path = dir.join(MANIFEST_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(TableError::Write { path, source }),
        };
        match serde_json::from_str(&text) {
            Ok(manifest) => Ok(Some(manifest)),
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "unreadable manifest; writing every table again");
                Ok(None)
            }
        }
    }

    /// Writes the manifest into `dir` through a temporary file and a rename.
    pub(crate) fn write(&self, dir: &Path) -> Result<(), TableError> {
        let path = dir.join(MANIFEST_FILE);
        let temp = dir.join(format!(".{MANIFEST_FILE}.tmp-{}", std::process::id()));
        let error = |source| TableError::Write {
            path: path.clone(),
            source,
        };
        let text = serde_json::to_string_pretty(self)
            .map_err(|source| error(std::io::Error::other(source)))?;
        std::fs::write(&temp, text).map_err(error)?;
        std::fs::rename(&temp, &path).map_err(error)
    }
}
