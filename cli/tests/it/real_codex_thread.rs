//! `codex-thread thread --json` equals the real Codex's `thread/read`, item by item and field
//! by field, on every real session file placed in a home and on threads the real Codex writes
//! during the test. Where Codex answers otherwise for a reason we can name, the test asserts
//! exactly that difference (`docs/compat-real-codex.md` lists them) and reports it as
//! documented; anything else fails.

use crate::common;

use std::path::{Path, PathBuf};

use codex_app_server_protocol::TranscriptMode;
use codex_test_support::{
    CodexHome, DiffOutcome, DiffReport, Reply, Script, ScriptedModel, apply_patch_call,
    assistant_message, describe_differences, exec_command_call, json_differences,
    real_codex_or_skip, reasoning,
};
use serde_json::{Value, json};

use common::TestResult;
use common::real_codex::{
    home_path_of, meta_millis, our_thread, run_ours, set_aside_documented, text,
};

/// What Codex says when it refuses a file we read, for the two kinds of file it refuses.
fn codex_refuses_documented(message: &str) -> Option<&'static str> {
    if message.contains("is empty") {
        Some("Codex cannot read the pre-envelope format")
    } else if message.contains("invalid session metadata history_mode") {
        Some("Codex refuses a history_mode it does not know")
    } else {
        None
    }
}

/// Compares our thread of `file` (in `home`) with `thread/read` of `id`; the outcome.
pub(crate) fn compare(
    app_server: &mut codex_test_support::AppServer,
    home: &Path,
    file: &Path,
    id: &str,
    placed: bool,
) -> Result<DiffOutcome, Box<dyn std::error::Error>> {
    compare_last(app_server, home, file, id, placed, None)
}

/// [`compare`] of `thread --last N` with `thread/read`'s last N turns, when `last` is given.
fn compare_last(
    app_server: &mut codex_test_support::AppServer,
    home: &Path,
    file: &Path,
    id: &str,
    placed: bool,
    last: Option<usize>,
) -> Result<DiffOutcome, Box<dyn std::error::Error>> {
    let ours = match last {
        None => our_thread(file, home)?,
        Some(last) => serde_json::from_str(&run_ours(&[
            "--json",
            "thread",
            text(file)?,
            "--last",
            &last.to_string(),
            "--home",
            text(home)?,
        ])?)?,
    };
    let mut theirs = match app_server.thread_read(id) {
        Ok(thread) => thread,
        Err(error) => {
            let message = error.to_string();
            return Ok(match codex_refuses_documented(&message) {
                Some(why) => DiffOutcome::Documented(why.to_owned()),
                None => DiffOutcome::Differs(format!("thread/read failed: {message}")),
            });
        }
    };
    if let (Some(last), Some(turns)) = (last, theirs.get_mut("turns").and_then(Value::as_array_mut))
    {
        let first_kept = turns.len().saturating_sub(last);
        turns.drain(..first_kept);
    }
    let documented = set_aside_documented(&ours, &mut theirs, home, placed, meta_millis(file));
    let differences = json_differences(&ours, &theirs);
    Ok(if !differences.is_empty() {
        DiffOutcome::Differs(describe_differences(&differences, 12))
    } else if documented.is_empty() {
        DiffOutcome::Equal
    } else {
        DiffOutcome::Documented(documented.join("; "))
    })
}

/// Codex's creation time one second before ours is set aside only for a thread Codex ran
/// whose meta time lies just past a second; any other gap stays a difference.
#[test]
fn a_creation_time_a_second_early_is_documented_only_just_past_a_second() -> TestResult {
    let ours = json!({"createdAt": 100});
    let cwd = Path::new("/");
    let set_aside = |theirs_at: i64, placed: bool, millis: Option<u32>| {
        let mut theirs = json!({"createdAt": theirs_at});
        let documented = set_aside_documented(&ours, &mut theirs, cwd, placed, millis);
        (theirs == ours, documented.len())
    };
    assert_eq!(set_aside(99, false, Some(3)), (true, 1));
    assert_eq!(set_aside(99, false, Some(49)), (true, 1));
    assert_eq!(set_aside(99, false, Some(50)), (false, 0));
    assert_eq!(set_aside(99, true, Some(3)), (false, 0));
    assert_eq!(set_aside(98, false, Some(3)), (false, 0));
    assert_eq!(set_aside(101, false, Some(3)), (false, 0));
    assert_eq!(set_aside(99, false, None), (false, 0));
    let file = tempfile::NamedTempFile::new()?;
    let meta = r#"{"timestamp":"2026-12-03T07:23:09.004Z","type":"session_meta","payload":{"id":"01a23ac9-1f40-7763-9fe3-99962893990a","timestamp":"2026-12-03T07:23:09.003Z"}}"#;
    std::fs::write(file.path(), format!("{meta}\n"))?;
    assert_eq!(meta_millis(file.path()), Some(3));
    Ok(())
}

