//! The index's life cycle over homes written by hand: append, rewrite, delete, compressed
//! files, a half-written line, two writers at once, a corrupt index file.

use std::io::Write;
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;

use super::*;

type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

const THREAD: &str = "0199a213-81c0-7800-8aa1-bbab2a035a53";
const OTHER: &str = "0199a214-0000-7000-8000-000000000001";

fn meta(id: &str, cwd: &str) -> String {
    format!(
        r#"{{"timestamp":"2025-09-25T01:00:00.000Z","type":"session_meta","payload":{{"session_id":"{id}","id":"{id}","timestamp":"2025-09-25T01:00:00.000Z","cwd":"{cwd}","originator":"codex_cli_rs","cli_version":"0.50.0"}}}}"#
    )
}

fn user(minute: u32, text: &str) -> String {
    format!(
        concat!(
            r#"{{"timestamp":"2025-09-25T01:{:02}:00.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{}"}}]}}}}"#,
            "\n",
            r#"{{"timestamp":"2025-09-25T01:{:02}:00.000Z","type":"event_msg","payload":{{"type":"user_message","message":"{}","kind":"plain"}}}}"#
        ),
        minute, text, minute, text
    )
}

pub(super) fn assistant(minute: u32, text: &str) -> String {
    format!(
        r#"{{"timestamp":"2025-09-25T01:{minute:02}:30.000Z","type":"response_item","payload":{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"{text}"}}]}}}}"#
    )
}

fn tool(minute: u32, command: &str, output: &str) -> String {
    format!(
        concat!(
            r#"{{"timestamp":"2025-09-25T01:{:02}:40.000Z","type":"response_item","payload":{{"type":"function_call","name":"shell","arguments":"{{\"command\":[\"{}\"]}}","call_id":"c{}"}}}}"#,
            "\n",
            r#"{{"timestamp":"2025-09-25T01:{:02}:41.000Z","type":"response_item","payload":{{"type":"function_call_output","call_id":"c{}","output":"{}"}}}}"#
        ),
        minute, command, minute, minute, minute, output
    )
}

pub(super) fn lines(parts: &[String]) -> String {
    parts.iter().map(|part| format!("{part}\n")).collect()
}

/// A hit as the tests compare it: thread id prefix, turn, line, snippet.
type Found = (String, u32, u64, String);

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> std::io::Result<Self> {
        Ok(Self {
            dir: tempfile::tempdir()?,
        })
    }

    fn home(&self) -> CodexHome {
        CodexHome::new(self.dir.path().join("home"))
    }

    fn index_path(&self) -> PathBuf {
        self.dir.path().join("cache/index.sqlite")
    }

    fn session(&self, id: &str) -> PathBuf {
        let day = self.dir.path().join("home/sessions/2025/09/25");
        let _ = std::fs::create_dir_all(&day);
        day.join(format!("rollout-2025-09-25T01-00-00-{id}.jsonl"))
    }

    /// Updates the index, then returns the matching (thread, turn, line, snippet).
    #[track_caller]
    fn search(&self, query: &str) -> Result<Vec<Found>> {
        Ok(self.search_with(Query::new(query))?.0)
    }

    #[track_caller]
    fn search_with(&self, query: Query) -> Result<(Vec<Found>, UpdateReport)> {
        let mut index = SearchIndex::open(&self.index_path())?;
        let report = index.update(&self.home())?;
        let hits = index.search(&self.home(), &query)?;
        let hits = hits
            .into_iter()
            .map(|hit| {
                (
                    hit.thread_id[..8].to_string(),
                    hit.turn,
                    hit.line,
                    hit.snippet,
                )
            })
            .collect();
        Ok((hits, report))
    }
}

fn append(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)?
        .write_all(text.as_bytes())
}

#[test]
fn fts5_is_compiled_in() -> TestResult {
    let conn = Connection::open_in_memory()?;
    conn.execute_batch("CREATE VIRTUAL TABLE t USING fts5(x)")?;
    Ok(())
}

