//! Where one writer's files live in the output folder, and the lock that keeps it one writer.
//!
//! Two layouts, never mixed in one folder (an engine cannot read a table whose folders are
//! partitioned two ways):
//!
//! - **one person** (no `--person`): `OUT/<table>/day=YYYY-MM-DD/part-0.parquet`, the manifest
//!   at `OUT/manifest.json`;
//! - **a team** (`--person NAME`): `OUT/<table>/person=NAME/day=YYYY-MM-DD/part-0.parquet`,
//!   the manifest at `OUT/_manifests/person=NAME/manifest.json`. The partition sits below the
//!   table's folder, where Spark, Trino, Hive and DuckDB all look for partitions, so any number
//!   of people write into one shared folder (or sync into one bucket prefix) and each touches
//!   only the folders named after them.
//!
//! One run at a time per writer: a run holds an exclusive advisory lock on `.table.lock` in its
//! manifest's folder for as long as it writes (the kernel lets it go when the process dies,
//! however it dies). Two people never share a lock, a manifest or a partition.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use chrono::NaiveDate;

use super::TableError;
use super::rows::Table;

/// The folder under the output that holds the team layout's manifests, one per person.
const MANIFESTS_DIR: &str = "_manifests";

/// The lock file, in the manifest's folder.
const LOCK_FILE: &str = ".table.lock";

/// The longest person name.
const MAX_PERSON_LEN: usize = 64;

/// A partition: a table and a day.
pub(crate) type PartitionKey = (Table, NaiveDate);

/// One writer's place in an output folder.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    out: PathBuf,
    person: Option<String>,
}

/// A held writer lock: dropped (or the process gone), the next run may start.
#[derive(Debug)]
pub(crate) struct WriterGuard {
    _file: File,
}

impl Layout {
    /// The layout of `person`'s tables under `out` (one person's when `None`); a name an
    /// engine would not read back as written is refused.
    pub(crate) fn new(out: &Path, person: Option<&str>) -> Result<Self, TableError> {
        if let Some(name) = person {
            check_person(name)?;
        }
        Ok(Self {
            out: out.to_path_buf(),
            person: person.map(str::to_string),
        })
    }

    /// The folder of one table's partitions of this writer: `OUT/<table>[/person=NAME]`.
    pub(crate) fn table_dir(&self, table: Table) -> PathBuf {
        let dir = self.out.join(table.name());
        match &self.person {
            Some(name) => dir.join(format!("person={name}")),
            None => dir,
        }
    }

    /// The folder of a partition.
    pub(crate) fn partition_dir(&self, (table, day): PartitionKey) -> PathBuf {
        self.table_dir(table)
            .join(format!("day={}", day.format("%Y-%m-%d")))
    }

    /// The folder that holds this writer's manifest and lock.
    pub(crate) fn manifest_dir(&self) -> PathBuf {
        match &self.person {
            Some(name) => self.out.join(MANIFESTS_DIR).join(format!("person={name}")),
            None => self.out.clone(),
        }
    }

    /// Every partition of this writer on disk (`day=YYYY-MM-DD` folders of its tables).
    pub(crate) fn partitions_on_disk(&self) -> Vec<PartitionKey> {
        let mut keys = Vec::new();
        for table in Table::ALL {
            for (_, day) in self.day_dirs(table) {
                keys.push((table, day));
            }
        }
        keys
    }

    /// The `day=` folders of one of this writer's tables.
    pub(crate) fn day_dirs(&self, table: Table) -> Vec<(PathBuf, NaiveDate)> {
        let Ok(entries) = std::fs::read_dir(self.table_dir(table)) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name();
                let day = name
                    .to_str()?
                    .strip_prefix("day=")
                    .and_then(|day| NaiveDate::parse_from_str(day, "%Y-%m-%d").ok())?;
                Some((entry.path(), day))
            })
            .collect()
    }

    /// Creates the folders, refuses a folder laid out the other way, and takes the writer
    /// lock without waiting: a second run for the same writer is refused while one runs.
    pub(crate) fn lock(&self) -> Result<WriterGuard, TableError> {
        self.check_not_mixed()?;
        let dir = self.manifest_dir();
        std::fs::create_dir_all(&dir).map_err(|source| TableError::Write {
            path: dir.clone(),
            source,
        })?;
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| TableError::Write {
                path: path.clone(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => Ok(WriterGuard { _file: file }),
            Err(TryLockError::WouldBlock) => Err(TableError::Busy { path }),
            Err(TryLockError::Error(source)) => Err(TableError::Write { path, source }),
        }
    }

    /// Refuses to write one layout into a folder that holds the other.
    fn check_not_mixed(&self) -> Result<(), TableError> {
        let mixed = |found: PathBuf| TableError::MixedLayout {
            out: self.out.clone(),
            found,
        };
        for table in Table::ALL {
            let Ok(entries) = std::fs::read_dir(self.out.join(table.name())) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let other_layout = match self.person {
                    Some(_) => name.starts_with("day="),
                    None => name.starts_with("person="),
                };
                if other_layout {
                    return Err(mixed(entry.path()));
                }
            }
        }
        let other = match self.person {
            Some(_) => self.out.join(super::MANIFEST_FILE),
            None => self.out.join(MANIFESTS_DIR),
        };
        if other.exists() {
            return Err(mixed(other));
        }
        Ok(())
    }
}

/// A person's name as a partition value every engine reads back as written: a letter, then
/// letters, digits, `.`, `_` or `-` (no character a Hive path escapes, and never a number,
/// which Spark and DuckDB would read as one).
fn check_person(name: &str) -> Result<(), TableError> {
    let mut chars = name.chars();
    let starts_with_letter = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic());
    let rest_allowed = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if starts_with_letter && rest_allowed && name.len() <= MAX_PERSON_LEN {
        return Ok(());
    }
    Err(TableError::Person {
        name: name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_name_is_a_letter_then_letters_digits_dots_dashes_or_underscores() {
        for good in ["alice", "Bob", "a", "carol.smith", "dave_2", "eve-x"] {
            assert!(check_person(good).is_ok(), "{good} refused");
        }
        let long = "a".repeat(MAX_PERSON_LEN + 1);
        for bad in [
            "", "1", "42", "_x", ".x", "-x", "a b", "a/b", "a=b", "a:b", "a%b", "zoë", &long,
        ] {
            assert!(
                matches!(check_person(bad), Err(TableError::Person { .. })),
                "{bad} accepted"
            );
        }
    }

    #[test]
    fn the_team_layout_puts_the_person_below_the_table() -> Result<(), TableError> {
        let layout = Layout::new(Path::new("out"), Some("alice"))?;
        let day = NaiveDate::from_ymd_opt(2026, 2, 3).ok_or(TableError::Person {
            name: "date".to_string(),
        })?;
        assert_eq!(
            layout.partition_dir((Table::TokenUsage, day)),
            Path::new("out/token_usage/person=alice/day=2026-02-03")
        );
        assert_eq!(
            layout.manifest_dir(),
            Path::new("out/_manifests/person=alice")
        );
        let single = Layout::new(Path::new("out"), None)?;
        assert_eq!(
            single.partition_dir((Table::Items, day)),
            Path::new("out/items/day=2026-02-03")
        );
        assert_eq!(single.manifest_dir(), Path::new("out"));
        Ok(())
    }
}
