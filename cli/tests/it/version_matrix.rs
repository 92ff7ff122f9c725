//! The version matrix: an older Codex release (`CODEX_WRITER_BIN`; CI's is
//! `CI_WRITER_CODEX_VERSION`, `cargo xtask real-codex matrix` runs a spread) writes the suite's
//! scenarios with the scripted model answering in the shapes that release offers (a chat, a
//! command, a resumed turn, a compaction and a turn after it), then the reader (the real Codex
//! the suite runs, the pin unless `CODEX_REAL_BIN` names another) reads and resumes them in the
//! same home. Four comparisons for each thread: our `thread` of its file with the reader's
//! `thread/read`; the same after `codex-thread import` into a fresh home; our `usage` with the
//! token usage the reader restores when it resumes the thread; our `prompt` and `history` with
//! the request it sends then. Every difference must be one the docs name, with its evidence
//! (`docs/compat-real-codex.md`).

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use codex_test_support::{
    CodexHome, DiffOutcome, DiffReport, Reply, Script, ScriptedModel, Usage, assistant_message,
    describe_differences, exec_command_call, json_differences, real_codex_or_skip, reasoning,
    writer_codex_or_skip,
};
use serde_json::json;

use crate::import_real_codex::import_into;
use common::TestResult;
use common::real_codex::{our_usage_by_session, rollout_of};

const NAME: &str = "an_older_release_s_sessions_read_and_resume_as_the_pinned_codex_does";

/// How long Codex is given to send a resumed thread's token usage (it follows the answer).
const USAGE_WAIT: Duration = Duration::from_secs(5);

/// A limit the compaction scenario's big usage exceeds.
const SMALL_CONTEXT: &str = "model_auto_compact_token_limit=5000";