/// FTS5 merges sixteen segments of a level into one, a little after each write, and a level
/// of thirty-two all at once: many writes leave a bounded number of segments, and every text
/// is found.
#[test]
fn the_text_index_merges_sixteen_segments_at_a_time() -> TestResult {
    let home = Home::new()?;
    let files = 300;
    for n in 0..files {
        let id = format!("0199a213-81c0-7800-8aa1-{n:012}");
        let parts = [meta(&id, "/repo"), user(1, &format!("segmented words {n}"))];
        std::fs::write(home.session(&id), lines(&parts))?;
    }
    let mut query = Query::new("segmented");
    query.limit = 1_000;
    assert_eq!(home.search_with(query)?.0.len(), files);
    let conn = Connection::open(home.index_path())?;
    let setting = |name: &str| -> rusqlite::Result<i64> {
        conn.query_row("SELECT v FROM texts_config WHERE k = ?1", [name], |row| {
            row.get(0)
        })
    };
    assert_eq!((setting("automerge")?, setting("crisismerge")?), (16, 32));
    // Each file was one write: 300 segments made, a few dozen at most left.
    let segments: i64 =
        conn.query_row("SELECT count(DISTINCT segid) FROM texts_idx", [], |row| {
            row.get(0)
        })?;
    assert!((1..64).contains(&segments), "{segments} segments");
    Ok(())
}

#[test]
fn indexes_messages_tools_and_turns() -> TestResult {
    let home = Home::new()?;
    std::fs::write(
        home.session(THREAD),
        lines(&[
            meta(THREAD, "/repo"),
            user(1, "why does the parser crash"),
            assistant(1, "the parser reads past the end"),
            tool(1, "cargo test parser", "test parser_end ... FAILED"),
            user(2, "fix it please"),
            assistant(2, "fixed the parser bounds"),
        ]),
    )?;
    let hits = home.search("parser")?;
    assert_eq!(
        hits,
        vec![
            ("0199a213".into(), 2, 9, "fixed the [parser] bounds".into()),
            (
                "0199a213".into(),
                1,
                6,
                "test [parser]_end ... FAILED".into()
            ),
            (
                "0199a213".into(),
                1,
                5,
                "shell {\"command\":[\"cargo test [parser]\"]}".into()
            ),
            (
                "0199a213".into(),
                1,
                4,
                "the [parser] reads past the end".into()
            ),
            (
                "0199a213".into(),
                1,
                2,
                "why does the [parser] crash".into()
            ),
        ]
    );
    let mut query = Query::new("parser");
    query.role = Some(Role::User);
    assert_eq!(home.search_with(query)?.0.len(), 1);
    let mut query = Query::new("parser");
    query.cwd = Some("/elsewhere".into());
    assert_eq!(home.search_with(query)?.0.len(), 0);
    let mut query = Query::new("parser");
    query.cwd = Some("/repo".into());
    query.since_ms =
        Some(chrono::DateTime::parse_from_rfc3339("2025-09-25T01:02:00Z")?.timestamp_millis());
    assert_eq!(home.search_with(query)?.0.len(), 1);
    assert_eq!(home.search_with(Query::fts("\"reads past\""))?.0.len(), 1);
    assert_eq!(home.search_with(Query::fts("pars NOT crash"))?.0.len(), 4);
    Ok(())
}

#[test]
fn an_appended_file_is_read_on_and_a_half_line_waits() -> TestResult {
    let home = Home::new()?;
    let path = home.session(THREAD);
    std::fs::write(
        &path,
        lines(&[meta(THREAD, "/repo"), user(1, "first words")]),
    )?;
    assert_eq!(home.search("words")?.len(), 1);
    // Half of a line: not indexed yet.
    let second = user(2, "second words");
    let (head, tail) = second.split_at(60);
    append(&path, head)?;
    let (hits, report) = home.search_with(Query::new("words"))?;
    assert_eq!((hits.len(), report.read_on), (1, 1));
    append(&path, &format!("{tail}\n"))?;
    let (hits, report) = home.search_with(Query::new("words"))?;
    assert_eq!(report.read_on, 1);
    assert_eq!(report.read_whole, 0);
    assert_eq!(
        hits,
        vec![
            ("0199a213".into(), 2, 4, "second [words]".into()),
            ("0199a213".into(), 1, 2, "first [words]".into()),
        ]
    );
    // Nothing changed: nothing read.
    let (_, report) = home.search_with(Query::new("words"))?;
    assert_eq!((report.read_on, report.read_whole, report.bytes), (0, 0, 0));
    Ok(())
}

