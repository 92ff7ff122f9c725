//! The builder hands parts on as soon as nothing later changes them; what it builds must be
//! what it builds when it keeps every part to the end (the whole transcript in memory).

use codex_rollout::load::RolloutContents;
use codex_rollout::turns::{TurnRecords, all_user_turns_in_rollout};

use super::super::index::{FileIndex, index_items};
use super::{Part, TranscriptBuilder};

fn index_of(contents: &RolloutContents) -> FileIndex {
    let items = contents.items();
    let turns = all_user_turns_in_rollout(items, TurnRecords::of(contents));
    index_items(
        items
            .iter()
            .enumerate()
            .map(|(index, item)| (item, raw(contents, index))),
        turns,
    )
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
        let contents = &RolloutContents::parse(std::fs::read(file)?);
        let index = index_of(contents);
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
