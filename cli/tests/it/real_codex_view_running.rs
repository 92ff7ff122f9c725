//! What a session file shows of a command the real Codex is still running, and what
//! `view --follow` makes of it: the scripted model asks for a command that sleeps, and the
//! file is read while it runs. Codex 0.169 writes the model's `function_call` and nothing of
//! the command until it ends (no `item_started`, no `exec_command_begin`); the follower shows
//! that call as a running command in the live tail, and the completed command in its place.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use codex_test_support::{
    CodexHome, Reply, Script, ScriptedModel, Tmux, assistant_message, exec_command_call,
    real_codex_or_skip,
};

type Failure = Box<dyn std::error::Error>;

const WAIT: Duration = Duration::from_secs(60);

/// The session file Codex is writing in `home`, once there is one.
fn wait_for_session(home: &CodexHome) -> Result<PathBuf, Failure> {
    let start = Instant::now();
    loop {
        if let Some(file) = home.session_files()?.into_iter().next() {
            return Ok(file);
        }
        if start.elapsed() > WAIT {
            return Err("Codex wrote no session file".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `type` / `payload.type` of each line of `text`.
fn line_kinds(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .map(|value| {
            format!(
                "{}/{}",
                value["type"].as_str().unwrap_or("?"),
                value["payload"]["type"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn a_running_command_as_the_file_shows_it() -> TestResult {
    let Some(codex) = real_codex_or_skip("a_running_command_as_the_file_shows_it") else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    model.push_reply(Reply::items(vec![exec_command_call(
        "call_slow",
        "sleep 8; echo slow-done",
    )]));
    model.push_reply(Reply::items(vec![assistant_message("msg_slow", "Slept.")]));
    let home = CodexHome::new(&codex, &model)?;
    std::thread::scope(|scope| -> TestResult {
        let run = scope.spawn(|| home.exec("run the slow command"));
        let file = wait_for_session(&home)?;
        // Wait until the model's call is on disk, then look again while the command runs.
        let start = Instant::now();
        let during = loop {
            let text = std::fs::read_to_string(&file)?;
            if text.contains("call_slow") || start.elapsed() > Duration::from_secs(5) {
                std::thread::sleep(Duration::from_secs(2));
                break std::fs::read_to_string(&file)?;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        // While it runs, the file has the call and nothing of the command: no
        // `item_started`, no `exec_command_begin`, no output.
        let kinds = line_kinds(&during);
        assert!(
            kinds.contains(&"response_item/function_call".to_string()),
            "{kinds:?}"
        );
        for absent in [
            "event_msg/item_started",
            "event_msg/exec_command_begin",
            "response_item/function_call_output",
        ] {
            assert!(!kinds.contains(&absent.to_string()), "{kinds:?}");
        }
        // The UI following the file shows the command running in the live tail.
        let screen_home = tempfile::tempdir()?;
        let tmux = Tmux::start(
            110,
            30,
            &[("CODEX_HOME", screen_home.path().as_os_str())],
            assert_cmd::cargo::cargo_bin("codex-thread").as_os_str(),
            &[
                OsStr::new("view"),
                OsStr::new("--follow"),
                OsStr::new("--poll-ms"),
                OsStr::new("50"),
                file.as_os_str(),
            ],
        )?;
        // The complete transcript's item of the call: the command as the shell tool runs it.
        let screen = tmux.wait_for("the running command", |screen| {
            screen.contains("$ bash -lc 'sleep 8; echo slow-done'")
                && screen.contains("running turn")
        })?;
        assert!(
            screen
                .lines()
                .any(|row| row.trim_end().ends_with("running")),
            "{screen}"
        );
        let now = std::fs::read_to_string(&file)?;
        assert!(
            !now.contains("function_call_output"),
            "the command ended before the screen was read:\n{screen}"
        );
        let exec = run.join().map_err(|_| "exec panicked")??;
        exec.assert_success();
        // At its end Codex writes the completed item and the call's output, in either order
        // (0.169 wrote `item_completed` first in most runs, and once the output first, the
        // turn's token usage between the call and both): the two follow the call, with only
        // the turn's token usage among them.
        let after = line_kinds(&std::fs::read_to_string(&file)?);
        let call = after
            .iter()
            .position(|kind| kind == "response_item/function_call")
            .ok_or_else(|| format!("no call: {after:?}"))?;
        let ends: Vec<&str> = after[call + 1..]
            .iter()
            .map(String::as_str)
            .filter(|kind| *kind != "event_msg/token_count" && *kind != "token_usage_record/")
            .take(2)
            .collect();
        let mut sorted = ends.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            [
                "event_msg/item_completed",
                "response_item/function_call_output"
            ],
            "what follows the call: {ends:?} in {after:?}"
        );
        // Completed, it takes its place in history with its output; the turn ends.
        let screen = tmux.wait_for("the completed command and the turn's end", |screen| {
            screen.contains("turn 1 completed") && screen.contains("│ slow-done")
        })?;
        assert!(screen.contains("exit 0"), "{screen}");
        Ok(())
    })
}

type TestResult = Result<(), Failure>;
