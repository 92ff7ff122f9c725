//! A thread continued in other files: Codex's registration projects only the newest.
//!
//! `thread/revert` continues a thread in a new file (`rollout-<time>-<thread>_<rollout>.jsonl`,
//! whose `history_base` names the file before it). Codex keys each file's projected history by
//! its rollout id and shows the thread from all of them, but loading such a thread projects only
//! the file its row names, and a thread Codex registers from its files gets a row naming the
//! newest one. So the turns of the earlier files are missing from what Codex shows of a
//! continued thread it did not write itself (seen with 0.169 and 0.171: a thread reverted after
//! its first turn and continued shows only the continuation's turn, in a home that was given
//! both files). Its app-server has no request that loads a thread from another of its files
//! (`thread/resume` with another `path` is refused as "stale path"; archiving and unarchiving
//! keep the row's file), so the row is pointed at each earlier file in turn
//! ([`point_thread_row`], the one column of the one row, after a copy of the database is
//! written beside it, while no Codex holds a thread of the home) and Codex loads it,
//! projecting it, as it does the newest; then the row is pointed back at the newest file, as
//! Codex had it.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use serde_json::json;

use super::codex_server::CodexServer;
use super::{ImportError, as_codex_holds_it};
use crate::codex_state::{STATE_DATABASE, StateWriteError, point_thread_row, row_path};
use crate::writer_lock::held_thread;

/// Has Codex project every one of `pieces` (the files of `thread_id` in `home`, oldest first;
/// Codex registered the thread already), leaving its row on the newest.
pub(crate) fn project_every_piece(
    home: &CodexHome,
    codex: &OsStr,
    thread_id: ThreadId,
    pieces: &[PathBuf],
) -> Result<(), ImportError> {
    let id = thread_id.to_string();
    let failed = |source| ImportError::Pieces {
        thread_id: id.clone(),
        source,
    };
    let Some((newest, earlier)) = pieces.split_last() else {
        return Ok(());
    };
    // Codex's state is written only while no Codex holds a thread of the home.
    if let Some(held) = held_thread(home) {
        return Err(failed(StateWriteError::Held { thread_id: held }));
    }
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let stored = row_path(&home.root, &id)
        .map_err(|source| {
            failed(StateWriteError::Sqlite {
                database: STATE_DATABASE,
                source,
            })
        })?
        .ok_or_else(|| {
            failed(StateWriteError::NoRow {
                thread_id: id.clone(),
            })
        })?;
    let as_codex_names = |piece: &Path| codex_path(&home.root, &stored, pieces, piece);
    for piece in earlier {
        let backup =
            point_thread_row(&home.root, &id, &as_codex_names(piece), stamp).map_err(failed)?;
        tracing::info!(backup = %backup.display(), file = %piece.display(), "thread row pointed at an earlier file");
        // A server that loaded the thread from another file refuses to load it again.
        let mut server = CodexServer::start(codex, home)?;
        server.call(
            "thread/resume",
            json!({"threadId": id, "excludeTurns": true}),
        )?;
        server.call("thread/unsubscribe", json!({"threadId": id}))?;
    }
    // Codex writes a compressed file it loads back plain beside it.
    let newest = as_codex_holds_it(newest);
    point_thread_row(&home.root, &id, &as_codex_names(&newest), stamp).map_err(failed)?;
    Ok(())
}

/// `piece` named as Codex names the files of `root` in its rows: `stored` is its name of one
/// of `pieces` (Codex joins the folder it was given as its home, which may be written
/// otherwise than `root`).
fn codex_path(root: &Path, stored: &Path, pieces: &[PathBuf], piece: &Path) -> PathBuf {
    let relative = |path: &Path| path.strip_prefix(root).ok().map(Path::to_path_buf);
    let codex_root = pieces.iter().find_map(|known| {
        let known = relative(known)?;
        if !stored.ends_with(&known) {
            return None;
        }
        let keep = stored.components().count() - known.components().count();
        Some(stored.components().take(keep).collect::<PathBuf>())
    });
    match (codex_root, relative(piece)) {
        (Some(codex_root), Some(piece)) => codex_root.join(piece),
        _ => std::path::absolute(piece).unwrap_or_else(|_| piece.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_is_named_from_the_home_codex_was_given() {
        let pieces = [
            PathBuf::from("home/sessions/2026/12/04/rollout-a.jsonl"),
            PathBuf::from("home/sessions/2026/12/05/rollout-b.jsonl"),
        ];
        let stored = Path::new("/work/home/sessions/2026/12/05/rollout-b.jsonl");
        assert_eq!(
            codex_path(Path::new("home"), stored, &pieces, &pieces[0]),
            PathBuf::from("/work/home/sessions/2026/12/04/rollout-a.jsonl")
        );
        // A row naming a file of none of the pieces: the piece's own absolute path.
        let elsewhere = Path::new("/other/rollout-c.jsonl");
        assert!(codex_path(Path::new("home"), elsewhere, &pieces, &pieces[1]).is_absolute());
    }
}
