//! Listing over sessions written by our own recorder into a temporary home: live and archived
//! folders, compressed files (and a plain sibling preferred), revert copies, lookup by id.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::common::{TestResult, event, user};
use codex_home::{
    Cursor, SessionsPage, find_rollout_by_thread_id, list_archived_sessions, list_sessions,
    list_sessions_async,
};
use codex_protocol::models::{ContentItem, ResponseItem};
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::Compression;
use codex_rollout::new_session_meta;
use codex_rollout::{CodexHome, RolloutRecorder};
use pretty_assertions::assert_eq;
use serde_json::json;
use uuid::Uuid;

/// Writes a session created at `created` (RFC 3339) whose recorded items are `items`.
async fn write_session(
    home: &CodexHome,
    created: &str,
    items: &[RolloutItem],
) -> Result<(PathBuf, Uuid), Box<dyn std::error::Error>> {
    let id = ThreadId::new();
    let mut meta = new_session_meta(id, "/work", "tests");
    meta.meta.timestamp = created.to_string();
    let recorder = RolloutRecorder::create(home, meta)?;
    recorder.record_items(items).await?;
    recorder.persist().await?;
    recorder.shutdown().await?;
    Ok((
        recorder.rollout_path().to_path_buf(),
        Uuid::parse_str(&id.to_string())?,
    ))
}

