//! What `codex-thread` writes is taken by the real Codex: a fork (copied and by reference, of
//! a plain and of a compressed parent) and a compressed rollout are resumed by
//! `codex exec resume`, and the request Codex then sends carries the history our `prompt` of
//! that file predicts; `thread/read` of a home we compressed equals that of the plain home.

use crate::common;

use std::path::{Path, PathBuf};

use codex_test_support::{
    CodexHome, RecordedRequest, Reply, Script, ScriptedModel, assistant_message,
    describe_differences, exec_command_call, json_differences, real_codex_or_skip,
};
use serde_json::{Value, json};

use common::real_codex::{home_path_of, our_usage_by_session, rollout_of, run_ours, text};
use common::{TestResult, bin};

type Failure = Box<dyn std::error::Error>;

/// Moves the session at `file` to where Codex keeps a session of its id and creation time in
/// `home`; its new path and its thread id.
fn move_into_home(file: &Path, home: &Path) -> Result<(PathBuf, String), Failure> {
    let (placed, id) = home_path_of(file, home)?.ok_or("no session meta")?;
    std::fs::rename(file, &placed)?;
    Ok((placed, id))
}

/// Resumes `thread_id` in the real Codex and checks that the history of its first request
/// equals the input of our `prompt` of `file` (everything after the base instructions).
fn resumed_as_we_predict(
    home: &CodexHome,
    model: &ScriptedModel,
    file: &Path,
    thread_id: &str,
) -> Result<(), Failure> {
    let prompt: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "prompt",
        text(file)?,
        "--home",
        text(home.path())?,
    ])?)?;
    let calls_before = model.model_calls().len();
    model.push_reply(Reply::items(vec![assistant_message(
        "msg_resumed",
        "Back.",
    )]));
    home.resume(thread_id, "carry on")?.assert_success();
    let request: RecordedRequest = model
        .model_calls()
        .into_iter()
        .nth(calls_before)
        .ok_or("the resume sent no request")?;
    let theirs = request.input();
    let ours = prompt["input"].as_array().ok_or("no input")?;
    let ours_history = ours.get(1..).unwrap_or_default();
    let theirs_history = theirs
        .get(1..1 + ours_history.len())
        .ok_or("Codex's request is shorter than our history")?;
    let differences = json_differences(&json!(ours_history), &json!(theirs_history));
    if !differences.is_empty() {
        return Err(format!(
            "{}: resumed history differs: {}",
            file.display(),
            describe_differences(&differences, 8)
        )
        .into());
    }
    Ok(())
}

/// A home where the real Codex wrote one thread of two turns (a command, then an answer;
/// then a second answer); the thread's id.
fn home_with_a_thread(
    codex: &codex_test_support::RealCodex,
    model: &ScriptedModel,
) -> Result<(CodexHome, String), Failure> {
    model.push_reply(Reply::items(vec![exec_command_call("call_w1", "echo hi")]));
    model.push_reply(Reply::items(vec![assistant_message("msg_w2", "Said hi.")]));
    model.push_reply(Reply::items(vec![assistant_message("msg_w3", "Twice.")]));
    let home = CodexHome::new(codex, model)?;
    let first = home.exec("say hi")?;
    first.assert_success();
    let id = first.expect_thread_id().to_owned();
    home.resume(&id, "again")?.assert_success();
    Ok((home, id))
}

