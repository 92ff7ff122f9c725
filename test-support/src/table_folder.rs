//! What a folder of Parquet tables holds, for the tests that stop or kill `table` and compare
//! what it left with what a whole run writes (`home/src/table/commit_tests.rs`,
//! `cli/tests/it/table_crash.rs`).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// Every visible Parquet file of a tables folder with its bytes, the hidden temporary files a
/// run writes before renaming them, and whether a manifest is there; paths relative to the
/// folder.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TableFolder {
    /// `*.parquet` files not starting with `.`: what an engine reads.
    pub parts: BTreeMap<PathBuf, Vec<u8>>,
    /// Files whose name holds `.tmp-`.
    pub temps: Vec<PathBuf>,
    /// Whether a `manifest.json` is anywhere in the folder.
    pub manifest: bool,
}

impl TableFolder {
    /// Reads `out` (nothing when it does not exist).
    pub fn read(out: &Path) -> io::Result<Self> {
        let mut folder = Self::default();
        let mut folders = vec![out.to_path_buf()];
        while let Some(dir) = folders.pop() {
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                Err(error) => return Err(error),
            };
            for entry in entries {
                let path = entry?.path();
                let relative = path.strip_prefix(out).map_err(io::Error::other)?;
                let name = relative
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if path.is_dir() {
                    folders.push(path);
                } else if name.ends_with(".parquet") && !name.starts_with('.') {
                    folder
                        .parts
                        .insert(relative.to_path_buf(), std::fs::read(&path)?);
                } else if name.contains(".tmp-") {
                    folder.temps.push(relative.to_path_buf());
                } else if name == "manifest.json" {
                    folder.manifest = true;
                }
            }
        }
        Ok(folder)
    }

    /// Whether every part file is the one `old` or `new` holds at its path: what a rerun
    /// stopped at any moment leaves.
    pub fn each_part_old_or_new(&self, old: &Self, new: &Self) -> Result<(), PathBuf> {
        for (path, bytes) in &self.parts {
            if old.parts.get(path) != Some(bytes) && new.parts.get(path) != Some(bytes) {
                return Err(path.clone());
            }
        }
        Ok(())
    }
}

/// Copies the folder `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