#[test]
fn a_rewritten_or_shrunk_file_is_read_again_and_a_deleted_one_dropped() -> TestResult {
    let home = Home::new()?;
    let path = home.session(THREAD);
    std::fs::write(
        &path,
        lines(&[meta(THREAD, "/repo"), user(1, "alpha"), user(2, "beta")]),
    )?;
    std::fs::write(
        home.session(OTHER),
        lines(&[meta(OTHER, "/x"), user(1, "alpha")]),
    )?;
    assert_eq!(home.search("alpha")?.len(), 2);
    // Shrunk (a turn removed by hand).
    std::fs::write(&path, lines(&[meta(THREAD, "/repo"), user(1, "gamma")]))?;
    let (hits, report) = home.search_with(Query::fts("alpha OR beta OR gamma"))?;
    assert_eq!(report.read_whole, 1);
    assert_eq!(
        hits.iter().map(|hit| hit.3.as_str()).collect::<Vec<_>>(),
        vec!["[gamma]", "[alpha]"]
    );
    // Rewritten with the same size.
    std::fs::write(&path, lines(&[meta(THREAD, "/repo"), user(1, "delta")]))?;
    let (hits, report) = home.search_with(Query::fts("gamma OR delta"))?;
    assert_eq!(report.read_whole, 1);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].3, "[delta]");
    std::fs::remove_file(home.session(OTHER))?;
    let (hits, report) = home.search_with(Query::new("alpha"))?;
    assert_eq!((hits.len(), report.dropped), (0, 1));
    Ok(())
}

#[test]
fn compressed_files_are_read() -> TestResult {
    let home = Home::new()?;
    let plain = lines(&[meta(THREAD, "/repo"), user(1, "squeezed words")]);
    let path = home.session(THREAD).with_extension("jsonl.zst");
    std::fs::write(&path, zstd::encode_all(plain.as_bytes(), 3)?)?;
    assert_eq!(
        home.search("squeezed")?,
        vec![("0199a213".into(), 1, 2, "[squeezed] words".into())]
    );
    // Recompressed with more: read again from the start, not appended to.
    let more = format!("{plain}{}\n", user(2, "squeezed again"));
    std::fs::write(&path, zstd::encode_all(more.as_bytes(), 3)?)?;
    let (hits, report) = home.search_with(Query::new("squeezed"))?;
    assert_eq!((hits.len(), report.read_whole), (2, 1));
    Ok(())
}

#[test]
fn a_corrupt_index_is_rebuilt_with_a_message() -> TestResult {
    let home = Home::new()?;
    std::fs::write(
        home.session(THREAD),
        lines(&[meta(THREAD, "/repo"), user(1, "kept")]),
    )?;
    assert_eq!(home.search("kept")?.len(), 1);
    std::fs::write(
        home.index_path(),
        b"this is not a database, it is garbage".repeat(200),
    )?;
    let _ = std::fs::remove_file(home.index_path().with_extension("sqlite-wal"));
    let index = SearchIndex::open(&home.index_path())?;
    assert!(
        index.rebuilt().is_some_and(|why| why.contains("rebuilt")),
        "{:?}",
        index.rebuilt()
    );
    drop(index);
    assert_eq!(home.search("kept")?.len(), 1);
    Ok(())
}

#[test]
fn an_index_of_another_version_is_rebuilt() -> TestResult {
    let home = Home::new()?;
    std::fs::create_dir_all(home.dir.path().join("cache"))?;
    let conn = Connection::open(home.index_path())?;
    conn.execute_batch("CREATE TABLE old(x); PRAGMA user_version = 99;")?;
    drop(conn);
    let index = SearchIndex::open(&home.index_path())?;
    assert!(index.rebuilt().is_some_and(|why| why.contains("99")));
    Ok(())
}

