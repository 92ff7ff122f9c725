//! Unit tests of history base resolution over small hand-written homes: cuts by bytes and by
//! ordinals, their checks, chains, cycles, missing, compressed and damaged parents.

use std::path::{Path, PathBuf};

use codex_protocol::models::{ContentItem, ResponseItem};
use codex_protocol::rollout::{HistoryBase, RolloutItem, RolloutLine};
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;
use crate::layout::CodexHome;
use crate::recorder::new_session_meta;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A temporary home whose sessions are written by hand.
struct Home {
    _dir: tempfile::TempDir,
    home: CodexHome,
}

impl Home {
    fn new() -> Result<Self, std::io::Error> {
        let dir = tempfile::tempdir()?;
        let home = CodexHome::new(dir.path());
        Ok(Self { _dir: dir, home })
    }

    /// Writes `lines` as the rollout of `thread_id` (zstd-compressed when `zstd`).
    fn write(&self, thread_id: ThreadId, lines: &[String], zstd: bool) -> TestResult {
        let mut path = self.path(thread_id);
        let bytes = text(lines).into_bytes();
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        if zstd {
            path.as_mut_os_string().push(".zst");
            std::fs::write(&path, zstd::encode_all(bytes.as_slice(), 3)?)?;
        } else {
            std::fs::write(&path, bytes)?;
        }
        Ok(())
    }

    fn path(&self, thread_id: ThreadId) -> PathBuf {
        let created = chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default();
        self.home.rollout_path(created, *thread_id.as_uuid())
    }
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|line| format!("{line}\n")).collect()
}

fn line(item: RolloutItem, ordinal: Option<u64>) -> Result<String, serde_json::Error> {
    let mut line = RolloutLine::new("2026-01-01T00:00:00.000Z", item);
    line.ordinal = ordinal;
    line.to_json_line()
}

fn meta(
    id: ThreadId,
    base: Option<HistoryBase>,
    ordinal: Option<u64>,
) -> Result<String, serde_json::Error> {
    let mut meta = new_session_meta(id, "/repo", "test");
    meta.meta.history_base = base;
    line(RolloutItem::SessionMeta(Box::new(meta)), ordinal)
}

fn user(text: &str, ordinal: Option<u64>) -> Result<String, serde_json::Error> {
    line(
        RolloutItem::ResponseItem(ResponseItem::user_text(text)),
        ordinal,
    )
}

/// A session of `id`: its meta, then one user message per text; with ordinals 0, 1, ... when
/// `paginated`.
fn session(
    id: ThreadId,
    base: Option<HistoryBase>,
    texts: &[&str],
    paginated: bool,
) -> Result<Vec<String>, serde_json::Error> {
    let ordinal = |index: usize| paginated.then_some(index as u64);
    let mut lines = vec![meta(id, base, ordinal(0))?];
    for (index, text) in texts.iter().enumerate() {
        lines.push(user(text, ordinal(index + 1))?);
    }
    Ok(lines)
}

/// The byte length of the first `count` lines.
fn offset(lines: &[String], count: usize) -> Option<u64> {
    Some(text(&lines[..count]).len() as u64)
}

fn base(thread_id: ThreadId, bytes: Option<u64>, ordinal: Option<u64>) -> HistoryBase {
    HistoryBase {
        thread_id,
        end_ordinal_exclusive: ordinal,
        end_byte_offset: bytes,
    }
}

/// What an item is, in one word: `meta:<thread>` or a message's text.
fn describe(item: &RolloutItem, names: &[(ThreadId, &str)]) -> String {
    match item {
        RolloutItem::SessionMeta(meta) => {
            let name = names
                .iter()
                .find_map(|(id, name)| (*id == meta.meta.id).then_some(*name))
                .unwrap_or("?");
            format!("meta:{name}")
        }
        RolloutItem::ResponseItem(ResponseItem::Message { content, .. }) => match &content[..] {
            [ContentItem::InputText { text, .. }] => text.clone(),
            _ => "message".to_string(),
        },
        other => other.tag().to_string(),
    }
}