#[test]
#[allow(clippy::print_stderr)] // the counts, for the log of a test run
fn thread_equals_app_server_thread_read_on_real_files() -> TestResult {
    let Some(codex) = real_codex_or_skip("thread_equals_app_server_thread_read_on_real_files")
    else {
        return Ok(());
    };
    let Some(files) = common::real_files()? else {
        return Ok(());
    };
    let report = DiffReport::from_env();
    let (mut equal, mut documented, mut differs) = (0, 0, Vec::new());
    for file in &files {
        let name = file
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("?");
        let home = tempfile::tempdir()?;
        let Some((placed, id)) = home_path_of(file, home.path())? else {
            // No session meta: neither side has a thread to show.
            continue;
        };
        std::fs::copy(file, &placed)?;
        let mut app_server = codex_test_support::AppServer::start(&codex, home.path())?;
        let outcome = compare(&mut app_server, home.path(), &placed, &id, true)?;
        report.record("thread = thread/read", name, &outcome)?;
        match outcome {
            DiffOutcome::Equal => equal += 1,
            DiffOutcome::Documented(_) => documented += 1,
            DiffOutcome::Differs(what) => differs.push(format!("{name}: {what}")),
        }
    }
    eprintln!(
        "real files: {equal} equal, {documented} equal but for documented differences, {} differ",
        differs.len()
    );
    assert!(differs.is_empty(), "{}", differs.join("\n\n"));
    assert!(equal > 0, "no real file read equal to Codex");
    Ok(())
}

/// Threads the real Codex writes: a chat, commands with reasoning, a patch, several calls in
/// one response, a failing command, resumed twice, and a fork.
#[test]
fn thread_equals_app_server_thread_read_on_threads_codex_writes() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("thread_equals_app_server_thread_read_on_threads_codex_writes")
    else {
        return Ok(());
    };
    let patch = "*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n";
    let model = ScriptedModel::start(
        Script::new()
            // 1. chat
            .reply(Reply::items(vec![assistant_message(
                "msg_a1",
                "Hello there.",
            )]))
            // 2. reasoning and a command, then an answer
            .reply(Reply::items(vec![
                reasoning("rs_b1", "I should list the folder."),
                exec_command_call("call_b1", "ls"),
            ]))
            .reply(Reply::items(vec![assistant_message("msg_b2", "Listed.")]))
            // 3. a patch, then two commands in one response (one fails), then an answer
            .reply(Reply::items(vec![apply_patch_call("call_c1", patch)]))
            .reply(Reply::items(vec![
                exec_command_call("call_c2", "cat notes.txt"),
                exec_command_call("call_c3", "false"),
            ]))
            .reply(Reply::items(vec![assistant_message("msg_c3", "Done.")]))
            // 4. resumed: one more turn
            .reply(Reply::items(vec![assistant_message("msg_d1", "Resumed.")]))
            // 5. a fork's first turn
            .reply(Reply::items(vec![assistant_message("msg_e1", "Forked.")])),
    )?;
    let home = CodexHome::new(&codex, &model)?;
    let chat = home.exec("say hello")?;
    chat.assert_success();
    let worker = home.exec("list the folder")?;
    worker.assert_success();
    let worker_id = worker.expect_thread_id().to_owned();
    home.resume(&worker_id, "write notes")?.assert_success();
    home.resume(&worker_id, "and again")?.assert_success();
    let fork = home.fork(&worker_id, "go on from here")?;
    fork.assert_success();

    let report = DiffReport::from_env();
    let mut app_server = home.app_server()?;
    let mut differs = Vec::new();
    let mut compared = 0;
    let mut from_end = 0;
    for thread in app_server.thread_list(false)? {
        let id = thread["id"].as_str().ok_or("no id")?.to_owned();
        let path = PathBuf::from(thread["path"].as_str().ok_or("no path")?);
        let outcome = compare(&mut app_server, home.path(), &path, &id, false)?;
        report.record("thread = thread/read", &id, &outcome)?;
        compared += 1;
        if let DiffOutcome::Differs(what) = outcome {
            differs.push(format!("{id}: {what}"));
        }
        // The last turns, read from the end where the file allows it (the worker's three
        // turns; every file Codex 0.169 writes is paginated).
        for last in 1..=3 {
            from_end += usize::from(
                codex_home::last_turns_from_end(&path, last, TranscriptMode::Codex)?.is_some(),
            );
            let outcome =
                compare_last(&mut app_server, home.path(), &path, &id, false, Some(last))?;
            report.record("thread --last = thread/read's last turns", &id, &outcome)?;
            if let DiffOutcome::Differs(what) = outcome {
                differs.push(format!("{id} --last {last}: {what}"));
            }
        }
    }
    assert_eq!(compared, 3, "chat, worker and fork");
    assert!(differs.is_empty(), "{}", differs.join("\n\n"));
    assert!(
        from_end >= 2,
        "the worker's last turns were read from the end {from_end} time(s)"
    );
    Ok(())
}

