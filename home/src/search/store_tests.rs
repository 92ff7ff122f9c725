//! Texts stored once give the answers of one text per entry: every real file, generated files
//! of real lines (compactions, rollbacks, a torn last line), and a home where texts repeat
//! (a copy of a file under another thread, a file resumed into itself, a real fork child);
//! texts held by several files survive until the last one goes; an index of schema 1 (one
//! text per entry) is rebuilt.

#[path = "../../../rollout/benches/support/generate.rs"]
mod generate;

use std::path::{Path, PathBuf};

use codex_rollout::CodexHome;
use pretty_assertions::assert_eq;

use super::super::schema::has_text_index;
use super::super::tests::{assistant, lines};
use super::super::{Order, Query, SearchIndex};

type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// Queries of every FTS5 form (over trigrams), matching many texts of the real files.
const QUERIES: &[&str] = &[
    "the",
    "error",
    "file OR files",
    "tes",
    "\"the file\"",
    "cargo NOT build",
    "NEAR(read file, 8)",
    "src",
    "redacted",
    "json",
    "apply_patch",
    "shell",
    "image",
];

/// A hit as compared: everything but the BM25 score.
type Answer = (
    String,
    PathBuf,
    &'static str,
    &'static str,
    u32,
    u64,
    Option<i64>,
    Option<String>,
    Option<String>,
    bool,
    String,
);

fn answers(index: &SearchIndex, home: &CodexHome, text: &str, order: Order) -> Vec<Answer> {
    let mut query = Query::fts(text);
    query.limit = usize::MAX;
    query.copied = true;
    query.order = order;
    let hits = match index.search(home, &query) {
        Ok(hits) => hits,
        Err(err) => panic!("query {text:?}: {err}"),
    };
    hits.into_iter()
        .map(|hit| {
            (
                hit.thread_id,
                hit.path,
                hit.role.as_str(),
                hit.kind.as_str(),
                hit.turn,
                hit.line,
                hit.timestamp_ms,
                hit.cwd,
                hit.model,
                hit.copied,
                hit.snippet,
            )
        })
        .collect()
}

fn session(home: &Path, n: usize) -> PathBuf {
    let day = home.join("sessions/2026/01/02");
    let _ = std::fs::create_dir_all(&day);
    day.join(format!(
        "rollout-2026-01-02T00-00-00-01900000-0000-7000-8000-{n:012}.jsonl"
    ))
}

fn count(index: &SearchIndex, table: &str) -> rusqlite::Result<i64> {
    index
        .conn
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get(0)
        })
}

/// Builds `home` into a new index both ways and checks that every query answers the same:
/// the same hits in the same order newest first, the same set by rank. Returns the
/// (entries, texts) of the shared index.
fn same_answers(dir: &Path, home: &CodexHome) -> Result<(i64, i64), Box<dyn std::error::Error>> {
    let mut shared = SearchIndex::open(&dir.join("shared.sqlite"))?;
    let mut plain = SearchIndex::open(&dir.join("plain.sqlite"))?;
    plain.plain_build = true;
    let report = shared.update(home)?;
    assert_eq!(plain.update(home)?, report);
    let mut hits = 0;
    for text in QUERIES {
        let newest = answers(&shared, home, text, Order::Newest);
        assert_eq!(newest, answers(&plain, home, text, Order::Newest), "{text}");
        let mut by_rank = answers(&shared, home, text, Order::Rank);
        let mut plain_by_rank = answers(&plain, home, text, Order::Rank);
        by_rank.sort();
        plain_by_rank.sort();
        assert_eq!(by_rank, plain_by_rank, "{text}");
        hits += newest.len();
    }
    assert!(
        hits > 500,
        "the queries match too little to compare: {hits}"
    );
    let entries = count(&shared, "entries")?;
    assert_eq!(entries, count(&plain, "entries")?);
    assert_eq!(count(&plain, "texts")?, entries);
    Ok((entries, count(&shared, "texts")?))
}

#[test]
fn every_real_file_answers_as_with_a_text_per_entry() -> TestResult {
    let Some(originals) = codex_test_support::real_jsonl_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let root = dir.path().join("home");
    for (n, original) in originals.iter().enumerate() {
        std::fs::copy(original, session(&root, n + 1))?;
    }
    let (entries, texts) = same_answers(dir.path(), &CodexHome::new(&root))?;
    // The real files repeat few texts (a fork child's copied prefix, a repeated command).
    assert!(
        texts < entries && texts * 10 > entries * 8,
        "{texts} of {entries}"
    );
    Ok(())
}

