//! `codex-thread rescue` on threads the real Codex writes: the rescued thread resumes in
//! Codex to exactly the history the original resumes to (the resumed turn's request `input`,
//! but the base-instructions message whose id Codex derives from the thread), while holding
//! only the live suffix (one compaction where the original has two, and not the image the
//! first turn attached, which Codex's compaction summarised away).

use crate::common;
use common::large_session;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use base64::Engine;
use codex_test_support::{
    CodexHome, Reply, Script, ScriptedModel, Usage, assistant_message, real_codex_or_skip,
};
use serde_json::Value;

use common::TestResult;
use common::real_codex::{rollout_of, run_ours, text};

const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/// A reply whose reported usage is over the compaction limit the next resume sets.
fn big(id: &str, text: &str) -> Reply {
    Reply::items(vec![assistant_message(id, text)]).usage(Usage::new(9_000, 0, 10, 0))
}

/// Resumes `thread` once per turn of `turns`, each resume opened by a compaction (the
/// previous turn reported more tokens than the limit) and answered by a large reply.
fn resume_compacting(
    home: &CodexHome,
    model: &ScriptedModel,
    thread: &str,
    turns: std::ops::RangeInclusive<usize>,
) -> TestResult {
    for turn in turns {
        model.push_compaction(Reply::items(vec![assistant_message(
            &format!("msg_summary_{turn}"),
            &format!("Summary {turn}."),
        )]));
        model.push_reply(big(&format!("msg_{turn}"), &format!("Turn {turn}.")));
        home.runner()
            .config("model_auto_compact_token_limit=5000")
            .resume(thread, &format!("turn {turn}"))?
            .assert_success();
    }
    Ok(())
}

fn count_lines_of_type(path: &Path, kind: &str) -> Result<usize, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["type"] == kind)
        .count())
}

/// The input of the first model call made after `before` calls: the resumed turn's request.
fn resumed_input(
    model: &ScriptedModel,
    before: usize,
) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
    let calls = model.model_calls();
    let call = calls.get(before).ok_or("no request for the resumed turn")?;
    Ok(call.input().to_vec())
}

/// Base instructions first (a developer message; its id depends on the thread), then the
/// history and the new turn: everything but the first item.
fn after_instructions(input: &[Value]) -> Result<&[Value], Box<dyn std::error::Error>> {
    let (first, rest) = input.split_first().ok_or("empty input")?;
    assert_eq!(first["role"], "developer", "{first}");
    Ok(rest)
}

/// Resumes the rescued thread, then the original (resuming appends to it), with the same
/// prompt, and asserts Codex sent the same `input` after the base instructions: the history
/// it rebuilt item for item, ids included; the new turn's user message (last) gets a fresh
/// id at request time, so it is compared without it. The original's request input.
fn assert_same_resume(
    home: &CodexHome,
    model: &ScriptedModel,
    original: &str,
    rescued: &str,
) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
    let before = model.model_calls().len();
    model.push_reply(Reply::message("msg_r", "Rescued."));
    home.resume(rescued, "after")?.assert_success();
    let rescued_input = resumed_input(model, before)?;

    let before = model.model_calls().len();
    model.push_reply(Reply::message("msg_o", "Original."));
    home.resume(original, "after")?.assert_success();
    let original_input = resumed_input(model, before)?;

    let (mut theirs, mut ours) = (
        after_instructions(&original_input)?.to_vec(),
        after_instructions(&rescued_input)?.to_vec(),
    );
    for input in [&mut theirs, &mut ours] {
        let last = input.last_mut().ok_or("no new user message")?;
        assert_eq!(last["role"], "user", "{last}");
        last.as_object_mut().ok_or("not an object")?.remove("id");
    }
    assert!(theirs.len() > 4, "{theirs:?}");
    pretty_assertions::assert_eq!(theirs, ours);
    Ok(original_input)
}