/// The harder shapes: a web search, a tool Codex does not offer, a turn that hit a 429, a
/// compaction before a resumed turn, a named thread, an archived thread, a legacy thread
/// started through the app-server, and a thread reverted into a continuation file.
#[test]
fn thread_equals_app_server_thread_read_on_harder_threads_codex_writes() -> TestResult {
    use codex_test_support::{Usage, function_call, web_search_call};
    let Some(codex) =
        real_codex_or_skip("thread_equals_app_server_thread_read_on_harder_threads_codex_writes")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let run = |prompt: &str, replies: Vec<Reply>| -> Result<String, Box<dyn std::error::Error>> {
        for reply in replies {
            model.push_reply(reply);
        }
        let run = home.exec(prompt)?;
        Ok(run.expect_thread_id().to_owned())
    };
    // A web search, then an answer.
    run(
        "search the web",
        vec![
            Reply::items(vec![web_search_call("ws_1", "rust serde")]),
            Reply::items(vec![assistant_message("msg_ws", "Found it.")]),
        ],
    )?;
    // A tool Codex does not offer.
    run(
        "use a strange tool",
        vec![
            Reply::items(vec![function_call(
                "call_x",
                "no_such_tool",
                &json!({"a": 1}),
            )]),
            Reply::items(vec![assistant_message("msg_x", "That failed.")]),
        ],
    )?;
    // A turn that hit a 429 (Codex retries nothing here and fails the turn).
    run("rate limited", vec![Reply::rate_limited()])?;
    // A compaction before the resumed turn: a large reported usage, a low limit.
    let compacting = run(
        "a long one",
        vec![
            Reply::items(vec![assistant_message("msg_big", "Big.")])
                .usage(Usage::new(9_000, 0, 10, 0)),
        ],
    )?;
    model.push_compaction(Reply::items(vec![assistant_message(
        "msg_summary",
        "Summary.",
    )]));
    model.push_reply(Reply::items(vec![assistant_message("msg_after", "After.")]));
    home.runner()
        .config("model_auto_compact_token_limit=5000")
        .resume(&compacting, "continue")?
        .assert_success();
    // Named, archived.
    let named = run("name me", vec![Reply::message("msg_n", "Named.")])?;
    let archived = run("archive me", vec![Reply::message("msg_a", "Archived.")])?;
    home.archive(&archived)?.assert_success();
    // A continuation file: three turns, reverted before the third.
    let reverted = run("one", vec![Reply::message("msg_r1", "One.")])?;
    for (turn, text) in ["two", "three"].into_iter().enumerate() {
        model.push_reply(Reply::message(&format!("msg_r{}", turn + 2), text));
        home.resume(&reverted, text)?.assert_success();
    }
    let mut app_server = home.app_server()?;
    app_server.call(
        "thread/name/set",
        json!({"threadId": named, "name": "My thread"}),
    )?;
    let turns = app_server.thread_read(&reverted)?["turns"].clone();
    let third = turns[2]["id"].as_str().ok_or("no third turn")?.to_owned();
    app_server.call("thread/resume", json!({"threadId": reverted}))?;
    app_server.call(
        "thread/revert",
        json!({"threadId": reverted, "beforeTurnId": third}),
    )?;
    // Two legacy threads started through the app-server: the first migrated to the paginated
    // mode by `codex migrate-rollouts --apply`, the second left legacy.
    model.push_reply(Reply::message("msg_l1", "Legacy."));
    common::real_codex::legacy_thread(&mut app_server, home.work_dir(), "to be migrated")?;
    drop(app_server);
    let migrated = home.run(&["migrate-rollouts", "--apply", "--json"])?;
    assert!(migrated.success(), "migrate-rollouts: {}", migrated.stderr);
    assert!(
        migrated.stdout.contains("\"migrated\""),
        "{}",
        migrated.stdout
    );
    let mut app_server = home.app_server()?;
    model.push_reply(Reply::message("msg_l2", "Legacy."));
    common::real_codex::legacy_thread(&mut app_server, home.work_dir(), "old style")?;
    drop(app_server);
    // A code-mode model: its tools and instructions recorded in the thread's history.
    model.push_reply(Reply::message("msg_code", "Coded."));
    home.runner()
        .config("model=gpt-5.6-sol")
        .exec("code mode")?
        .assert_success();
    // Archived, then unarchived.
    let returned = run("come back", vec![Reply::message("msg_u", "Back.")])?;
    home.archive(&returned)?.assert_success();
    home.unarchive(&returned)?.assert_success();

    let report = DiffReport::from_env();
    let mut app_server = home.app_server()?;
    let mut differs = Vec::new();
    let mut compared = 0;
    let mut from_end = 0;
    let mut listed = Vec::new();
    for archived_list in [false, true] {
        for thread in app_server.thread_list(archived_list)? {
            let id = thread["id"].as_str().ok_or("no id")?.to_owned();
            let path = PathBuf::from(thread["path"].as_str().ok_or("no path")?);
            listed.push(thread["preview"].clone());
            let outcome = compare(&mut app_server, home.path(), &path, &id, false)?;
            report.record("thread = thread/read", &id, &outcome)?;
            compared += 1;
            if let DiffOutcome::Differs(what) = outcome {
                differs.push(format!("{id} ({}): {what}", path.display()));
            }
            // The last turn: read from the end for the compacting thread's two turns.
            from_end += usize::from(
                codex_home::last_turns_from_end(&path, 1, TranscriptMode::Codex)?.is_some(),
            );
            let outcome = compare_last(&mut app_server, home.path(), &path, &id, false, Some(1))?;
            report.record("thread --last = thread/read's last turns", &id, &outcome)?;
            if let DiffOutcome::Differs(what) = outcome {
                differs.push(format!("{id} --last 1 ({}): {what}", path.display()));
            }
        }
    }
    assert!(differs.is_empty(), "{}", differs.join("\n\n"));
    assert_eq!(compared, 11, "every scenario's thread: {listed:?}");
    assert!(from_end >= 1, "no thread's last turn was read from the end");
    Ok(())
}