#[test]
fn generated_files_of_real_lines_answer_as_with_a_text_per_entry() -> TestResult {
    let Some(lines) = generate::real_lines() else {
        codex_test_support::real_jsonl_files()?;
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let root = dir.path().join("home");
    for (n, shape) in generate::streamed_equivalence_shapes().iter().enumerate() {
        generate::write_rollout(&session(&root, n + 1), &lines, shape)?;
    }
    same_answers(dir.path(), &CodexHome::new(&root))?;
    Ok(())
}

#[test]
fn repeated_texts_are_stored_once_and_answer_for_every_entry() -> TestResult {
    let (Some(parent), Some(child), Some(plain)) = (
        codex_test_support::real_file("doudouqie66__CommonTools__rollout-2026-07-11T10-22")?,
        codex_test_support::real_file("doudouqie66__CommonTools__rollout-2026-07-11T10-23")?,
        codex_test_support::real_file("dreyer-thomas__TravelBlogs")?,
    ) else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let root = dir.path().join("home");
    // A real fork: the child copied its parent's prefix.
    std::fs::copy(&parent, session(&root, 1))?;
    std::fs::copy(&child, session(&root, 2))?;
    // The same file under a second name, and the file twice over in a third.
    std::fs::copy(&plain, session(&root, 3))?;
    std::fs::copy(&plain, session(&root, 4))?;
    let once = std::fs::read(&plain)?;
    std::fs::write(session(&root, 5), [once.as_slice(), &once].concat())?;
    let (entries, texts) = same_answers(dir.path(), &CodexHome::new(&root))?;
    assert!(texts * 3 < entries, "{texts} texts for {entries} entries");
    Ok(())
}

#[test]
fn a_text_held_by_several_files_goes_with_the_last_of_them() -> TestResult {
    let dir = tempfile::tempdir()?;
    let root = dir.path().join("home");
    let home = CodexHome::new(&root);
    let (first, second) = (session(&root, 1), session(&root, 2));
    std::fs::write(
        &first,
        lines(&[assistant(1, "shared words"), assistant(2, "only first")]),
    )?;
    std::fs::write(&second, lines(&[assistant(3, "shared words")]))?;
    let mut index = SearchIndex::open(&dir.path().join("index.sqlite"))?;
    index.update(&home)?;
    assert_eq!((count(&index, "entries")?, count(&index, "texts")?), (3, 2));
    let found = |index: &SearchIndex, text: &str| -> Vec<u64> {
        answers(index, &home, text, Order::Newest)
            .into_iter()
            .map(|answer| answer.5 * 10 + u64::from(answer.1 == second))
            .collect()
    };
    assert_eq!(found(&index, "shared"), [11, 10]);

    // The first file rewritten: its old texts go unless the second holds them.
    std::fs::write(&first, lines(&[assistant(4, "rewritten")]))?;
    index.update(&home)?;
    assert_eq!(found(&index, "shared"), [11]);
    assert_eq!(found(&index, "only"), Vec::<u64>::new());
    assert_eq!(found(&index, "rewritten"), [10]);
    assert_eq!((count(&index, "entries")?, count(&index, "texts")?), (2, 2));

    // Both gone: nothing is left of them.
    std::fs::remove_file(&first)?;
    std::fs::remove_file(&second)?;
    index.update(&home)?;
    for table in ["entries", "texts", "text_keys"] {
        assert_eq!(count(&index, table)?, 0, "{table}");
    }
    Ok(())
}

/// Indexes of schema 1 (one text per entry) and 2 (texts by words, `unicode61`: no CJK
/// substrings) are rebuilt, and the new one answers.
#[test]
fn an_index_of_one_text_per_entry_or_of_words_is_rebuilt() -> TestResult {
    for version in [1, 2] {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("index.sqlite");
        {
            // The old schema's texts, as it made them.
            let conn = rusqlite::Connection::open(&path)?;
            conn.execute_batch(&format!(
                "CREATE TABLE files (id INTEGER PRIMARY KEY, home TEXT NOT NULL, path TEXT NOT NULL UNIQUE,
                    thread_id TEXT NOT NULL, archived INTEGER NOT NULL, compressed INTEGER NOT NULL,
                    size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, head_len INTEGER NOT NULL,
                    head_hash INTEGER NOT NULL, read_bytes INTEGER NOT NULL, read_lines INTEGER NOT NULL,
                    complete INTEGER NOT NULL, state TEXT NOT NULL);
                 CREATE TABLE entries (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, role TEXT NOT NULL,
                    kind TEXT NOT NULL, turn INTEGER NOT NULL, line INTEGER NOT NULL, ts_ms INTEGER,
                    cwd TEXT, model TEXT, copied INTEGER NOT NULL);
                 CREATE VIRTUAL TABLE texts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                 PRAGMA user_version = {version};"
            ))?;
        }
        let root = dir.path().join("home");
        std::fs::write(
            session(&root, 1),
            "{\"timestamp\":\"2026-01-02T00:01:00.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"after the upgrade 升级之后\"}]}}\n",
        )?;
        let mut index = SearchIndex::open(&path)?;
        assert_eq!(
            index.rebuilt(),
            Some(
                format!("the index was of another version ({version}, now 3); rebuilt it").as_str()
            )
        );
        let home = CodexHome::new(&root);
        index.update(&home)?;
        assert_eq!(answers(&index, &home, "upgrade", Order::Newest).len(), 1);
        assert_eq!(answers(&index, &home, "级之", Order::Newest).len(), 0);
        let mut query = Query::new("级之");
        query.limit = 10;
        assert_eq!(index.search(&home, &query)?.len(), 1);
    }
    Ok(())
}