#[test]
fn rescued_thread_resumes_in_codex_to_the_history_the_original_resumes_to() -> TestResult {
    let Some(codex) = real_codex_or_skip(
        "rescued_thread_resumes_in_codex_to_the_history_the_original_resumes_to",
    ) else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let image = home.work_dir().join("pixel.png");
    std::fs::write(
        &image,
        base64::engine::general_purpose::STANDARD.decode(PNG_1X1)?,
    )?;

    // A first turn with an image, then three resumed turns, the first two each opened by a
    // compaction (the previous turn reported more tokens than the limit).
    model.push_reply(big("msg_1", "Seen the image."));
    let run = home.run(&[
        "exec",
        "--json",
        "--skip-git-repo-check",
        "describe this image",
        "-i",
        text(&image)?,
    ])?;
    run.assert_success();
    let thread = run.expect_thread_id().to_owned();
    resume_compacting(&home, &model, &thread, 2..=3)?;
    model.push_reply(Reply::message("msg_4", "Turn 4."));
    home.resume(&thread, "turn 4")?.assert_success();

    let original = rollout_of(&home, &thread)?;
    let compactions = count_lines_of_type(&original, "compacted")?;
    assert!(
        compactions >= 2,
        "the original has {compactions} compactions"
    );

    let out = run_ours(&["--json", "rescue", &thread, "--home", text(home.path())?])?;
    let rescued: Value = serde_json::from_str(out.trim())?;
    let rescued_id = rescued["thread_id"]
        .as_str()
        .ok_or("no thread id")?
        .to_owned();
    let rescued_path = PathBuf::from(rescued["path"].as_str().ok_or("no path")?);
    assert!(rescued_path.starts_with(home.path().join("sessions")));
    assert_eq!(count_lines_of_type(&rescued_path, "compacted")?, 1);
    let (original_bytes, rescued_bytes) = (
        std::fs::metadata(&original)?.len(),
        std::fs::metadata(&rescued_path)?.len(),
    );
    assert!(
        rescued_bytes < original_bytes,
        "{rescued_bytes} >= {original_bytes}"
    );

    let original_input = assert_same_resume(&home, &model, &thread, &rescued_id)?;
    // Codex 0.169's compaction keeps no image in its replacement history: the image the
    // original holds reaches neither request, and the rescue leaves it out.
    let images = |text: &str| text.matches("\"input_image\"").count();
    assert_eq!(images(&std::fs::read_to_string(&original)?), 1);
    assert_eq!(images(&serde_json::to_string(&original_input)?), 0);
    assert_eq!(images(&std::fs::read_to_string(&rescued_path)?), 0);

    // A thread with no compaction needs its whole file: nothing to rescue, said so.
    model.push_reply(Reply::message("msg_small", "Small."));
    let small = home.exec("small")?.expect_thread_id().to_owned();
    let refused = common::bin()?
        .args(["rescue", &small, "--home", text(home.path())?])
        .output()?;
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("nothing to rescue"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );

    // Codex lists and reads the rescued thread.
    let mut app_server = home.app_server()?;
    let listed: Vec<String> = app_server
        .thread_list(false)?
        .iter()
        .filter_map(|thread| thread["id"].as_str().map(str::to_owned))
        .collect();
    assert!(listed.contains(&rescued_id), "{listed:?}");
    let read = app_server.thread_read(&rescued_id)?;
    let original_read = app_server.thread_read(&thread)?;
    // Codex shows the rescued thread from the compaction's turn on (turns 3 and 4, then the
    // resumed one), the original whole (four turns and the resumed one).
    let turns = |thread: &Value| thread["turns"].as_array().map_or(0, Vec::len);
    assert_eq!((turns(&read), turns(&original_read)), (3, 5));
    Ok(())
}

