//! Forks by reference over the real session files: a child that names a prefix of its parent
//! (`history_base`) rebuilds to exactly the history a copied fork of the same point holds,
//! with the parent plain or compressed under the home; a missing parent, a chain, and bases
//! the parent does not have.
#![allow(clippy::print_stderr)]

use std::path::{Path, PathBuf};

use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{HistoryBase, RolloutItem, RolloutLine};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use codex_rollout::{ForkMode, ForkPoint, fork_bytes, fork_rollout, fork_rollout_to_path};
use codex_rollout::{
    HistoryBaseError, PrefixProblem, load_rollout_with_base, resolve_history_base,
};
use codex_rollout::{LoadedRollout, load_rollout_bytes, load_rollout_items};
use codex_rollout::{
    ReconstructOptions, ReconstructedHistory, reconstruct_history_from_rollout,
    reconstruct_rollout_file,
};
use codex_rollout::{fork_point_dropping_turns, user_turns};
use codex_test_support::real_jsonl_files;

use crate::common::first_session_meta_index;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A real session placed in a fresh home under its thread id, plain or compressed.
struct Placed {
    _dir: tempfile::TempDir,
    home: CodexHome,
    /// The source as loaded from its place in the home.
    source: LoadedRollout,
}

fn place(file: &Path, zstd: bool) -> Result<Option<Placed>, Box<dyn std::error::Error>> {
    let Ok(original) = load_rollout_items(file) else {
        return Ok(None);
    };
    let dir = tempfile::tempdir()?;
    let home = CodexHome::new(dir.path());
    let created = chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default();
    let mut path = home.rollout_path(created, *original.thread_id.as_uuid());
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)?;
    }
    let bytes = std::fs::read(file)?;
    if zstd {
        path.as_mut_os_string().push(".zst");
        std::fs::write(&path, zstd::encode_all(bytes.as_slice(), 3)?)?;
    } else {
        std::fs::write(&path, &bytes)?;
    }
    let source = load_rollout_items(&path)?;
    Ok(Some(Placed {
        _dir: dir,
        home,
        source,
    }))
}

/// The parts of a reconstruction that must not depend on how the fork holds its history.
#[track_caller]
fn assert_same_history(by_reference: &ReconstructedHistory, copied: &ReconstructedHistory) {
    assert_eq!(by_reference.history.raw_items(), copied.history.raw_items());
    assert_eq!(
        by_reference.previous_turn_settings,
        copied.previous_turn_settings
    );
    assert_eq!(
        by_reference.reference_context_item,
        copied.reference_context_item
    );
    assert_eq!(by_reference.window, copied.window);
    assert_eq!(by_reference.token_info, copied.token_info);
    assert_eq!(
        by_reference.stats.rollbacks_applied,
        copied.stats.rollbacks_applied
    );
}

/// Forks `placed` at `point` both ways and checks that they rebuild alike and that the
/// resolved items are the copied fork's, after the metas.
fn check_point(placed: &Placed, point: ForkPoint, out: &Path) -> TestResult {
    let source = &placed.source;
    let (copied_bytes, copied) = fork_bytes(source, point, ThreadId::new(), ForkMode::Copy)?;
    let copied_fork = load_rollout_bytes(copied_bytes, "copied.jsonl")?;
    let forked = fork_rollout_to_path(source, point, out, ForkMode::ByReference)?;
    assert_eq!(forked.lines_written, 1);
    assert_eq!(forked.kept_items, copied.kept_items);
    let base = forked.history_base.clone().ok_or("no history_base")?;
    assert_eq!(base.thread_id, source.thread_id);
    let resolved = load_rollout_with_base(&placed.home, out)?;
    assert_eq!(resolved.rollout.thread_id, forked.thread_id);
    assert_eq!(resolved.bases.len(), 1);
    let meta = first_session_meta_index(source.contents.items()).unwrap_or(0);
    // The resolved history: the child's meta, then the source's first items up to the cut.
    assert_eq!(
        resolved.items().get(1..),
        source.contents.items().get(..forked.kept_items),
    );
    assert_eq!(
        resolved.items().get(meta + 2..),
        copied_fork.contents.items().get(meta + 1..),
    );
    let options = ReconstructOptions::default();
    let by_reference = reconstruct_rollout_file(&placed.home, out, &options)?;
    let copied = reconstruct_history_from_rollout(copied_fork.contents.items());
    assert_same_history(&by_reference, &copied);
    Ok(())
}

