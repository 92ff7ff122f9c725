//! The complete transcript on real Codex files: it is Codex's thread plus the calls (and
//! compactions) the file records that Codex's items leave out, and nothing else.
//!
//! For every file in `../shared/fixtures/real/` (a loud skip when the folder is absent,
//! unless `CODEX_REQUIRE_REAL_FIXTURES=1`): both modes have the same turns (ids, statuses,
//! times); each turn's Codex items are the complete mode's items in the same order, equal
//! field by field; every other item of the complete mode is a call's item (command, patch,
//! MCP or dynamic tool call) whose id no other item has, or a compaction whose `compacted`
//! line Codex shows no item for; and every call item the file
//! records that Codex shows no item of is shown. The 0.145 legacy-mode session shows its
//! `exec_command` calls as finished commands with their outputs.

// Reporting (what was measured) is this test's job.
#![allow(clippy::print_stderr)]

use crate::common;

use std::collections::HashSet;

use codex_app_server_protocol::v2::{ThreadItem, Turn};
use codex_app_server_protocol::{ThreadHistoryBuilder, TranscriptMode, build_turns_in_mode};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_test_support::{real_file, real_jsonl_files};
use common::rollout_items;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Files that are shape catalogues with trimmed values (ids included), not captures.
const SHAPE_CATALOGUES: &[&str] = &["jazzyalex__agent-sessions__small.jsonl"];

/// The 0.145 session in legacy history mode (README of the fixtures): every `exec_command`
/// there has a `function_call` and an output, and no client item.
const LEGACY_0145: &str = "seokhyeonhong__motion-jepa__rollout-2026-07-26T06-37-23-019f9b36-1e6d-7651-9801-5450483871e2.jsonl";

fn is_call_item(item: &ThreadItem) -> bool {
    matches!(
        item,
        ThreadItem::CommandExecution { .. }
            | ThreadItem::FileChange { .. }
            | ThreadItem::McpToolCall { .. }
            | ThreadItem::DynamicToolCall { .. }
    )
}

/// The items of `complete` that are not `codex`'s, after checking that `codex`'s are there in
/// order and equal.
fn added_items<'a>(codex: &Turn, complete: &'a Turn, file: &str) -> Vec<&'a ThreadItem> {
    let mut expected = codex.items.iter().peekable();
    let mut added = Vec::new();
    for item in &complete.items {
        if expected.peek().is_some_and(|next| *next == item) {
            expected.next();
        } else {
            added.push(&item.item);
        }
    }
    assert!(
        expected.next().is_none(),
        "{file}: turn {}: a Codex item is missing from the complete mode or out of order",
        codex.id
    );
    added
}