/// Resolves the rollout of `child` under `home` and describes the full history.
#[track_caller]
fn check(
    home: &Home,
    child: ThreadId,
    names: &[(ThreadId, &str)],
) -> Result<Vec<String>, HistoryBaseError> {
    let path = home.path(child);
    let resolved = load_rollout_with_base(&home.home, &path)?;
    assert_eq!(resolved.rollout.thread_id, child);
    Ok(resolved
        .items()
        .iter()
        .map(|item| describe(item, names))
        .collect())
}

fn ids() -> (ThreadId, ThreadId, ThreadId) {
    (ThreadId::new(), ThreadId::new(), ThreadId::new())
}

#[test]
fn a_rollout_without_a_base_is_its_own_history() -> TestResult {
    let home = Home::new()?;
    let (a, _, _) = ids();
    home.write(a, &session(a, None, &["a1", "a2"], false)?, false)?;
    let resolved = load_rollout_with_base(&home.home, home.path(a))?;
    assert!(resolved.bases.is_empty());
    assert_eq!(check(&home, a, &[(a, "a")])?, ["meta:a", "a1", "a2"]);
    Ok(())
}

#[test]
fn a_byte_offset_cuts_the_parent_and_the_child_follows() -> TestResult {
    let home = Home::new()?;
    let (parent, child, _) = ids();
    let lines = session(parent, None, &["p1", "p2", "p3"], false)?;
    home.write(parent, &lines, false)?;
    let base = base(parent, offset(&lines, 3), None);
    home.write(child, &session(child, Some(base), &["c1"], false)?, false)?;
    let names = [(parent, "p"), (child, "c")];
    assert_eq!(
        check(&home, child, &names)?,
        ["meta:c", "meta:p", "p1", "p2", "c1"]
    );
    let resolved = load_rollout_with_base(&home.home, home.path(child))?;
    assert_eq!(
        resolved.bases,
        [ResolvedBase {
            thread_id: parent,
            path: home.path(parent),
            end_byte_offset: offset(&lines, 3).unwrap_or_default(),
            end_ordinal_exclusive: None,
            items: 3,
        }]
    );
    Ok(())
}

#[test]
fn an_ordinal_cuts_a_paginated_parent_alone_or_with_an_agreeing_offset() -> TestResult {
    let home = Home::new()?;
    let (parent, child, _) = ids();
    let lines = session(parent, None, &["p1", "p2", "p3"], true)?;
    home.write(parent, &lines, false)?;
    let names = [(parent, "p"), (child, "c")];
    let cases = [
        (None, Some(3), vec!["meta:c", "meta:p", "p1", "p2"]),
        (offset(&lines, 2), Some(2), vec!["meta:c", "meta:p", "p1"]),
        (None, Some(4), vec!["meta:c", "meta:p", "p1", "p2", "p3"]),
        (
            offset(&lines, 4),
            Some(4),
            vec!["meta:c", "meta:p", "p1", "p2", "p3"],
        ),
        (None, Some(0), vec!["meta:c"]),
    ];
    for (bytes, ordinal, expected) in cases {
        let base = base(parent, bytes, ordinal);
        home.write(child, &session(child, Some(base), &[], true)?, false)?;
        assert_eq!(
            check(&home, child, &names)?,
            expected,
            "{bytes:?} {ordinal:?}"
        );
    }
    Ok(())
}

#[track_caller]
fn prefix_problem(result: Result<Vec<String>, HistoryBaseError>) -> Option<PrefixProblem> {
    match result {
        Err(HistoryBaseError::BadPrefix { problem, .. }) => Some(problem),
        other => panic!("expected a bad prefix, got {other:?}"),
    }
}