/// The fork points of a file with `turns` user turns: all of it, without the last turn,
/// before the second message, and without any turn.
fn points(placed: &Placed) -> Result<Vec<ForkPoint>, Box<dyn std::error::Error>> {
    let turns = user_turns(&placed.source.contents);
    Ok(vec![
        ForkPoint::KeepAll,
        fork_point_dropping_turns(&turns, 1)?,
        ForkPoint::BeforeNthUserMessage(1),
        fork_point_dropping_turns(&turns, turns.len())?,
    ])
}

#[test]
fn every_real_session_forked_by_reference_rebuilds_like_a_copied_fork() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let out_dir = tempfile::tempdir()?;
    let mut checked = 0;
    for (index, file) in files.iter().enumerate() {
        for zstd in [false, true] {
            let Some(placed) = place(file, zstd)? else {
                eprintln!("{}: no session meta, skipped", file.display());
                continue;
            };
            if user_turns(&placed.source.contents).is_empty() {
                eprintln!("{}: no user turn, skipped", file.display());
                continue;
            }
            for (variant, point) in points(&placed)?.into_iter().enumerate() {
                let out = out_dir
                    .path()
                    .join(format!("child-{index}-{zstd}-{variant}.jsonl"));
                check_point(&placed, point, &out)
                    .map_err(|err| format!("{} zstd={zstd} {point:?}: {err}", file.display()))?;
                checked += 1;
            }
        }
    }
    eprintln!("{checked} forks by reference checked");
    assert!(checked >= 2 * 4 * 10, "only {checked} forks were checked");
    Ok(())
}

/// The first real file that loads and has user turns, placed plainly.
fn first_real_session() -> Result<Option<Placed>, Box<dyn std::error::Error>> {
    let Some(files) = real_jsonl_files()? else {
        return Ok(None);
    };
    for file in files {
        if let Some(placed) = place(&file, false)?
            && !user_turns(&placed.source.contents).is_empty()
        {
            return Ok(Some(placed));
        }
    }
    Err("no real session with user turns".into())
}

#[test]
fn a_missing_parent_is_an_error_naming_its_thread() -> TestResult {
    let Some(placed) = first_real_session()? else {
        return Ok(());
    };
    let out_dir = tempfile::tempdir()?;
    let out = out_dir.path().join("child.jsonl");
    fork_rollout_to_path(
        &placed.source,
        ForkPoint::KeepAll,
        &out,
        ForkMode::ByReference,
    )?;
    let empty = CodexHome::new(out_dir.path().join("no-home"));
    let err = load_rollout_with_base(&empty, &out)
        .err()
        .ok_or("resolved without the parent")?;
    let parent = placed.source.thread_id;
    assert!(
        matches!(&err, HistoryBaseError::MissingParent { thread_id, child, .. }
            if *thread_id == parent && child == &out),
        "{err:?}"
    );
    let message = err.to_string();
    assert!(message.contains(&parent.to_string()), "{message}");
    assert!(message.contains(&out.display().to_string()), "{message}");
    let options = ReconstructOptions::default();
    assert!(reconstruct_rollout_file(&empty, &out, &options).is_err());
    Ok(())
}

fn line(item: RolloutItem) -> Result<String, serde_json::Error> {
    RolloutLine::new("2026-12-01T10:00:00.000Z", item).to_json_line()
}

