#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use pretty_assertions::assert_eq;

use super::*;

const ID: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a01";

/// A thread of two pieces (the older, then one written after a revert), as files under
/// `sessions/`.
fn two_pieces(home: &Path) -> Vec<PathBuf> {
    let day = home.join("sessions/2025/06/02");
    std::fs::create_dir_all(&day).unwrap();
    let pieces = vec![
        day.join(format!("rollout-2025-06-02T09-00-00-{ID}.jsonl")),
        day.join(format!(
            "rollout-2025-06-02T10-00-00-{ID}_0197a2c4-5e00-7c3a-9d41-2f6b8e1c0b02.jsonl"
        )),
    ];
    for (i, piece) in pieces.iter().enumerate() {
        std::fs::write(piece, format!("piece {i}\n")).unwrap();
    }
    pieces
}

fn thread() -> ThreadId {
    ThreadId::from_string(ID).unwrap()
}

fn in_trash(folder: &Path, home: &Path, file: &Path) -> PathBuf {
    folder.join(file.strip_prefix(home).unwrap())
}

#[test]
fn a_delete_whose_file_is_no_longer_there_moves_nothing_and_leaves_no_marker() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let pieces = two_pieces(dir.path());
    let elsewhere = dir.path().join("elsewhere.jsonl");
    std::fs::rename(&pieces[1], &elsewhere).unwrap();
    let err = move_to_trash(&home, thread(), &pieces, SystemTime::now()).unwrap_err();
    assert!(
        err.to_string().contains(&*pieces[1].to_string_lossy()),
        "{err}"
    );
    assert!(pieces[0].exists());
    assert!(pending_deletes(&home).is_empty());
}

#[test]
fn a_delete_killed_before_any_file_moved_is_dropped_and_codex_is_not_asked() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let pieces = two_pieces(dir.path());
    let folder = move_to_trash(&home, thread(), &pieces, SystemTime::now()).unwrap();
    // As if killed after the marker, before the first rename.
    for piece in &pieces {
        std::fs::rename(in_trash(&folder, dir.path(), piece), piece).unwrap();
    }
    assert_eq!(resume_delete(&folder, thread()).unwrap(), Resume::Dropped);
    assert!(pending_deletes(&home).is_empty());
    assert!(pieces.iter().all(|piece| piece.exists()));
}

#[test]
fn a_delete_killed_between_two_files_moves_the_rest_before_codex_forgets() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let pieces = two_pieces(dir.path());
    let folder = move_to_trash(&home, thread(), &pieces, SystemTime::now()).unwrap();
    // Killed after the first rename: the newest piece, the one Codex's row names (which
    // `codex delete --force` would remove), is still in `sessions/`.
    std::fs::rename(in_trash(&folder, dir.path(), &pieces[1]), &pieces[1]).unwrap();
    assert_eq!(resume_delete(&folder, thread()).unwrap(), Resume::Forget);
    for (i, piece) in pieces.iter().enumerate() {
        assert!(!piece.exists());
        assert_eq!(
            std::fs::read_to_string(in_trash(&folder, dir.path(), piece)).unwrap(),
            format!("piece {i}\n")
        );
    }
    assert_eq!(pending_deletes(&home), vec![(folder.clone(), thread())]);
    finish_delete(&folder, thread()).unwrap();
    assert!(pending_deletes(&home).is_empty());
}

#[test]
fn a_file_moved_elsewhere_meanwhile_leaves_the_delete_pending_and_touches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let pieces = two_pieces(dir.path());
    let folder = move_to_trash(&home, thread(), &pieces, SystemTime::now()).unwrap();
    // The newest piece never moved, and something else (an archive) took it meanwhile.
    let archived = dir.path().join("archived_sessions");
    std::fs::create_dir_all(&archived).unwrap();
    let elsewhere = archived.join(pieces[1].file_name().unwrap());
    std::fs::rename(in_trash(&folder, dir.path(), &pieces[1]), &elsewhere).unwrap();
    let Resume::Stuck(why) = resume_delete(&folder, thread()).unwrap() else {
        panic!("resumed a delete whose file is elsewhere");
    };
    assert!(
        why.contains("neither in the trash nor where it was"),
        "{why}"
    );
    assert!(elsewhere.exists());
    assert_eq!(pending_deletes(&home), vec![(folder, thread())]);
}

#[test]
fn a_marker_from_before_markers_named_their_files_is_read_by_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join(TRASH_SUBDIR).join("1796173653");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(format!("{PENDING_PREFIX}{ID}")), b"").unwrap();
    assert_eq!(resume_delete(&folder, thread()).unwrap(), Resume::Dropped);
    let pieces = two_pieces(dir.path());
    std::fs::write(folder.join(format!("{PENDING_PREFIX}{ID}")), b"").unwrap();
    let moved = in_trash(&folder, dir.path(), &pieces[0]);
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&pieces[0], &moved).unwrap();
    assert_eq!(resume_delete(&folder, thread()).unwrap(), Resume::Forget);
}
