//! `codex-thread prompt` and `history` equal what the real Codex sends when it resumes a
//! thread: the rollout is copied just before each `codex exec resume` (a rollout only grows,
//! so the copy is the file Codex resumed from), and our prompt of the copy is compared with the
//! first request of the resumed turn. That request's `input` is the base instructions, the
//! history Codex rebuilt, then the new turn's context and message.
//!
//! Documented and asserted exactly (`docs/compat-real-codex.md`): the base-instructions
//! message is first in both, but Codex edits its text for the model and gives it an id we
//! cannot derive; tools, `text` and `client_metadata` are configuration a session file does not
//! record.

use crate::common;

use std::path::Path;

use codex_test_support::{
    CodexHome, DiffOutcome, DiffReport, RecordedRequest, Reply, Script, ScriptedModel,
    apply_patch_call, assistant_message, describe_differences, exec_command_call, json_differences,
    real_codex_or_skip, reasoning,
};
use serde_json::{Value, json};

use common::TestResult;
use common::real_codex::{ours_on, rollout_of};

/// The top-level fields a session file lets us know, as a request carries them.
fn known_fields(body: &Value) -> Value {
    json!({
        "model": body.get("model"),
        "instructions": body.get("instructions"),
        "tool_choice": body.get("tool_choice"),
        "parallel_tool_calls": body.get("parallel_tool_calls"),
        "reasoning.effort": body.pointer("/reasoning/effort"),
        "store": body.get("store"),
        "stream": body.get("stream"),
        "include": body.get("include"),
        "prompt_cache_key": body.get("prompt_cache_key"),
    })
}

/// Compares our prompt and history of `snapshot` with the request that opened the resumed turn.
pub(crate) fn compare_resume(
    snapshot: &Path,
    home: &Path,
    request: &RecordedRequest,
) -> Result<DiffOutcome, Box<dyn std::error::Error>> {
    let prompt: Value = serde_json::from_str(&ours_on("prompt", snapshot, home)?)?;
    let history: Vec<Value> = ours_on("history", snapshot, home)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let body = request.body.as_ref().ok_or("request without a body")?;
    let their_input = body["input"].as_array().ok_or("no input")?;
    let our_input = prompt["input"].as_array().ok_or("no input in our prompt")?;
    let mut problems = Vec::new();
    // Codex opens with the base instructions as a developer message; ours does when the file
    // records them (from 0.100 on), and a file of an older release records none: Codex then
    // sends the built-in text of its own release for the model.
    let opens_with_instructions = |input: &[Value]| {
        input.first().and_then(|item| item.get("role")) == Some(&json!("developer"))
    };
    if !opens_with_instructions(their_input) {
        problems.push("theirs: input does not open with a developer message".to_owned());
    }
    let recorded_instructions = opens_with_instructions(our_input);
    // Then the history: ours whole, theirs followed by the new turn.
    let ours_after = match recorded_instructions {
        true => our_input.get(1..).unwrap_or_default(),
        false => our_input.as_slice(),
    };
    let theirs_after = their_input.get(1..).unwrap_or_default();
    let theirs_history = theirs_after.get(..ours_after.len()).unwrap_or(theirs_after);
    let differences = json_differences(&json!(ours_after), &json!(theirs_history));
    if !differences.is_empty() {
        problems.push(format!(
            "prompt input: {}",
            describe_differences(&differences, 8)
        ));
    }
    // `history` shows the items as the file keeps them, with the harness's internal metadata,
    // which Codex keeps in the file but never sends.
    let history: Vec<Value> = history
        .into_iter()
        .map(|mut item| {
            if let Some(fields) = item.as_object_mut() {
                fields.remove("internal_chat_message_metadata_passthrough");
            }
            item
        })
        .collect();
    let differences = json_differences(&json!(history), &json!(theirs_history));
    if !differences.is_empty() {
        problems.push(format!(
            "history: {}",
            describe_differences(&differences, 8)
        ));
    }
    if theirs_after.len() <= ours_after.len() {
        problems.push("Codex's request holds no new turn after the history".to_owned());
    }
    let mut theirs_known = known_fields(body);
    // A file that records no reasoning effort means the model's default, which Codex takes
    // from its model catalogue; we send none.
    if prompt.pointer("/reasoning/effort").is_none() && theirs_known["reasoning.effort"].is_string()
    {
        theirs_known["reasoning.effort"] = Value::Null;
    }
    let differences = json_differences(&known_fields(&prompt), &theirs_known);
    if !differences.is_empty() {
        problems.push(format!("fields: {}", describe_differences(&differences, 8)));
    }
    let instructions = match recorded_instructions {
        true => "base-instructions message: Codex's text and id are its own",
        false => "base-instructions message: the file records none, Codex sends its built-in text",
    };
    Ok(if problems.is_empty() {
        DiffOutcome::Documented(format!(
            "{instructions}; tools, text, client_metadata and the model's default effort are \
             not in the file"
        ))
    } else {
        DiffOutcome::Differs(problems.join("\n"))
    })
}