/// A guardian's thread (`{"subagent": {"other": "guardian"}}`, an approval's auto-review):
/// Codex shows it with the preview "Approval review" whatever its first message, named
/// "Guardian review" unless its home names it. A real session with its source made a
/// guardian's, placed in a home with and without a name, reads as Codex reads it.
#[test]
fn a_guardian_thread_shows_codex_s_preview_and_name() -> TestResult {
    let Some(codex) = real_codex_or_skip("a_guardian_thread_shows_codex_s_preview_and_name") else {
        return Ok(());
    };
    for named in [None, Some("Reviewed the cleanup")] {
        let Some((home, placed, id)) = changed_real_session(|text, _| {
            Ok(text.replacen(
                r#""source":"cli""#,
                r#""source":{"subagent":{"other":"guardian"}}"#,
                1,
            ))
        })?
        else {
            return Ok(());
        };
        let id = id.as_str();
        if let Some(name) = named {
            let index =
                json!({"id": id, "thread_name": name, "updated_at": "2026-03-30T20:00:00Z"});
            std::fs::write(
                home.path().join("session_index.jsonl"),
                format!("{index}\n"),
            )?;
        }
        let mut app_server = codex_test_support::AppServer::start(&codex, home.path())?;
        let theirs = app_server.thread_read(id)?;
        assert_eq!(
            (&theirs["preview"], &theirs["name"]),
            (
                &json!("Approval review"),
                &json!(named.unwrap_or("Guardian review"))
            ),
            "Codex's own"
        );
        let outcome = compare(&mut app_server, home.path(), &placed, id, true)?;
        assert!(
            !matches!(outcome, DiffOutcome::Differs(_)),
            "named {named:?}: {outcome}"
        );
    }
    Ok(())
}