#[test]
fn forks_we_write_are_resumed_by_codex_as_we_predict() -> TestResult {
    let Some(codex) = real_codex_or_skip("forks_we_write_are_resumed_by_codex_as_we_predict")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let (home, parent_id) = home_with_a_thread(&codex, &model)?;
    let scratch = tempfile::tempdir()?;
    let home_dir = text(home.path())?.to_owned();
    let mut resumed = 0;
    for compressed_parent in [false, true] {
        if compressed_parent {
            let plain = rollout_of(&home, &parent_id)?;
            run_ours(&[
                "compress",
                text(&plain)?,
                "--older-than",
                "0",
                "--home",
                &home_dir,
            ])?;
        }
        let parent = rollout_of(&home, &parent_id)?;
        assert_eq!(
            parent.to_string_lossy().ends_with(".zst"),
            compressed_parent,
            "{}",
            parent.display()
        );
        for by_reference in [false, true] {
            let out = scratch
                .path()
                .join(format!("fork-{compressed_parent}-{by_reference}.jsonl"));
            let mut args = vec![
                "fork",
                text(&parent)?,
                "--drop-turns",
                "1",
                "-o",
                text(&out)?,
            ];
            if by_reference {
                args.extend(["--by-reference", "--home", home_dir.as_str()]);
            }
            run_ours(&args)?;
            let (placed, id) = move_into_home(&out, home.path())?;
            resumed_as_we_predict(&home, &model, &placed, &id).map_err(|error| {
                format!(
                    "fork (by reference: {by_reference}, .zst parent: {compressed_parent}): {error}"
                )
            })?;
            resumed += 1;
        }
    }
    assert_eq!(resumed, 4);
    Ok(())
}

#[test]
fn compressed_homes_read_and_resume_in_codex_as_plain_ones() -> TestResult {
    let Some(codex) = real_codex_or_skip("compressed_homes_read_and_resume_in_codex_as_plain_ones")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let (home, id) = home_with_a_thread(&codex, &model)?;
    let plain = home.app_server()?.thread_read(&id)?;
    let file = rollout_of(&home, &id)?;
    run_ours(&[
        "compress",
        text(&file)?,
        "--older-than",
        "0",
        "--home",
        text(home.path())?,
    ])?;
    let compressed = rollout_of(&home, &id)?;
    assert!(
        compressed.to_string_lossy().ends_with(".jsonl.zst"),
        "compress left {}",
        compressed.display()
    );
    let mut read = home.app_server()?.thread_read(&id)?;
    // The path is the file's, now compressed; everything else must read as before.
    read["path"] = plain["path"].clone();
    let differences = json_differences(&read, &plain);
    assert!(
        differences.is_empty(),
        "thread/read after compress: {}",
        describe_differences(&differences, 12)
    );
    resumed_as_we_predict(&home, &model, &compressed, &id)?;
    Ok(())
}

/// `usage` counts, token for token, what the scripted model reported for each thread: every
/// response once, a fork never charged its parent's responses.
#[test]
fn usage_equals_what_the_model_reported() -> TestResult {
    use codex_test_support::Usage;
    let Some(codex) = real_codex_or_skip("usage_equals_what_the_model_reported") else {
        return Ok(());
    };
    let usage = |n: u64| Usage::new(1_000 * n, 100 * n, 10 * n, n);
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![exec_command_call("call_u1", "echo one")]).usage(usage(1)))
            .reply(Reply::items(vec![assistant_message("msg_u2", "One.")]).usage(usage(2)))
            .reply(Reply::items(vec![assistant_message("msg_u3", "Again.")]).usage(usage(3)))
            .reply(Reply::items(vec![assistant_message("msg_u4", "Other.")]).usage(usage(4)))
            .reply(Reply::items(vec![assistant_message("msg_u5", "Forked.")]).usage(usage(5))),
    )?;
    let home = CodexHome::new(&codex, &model)?;
    let a = home.exec("first")?;
    a.assert_success();
    let a = a.expect_thread_id().to_owned();
    home.resume(&a, "again")?.assert_success();
    let b = home.exec("second")?;
    b.assert_success();
    let b = b.expect_thread_id().to_owned();
    let fork = home.fork(&a, "from here")?;
    fork.assert_success();
    let fork = fork.expect_thread_id().to_owned();
    let sum = |ns: &[u64]| {
        let total = ns.iter().map(|&n| usage(n)).fold([0u64; 4], |acc, u| {
            [
                acc[0] + u.input,
                acc[1] + u.cached,
                acc[2] + u.output,
                acc[3] + u.reasoning,
            ]
        });
        json!({"input_tokens": total[0], "cached_input_tokens": total[1],
               "output_tokens": total[2], "reasoning_output_tokens": total[3]})
    };
    let expected = json!({ a: sum(&[1, 2, 3]), b: sum(&[4]), fork: sum(&[5]) });
    let report = our_usage_by_session(home.path())?;
    let mut ours = serde_json::Map::new();
    for session in report["session"].as_array().ok_or("no sessions")? {
        let id = session["thread_id"].as_str().ok_or("no thread id")?;
        let pick = |key: &str| session[key].clone();
        ours.insert(
            id.to_owned(),
            json!({"input_tokens": pick("input_tokens"), "cached_input_tokens": pick("cached_input_tokens"),
                   "output_tokens": pick("output_tokens"), "reasoning_output_tokens": pick("reasoning_output_tokens")}),
        );
    }
    let differences = json_differences(&Value::Object(ours), &expected);
    assert!(
        differences.is_empty(),
        "usage vs the model's reports: {}",
        describe_differences(&differences, 12)
    );
    Ok(())
}