#[test]
fn the_complete_mode_is_codex_s_thread_plus_every_recorded_call() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    for path in files {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let items = rollout_items(&path)?;
        let codex = build_turns_in_mode(&items, TranscriptMode::Codex);
        let complete = build_turns_in_mode(&items, TranscriptMode::Complete);
        assert_eq!(codex.len(), complete.len(), "{name}: turn count");
        // Counting turns only: the same turns, in the memory of the last ones.
        let mut counting = ThreadHistoryBuilder::turns_only();
        for item in &items {
            counting.handle_rollout_item(item);
        }
        let counted = counting.finish();
        let strip = |turn: &Turn| Turn {
            items: Vec::new(),
            ..turn.clone()
        };
        assert_eq!(
            counted.iter().map(strip).collect::<Vec<_>>(),
            codex.iter().map(strip).collect::<Vec<_>>(),
            "{name}: the turns counted"
        );
        let kept_items: usize = counted
            .iter()
            .rev()
            .skip(2)
            .map(|turn| turn.items.len())
            .sum();
        assert_eq!(kept_items, 0, "{name}: items kept by a turn count");
        let mut shown_ids = HashSet::new();
        let mut added_total = 0;
        for (codex_turn, complete_turn) in codex.iter().zip(&complete) {
            assert_eq!(
                strip(codex_turn),
                strip(complete_turn),
                "{name}: turn fields"
            );
            for item in &complete_turn.items {
                let trimmed = SHAPE_CATALOGUES.contains(&name.as_str());
                assert!(
                    shown_ids.insert(item.item.id().to_owned())
                        || item.item.id().is_empty()
                        || trimmed,
                    "{name}: two items of id {}",
                    item.item.id()
                );
            }
            let added = added_items(codex_turn, complete_turn, &name);
            for item in &added {
                // A call, or a `compacted` line Codex shows no item for (its id says so).
                let lone_compaction = matches!(item, ThreadItem::ContextCompaction { id }
                    if id.starts_with("compaction-"));
                assert!(
                    is_call_item(item) || lone_compaction,
                    "{name}: added a {}",
                    item.kind()
                );
            }
            added_total += added.len();
        }
        // Every call the file records (in a turn that is kept) is shown, as Codex's item or
        // as a recorded one. Calls before the first turn and in rolled-back turns aside.
        let calls: HashSet<&str> = items
            .iter()
            .filter_map(|item| match item {
                RolloutItem::ResponseItem(
                    call @ (ResponseItem::FunctionCall { .. }
                    | ResponseItem::CustomToolCall { .. }
                    | ResponseItem::LocalShellCall { .. }),
                ) => call.call_id().filter(|id| !id.is_empty()),
                _ => None,
            })
            .collect();
        let unshown = calls.iter().filter(|id| !shown_ids.contains(**id)).count();
        eprintln!(
            "{name}: {} turn(s), {added_total} recorded call item(s) added, {} call(s) in the \
             file, {unshown} not shown",
            complete.len(),
            calls.len()
        );
        if !complete.is_empty() && !has_rollback(&items) {
            assert_eq!(unshown, 0, "{name}: calls not shown");
        }
    }
    Ok(())
}

fn has_rollback(items: &[RolloutItem]) -> bool {
    items.iter().any(|item| {
        matches!(
            item,
            RolloutItem::EventMsg(codex_protocol::event::EventMsg::ThreadRolledBack(_))
        )
    })
}

#[test]
fn the_legacy_0145_session_shows_its_exec_command_calls_with_outputs() -> TestResult {
    let Some(path) = real_file(LEGACY_0145)? else {
        return Ok(());
    };
    let items = rollout_items(&path)?;
    let codex_commands: usize = build_turns_in_mode(&items, TranscriptMode::Codex)
        .iter()
        .flat_map(|turn| &turn.items)
        .filter(|item| matches!(item.item, ThreadItem::CommandExecution { .. }))
        .count();
    assert_eq!(codex_commands, 0, "Codex shows no command of this file");
    let commands: Vec<(String, Option<String>, Option<i32>)> =
        build_turns_in_mode(&items, TranscriptMode::Complete)
            .iter()
            .flat_map(|turn| &turn.items)
            .filter_map(|item| match &item.item {
                ThreadItem::CommandExecution {
                    command,
                    aggregated_output,
                    exit_code,
                    ..
                } => Some((command.clone(), aggregated_output.clone(), *exit_code)),
                _ => None,
            })
            .collect();
    let exec_calls = items
        .iter()
        .filter(|item| {
            matches!(item, RolloutItem::ResponseItem(ResponseItem::FunctionCall { name, .. }) if name == "exec_command")
        })
        .count();
    eprintln!(
        "{LEGACY_0145}: {exec_calls} exec_command call(s), {} command(s) shown",
        commands.len()
    );
    assert_eq!(commands.len(), exec_calls);
    assert!(exec_calls >= 70, "the fixture has 70 exec_command calls");
    for (command, output, _) in &commands {
        assert!(output.is_some(), "{command}: no output");
    }
    assert!(
        commands
            .iter()
            .any(|(command, _, _)| command.contains("rg --files")),
        "a command it ran"
    );
    Ok(())
}
