//! Turns handed on as they become final are the turns of one pass: for every file in
//! `../shared/fixtures/real/` (a loud skip when the folder is absent, unless
//! `CODEX_REQUIRE_REAL_FIXTURES=1`), in both modes, a first pass's schedule
//! (`ThreadHistoryBuilder::planner`) and a second pass that hands turns on
//! (`take_final_turns`) give, in order, exactly the turns `build_turns_in_mode` gives; the
//! schedule counts them; and on a long file the second pass holds few turns at once.

// Reporting (what was measured) is this test's job.
#![allow(clippy::print_stderr)]

use crate::common;

use codex_app_server_protocol::v2::Turn;
use codex_app_server_protocol::{ThreadHistoryBuilder, TranscriptMode, build_turns_in_mode};
use codex_protocol::rollout::RolloutItem;
use codex_test_support::real_jsonl_files;
use common::rollout_items;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The turns of `items` handed on by a scheduled second pass, and the most turns the second
/// pass held at once (counted as turns handed on late: closed turns not yet final).
fn scheduled(items: &[RolloutItem], mode: TranscriptMode) -> (Vec<Turn>, usize, usize) {
    let mut planner = ThreadHistoryBuilder::planner();
    for item in items {
        planner.handle_rollout_item(item);
    }
    let schedule = planner.finish_schedule();
    let counted = schedule.turns();
    let mut builder = ThreadHistoryBuilder::in_mode(mode).following(schedule);
    let mut turns = Vec::new();
    let mut before_end = 0;
    for item in items {
        builder.handle_rollout_item(item);
        let done = builder.take_final_turns();
        before_end += done.len();
        turns.extend(done);
    }
    turns.extend(builder.finish());
    (turns, counted, before_end)
}

#[test]
fn scheduled_turns_equal_one_pass_on_every_real_file() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let mut handed_early = 0;
    let mut total = 0;
    for path in &files {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        let items = rollout_items(path)?;
        for mode in [TranscriptMode::Codex, TranscriptMode::Complete] {
            let whole = build_turns_in_mode(&items, mode);
            let (turns, counted, before_end) = scheduled(&items, mode);
            assert_eq!(turns, whole, "{name} ({mode:?}): scheduled turns differ");
            assert_eq!(counted, whole.len(), "{name}: the schedule's turn count");
            if mode == TranscriptMode::Complete {
                handed_early += before_end;
                total += whole.len();
            }
        }
    }
    eprintln!(
        "{} files: {handed_early} of {total} turns handed on before the end of the file",
        files.len()
    );
    assert!(
        handed_early * 2 > total,
        "most turns are final before the file ends ({handed_early} of {total})"
    );
    Ok(())
}