fn environment_context() -> RolloutItem {
    RolloutItem::ResponseItem(ResponseItem::user_text(
        "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>",
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_listed_newest_first_with_their_first_user_message() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let (oldest, _) = write_session(
        &home,
        "2025-01-01T08:00:00.000Z",
        &[
            environment_context(),
            user("first question"),
            user("second question"),
        ],
    )
    .await?;
    // Only the event spelling of the user message (as in files whose items were compacted).
    let (from_event, _) = write_session(
        &home,
        "2025-01-02T08:00:00.000Z",
        &[event(
            json!({"type": "user_message", "message": "## My request for Codex:\nasked by event"}),
        )?],
    )
    .await?;
    // Nobody spoke yet: not listed.
    write_session(&home, "2025-01-03T08:00:00.000Z", &[environment_context()]).await?;
    let image_only = RolloutItem::ResponseItem(ResponseItem::message(
        "user",
        vec![ContentItem::InputImage {
            image_url: Some("https://example.invalid/cat.png".to_string()),
            file_id: None,
            detail: None,
        }],
    ));
    let (newest, _) = write_session(&home, "2025-02-01T23:59:59.000Z", &[image_only]).await?;

    let page = list_sessions(&home, 10, None)?;
    let listed: Vec<(PathBuf, String)> = page
        .items
        .iter()
        .map(|s| (s.path.clone(), s.preview.clone()))
        .collect();
    assert_eq!(
        listed,
        vec![
            (newest, "[Image]".to_string()),
            (from_event, "asked by event".to_string()),
            (oldest, "first question".to_string()),
        ]
    );
    assert_eq!(page.next_cursor, None);
    assert_eq!(page.num_scanned_files, 4);
    assert!(!page.reached_scan_cap);
    let first = page.items.first().ok_or("empty page")?;
    assert_eq!(first.session_meta.meta.originator, "tests");
    assert!(first.updated_at.is_some());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pagination_visits_every_session_once_including_same_second_ties() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let mut expected = Vec::new();
    for (i, created) in [
        "2025-03-01T10:00:00.000Z",
        "2025-03-01T10:00:00.000Z",
        "2025-03-01T10:00:00.000Z",
        "2025-03-01T11:00:00.000Z",
        "2025-03-02T09:00:00.000Z",
        "2025-04-15T09:00:00.000Z",
        "2024-12-31T23:59:59.000Z",
    ]
    .into_iter()
    .enumerate()
    {
        let (path, id) = write_session(&home, created, &[user(&format!("q{i}"))]).await?;
        expected.push((created.to_string(), id, path));
    }
    // Newest first: by creation time, then by thread id.
    expected.sort_by(|a, b| (&b.0, b.1).cmp(&(&a.0, a.1)));
    let expected: Vec<PathBuf> = expected.into_iter().map(|(_, _, path)| path).collect();

    let mut seen = Vec::new();
    let mut cursor: Option<Cursor> = None;
    let mut pages = Vec::new();
    loop {
        let page = list_sessions(&home, 3, cursor.as_ref())?;
        pages.push(page.items.len());
        seen.extend(page.items.iter().map(|s| s.path.clone()));
        match page.next_cursor {
            // Cursors survive a trip through text, as a client would hold them.
            Some(next) => cursor = Some(next.to_string().parse()?),
            None => break,
        }
    }
    assert_eq!(pages, vec![3, 3, 1]);
    assert_eq!(seen, expected);

    let async_page = list_sessions_async(home.clone(), 2, None).await?;
    assert_eq!(
        async_page
            .items
            .iter()
            .map(|s| s.path.clone())
            .collect::<Vec<_>>(),
        expected[..2].to_vec()
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_head_of_a_file_is_read() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let (path, _) = write_session(&home, "2025-05-05T05:05:05.000Z", &[user("head")]).await?;
    // Whatever follows the head (here: bytes that are not even UTF-8) is never looked at.
    let mut file = std::fs::OpenOptions::new().append(true).open(&path)?;
    for _ in 0..10_000 {
        file.write_all(b"\xff\xfe garbage that is not a rollout line\n")?;
    }
    let page = list_sessions(&home, 5, None)?;
    assert_eq!(page.items.len(), 1);
    assert_eq!(page.items[0].preview, "head");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_found_by_its_thread_id() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let (path, id) = write_session(&home, "2025-06-06T06:06:06.000Z", &[user("x")]).await?;
    write_session(&home, "2025-06-07T06:06:06.000Z", &[user("y")]).await?;
    assert_eq!(find_rollout_by_thread_id(&home, id.into())?, Some(path));
    assert_eq!(find_rollout_by_thread_id(&home, ThreadId::new())?, None);
    Ok(())
}

/// Real Codex files, placed (in a temporary home, never in the project) under dated names,
/// list with a preview taken from their first real user message.
#[test]
fn real_session_files_list_with_their_first_user_message() -> TestResult {
    let Some(sources) = codex_test_support::real_jsonl_files()? else {
        return Ok(());
    };
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let day = home.sessions_dir().join("2025").join("01").join("01");
    std::fs::create_dir_all(&day)?;
    let mut placed = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let id = Uuid::now_v7();
        let name = format!("rollout-2025-01-01T00-00-{i:02}-{id}.jsonl");
        std::fs::copy(source, day.join(&name))?;
        placed.push((
            name,
            source.file_name().map(|n| n.to_string_lossy().to_string()),
        ));
    }
    let page = list_sessions(&home, 100, None)?;
    let mut report = Vec::new();
    for summary in &page.items {
        let file = summary
            .path
            .file_name()
            .map(|n| n.to_string_lossy().to_string());
        let source = placed
            .iter()
            .find(|(name, _)| Some(name) == file.as_ref())
            .and_then(|(_, source)| source.clone())
            .ok_or("listed a file that was not placed")?;
        assert!(!summary.preview.is_empty());
        assert!(
            !summary.preview.starts_with("<environment_context>"),
            "{source}: contextual fragment used as preview"
        );
        report.push(format!(
            "{source}: {}",
            summary.preview.chars().take(60).collect::<String>()
        ));
    }
    let mut stderr = std::io::stderr();
    writeln!(
        stderr,
        "listed {} of {} real files:\n{}",
        page.items.len(),
        placed.len(),
        report.join("\n")
    )?;
    // Every real file that starts with a session meta and has a `user_message` event near
    // its head is listed (the rule for files this test has never seen).
    for (name, source) in &placed {
        let text = std::fs::read(day.join(name))?;
        let head: Vec<&[u8]> = text.split(|b| *b == b'\n').take(200).collect();
        let starts_with_meta = head.first().is_some_and(|line| {
            codex_protocol::rollout::parse_rollout_line(line)
                .ok()
                .and_then(|parsed| parsed.item().cloned())
                .is_some_and(|item| matches!(item, RolloutItem::SessionMeta(_)))
        });
        let has_user_event = head
            .iter()
            .any(|line| line.windows(23).any(|w| w == br#""type":"user_message","#));
        if starts_with_meta && has_user_event {
            assert!(
                page.items.iter().any(|s| s.path == day.join(name)),
                "{source:?} not listed"
            );
        }
    }
    Ok(())
}

/// Writes `path` compressed next to it (`<path>.zst`, three frames) and returns that path;
/// the plain file is removed unless `keep_plain`.
fn compress(path: &Path, keep_plain: bool) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let mut compressed = Vec::new();
    for part in bytes.chunks(bytes.len().div_ceil(3).max(1)) {
        compressed.extend(zstd::encode_all(part, 3)?);
    }
    let mut name = path.as_os_str().to_os_string();
    name.push(".zst");
    let target = PathBuf::from(name);
    std::fs::write(&target, compressed)?;
    if !keep_plain {
        std::fs::remove_file(path)?;
    }
    Ok(target)
}

/// `path` moved to `<dir>/<new name>`, created if needed.
fn move_to(path: &Path, dir: &Path, name: &str) -> Result<PathBuf, Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir)?;
    let target = dir.join(name);
    std::fs::rename(path, &target)?;
    Ok(target)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn paths(page: &SessionsPage) -> Vec<PathBuf> {
    page.items.iter().map(|s| s.path.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_files_are_listed_and_a_plain_sibling_is_preferred() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let (only_zst, _) = write_session(&home, "2025-07-01T10:00:00.000Z", &[user("zst")]).await?;
    let only_zst = compress(&only_zst, false)?;
    let (both, both_id) = write_session(&home, "2025-07-02T10:00:00.000Z", &[user("both")]).await?;
    let both_zst = compress(&both, true)?;
    let (plain, _) = write_session(&home, "2025-07-03T10:00:00.000Z", &[user("plain")]).await?;

    let page = list_sessions(&home, 10, None)?;
    assert_eq!(paths(&page), vec![plain, both.clone(), only_zst.clone()]);
    let previews: Vec<&str> = page.items.iter().map(|s| s.preview.as_str()).collect();
    assert_eq!(previews, vec!["plain", "both", "zst"]);
    let compression: Vec<Compression> = page.items.iter().map(|s| s.name.compression).collect();
    assert_eq!(
        compression,
        vec![Compression::Plain, Compression::Plain, Compression::Zstd]
    );
    // The hidden compressed sibling is not even opened.
    assert_eq!(page.num_scanned_files, 3);
    assert!(page.items.iter().all(|s| !s.archived));

    // Pages of one: the pair is one position in the order, never repeated or skipped.
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let page = list_sessions(&home, 1, cursor.as_ref())?;
        seen.extend(paths(&page));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, paths(&list_sessions(&home, 10, None)?));

    // Lookup by id: the plain file while it exists, else the compressed one.
    assert_eq!(
        find_rollout_by_thread_id(&home, both_id.into())?,
        Some(both.clone())
    );
    std::fs::remove_file(&both)?;
    assert_eq!(
        find_rollout_by_thread_id(&home, both_id.into())?,
        Some(both_zst.clone())
    );
    assert_eq!(paths(&list_sessions(&home, 10, None)?)[1], both_zst);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_sessions_are_listed_apart_and_found_by_id() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    assert!(list_archived_sessions(&home, 10, None)?.items.is_empty());
    let (live, _) = write_session(&home, "2025-08-01T10:00:00.000Z", &[user("live")]).await?;
    let mut archived = Vec::new();
    let mut archived_ids = Vec::new();
    for (created, text) in [
        ("2025-06-01T10:00:00.000Z", "old archived"),
        ("2025-06-03T10:00:00.000Z", "new archived"),
        ("2025-06-02T10:00:00.000Z", "compressed archived"),
    ] {
        let (path, id) = write_session(&home, created, &[user(text)]).await?;
        let moved = move_to(&path, &home.archived_sessions_dir(), &file_name(&path))?;
        let moved = if text.starts_with("compressed") {
            compress(&moved, false)?
        } else {
            moved
        };
        archived.push(moved);
        archived_ids.push(id);
    }
    // Stray entries in the flat folder are ignored.
    std::fs::write(home.archived_sessions_dir().join("notes.txt"), "x")?;
    std::fs::create_dir_all(home.archived_sessions_dir().join("2025"))?;

    assert_eq!(paths(&list_sessions(&home, 10, None)?), vec![live.clone()]);
    let page = list_archived_sessions(&home, 10, None)?;
    assert_eq!(
        paths(&page),
        vec![
            archived[1].clone(),
            archived[2].clone(),
            archived[0].clone()
        ]
    );
    assert!(page.items.iter().all(|s| s.archived));
    assert_eq!(page.items[1].preview, "compressed archived");
    let first = list_archived_sessions(&home, 2, None)?;
    let cursor = first.next_cursor.ok_or("no second page")?;
    let rest = list_archived_sessions(&home, 2, Some(&cursor))?;
    assert_eq!(paths(&rest), vec![archived[0].clone()]);
    assert_eq!(rest.next_cursor, None);

    for (id, path) in archived_ids.iter().zip(&archived) {
        assert_eq!(
            find_rollout_by_thread_id(&home, (*id).into())?,
            Some(path.clone())
        );
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_continued_in_revert_copies_is_listed_once_by_its_newest() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let (original, id) =
        write_session(&home, "2025-09-01T10:00:00.000Z", &[user("before")]).await?;
    // A revert keeps the thread id and writes a new file, named by a new rollout id; two
    // reverts in the same second differ only by it.
    let day = original.parent().ok_or("no folder")?.to_path_buf();
    let mut reverts = Vec::new();
    for (second, text) in [
        ("10-00-05", "reverted once"),
        ("10-00-05", "reverted twice"),
    ] {
        let (copy, _) = write_session(&home, "2025-09-01T10:00:00.000Z", &[user(text)]).await?;
        let rollout_id = Uuid::now_v7();
        let name = format!("rollout-2025-09-01T{second}-{id}_{rollout_id}.jsonl");
        reverts.push((move_to(&copy, &day, &name)?, rollout_id, text));
    }
    let page = list_sessions(&home, 10, None)?;
    // One thread, listed once by its newest piece (of two reverts in the same second, the
    // greater rollout id), as Codex 0.169 lists it.
    reverts.sort_by_key(|(_, rollout_id, _)| std::cmp::Reverse(*rollout_id));
    let (newest, rollout_id, text) = &reverts[0];
    assert_eq!(paths(&page), vec![newest.clone()]);
    let summary = &page.items[0];
    assert_eq!(summary.name.thread_id, id);
    assert_eq!(summary.name.rollout_id, Some(*rollout_id));
    assert_eq!(summary.preview, *text);
    // Its older pieces are not listed on later pages either.
    let first = list_sessions(&home, 1, None)?;
    assert_eq!(paths(&first), vec![newest.clone()]);
    assert_eq!(first.next_cursor, None);

    // The newest file of the thread is the one found by id.
    assert_eq!(
        find_rollout_by_thread_id(&home, id.into())?,
        Some(reverts[0].0.clone())
    );
    Ok(())
}