#[test]
fn a_base_the_parent_does_not_have_is_a_clear_error() -> TestResult {
    let home = Home::new()?;
    let (parent, child, legacy) = ids();
    let lines = session(parent, None, &["p1", "p2"], true)?;
    home.write(parent, &lines, false)?;
    home.write(legacy, &session(legacy, None, &["l1"], false)?, false)?;
    let len = offset(&lines, 3).unwrap_or_default();
    let inside = offset(&lines, 2).unwrap_or_default() + 5;
    let cases = [
        (base(parent, None, None), PrefixProblem::NoEnd),
        (
            base(parent, Some(inside), None),
            PrefixProblem::NotLineBoundary { offset: inside },
        ),
        (
            base(parent, Some(len + 1), None),
            PrefixProblem::BeyondEnd {
                offset: len + 1,
                len,
            },
        ),
        (
            base(parent, None, Some(9)),
            PrefixProblem::OrdinalBeyondEnd {
                ordinal: 9,
                last: 2,
            },
        ),
        (
            base(parent, offset(&lines, 2), Some(1)),
            PrefixProblem::Disagree {
                offset: offset(&lines, 2).unwrap_or_default(),
                ordinal: 1,
                line: 2,
                side: "before",
                found: 1,
            },
        ),
        (
            base(parent, offset(&lines, 1), Some(2)),
            PrefixProblem::Disagree {
                offset: offset(&lines, 1).unwrap_or_default(),
                ordinal: 2,
                line: 2,
                side: "after",
                found: 1,
            },
        ),
        (
            base(legacy, None, Some(1)),
            PrefixProblem::NoOrdinals { ordinal: 1 },
        ),
    ];
    for (base, expected) in cases {
        home.write(
            child,
            &session(child, Some(base.clone()), &[], false)?,
            false,
        )?;
        let result = check(&home, child, &[]);
        if let Err(err) = &result {
            let message = err.to_string();
            assert!(message.contains(&base.thread_id.to_string()), "{message}");
            assert!(message.contains(&child.to_string()), "{message}");
        }
        assert_eq!(prefix_problem(result), Some(expected), "{base:?}");
    }
    Ok(())
}

#[test]
fn a_missing_parent_names_the_thread_and_the_child() -> TestResult {
    let home = Home::new()?;
    let (parent, child, _) = ids();
    home.write(
        child,
        &session(child, Some(base(parent, Some(0), None)), &["c1"], false)?,
        false,
    )?;
    let err = check(&home, child, &[])
        .err()
        .ok_or("resolved without its parent")?;
    assert!(
        matches!(&err, HistoryBaseError::MissingParent { thread_id, .. } if *thread_id == parent),
        "{err:?}"
    );
    assert_eq!(err.thread_id(), Some(parent));
    let message = err.to_string();
    assert!(message.contains(&parent.to_string()), "{message}");
    assert!(
        message.contains(&home.path(child).display().to_string()),
        "{message}"
    );
    Ok(())
}

#[test]
fn a_chain_resolves_grandparent_first() -> TestResult {
    let home = Home::new()?;
    let (grandparent, parent, child) = ids();
    let g_lines = session(grandparent, None, &["g1", "g2", "g3"], true)?;
    home.write(grandparent, &g_lines, true)?;
    let p_lines = session(
        parent,
        Some(base(grandparent, offset(&g_lines, 3), Some(3))),
        &["p1", "p2"],
        true,
    )?;
    home.write(parent, &p_lines, false)?;
    let c_base = base(parent, offset(&p_lines, 2), None);
    home.write(child, &session(child, Some(c_base), &["c1"], false)?, false)?;
    let names = [(grandparent, "g"), (parent, "p"), (child, "c")];
    assert_eq!(
        check(&home, child, &names)?,
        ["meta:c", "meta:p", "meta:g", "g1", "g2", "p1", "c1"]
    );
    let resolved = load_rollout_with_base(&home.home, home.path(child))?;
    let chain: Vec<ThreadId> = resolved.bases.iter().map(|base| base.thread_id).collect();
    assert_eq!(chain, [parent, grandparent]);
    Ok(())
}

