//! A paginated file whose ordinals repeat, go backwards or are missing, written again with
//! ordinals Codex can follow ([`rewrite_ordinals`]).
//!
//! Codex 0.169 projects a paginated file by its lines' ordinals: a line whose ordinal is not
//! above the one before is skipped with every line after it, and a last line without one stops
//! the thread from resuming (`reference/codex-state.md`). The rewrite keeps every ordinal that
//! is above the one before and gives each other line the one after it (a line without one gets
//! it too), editing only the digits of `"ordinal":N` (or adding the field after the line's
//! opening brace): every other byte stays. The new file is written beside the old, checked
//! line by line (each parses to the same line but for its ordinal, and the ordinals rise), given
//! the old file's modification time and renamed over it; the old file is first copied into the
//! home's trash (`trash/<unix seconds>/<its path under the home>`, where `prune --empty-trash`
//! lets it go after the grace period). Killed at any moment, the home holds the old file or the
//! new one, never a part of either.

use std::fs::{File, FileTimes};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use codex_protocol::rollout::RolloutLine;
use codex_rollout::CodexHome;

use codex_rollout::{WhenMissing, line_ordinal as envelope_ordinal, with_line_ordinal};

/// The lines of a file with ordinals that rise (see the module docs); `None` when they
/// already do.
pub(crate) fn renumbered(lines: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let mut previous: Option<u64> = None;
    let mut changed = false;
    let mut out = Vec::with_capacity(lines.len());
    for raw in lines {
        if raw.iter().all(u8::is_ascii_whitespace) {
            out.push(raw.clone());
            continue;
        }
        let found = envelope_ordinal(raw);
        let wanted = match (found, previous) {
            (Some(ordinal), Some(before)) if ordinal > before => ordinal,
            (Some(ordinal), None) => ordinal,
            (_, Some(before)) => before + 1,
            (None, None) => 0,
        };
        previous = Some(wanted);
        if found == Some(wanted) {
            out.push(raw.clone());
        } else {
            changed = true;
            out.push(
                with_line_ordinal(raw, wanted, WhenMissing::Add).unwrap_or_else(|| raw.clone()),
            );
        }
    }
    changed.then_some(out)
}

/// Why a file could not be rewritten.
#[derive(Debug, thiserror::Error)]
pub enum RewriteError {
    /// The file (or its trash copy, or the new file) could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The new file does not say what the old one did; nothing was replaced.
    #[error("{}: line {line} would change beyond its ordinal; nothing was replaced", path.display())]
    NotTheSame {
        /// The file.
        path: PathBuf,
        /// The first line that differs.
        line: usize,
    },
}

/// Writes the paginated file `path` of `home` again with rising ordinals (see the module
/// docs); the trash copy of the old file, or `None` when its ordinals already rise.
pub(crate) fn rewrite_ordinals(
    home: &CodexHome,
    path: &Path,
    stamp: u64,
) -> Result<Option<PathBuf>, RewriteError> {
    let io_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| RewriteError::Io { path, source }
    };
    let file = File::open(path).map_err(io_error(path))?;
    let modified = file
        .metadata()
        .and_then(|metadata| metadata.modified())
        .map_err(io_error(path))?;
    let mut lines = Vec::new();
    for line in BufReader::new(file).split(b'\n') {
        lines.push(line.map_err(io_error(path))?);
    }
    let Some(new_lines) = renumbered(&lines) else {
        return Ok(None);
    };
    for (number, (old, new)) in lines.iter().zip(&new_lines).enumerate() {
        if !same_but_ordinal(old, new) {
            return Err(RewriteError::NotTheSame {
                path: path.to_path_buf(),
                line: number + 1,
            });
        }
    }
    // The old file's copy in the trash, first.
    let relative = path.strip_prefix(&home.root).unwrap_or(path);
    let kept = home
        .root
        .join(crate::TRASH_SUBDIR)
        .join(stamp.to_string())
        .join(relative);
    if let Some(folder) = kept.parent() {
        std::fs::create_dir_all(folder).map_err(io_error(folder))?;
    }
    std::fs::copy(path, &kept).map_err(io_error(&kept))?;
    File::open(&kept)
        .and_then(|copy| copy.sync_all())
        .map_err(io_error(&kept))?;
    // The new file beside the old, then over it.
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = path.parent().unwrap_or(Path::new("."));
    let temporary = folder.join(format!(".{name}.repairing"));
    let written = (|| -> io::Result<()> {
        let mut out = File::create(&temporary)?;
        let last = new_lines.len().saturating_sub(1);
        for (index, line) in new_lines.iter().enumerate() {
            out.write_all(line)?;
            // The old file's last line ended as it did (`split` drops a final empty piece).
            if index < last || ends_with_newline(path)? {
                out.write_all(b"\n")?;
            }
        }
        out.set_times(FileTimes::new().set_modified(modified))?;
        out.sync_all()?;
        std::fs::rename(&temporary, path)?;
        File::open(folder)?.sync_all()
    })();
    if let Err(source) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(RewriteError::Io {
            path: path.to_path_buf(),
            source,
        });
    }
    Ok(Some(kept))
}

/// Whether the file at `path` ends with a newline.
fn ends_with_newline(path: &Path) -> io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// Whether `old` and `new` are the same rollout line but for the ordinal (or both unreadable
/// and equal).
fn same_but_ordinal(old: &[u8], new: &[u8]) -> bool {
    if old == new {
        return true;
    }
    let parse = |raw: &[u8]| serde_json::from_slice::<RolloutLine>(raw).ok();
    match (parse(old), parse(new)) {
        (Some(mut old), Some(mut new)) => {
            old.ordinal = None;
            new.ordinal = None;
            serde_json::to_value(&old).ok() == serde_json::to_value(&new).ok()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(ordinal: Option<u64>) -> Vec<u8> {
        match ordinal {
            Some(n) => format!(
                r#"{{"timestamp":"2025-06-02T09:00:00.000Z","ordinal":{n},"type":"event_msg","payload":{{"type":"warning","message":"w"}}}}"#
            ),
            None => r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"event_msg","payload":{"type":"warning","message":"w"}}"#.to_owned(),
        }
        .into_bytes()
    }

    #[test]
    fn ordinals_that_do_not_rise_are_given_the_next_and_nothing_else_changes() {
        let lines = vec![
            line(Some(0)),
            line(Some(1)),
            line(Some(1)),
            line(Some(0)),
            line(None),
        ];
        let fixed = renumbered(&lines).unwrap_or_default();
        let ordinals: Vec<Option<u64>> = fixed.iter().map(|raw| envelope_ordinal(raw)).collect();
        assert_eq!(ordinals, [Some(0), Some(1), Some(2), Some(3), Some(4)]);
        for (old, new) in lines.iter().zip(&fixed) {
            assert!(same_but_ordinal(old, new));
        }
        assert_eq!(
            renumbered(&fixed),
            None,
            "rising ordinals are left as they are"
        );
    }
}