/// A plan item whose record says `completed_at_ms: 0`, or nothing (plan items of older
/// writers), shows no completion time in Codex; one with a time shows it. A real legacy
/// session with the three kinds added to its first turns reads as Codex reads it.
#[test]
fn plan_items_without_a_completion_time_show_none_as_in_codex() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("plan_items_without_a_completion_time_show_none_as_in_codex")
    else {
        return Ok(());
    };
    let times = [Some(0), None, Some(1_774_900_000_123_i64)];
    let Some((home, placed, id)) = changed_real_session(|text, id| {
        let mut lines = Vec::new();
        let mut added = 0;
        for line in text.lines() {
            lines.push(line.to_owned());
            let value: Value = serde_json::from_str(line)?;
            if value["payload"]["type"] != "task_started" || added == times.len() {
                continue;
            }
            let turn = value["payload"]["turn_id"].as_str().ok_or("no turn id")?;
            let mut payload = json!({"type": "item_completed", "thread_id": id, "turn_id": turn,
                "item": {"type": "Plan", "id": format!("{turn}-plan"), "text": "# Plan\n\n- one"}});
            if let Some(at) = times[added] {
                payload["completed_at_ms"] = json!(at);
            }
            lines.push(
                json!({"timestamp": value["timestamp"], "type": "event_msg", "payload": payload})
                    .to_string(),
            );
            added += 1;
        }
        assert_eq!(added, times.len(), "the file has turns enough");
        Ok(lines.join("\n") + "\n")
    })?
    else {
        return Ok(());
    };
    let id = id.as_str();
    let mut app_server = codex_test_support::AppServer::start(&codex, home.path())?;
    let plans = |thread: &Value| -> Vec<Value> {
        thread["turns"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|turn| turn["items"].as_array().into_iter().flatten())
            .filter(|item| item["type"] == "plan")
            .map(|item| item["completedAtMs"].clone())
            .collect()
    };
    let expected = [Value::Null, Value::Null, json!(1_774_900_000_123_i64)];
    assert_eq!(plans(&app_server.thread_read(id)?), expected, "Codex's");
    assert_eq!(plans(&our_thread(&placed, home.path())?), expected, "ours");
    let outcome = compare(&mut app_server, home.path(), &placed, id, true)?;
    assert!(!matches!(outcome, DiffOutcome::Differs(_)), "{outcome}");
    Ok(())
}

/// A fresh home, a session file placed in it, and its thread id.
type PlacedSession = (tempfile::TempDir, PathBuf, String);

/// A real session (`LAF-US__IDAHO-VAULT…`, a legacy capture) with its text changed by
/// `change` (given the text and the thread id), placed where Codex keeps it in a fresh home: the home, the file and its thread
/// id; `None` without the real fixtures.
fn changed_real_session(
    change: impl FnOnce(&str, &str) -> Result<String, Box<dyn std::error::Error>>,
) -> Result<Option<PlacedSession>, Box<dyn std::error::Error>> {
    let Some(files) = common::real_files()? else {
        return Ok(None);
    };
    let file = files
        .iter()
        .find(|path| common::name(path).starts_with("LAF-US__IDAHO-VAULT"))
        .ok_or("no LAF-US__IDAHO-VAULT fixture")?;
    let home = tempfile::tempdir()?;
    let (placed, id) = home_path_of(file, home.path())?.ok_or("no session meta")?;
    if let Some(day) = placed.parent() {
        std::fs::create_dir_all(day)?;
    }
    std::fs::write(&placed, change(&std::fs::read_to_string(file)?, &id)?)?;
    Ok(Some((home, placed, id)))
}