/// A thread reverted by Codex (`thread/revert`: the turns after the revert point dropped,
/// the thread continued in a second file whose `history_base` names the kept prefix), then
/// compacted twice in that continuation: its rescue holds no base and resumes to the same
/// history.
#[test]
fn rescued_continuation_of_a_reverted_thread_resumes_to_the_same_history() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("rescued_continuation_of_a_reverted_thread_resumes_to_the_same_history")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    model.push_reply(Reply::message("msg_1", "One."));
    let thread = home.exec("one")?.expect_thread_id().to_owned();
    for (turn, text) in ["two", "three"].into_iter().enumerate() {
        model.push_reply(Reply::message(&format!("msg_{}", turn + 2), text));
        home.resume(&thread, text)?.assert_success();
    }
    let mut app_server = home.app_server()?;
    let turns = app_server.thread_read(&thread)?["turns"].clone();
    let third = turns[2]["id"].as_str().ok_or("no third turn")?.to_owned();
    app_server.call("thread/resume", serde_json::json!({"threadId": thread}))?;
    app_server.call(
        "thread/revert",
        serde_json::json!({"threadId": thread, "beforeTurnId": third}),
    )?;
    drop(app_server);
    model.push_reply(big("msg_4", "Four."));
    home.resume(&thread, "four")?.assert_success();
    resume_compacting(&home, &model, &thread, 5..=6)?;
    model.push_reply(Reply::message("msg_7", "Seven."));
    home.resume(&thread, "seven")?.assert_success();

    let pieces: Vec<PathBuf> = home
        .session_files()?
        .into_iter()
        .filter(|path| path.to_string_lossy().contains(&thread))
        .collect();
    let continuation = pieces
        .iter()
        .find(|path| path.to_string_lossy().contains(&format!("{thread}_")))
        .ok_or_else(|| format!("no continuation file among {pieces:?}"))?;
    assert!(std::fs::read_to_string(continuation)?.contains("\"history_base\""));
    assert!(count_lines_of_type(continuation, "compacted")? >= 2);

    let out = run_ours(&[
        "--json",
        "rescue",
        text(continuation)?,
        "--home",
        text(home.path())?,
    ])?;
    let rescued: Value = serde_json::from_str(out.trim())?;
    let rescued_id = rescued["thread_id"]
        .as_str()
        .ok_or("no thread id")?
        .to_owned();
    let rescued_text = std::fs::read_to_string(rescued["path"].as_str().ok_or("no path")?)?;
    assert!(!rescued_text.contains("\"history_base\""));
    assert_eq!(rescued_text.matches("\"type\":\"compacted\"").count(), 1);
    let original_input = assert_same_resume(&home, &model, &thread, &rescued_id)?;
    // The reverted turn is in neither: Codex dropped it, and the rescue never had it.
    assert!(!serde_json::to_string(&original_input)?.contains("three"));
    Ok(())
}

/// `rescue` killed at random moments while it copies a large live suffix: the original is
/// never changed, and every session file in the home afterwards is the original or a whole
/// rescue that rebuilds the original's history (a kill leaves at most a `*.rescue.tmp`, which
/// no listing shows).
#[test]
fn rescue_killed_at_random_moments_leaves_the_original_or_a_whole_rescue() -> TestResult {
    let dir = tempfile::tempdir()?;
    let home = dir.path();
    // One early compaction, then about 60 MB of turns: a long suffix to copy.
    let original = large_session::large_session(home, 60 << 20, 5, 5);
    let before = std::fs::read(&original)?;
    let history = |file: &Path| run_ours(&["history", text(file)?]);
    let expected = history(&original)?;
    let mut seed = Instant::now().elapsed().as_nanos() as u64 | 1;
    let mut kills = 0;
    for _ in 0..8 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_codex-thread"))
            .env_remove("CODEX_HOME")
            .args(["rescue", text(&original)?, "--home", text(home)?])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        std::thread::sleep(Duration::from_millis(seed % 300));
        if child.try_wait()?.is_none() {
            child.kill()?;
            kills += 1;
        }
        child.wait()?;
    }
    assert!(kills >= 1, "no run was killed: the test proves nothing");
    assert!(std::fs::read(&original)? == before, "the original changed");
    let listed = run_ours(&["--json", "list", "--home", text(home)?, "--limit", "100"])?;
    let mut rescues = 0;
    for line in listed.lines() {
        let session: Value = serde_json::from_str(line)?;
        let Some(path) = session["path"].as_str() else {
            continue;
        };
        assert!(path.ends_with(".jsonl"), "{path}");
        if Path::new(path) != original {
            rescues += 1;
            assert!(
                history(Path::new(path))? == expected,
                "{path} rebuilds another history"
            );
        }
    }
    // At most one rescue a run (a run killed just after linking its rescue into place
    // counts as killed but wrote one).
    assert!(rescues <= 8, "{rescues} rescues from 8 runs");
    Ok(())
}