#[test]
fn prompt_and_history_equal_the_request_codex_sends_on_resume() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("prompt_and_history_equal_the_request_codex_sends_on_resume")
    else {
        return Ok(());
    };
    let patch = "*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n";
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![
                reasoning("rs_a1", "Look first."),
                exec_command_call("call_a1", "ls"),
            ]))
            .reply(Reply::items(vec![assistant_message("msg_a2", "Listed.")]))
            .reply(Reply::items(vec![apply_patch_call("call_b1", patch)]))
            .reply(Reply::items(vec![
                exec_command_call("call_b2", "cat notes.txt"),
                exec_command_call("call_b3", "false"),
            ]))
            .reply(Reply::items(vec![assistant_message("msg_b3", "Written.")]))
            .reply(Reply::items(vec![assistant_message(
                "msg_c1",
                "Still here.",
            )])),
    )?;
    let home = CodexHome::new(&codex, &model)?;
    let first = home.exec("list the folder")?;
    first.assert_success();
    let thread_id = first.expect_thread_id().to_owned();
    let snapshots = tempfile::tempdir()?;
    let report = DiffReport::from_env();
    let mut resumed = 0;
    let mut differs = Vec::new();
    for (turn, prompt) in ["write notes", "one more"].into_iter().enumerate() {
        let snapshot = snapshots.path().join(format!("before-resume-{turn}.jsonl"));
        std::fs::copy(rollout_of(&home, &thread_id)?, &snapshot)?;
        let calls_before = model.model_calls().len();
        home.resume(&thread_id, prompt)?.assert_success();
        let request = model
            .model_calls()
            .into_iter()
            .nth(calls_before)
            .ok_or("the resume sent no request")?;
        let outcome = compare_resume(&snapshot, home.path(), &request)?;
        report.record(
            "prompt = resume request",
            &format!("resume {turn}"),
            &outcome,
        )?;
        resumed += 1;
        if let DiffOutcome::Differs(what) = outcome {
            differs.push(format!("resume {turn}: {what}"));
        }
    }
    assert_eq!(resumed, 2);
    assert!(differs.is_empty(), "{}", differs.join("\n\n"));
    Ok(())
}

/// A thread Codex compacted in the middle of a turn (a tool call reported more tokens than
/// the limit), then resumed: our prompt of the file (the compaction's replacement history,
/// then what followed) equals the history Codex resumed to.
#[test]
fn prompt_equals_codex_after_a_compaction_in_the_middle_of_a_turn() -> TestResult {
    use codex_test_support::Usage;
    let Some(codex) =
        real_codex_or_skip("prompt_equals_codex_after_a_compaction_in_the_middle_of_a_turn")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(
        Script::new()
            .reply(
                Reply::items(vec![exec_command_call("call_m1", "echo big")])
                    .usage(Usage::new(9_000, 0, 10, 0)),
            )
            .reply(Reply::items(vec![assistant_message(
                "msg_m2",
                "Done after compacting.",
            )]))
            .compaction(Reply::items(vec![assistant_message(
                "msg_summary",
                "Summary: echoed big.",
            )]))
            .reply(Reply::items(vec![assistant_message("msg_m3", "Resumed.")])),
    )?;
    let home = CodexHome::new(&codex, &model)?;
    let first = home
        .runner()
        .config("model_auto_compact_token_limit=5000")
        .exec("make it big")?;
    first.assert_success();
    let thread_id = first.expect_thread_id().to_owned();
    assert!(
        model
            .model_calls()
            .iter()
            .any(|call| call.request_kind() == Some("compaction")),
        "Codex did not compact"
    );
    let snapshots = tempfile::tempdir()?;
    let snapshot = snapshots.path().join("before-resume.jsonl");
    std::fs::copy(rollout_of(&home, &thread_id)?, &snapshot)?;
    let calls_before = model.model_calls().len();
    home.resume(&thread_id, "and now")?.assert_success();
    let request = model
        .model_calls()
        .into_iter()
        .nth(calls_before)
        .ok_or("the resume sent no request")?;
    assert_eq!(request.request_kind(), Some("turn"));
    let outcome = compare_resume(&snapshot, home.path(), &request)?;
    DiffReport::from_env().record("prompt = resume request", "mid-turn compaction", &outcome)?;
    if let DiffOutcome::Differs(what) = outcome {
        panic!("{what}");
    }
    Ok(())
}