#[test]
fn two_updaters_at_once_store_each_file_once() -> TestResult {
    let home = Home::new()?;
    for n in 0..20 {
        let id = format!("0199a213-81c0-7800-8aa1-{n:012}");
        let mut parts = vec![meta(&id, "/repo")];
        for turn in 1..=30 {
            parts.push(user(turn % 60, &format!("concurrent words {n} {turn}")));
            parts.push(tool(turn % 60, "ls", &"output ".repeat(200)));
        }
        std::fs::write(home.session(&id), lines(&parts))?;
    }
    let path = home.index_path();
    let homes = [home.home(), home.home()];
    let handles: Vec<_> = homes
        .into_iter()
        .map(|codex_home| {
            let path = path.clone();
            std::thread::spawn(move || -> Result<usize> {
                let mut index = SearchIndex::open(&path)?;
                index.update(&codex_home)?;
                let mut query = Query::new("concurrent");
                query.limit = 10_000;
                Ok(index.search(&codex_home, &query)?.len())
            })
        })
        .collect();
    for handle in handles {
        let found = handle.join().map_err(|_| "updater panicked")??;
        // Each reader sees a consistent index: whole files only, never a file twice.
        assert!(found <= 600 && found % 30 == 0, "{found}");
    }
    let mut query = Query::new("concurrent");
    query.limit = 10_000;
    assert_eq!(home.search_with(query)?.0.len(), 600);
    Ok(())
}

#[test]
fn thread_prefixes_are_found() -> TestResult {
    let home = Home::new()?;
    std::fs::write(
        home.session(THREAD),
        lines(&[meta(THREAD, "/repo"), user(1, "x")]),
    )?;
    std::fs::write(
        home.session(OTHER),
        lines(&[meta(OTHER, "/repo"), user(1, "x")]),
    )?;
    let mut index = SearchIndex::open(&home.index_path())?;
    index.update(&home.home())?;
    assert_eq!(
        index
            .files_with_thread_prefix(&home.home(), "0199A213")?
            .len(),
        1
    );
    assert_eq!(
        index
            .files_with_thread_prefix(&home.home(), "0199a21")?
            .len(),
        2
    );
    Ok(())
}

#[test]
fn a_bad_query_is_a_query_error() -> TestResult {
    let home = Home::new()?;
    let mut index = SearchIndex::open(&home.index_path())?;
    index.update(&home.home())?;
    let error = index.search(&home.home(), &Query::fts("\"unclosed")).err();
    assert!(
        matches!(error, Some(SearchError::Query { .. })),
        "{error:?}"
    );
    Ok(())
}

/// Typed text is text: CJK words inside a run of characters, terms of one and two
/// characters (no trigram holds them), punctuation FTS5 would read as operators or columns.
#[test]
fn typed_text_finds_substrings_in_any_script() -> TestResult {
    let home = Home::new()?;
    std::fs::write(
        home.session(THREAD),
        lines(&[
            meta(THREAD, "/repo"),
            user(1, "请把全局配置改成当前项目的设置"),
            assistant(1, "ask for a senior-level code review: OR NOT near(x)"),
            assistant(2, "日本語のテキストを検索する"),
        ]),
    )?;
    let snippets = |query: &str| -> Result<Vec<String>> {
        Ok(home
            .search(query)?
            .into_iter()
            .map(|(_, _, _, snippet)| snippet)
            .collect())
    };
    assert_eq!(snippets("全局")?, ["请把[全局]配置改成当前项目的设置"]);
    assert_eq!(
        snippets("当前项目 全")?,
        ["请把[全]局配置改成[当前项目]的设置"]
    );
    assert_eq!(snippets("テキスト")?, ["日本語の[テキスト]を検索する"]);
    assert_eq!(
        snippets("senior-level code review")?,
        ["ask for a [senior-level] [code] [review]: OR NOT near(x)"]
    );
    assert_eq!(
        snippets("review: NOT near(x)")?,
        ["ask for a senior-level code [review:] OR [NOT] [near(x)]"]
    );
    assert_eq!(snippets("SENIOR")?.len(), 1);
    assert_eq!(snippets("全局 absent")?.len(), 0);
    assert_eq!(snippets("x y")?.len(), 0);
    let mut query = Query::new("全局");
    query.role = Some(Role::Assistant);
    assert_eq!(home.search_with(query)?.0.len(), 0);
    Ok(())
}