#[test]
fn a_cycle_and_a_self_reference_are_errors() -> TestResult {
    let home = Home::new()?;
    let (a, b, own) = ids();
    // Each prefix is the other's session meta line (ordinal 0), which names the next base.
    home.write(
        a,
        &session(a, Some(base(b, None, Some(1))), &["a1"], true)?,
        false,
    )?;
    home.write(
        b,
        &session(b, Some(base(a, None, Some(1))), &["b1"], true)?,
        false,
    )?;
    let err = check(&home, a, &[]).err().ok_or("a cycle resolved")?;
    assert!(
        matches!(&err, HistoryBaseError::Cycle { thread_id, chain, .. }
            if *thread_id == a && chain == &[a, b]),
        "{err:?}"
    );
    home.write(
        own,
        &session(own, Some(base(own, Some(0), None)), &[], false)?,
        false,
    )?;
    let err = check(&home, own, &[])
        .err()
        .ok_or("a self reference resolved")?;
    assert!(matches!(err, HistoryBaseError::Cycle { .. }), "{err:?}");
    Ok(())
}

#[test]
fn a_compressed_parent_resolves_like_the_plain_one_and_damage_is_named() -> TestResult {
    let home = Home::new()?;
    let (parent, child, _) = ids();
    let lines = session(parent, None, &["p1", "p2", "p3"], true)?;
    home.write(parent, &lines, true)?;
    let names = [(parent, "p"), (child, "c")];
    let c_base = base(parent, offset(&lines, 3), Some(3));
    home.write(child, &session(child, Some(c_base), &[], true)?, false)?;
    assert_eq!(
        check(&home, child, &names)?,
        ["meta:c", "meta:p", "p1", "p2"]
    );
    // One frame per line, cut inside the last one: the prefix before it is still whole.
    let mut zst = home.path(parent);
    zst.as_mut_os_string().push(".zst");
    let mut frames = Vec::new();
    for line in &lines {
        frames.extend(zstd::encode_all(format!("{line}\n").as_bytes(), 3)?);
    }
    std::fs::write(&zst, &frames[..frames.len() - 4])?;
    assert_eq!(
        check(&home, child, &names)?,
        ["meta:c", "meta:p", "p1", "p2"]
    );
    // A prefix that reaches past the damage is lost, and says so.
    let whole = base(parent, offset(&lines, 4), None);
    home.write(child, &session(child, Some(whole), &[], true)?, false)?;
    let err = check(&home, child, &names)
        .err()
        .ok_or("resolved past the damage")?;
    assert!(matches!(err, HistoryBaseError::Damaged { .. }), "{err:?}");
    Ok(())
}

#[test]
fn a_parent_file_of_another_thread_is_refused() -> TestResult {
    let home = Home::new()?;
    let (parent, child, other) = ids();
    home.write(parent, &session(other, None, &["o1"], false)?, false)?;
    home.write(
        child,
        &session(child, Some(base(parent, Some(0), None)), &[], false)?,
        false,
    )?;
    let err = check(&home, child, &[])
        .err()
        .ok_or("resolved another thread")?;
    assert!(
        matches!(&err, HistoryBaseError::WrongThread { found, .. } if *found == Some(other)),
        "{err:?}"
    );
    Ok(())
}

#[test]
fn a_resolved_child_is_its_own_thread_with_the_full_items() -> TestResult {
    let home = Home::new()?;
    let (parent, child, _) = ids();
    let lines = session(parent, None, &["p1"], false)?;
    home.write(parent, &lines, false)?;
    home.write(
        child,
        &session(
            child,
            Some(base(parent, offset(&lines, 2), None)),
            &["c1"],
            false,
        )?,
        false,
    )?;
    let resolved = load_rollout_with_base(&home.home, home.path(child))?;
    assert_eq!(resolved.rollout.thread_id, child);
    assert_eq!(resolved.rollout.path, Path::new(&home.path(child)));
    assert_eq!(resolved.into_items().len(), 4);
    Ok(())
}
