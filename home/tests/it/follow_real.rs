//! Following a session as Codex writes it gives the messages a replay of the whole file
//! gives: every real file is cut between two turns, the first part replayed, the rest
//! appended in pieces and followed ([`NotificationReplay::follow`]).

use std::io::Write;
use std::path::Path;

use codex_app_server_protocol::ServerMessage;
use codex_home::{FileInput, HOLD_POLLS, ReadError, replay_notifications};
use codex_rollout::line_tags;
use codex_test_support::{non_empty_lines, real_jsonl_files};

use crate::common::TestResult;

/// The messages of a replay of `path` from its start.
fn replayed(path: &Path) -> Result<Vec<String>, ReadError> {
    let mut messages = Vec::new();
    replay_notifications(&FileInput(path.to_path_buf()), |message| {
        messages.push(text(&message));
        Ok::<_, ReadError>(())
    })?;
    Ok(messages)
}

fn text(message: &ServerMessage) -> String {
    serde_json::to_string(message).unwrap_or_default()
}

/// Where a file is cut: before each turn's start after the first (a client subscribes
/// between turns), else in the middle.
fn cuts(lines: &[Vec<u8>]) -> Vec<usize> {
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, raw)| {
            line_tags(raw).is_some_and(|tags| {
                matches!(tags.payload_type, Some(b"task_started" | b"turn_started"))
            })
        })
        .map(|(at, _)| at)
        .skip(1)
        .collect();
    match starts.as_slice() {
        [] => vec![lines.len() / 2],
        [only] => vec![*only],
        [first, .., last] => vec![*first, *last],
    }
}

#[test]
fn following_a_real_file_as_it_is_written_gives_its_whole_replay() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let mut followed = 0;
    for original in &files {
        let lines = non_empty_lines(original)?;
        let Ok(whole) = replayed(original) else {
            continue;
        };
        for cut in cuts(&lines) {
            if cut == 0 || cut >= lines.len() {
                continue;
            }
            let path = dir.path().join(format!("followed-{followed}.jsonl"));
            let mut file = std::fs::File::create(&path)?;
            for raw in &lines[..cut] {
                file.write_all(raw)?;
                file.write_all(b"\n")?;
            }
            file.flush()?;
            let mut messages = Vec::new();
            let mut replay = replay_notifications(&FileInput(path.clone()), |message| {
                messages.push(text(&message));
                Ok::<_, ReadError>(())
            })?;
            assert!(replay.follows(), "{}", original.display());
            let rest = &lines[cut..];
            let (one, two) = rest.split_at(rest.len() / 2);
            for piece in [one, two] {
                for raw in piece {
                    file.write_all(raw)?;
                    file.write_all(b"\n")?;
                }
                file.flush()?;
                messages.extend(replay.follow()?.iter().map(text));
            }
            for _ in 0..=HOLD_POLLS {
                messages.extend(replay.follow()?.iter().map(text));
            }
            let at = messages
                .iter()
                .zip(&whole)
                .position(|(ours, theirs)| ours != theirs);
            assert!(
                messages.len() == whole.len() && at.is_none(),
                "{} cut before line {}: followed {} message(s), replayed {}; first difference at \
                 {at:?}:\n  followed {:?}\n  replayed {:?}",
                original.display(),
                cut + 1,
                messages.len(),
                whole.len(),
                at.and_then(|at| messages.get(at)),
                at.and_then(|at| whole.get(at)),
            );
            followed += 1;
        }
    }
    assert!(followed >= files.len(), "{followed} cut(s) followed");
    Ok(())
}