/// A thread Codex continues in a second file (`thread/revert` writes
/// `…-<thread>_<rollout>.jsonl`, whose `history_base` names the first file's rollout id) is
/// one thread to every command: listed once by its newest piece, its usage summed over its
/// pieces, resumed by Codex to the history our `prompt` of the newest piece predicts; and a
/// missing piece is an error that names that piece's rollout id.
#[test]
fn continuation_files_are_one_thread() -> TestResult {
    use codex_test_support::Usage;
    let Some(codex) = real_codex_or_skip("continuation_files_are_one_thread") else {
        return Ok(());
    };
    let usage = |n: u64| Usage::new(1_000 * n, 100 * n, 10 * n, n);
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    model.push_reply(Reply::message("msg_1", "One.").usage(usage(1)));
    let first = home.exec("one")?;
    first.assert_success();
    let id = first.expect_thread_id().to_owned();
    for (n, prompt) in [(2, "two"), (3, "three")] {
        model.push_reply(Reply::message(&format!("msg_{n}"), prompt).usage(usage(n)));
        home.resume(&id, prompt)?.assert_success();
    }
    let original = rollout_of(&home, &id)?;
    {
        let mut app_server = home.app_server()?;
        let turns = app_server.thread_read(&id)?["turns"].clone();
        let third = turns[2]["id"].as_str().ok_or("no third turn")?.to_owned();
        app_server.call("thread/resume", json!({"threadId": id}))?;
        app_server.call(
            "thread/revert",
            json!({"threadId": id, "beforeTurnId": third}),
        )?;
    }
    let listed = home.app_server()?.thread_list(false)?;
    assert_eq!(listed.len(), 1, "Codex lists one thread: {listed:?}");
    let newest = PathBuf::from(listed[0]["path"].as_str().ok_or("no path")?);
    assert_ne!(newest, original, "the revert wrote a continuation file");

    // Listed once, by the newest piece.
    let ours: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "list",
        "--home",
        text(home.path())?,
    ])?)?;
    let sessions = ours["sessions"].as_array().ok_or("no sessions")?;
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert_eq!(sessions[0]["path"], json!(text(&newest)?));
    assert_eq!(sessions[0]["preview"], json!("one"));

    // Its usage: every response of every piece, once.
    let report: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "usage",
        "session",
        "--home",
        text(home.path())?,
    ])?)?;
    let rows = report["session"].as_array().ok_or("no sessions")?;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["thread_id"], json!(id));
    assert_eq!(rows[0]["path"], json!(text(&newest)?));
    assert_eq!(rows[0]["input_tokens"], json!(6_000));
    assert_eq!(rows[0]["output_tokens"], json!(60));

    // Resumed from the newest piece as we predict.
    resumed_as_we_predict(&home, &model, &newest, &id)?;

    // Without the first piece, the history cannot be rebuilt: the error names its rollout.
    std::fs::remove_file(&original)?;
    let output = bin()?
        .args(["history"])
        .arg(&newest)
        .arg("--home")
        .arg(home.path())
        .output()?;
    assert!(!output.status.success(), "history without its base");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("rollout {id}")),
        "the error names the missing rollout: {stderr}"
    );
    Ok(())
}
