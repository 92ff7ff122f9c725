//! Reading an `apply_patch` patch into the file changes a client is shown.
//!
//! The format is the harness's own: `*** Begin Patch`, then one section per file
//! (`*** Add File: <path>` with `+` lines, `*** Delete File: <path>`, or
//! `*** Update File: <path>`, an optional `*** Move to: <path>` and its hunks), then
//! `*** End Patch`.
//!
//! Why here: the turn driver announces a patch before it is applied, a transcript shows a
//! recorded one, and neither opens files. So nothing is read from disk: a deleted file's content is unknown (empty), and an update's
//! diff is the patch's own hunks (`@@` headers, context, `-` and `+` lines, without line
//! numbers), not a diff computed against the file.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::items::FileChange;

const BEGIN_PATCH: &str = "*** Begin Patch";
const END_PATCH: &str = "*** End Patch";
const ADD_FILE: &str = "*** Add File: ";
const DELETE_FILE: &str = "*** Delete File: ";
const UPDATE_FILE: &str = "*** Update File: ";
const MOVE_TO: &str = "*** Move to: ";

/// The changes of `patch`, keyed by the paths as the patch writes them; `None` when it is not
/// a well-formed patch (no begin or end marker, a line outside any file section, an added
/// line without its `+`, or no file at all), which the tool would refuse without changing
/// anything.
pub(crate) fn parse_patch(patch: &str) -> Option<BTreeMap<String, FileChange>> {
    let mut lines = patch.lines().map(|line| line.trim_end_matches('\r'));
    let first = lines.by_ref().find(|line| !line.trim().is_empty())?;
    if first.trim() != BEGIN_PATCH {
        return None;
    }
    let mut changes = BTreeMap::new();
    let mut section: Option<Section> = None;
    for line in lines {
        if line.trim() == END_PATCH {
            if let Some(done) = section.take() {
                done.insert_into(&mut changes);
            }
            return (!changes.is_empty()).then_some(changes);
        }
        if let Some(next) = Section::start(line) {
            if let Some(done) = section.replace(next) {
                done.insert_into(&mut changes);
            }
            continue;
        }
        match section.as_mut() {
            Some(current) => current.push(line)?,
            None if line.trim().is_empty() => {}
            None => return None,
        }
    }
    None
}

/// The file section being read.
enum Section {
    Add {
        path: String,
        content: String,
    },
    Delete {
        path: String,
    },
    Update {
        path: String,
        move_path: Option<String>,
        diff: String,
    },
}

impl Section {
    /// The section a header line opens, if it is one.
    fn start(line: &str) -> Option<Self> {
        if let Some(path) = line.strip_prefix(ADD_FILE) {
            return Some(Self::Add {
                path: path.trim().to_string(),
                content: String::new(),
            });
        }
        if let Some(path) = line.strip_prefix(DELETE_FILE) {
            return Some(Self::Delete {
                path: path.trim().to_string(),
            });
        }
        line.strip_prefix(UPDATE_FILE).map(|path| Self::Update {
            path: path.trim().to_string(),
            move_path: None,
            diff: String::new(),
        })
    }

    /// Takes one body line; `None` when the line has no place in this section.
    fn push(&mut self, line: &str) -> Option<()> {
        match self {
            Self::Add { content, .. } => {
                let added = line.strip_prefix('+')?;
                content.push_str(added);
                content.push('\n');
            }
            Self::Delete { .. } => {
                if !line.trim().is_empty() {
                    return None;
                }
            }
            Self::Update {
                move_path, diff, ..
            } => match line.strip_prefix(MOVE_TO) {
                Some(target) if move_path.is_none() && diff.is_empty() => {
                    *move_path = Some(target.trim().to_string());
                }
                _ => {
                    diff.push_str(line);
                    diff.push('\n');
                }
            },
        }
        Some(())
    }

    fn insert_into(self, changes: &mut BTreeMap<String, FileChange>) {
        let (path, change) = match self {
            Self::Add { path, content } => (path, FileChange::Add { content }),
            Self::Delete { path } => (
                path,
                FileChange::Delete {
                    content: String::new(),
                },
            ),
            Self::Update {
                path,
                move_path,
                diff,
            } => (
                path,
                FileChange::Update {
                    unified_diff: diff,
                    move_path: move_path.map(PathBuf::from),
                },
            ),
        };
        changes.insert(path, change);
    }
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;