#[test]
fn a_new_index_has_16_kib_pages() -> TestResult {
    let dir = tempfile::tempdir()?;
    let index = SearchIndex::open(&dir.path().join("index.sqlite"))?;
    let size: i64 = index
        .conn
        .pragma_query_value(None, "page_size", |row| row.get(0))?;
    assert_eq!(size, 16 * 1024);
    Ok(())
}

#[test]
fn a_first_build_makes_the_text_index_after_its_entries_and_an_update_keeps_it() -> TestResult {
    let dir = tempfile::tempdir()?;
    let root = dir.path().join("home");
    std::fs::write(
        session(&root, 1),
        lines(&[assistant(1, "shared words"), assistant(2, "only one")]),
    )?;
    std::fs::write(session(&root, 2), lines(&[assistant(3, "shared words")]))?;
    let home = CodexHome::new(&root);
    let mut index = SearchIndex::open(&dir.path().join("index.sqlite"))?;
    assert!(has_text_index(&index.conn)?, "a new index is made with it");
    index.update(&home)?;
    assert!(
        has_text_index(&index.conn)?,
        "made again after the first build"
    );
    assert_eq!(answers(&index, &home, "shared", Order::Newest).len(), 2);
    // An update of a known home keeps it; dropping a file's texts finds the others through it.
    std::fs::remove_file(session(&root, 1))?;
    std::fs::write(
        session(&root, 3),
        lines(&[assistant(4, "shared words again")]),
    )?;
    index.update(&home)?;
    assert!(has_text_index(&index.conn)?);
    assert_eq!(answers(&index, &home, "shared", Order::Newest).len(), 2);
    assert_eq!(answers(&index, &home, "only", Order::Newest).len(), 0);
    Ok(())
}

#[test]
fn an_index_stopped_before_its_text_index_was_made_gets_it_when_opened() -> TestResult {
    let dir = tempfile::tempdir()?;
    let root = dir.path().join("home");
    std::fs::write(
        session(&root, 1),
        lines(&[assistant(1, "words to find"), assistant(2, "more words")]),
    )?;
    let home = CodexHome::new(&root);
    let path = dir.path().join("index.sqlite");
    let expected = {
        let mut index = SearchIndex::open(&path)?;
        index.update(&home)?;
        let expected = answers(&index, &home, "words", Order::Newest);
        // What a build killed between its last insert and the index's creation leaves.
        index.conn.execute_batch("DROP INDEX entries_text")?;
        expected
    };
    let index = SearchIndex::open(&path)?;
    assert!(has_text_index(&index.conn)?);
    assert_eq!(index.rebuilt(), None, "the index is kept, only healed");
    assert_eq!(answers(&index, &home, "words", Order::Newest), expected);
    assert_eq!(expected.len(), 2);
    Ok(())
}