/// Our thread of each scenario's file compared with `thread/read` of the pinned Codex
/// serving `home` (`placed`: the files were copied there, not written there).
fn threads_compared(
    home: &CodexHome,
    scenarios: &[(&str, String)],
    placed: bool,
) -> Result<Vec<(String, DiffOutcome)>, Box<dyn std::error::Error>> {
    let mut app_server = home.app_server()?;
    let listed = app_server.thread_list(false)?;
    let mut compared = Vec::new();
    for (scenario, id) in scenarios {
        let path = listed
            .iter()
            .find(|thread| thread["id"] == id.as_str())
            .and_then(|thread| thread["path"].as_str())
            .map(PathBuf::from)
            .ok_or_else(|| format!("the pinned Codex does not list the {scenario} thread"))?;
        // Registering a paginated thread, Codex resumed it (and may have appended to it): it
        // ran it, as far as its times go.
        let resumed = std::fs::read_to_string(&path)?.contains(r#""ordinal":"#);
        let placed = placed && !resumed;
        let outcome =
            crate::real_codex_thread::compare(&mut app_server, home.path(), &path, id, placed)?;
        compared.push(((*scenario).to_owned(), outcome));
    }
    Ok(compared)
}

#[test]
#[allow(clippy::print_stderr)] // the table, for the log of a test run
fn an_older_release_s_sessions_read_and_resume_as_the_pinned_codex_does() -> TestResult {
    let Some(reader) = real_codex_or_skip(NAME) else {
        return Ok(());
    };
    let Some(writer) = writer_codex_or_skip(NAME) else {
        return Ok(());
    };
    let version = writer.version().ok_or("the writer reports no version")?;
    let model = ScriptedModel::start(Script::new().deadline(Duration::from_secs(900)))?;
    let mut home = CodexHome::new(&writer, &model)?;
    let mut scenarios: Vec<(&str, String)> = Vec::new();

    model.push_reply(Reply::message("msg_a1", "Hello there."));
    let chat = home.exec("say hello")?;
    chat.assert_success();
    scenarios.push(("chat", chat.expect_thread_id().to_owned()));

    model.push_reply(Reply::items(vec![
        reasoning("rs_b1", "I should list the folder."),
        exec_command_call("call_b1", "ls"),
    ]));
    model.push_reply(Reply::message("msg_b2", "Listed."));
    let worker = home.exec("list the folder")?;
    worker.assert_success();
    let worker_id = worker.expect_thread_id().to_owned();
    model.push_reply(Reply::message("msg_c1", "Again."));
    home.resume(&worker_id, "and again")?.assert_success();
    scenarios.push(("command, resumed", worker_id));

    // A response reporting more tokens than the limit: releases compact in the turn (0.47,
    // 0.58), after the tool round (0.77) or before the next turn (0.100 on).
    model.push_reply(
        Reply::items(vec![exec_command_call("call_d1", "echo big")])
            .usage(Usage::new(100_000, 0, 100, 0)),
    );
    model.push_compaction(Reply::message("msg_s1", "Summary: a big listing was made."));
    model.push_reply(Reply::message("msg_d2", "Done."));
    let compacted = home
        .runner()
        .config(SMALL_CONTEXT)
        .exec("fill the context")?;
    compacted.assert_success();
    let compacted_id = compacted.expect_thread_id().to_owned();
    model.push_compaction(Reply::message("msg_s2", "Summary: still the listing."));
    model.push_reply(Reply::message("msg_d3", "After."));
    home.runner()
        .config(SMALL_CONTEXT)
        .resume(&compacted_id, "go on")?
        .assert_success();
    let written = std::fs::read_to_string(rollout_of(&home, &compacted_id)?)?;
    assert!(
        written.contains(r#""type":"compacted""#),
        "Codex {version} wrote no compaction for the compaction scenario"
    );
    scenarios.push(("compaction", compacted_id));

    // Today's Codex reads and resumes what the older one wrote.
    home.switch_to(&reader);
    let report = DiffReport::from_env();
    let mut rows: Vec<(String, String, DiffOutcome)> = Vec::new();
    // The same files imported into a fresh home (Codex registers and projects them itself,
    // `codex-thread import`): what Codex shows of the file alone, without the state the
    // writer left.
    let fresh = CodexHome::new(&reader, &model)?;
    import_into(home.path(), fresh.path(), reader.bin())?;
    let imported = threads_compared(&fresh, &scenarios, true)?;
    let in_home = threads_compared(&home, &scenarios, false)?;
    let compared = in_home.into_iter().zip(imported).zip(&scenarios);
    for (((scenario, in_home), (_, imported)), (_, id)) in compared {
        let file = std::fs::read_to_string(rollout_of(&home, id)?)?;
        // A paginated thread's `thread/read` comes from the history the writing release
        // projected into Codex's state; where the file alone, imported, reads as ours does,
        // the difference is that projection's (0.151 kept no item times, 0.159 no root turn).
        let in_home = match (&in_home, &imported) {
            (DiffOutcome::Differs(_), DiffOutcome::Equal | DiffOutcome::Documented(_))
                if file.contains(r#""ordinal":"#) =>
            {
                DiffOutcome::Documented(format!(
                    "Codex answers from the history Codex {version} projected into its state, \
                     not from the file (imported, Codex shows what ours shows)"
                ))
            }
            _ => in_home,
        };
        rows.push((scenario.clone(), "thread".to_owned(), in_home));
        rows.push((scenario, "thread, imported".to_owned(), imported));
    }
    // Usage: the tokens Codex restores as the thread's when it resumes it.
    let ours = our_usage_by_session(home.path())?;
    for (scenario, id) in &scenarios {
        let mut app_server = home.app_server()?;
        app_server.call(
            "thread/resume",
            json!({"threadId": id, "excludeTurns": true}),
        )?;
        let Ok(restored) =
            app_server.wait_for_notification("thread/tokenUsage/updated", USAGE_WAIT)
        else {
            // Codex 0.171 restores a resumed thread's usage only from a paginated file: for
            // every legacy file of the matrix (0.47 to 0.146) it sends none.
            let file = std::fs::read_to_string(rollout_of(&home, id)?)?;
            let outcome = match file.contains(r#""ordinal":"#) {
                true => DiffOutcome::Differs("Codex restored no token usage".to_owned()),
                false => DiffOutcome::Documented(
                    "Codex restores no token usage when it resumes a legacy file".to_owned(),
                ),
            };
            rows.push(((*scenario).to_owned(), "usage".to_owned(), outcome));
            continue;
        };
        let theirs = &restored["params"]["tokenUsage"]["total"];
        let row = ours["session"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|row| row["thread_id"] == id.as_str())
            .ok_or_else(|| format!("our usage has no row for the {scenario} thread"))?;
        let ours = json!({
            "inputTokens": row["input_tokens"],
            "cachedInputTokens": row["cached_input_tokens"],
            "outputTokens": row["output_tokens"],
            "reasoningOutputTokens": row["reasoning_output_tokens"],
            "totalTokens": row["total_tokens"],
        });
        let theirs = json!({
            "inputTokens": theirs["inputTokens"],
            "cachedInputTokens": theirs["cachedInputTokens"],
            "outputTokens": theirs["outputTokens"],
            "reasoningOutputTokens": theirs["reasoningOutputTokens"],
            "totalTokens": theirs["totalTokens"],
        });
        let differences = json_differences(&ours, &theirs);
        let outcome = match differences.is_empty() {
            true => DiffOutcome::Equal,
            false => DiffOutcome::Differs(describe_differences(&differences, 8)),
        };
        rows.push(((*scenario).to_owned(), "usage".to_owned(), outcome));
    }
    let snapshots = tempfile::tempdir()?;
    for (scenario, id) in &scenarios {
        let snapshot = snapshots.path().join(format!("{id}.jsonl"));
        std::fs::copy(rollout_of(&home, id)?, &snapshot)?;
        let calls_before = model.model_calls().len();
        model.push_reply(Reply::items(vec![assistant_message("msg_z", "Resumed.")]));
        home.resume(id, "one more")?.assert_success();
        let request = model
            .model_calls()
            .into_iter()
            .nth(calls_before)
            .ok_or("the resume sent no request")?;
        let outcome = crate::real_codex_prompt::compare_resume(&snapshot, home.path(), &request)?;
        rows.push((
            (*scenario).to_owned(),
            "prompt, history".to_owned(),
            outcome,
        ));
    }

    eprintln!("writer | scenario | check | result");
    for (scenario, check, outcome) in &rows {
        eprintln!("{version} | {scenario} | {check} | {outcome}");
        report.record(&format!("matrix {version}: {check}"), scenario, outcome)?;
    }
    let differs: Vec<String> = rows
        .iter()
        .filter(|(_, _, outcome)| matches!(outcome, DiffOutcome::Differs(_)))
        .map(|(scenario, check, outcome)| format!("{version} {scenario} {check}: {outcome}"))
        .collect();
    assert!(differs.is_empty(), "{}", differs.join("\n\n"));
    Ok(())
}