#[test]
fn a_chain_of_forks_by_reference_resolves_through_every_parent() -> TestResult {
    let Some(placed) = first_real_session()? else {
        return Ok(());
    };
    let grandparent = &placed.source;
    // The parent: a fork by reference into the home, then a turn of its own.
    let parent = fork_rollout(
        grandparent,
        ForkPoint::KeepAll,
        &placed.home,
        ForkMode::ByReference,
    )?;
    let own = [
        RolloutItem::ResponseItem(ResponseItem::user_text("a question of the parent")),
        RolloutItem::ResponseItem(ResponseItem::assistant_text("its answer", None)),
    ];
    let mut text = std::fs::read_to_string(&parent.path)?;
    for item in &own {
        text.push_str(&line(item.clone())?);
        text.push('\n');
    }
    std::fs::write(&parent.path, text)?;
    // The child: a fork by reference of the whole parent, with nothing of its own.
    let parent_rollout = load_rollout_items(&parent.path)?;
    let out_dir = tempfile::tempdir()?;
    let child_path = out_dir.path().join("child.jsonl");
    let child = fork_rollout_to_path(
        &parent_rollout,
        ForkPoint::KeepAll,
        &child_path,
        ForkMode::ByReference,
    )?;
    let resolved = load_rollout_with_base(&placed.home, &child_path)?;
    let chain: Vec<ThreadId> = resolved.bases.iter().map(|base| base.thread_id).collect();
    assert_eq!(chain, [parent.thread_id, grandparent.thread_id]);
    assert_eq!(resolved.rollout.thread_id, child.thread_id);
    // child meta, parent meta, every grandparent item, the parent's own items.
    let mut expected = grandparent.contents.items().to_vec();
    expected.extend(own.iter().cloned());
    assert_eq!(resolved.items().get(2..), Some(expected.as_slice()));
    let by_reference = reconstruct_history_from_rollout(resolved.items());
    let flat = reconstruct_history_from_rollout(&expected);
    assert_same_history(&by_reference, &flat);
    // The parent resolves on its own too, and `resolve_history_base` agrees with the loader.
    let parent_resolved = resolve_history_base(&placed.home, parent_rollout)?;
    assert_eq!(parent_resolved.items().get(1..), Some(expected.as_slice()));
    Ok(())
}

/// Writes a child of `parent` whose base is `base`, next to nothing, and resolves it.
fn resolve_with_base(placed: &Placed, base: HistoryBase) -> Result<HistoryBaseError, String> {
    let source = &placed.source;
    let dir = tempfile::tempdir().map_err(|err| err.to_string())?;
    let out: PathBuf = dir.path().join("child.jsonl");
    let (bytes, _) = fork_bytes(
        source,
        ForkPoint::KeepAll,
        ThreadId::new(),
        ForkMode::ByReference,
    )
    .map_err(|err| err.to_string())?;
    let text = String::from_utf8(bytes).map_err(|err| err.to_string())?;
    let good = serde_json::to_string(&source_base(source)).map_err(|err| err.to_string())?;
    let bad = serde_json::to_string(&base).map_err(|err| err.to_string())?;
    std::fs::write(&out, text.replace(&good, &bad)).map_err(|err| err.to_string())?;
    match load_rollout_with_base(&placed.home, &out) {
        Ok(_) => Err(format!("{base:?} resolved")),
        Err(err) => {
            let message = err.to_string();
            if !message.contains(&base.thread_id.to_string())
                || !message.contains(&out.display().to_string())
            {
                return Err(format!(
                    "the message names neither thread nor child: {message}"
                ));
            }
            Ok(err)
        }
    }
}

/// The base a fork by reference of all of `source` writes.
fn source_base(source: &LoadedRollout) -> HistoryBase {
    fork_bytes(
        source,
        ForkPoint::KeepAll,
        ThreadId::new(),
        ForkMode::ByReference,
    )
    .ok()
    .and_then(|(_, forked)| forked.history_base)
    .unwrap_or_else(|| HistoryBase::new(source.thread_id))
}

#[test]
fn an_offset_inside_a_line_or_beyond_the_parent_is_a_clear_error() -> TestResult {
    let Some(placed) = first_real_session()? else {
        return Ok(());
    };
    let len = placed.source.contents.bytes().len() as u64;
    let first_line = placed
        .source
        .contents
        .entries()
        .first()
        .map_or(0, |entry| entry.span.end as u64);
    let thread_id = placed.source.thread_id;
    let cases = [
        (
            first_line / 2,
            PrefixProblem::NotLineBoundary {
                offset: first_line / 2,
            },
        ),
        (
            len + 10,
            PrefixProblem::BeyondEnd {
                offset: len + 10,
                len,
            },
        ),
    ];
    for (offset, expected) in cases {
        let base = HistoryBase {
            thread_id,
            end_ordinal_exclusive: None,
            end_byte_offset: Some(offset),
        };
        let err = resolve_with_base(&placed, base)?;
        assert!(
            matches!(&err, HistoryBaseError::BadPrefix { problem, .. } if *problem == expected),
            "{err:?}"
        );
    }
    Ok(())
}
