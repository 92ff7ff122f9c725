//! The builder hands parts on as soon as nothing later changes them; what it builds must be
//! what it builds when it keeps every part to the end (the whole transcript in memory).

use codex_rollout::RolloutContents;
use codex_rollout::RolloutStream;

use super::super::index::{FileIndex, IndexScan};
use super::{Part, TranscriptBuilder};

/// The index `export`'s first pass makes of `bytes`.
fn index_of(bytes: &[u8]) -> std::io::Result<FileIndex> {
    let mut scan = IndexScan::new();
    RolloutStream::new(bytes)?.for_each_line(|line| scan.push_line(&line))?;
    Ok(scan.finish())
}

fn raw(contents: &RolloutContents, index: usize) -> &[u8] {
    contents
        .entry_of_item(index)
        .map_or(&[][..], |entry| contents.raw_line(entry))
}

/// The parts of `contents` under `index`, and the most parts held at once.
fn parts(contents: &RolloutContents, index: &FileIndex) -> (Vec<Part>, usize) {
    let mut builder = TranscriptBuilder::new(index);
    let mut parts = Vec::new();
    let mut most_open = 0;
    for (at, item) in contents.items().iter().enumerate() {
        builder.push(item, raw(contents, at));
        most_open = most_open.max(builder.open.len());
        parts.extend(builder.take_ready());
    }
    builder.finish();
    parts.extend(builder.take_ready());
    (parts, most_open)
}

#[test]
fn parts_handed_on_early_are_the_parts_of_the_whole_transcript()
-> Result<(), Box<dyn std::error::Error>> {
    let Some(files) = codex_test_support::real_jsonl_files()? else {
        return Ok(());
    };
    assert!(!files.is_empty());
    let mut held_back = 0;
    for file in &files {
        let bytes = std::fs::read(file)?;
        let index = index_of(&bytes)?;
        let contents = &RolloutContents::parse(bytes);
        let (streamed, most_open) = parts(contents, &index);
        let mut whole = index.clone();
        whole.holds = vec![usize::MAX; whole.holds.len()];
        let (kept, _) = parts(contents, &whole);
        assert_eq!(streamed, kept, "{}", file.display());
        assert_eq!(streamed.len(), index.turns.len() + 1, "{}", file.display());
        held_back = held_back.max(most_open);
    }
    // Codex's own files answer each call within its turn: at most the turn before is held.
    assert!(held_back <= 3, "{held_back} parts held at once");
    Ok(())
}