/// A code-mode model (`gpt-5.6-sol`) records its tools (`additional_tools`) and its base
/// instructions in the thread's history, and Codex sends that history as it is, in the
/// Responses Lite shape. Our `prompt` of the thread (no flag: the history says it is code
/// mode) is that history too.
#[test]
fn prompt_equals_codex_for_a_code_mode_model() -> TestResult {
    let Some(codex) = real_codex_or_skip("prompt_equals_codex_for_a_code_mode_model") else {
        return Ok(());
    };
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![assistant_message("msg_s1", "Hello.")]))
            .reply(Reply::items(vec![assistant_message("msg_s2", "Again.")])),
    )?;
    let home = CodexHome::with_model(&codex, &model, "gpt-5.6-sol")?;
    let first = home.exec("hi")?;
    first.assert_success();
    let thread_id = first.expect_thread_id().to_owned();
    let snapshots = tempfile::tempdir()?;
    let snapshot = snapshots.path().join("before-resume.jsonl");
    std::fs::copy(rollout_of(&home, &thread_id)?, &snapshot)?;
    let calls_before = model.model_calls().len();
    home.resume(&thread_id, "again")?.assert_success();
    let request = model
        .model_calls()
        .into_iter()
        .nth(calls_before)
        .ok_or("the resume sent no request")?;
    let theirs = request.input();
    let prompt: Value = serde_json::from_str(&ours_on("prompt", &snapshot, home.path())?)?;
    let ours = prompt["input"].as_array().ok_or("no input")?;
    assert_eq!(ours[0]["type"], json!("additional_tools"));
    let theirs_history = theirs
        .get(..ours.len())
        .ok_or("Codex's request is shorter than our prompt")?;
    let differences = json_differences(&json!(ours), &json!(theirs_history));
    assert!(
        differences.is_empty(),
        "code-mode prompt: {}",
        describe_differences(&differences, 8)
    );
    assert!(
        theirs.len() > ours.len(),
        "Codex's request holds the new turn after the history"
    );
    Ok(())
}

/// Codex resumes a thread with the model its home's `config.toml` names now, whatever model
/// the file recorded (0.171: a thread of `gpt-5.4` resumed after the config moved to
/// `gpt-5.2` asks `gpt-5.2`); our prompt of the file, read with that home, asks the same.
#[test]
fn prompt_asks_the_model_the_home_configures_as_codex_resumes() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("prompt_asks_the_model_the_home_configures_as_codex_resumes")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new().reply(Reply::message("msg_1", "Hi.")))?;
    let home = CodexHome::with_model(&codex, &model, "gpt-5.4")?;
    let first = home.exec("hello")?;
    first.assert_success();
    let id = first.expect_thread_id().to_owned();
    let config = home.path().join("config.toml");
    let text = std::fs::read_to_string(&config)?;
    std::fs::write(
        &config,
        text.replace(r#"model = "gpt-5.4""#, r#"model = "gpt-5.2""#),
    )?;
    let file = rollout_of(&home, &id)?;
    let ours: Value = serde_json::from_str(&ours_on("prompt", &file, home.path())?)?;
    let before = model.model_calls().len();
    home.resume(&id, "again")?.assert_success();
    let request = model
        .model_calls()
        .into_iter()
        .nth(before)
        .ok_or("the resume sent no request")?;
    let theirs = request.body.as_ref().and_then(|body| body.get("model"));
    assert_eq!(
        theirs,
        Some(&json!("gpt-5.2")),
        "Codex asks the configured model"
    );
    assert_eq!(ours["model"], json!("gpt-5.2"), "ours too");
    assert!(
        std::fs::read_to_string(&file)?.contains(r#""model":"gpt-5.4""#),
        "the file recorded the model it ran with"
    );
    Ok(())
}
