//! The search index over a home built from the real session files (copied into a temporary
//! `sessions/YYYY/MM/DD/`), and the streaming turn rule against the whole-file turn index on
//! every real file.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use codex_core::parse_turn_item;
use codex_home::{Query, Role, SearchIndex};
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::CodexHome;
use codex_rollout::RolloutContents;
use codex_rollout::read_rollout_file;
use codex_rollout::{RolloutStream, StreamedContent};
use codex_rollout::{TurnRecords, TurnTally, all_user_turns_in_rollout};
use codex_test_support::real_jsonl_files;
use uuid::Uuid;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A home holding a copy of every real file under a rollout name: the file's own name when
/// it is one, else a name made from its position.
struct RealHome {
    dir: tempfile::TempDir,
    /// Copied path to (original path, thread id in the name).
    files: BTreeMap<PathBuf, (PathBuf, Uuid)>,
}

impl RealHome {
    fn build(originals: &[PathBuf]) -> Result<Self, Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let day = dir.path().join("home/sessions/2026/01/02");
        std::fs::create_dir_all(&day)?;
        let mut files = BTreeMap::new();
        for (n, original) in originals.iter().enumerate() {
            let name = original
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or_default();
            let rollout = name
                .find("rollout-")
                .map(|at| &name[at..])
                .and_then(|name| {
                    codex_rollout::parse_rollout_file_name(name)
                        .map(|parsed| (name.to_string(), parsed.thread_id))
                });
            let (name, thread) = match rollout {
                Some(found) => found,
                None => {
                    let thread =
                        Uuid::from_u128(0x0190_0000_0000_7000_8000_0000_0000_0000 + n as u128);
                    (
                        format!("rollout-2026-01-02T00-00-{n:02}-{thread}.jsonl"),
                        thread,
                    )
                }
            };
            let copy = day.join(name);
            std::fs::copy(original, &copy)?;
            // The thread a file holds is its session meta's, the name's only without one.
            let thread = codex_home::read_head_summary(&copy)?
                .session_meta
                .map_or(thread, |meta| *meta.meta.id.as_uuid());
            files.insert(copy, (original.clone(), thread));
        }
        Ok(Self { dir, files })
    }

    fn home(&self) -> CodexHome {
        CodexHome::new(self.dir.path().join("home"))
    }

    fn index(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// The longest word (letters only, 6 to 30 of them) of the first message a person typed, as
/// core shows it.
fn distinctive_word(path: &Path) -> Result<Option<String>, Box<dyn std::error::Error>> {
    let mut stream = RolloutStream::open(path)?;
    while let Some(line) = stream.next_line()? {
        let Some(rollout) = line.line() else { continue };
        let RolloutItem::ResponseItem(item) = &rollout.item else {
            continue;
        };
        if let Some(TurnItem::UserMessage(message)) = parse_turn_item(item) {
            let text = message.message();
            let word = text
                .split(|ch: char| !ch.is_ascii_alphabetic())
                .filter(|word| (6..=30).contains(&word.len()))
                .max_by_key(|word| word.len());
            if let Some(word) = word {
                return Ok(Some(word.to_lowercase()));
            }
        }
    }
    Ok(None)
}

#[test]
fn every_real_file_is_indexed_and_its_first_message_found() -> TestResult {
    let Some(originals) = real_jsonl_files()? else {
        return Ok(());
    };
    let real = RealHome::build(&originals)?;
    let mut index = SearchIndex::open(&real.index("index.sqlite"))?;
    let report = index.update(&real.home())?;
    assert_eq!(report.files, originals.len());
    assert_eq!(report.read_whole, originals.len());
    assert_eq!(report.unreadable, 0);
    assert!(report.entries > 100, "{report:?}");
    let mut checked = 0;
    for (copy, (original, thread)) in &real.files {
        let Some(word) = distinctive_word(copy)? else {
            continue;
        };
        let mut query = Query::fts(format!("\"{word}\""));
        query.role = Some(Role::User);
        query.limit = 1000;
        // A child's first message may be one it copied from its parent.
        query.copied = true;
        let hits = index.search(&real.home(), &query)?;
        let own: Vec<_> = hits
            .iter()
            .filter(|hit| hit.thread_id == thread.hyphenated().to_string())
            .collect();
        assert!(
            !own.is_empty(),
            "{}: its first message's word {word:?} is not found",
            original.display()
        );
        assert!(own.iter().all(|hit| hit.path == *copy && hit.line > 0));
        assert!(
            own.iter()
                .any(|hit| hit.snippet.contains(&format!("[{word}"))
                    || hit.snippet.to_lowercase().contains(&format!("[{word}")))
        );
        checked += 1;
    }
    assert!(
        checked >= 10,
        "only {checked} real files have a first message to look for"
    );
    // Nothing changed: the second update reads nothing.
    let again = index.update(&real.home())?;
    assert_eq!((again.read_whole, again.read_on, again.bytes), (0, 0, 0));
    Ok(())
}

#[test]
fn real_files_read_in_pieces_index_what_they_index_whole() -> TestResult {
    let Some(originals) = real_jsonl_files()? else {
        return Ok(());
    };
    let real = RealHome::build(&originals)?;
    let mut whole = SearchIndex::open(&real.index("whole.sqlite"))?;
    let expected = whole.update(&real.home())?.entries;

    // The same files, written in three steps: the first half of the lines, then all but
    // half of one line, then the rest.
    let pieces = tempfile::tempdir()?;
    let day = pieces.path().join("sessions/2026/01/02");
    std::fs::create_dir_all(&day)?;
    let mut steps: Vec<(PathBuf, Vec<u8>, usize, usize)> = Vec::new();
    for copy in real.files.keys() {
        let bytes = std::fs::read(copy)?;
        let ends: Vec<usize> = bytes
            .iter()
            .enumerate()
            .filter(|(_, byte)| **byte == b'\n')
            .map(|(at, _)| at + 1)
            .collect();
        let half = ends.get(ends.len() / 2).copied().unwrap_or(0);
        let almost = ends
            .len()
            .checked_sub(2)
            .and_then(|at| ends.get(at))
            .copied()
            .unwrap_or(half);
        let cut = almost + (bytes.len() - almost) / 2;
        let target = day.join(copy.file_name().ok_or("no name")?);
        std::fs::write(&target, &bytes[..half])?;
        steps.push((target, bytes, half, cut.max(half)));
    }
    let home = CodexHome::new(pieces.path());
    let mut index = SearchIndex::open(&pieces.path().join("index.sqlite"))?;
    let mut entries = index.update(&home)?.entries;
    for (target, bytes, half, cut) in &steps {
        std::fs::OpenOptions::new()
            .append(true)
            .open(target)?
            .write_all(&bytes[*half..*cut])?;
    }
    entries += index.update(&home)?.entries;
    for (target, bytes, _, cut) in &steps {
        std::fs::OpenOptions::new()
            .append(true)
            .open(target)?
            .write_all(&bytes[*cut..])?;
    }
    let last = index.update(&home)?;
    entries += last.entries;
    assert_eq!(last.read_whole, 0, "{last:?}");
    assert_eq!(entries, expected);
    for word in ["error", "test", "file", "codex"] {
        let mut query = Query::new(word);
        query.limit = 100_000;
        let key = |hits: Vec<codex_home::Hit>| -> Vec<(String, u32, u64, String)> {
            let mut keys: Vec<_> = hits
                .into_iter()
                .map(|hit| (hit.thread_id, hit.turn, hit.line, hit.snippet))
                .collect();
            keys.sort();
            keys
        };
        assert_eq!(
            key(index.search(&home, &query)?),
            key(whole.search(&real.home(), &query)?),
            "{word}"
        );
    }
    Ok(())
}

#[test]
fn compressed_real_files_index_like_plain_ones() -> TestResult {
    let Some(originals) = real_jsonl_files()? else {
        return Ok(());
    };
    let real = RealHome::build(&originals)?;
    let mut plain = SearchIndex::open(&real.index("plain.sqlite"))?;
    let expected = plain.update(&real.home())?.entries;
    for copy in real.files.keys() {
        let bytes = std::fs::read(copy)?;
        let mut zst = copy.clone().into_os_string();
        zst.push(".zst");
        std::fs::write(&zst, zstd::encode_all(bytes.as_slice(), 3)?)?;
        std::fs::remove_file(copy)?;
    }
    let mut compressed = SearchIndex::open(&real.index("compressed.sqlite"))?;
    let report = compressed.update(&real.home())?;
    assert_eq!((report.files, report.entries), (originals.len(), expected));
    Ok(())
}

#[test]
fn the_streaming_turn_rule_numbers_turns_as_the_turn_index_does() -> TestResult {
    let Some(originals) = real_jsonl_files()? else {
        return Ok(());
    };
    let mut disagreements = Vec::new();
    for path in &originals {
        let contents = RolloutContents::from_decoded(read_rollout_file(path)?);
        let records = TurnRecords::of(&contents);
        let turns = all_user_turns_in_rollout(contents.items(), records);
        let mut tally = TurnTally::default();
        let mut numbers = Vec::new();
        let mut stream = RolloutStream::open(path)?;
        while let Some(line) = stream.next_line()? {
            if let StreamedContent::Line(rollout, format) = &line.content {
                numbers.push(tally.push(&rollout.item, *format));
            }
        }
        assert_eq!(numbers.len(), contents.items().len(), "{}", path.display());
        for (k, turn) in turns.iter().enumerate() {
            let record = turn.event.or(turn.message).unwrap_or(turn.start);
            if numbers[record] != k as u32 + 1 {
                disagreements.push(format!(
                    "{}: turn {} (item {record}) numbered {}",
                    path.display(),
                    k + 1,
                    numbers[record]
                ));
                break;
            }
        }
        assert_eq!(tally.turns() as usize, turns.len(), "{}", path.display());
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    Ok(())
}

#[test]
fn lines_a_child_copied_from_its_parent_are_marked_and_left_out_by_default() -> TestResult {
    let Some(originals) = real_jsonl_files()? else {
        return Ok(());
    };
    let real = RealHome::build(&originals)?;
    let mut index = SearchIndex::open(&real.index("index.sqlite"))?;
    index.update(&real.home())?;
    let mut children = 0;
    for (copy, (original, thread)) in &real.files {
        let contents = RolloutContents::from_decoded(read_rollout_file(copy)?);
        let Some(prefix) = codex_rollout::parent_prefix(contents.items()) else {
            continue;
        };
        // The line number of each item, as the stream numbers lines.
        let mut item_lines = Vec::new();
        let mut stream = RolloutStream::open(copy)?;
        while let Some(line) = stream.next_line()? {
            if line.line().is_some() {
                item_lines.push(line.number as u64);
            }
        }
        let first = item_lines[prefix.items.start];
        let last = item_lines[prefix.items.end - 1];
        let word = distinctive_word(copy)?.unwrap_or_else(|| "the".to_string());
        let mut query = Query::fts(format!("\"{word}\" OR the OR and OR for OR you OR this"));
        query.limit = 1_000_000;
        query.copied = true;
        let thread = thread.hyphenated().to_string();
        let with: Vec<_> = index
            .search(&real.home(), &query)?
            .into_iter()
            .filter(|hit| hit.thread_id == thread)
            .collect();
        let copied: Vec<_> = with.iter().filter(|hit| hit.copied).collect();
        assert!(
            !copied.is_empty(),
            "{}: no copied text found",
            original.display()
        );
        assert!(
            copied.iter().all(|hit| (first..=last).contains(&hit.line)),
            "{}: copied hits outside lines {first}..={last}",
            original.display()
        );
        query.copied = false;
        let without = index
            .search(&real.home(), &query)?
            .into_iter()
            .filter(|hit| hit.thread_id == thread)
            .count();
        assert_eq!(without, with.len() - copied.len());
        children += 1;
    }
    assert!(children >= 1, "no real file has a copied parent prefix");
    Ok(())
}
