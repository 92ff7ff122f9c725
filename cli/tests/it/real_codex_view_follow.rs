//! `view --follow` against a session the real Codex is writing: the scripted model holds its
//! second reply open, so the turn is still running when the command it ran has completed.
//! The command cell must appear while the turn runs (in the plain follow output and in the
//! terminal UI, whose status line says the turn is running), and when the turn ends the
//! follow output must equal `view` of the finished file (without its status line).

use crate::common;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use codex_test_support::{
    CodexHome, Reply, Script, ScriptedModel, Tmux, assistant_message, exec_command_call,
    real_codex_or_skip,
};

use common::real_codex::rollout_of;
use common::view::Follow;
use common::{TestResult, bin};

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

#[test]
fn follow_shows_the_command_while_the_turn_runs_and_ends_equal_to_view() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("follow_shows_the_command_while_the_turn_runs_and_ends_equal_to_view")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    model.push_reply(Reply::items(vec![exec_command_call(
        "call_follow",
        "echo followed-output",
    )]));
    model.push_reply(
        Reply::items(vec![assistant_message(
            "msg_follow",
            "Followed to the end.",
        )])
        .held(),
    );
    let home = CodexHome::new(&codex, &model)?;
    std::thread::scope(|scope| -> TestResult {
        let run = scope.spawn(|| home.exec("run the command"));
        let file = wait_for_session(&home)?;
        let follow = Follow::start(&file)?;
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
        // While the reply is held the turn cannot end: the command cell is there, the
        // separator is not.
        let text = follow.wait_for("the command cell", |text| text.contains("followed-output"))?;
        assert!(text.contains("echo followed-output"), "{text}");
        assert!(
            !text.contains("─── turn 1"),
            "the turn ended early:\n{text}"
        );
        let screen = tmux.wait_for("the command cell and the running turn", |screen| {
            screen.contains("echo followed-output") && screen.contains("running turn")
        })?;
        assert!(screen.contains("following"), "{screen}");
        // The command's output is written before Codex sends the request it answers: wait
        // for that request (held) rather than expect it already.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while model.model_calls().len() < 2 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(
            model.model_calls().len(),
            2,
            "the held request is not in flight"
        );
        model.release_held();
        let exec = run.join().map_err(|_| "exec panicked")??;
        exec.assert_success();
        let finished = bin()?.arg("view").arg(&file).output()?;
        let expected = String::from_utf8(finished.stdout)?;
        let (cells, status) = expected
            .trim_end()
            .rsplit_once('\n')
            .ok_or("view printed one line")?;
        assert!(status.starts_with("status: "), "{status}");
        assert!(status.ends_with("idle"), "{status}");
        let cells = format!("{cells}\n");
        follow.wait_for("the whole finished view", |text| text == cells)?;
        tmux.wait_for("the turn's end in the terminal UI", |screen| {
            screen.contains("turn 1 completed") && screen.contains("· idle")
        })?;
        Ok(())
    })
}

/// A thread reverted by Codex goes on in a continuation file: the follower moves there, says
/// that the history it showed was rewritten, and shows the turns that follow.
#[test]
fn follow_moves_to_the_continuation_file_of_a_reverted_thread() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("follow_moves_to_the_continuation_file_of_a_reverted_thread")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    model.push_reply(Reply::message("msg_c1", "First answer."));
    let first = home.exec("one")?;
    first.assert_success();
    let id = first.expect_thread_id().to_owned();
    model.push_reply(Reply::message("msg_c2", "Second answer."));
    home.resume(&id, "two")?.assert_success();
    let original = rollout_of(&home, &id)?;
    let follow = Follow::start(&original)?;
    follow.wait_for("the second answer", |text| text.contains("Second answer."))?;
    {
        let mut app_server = home.app_server()?;
        let turns = app_server.thread_read(&id)?["turns"].clone();
        let second = turns[1]["id"].as_str().ok_or("no second turn")?.to_owned();
        app_server.call("thread/resume", serde_json::json!({"threadId": id}))?;
        app_server.call(
            "thread/revert",
            serde_json::json!({"threadId": id, "beforeTurnId": second}),
        )?;
    }
    model.push_reply(Reply::message("msg_c3", "Third answer, after the revert."));
    home.resume(&id, "three")?.assert_success();
    let text = follow.wait_for("the turn written to the continuation file", |text| {
        text.contains("Third answer, after the revert.")
    })?;
    assert!(text.contains("history rewritten"), "{text}");
    let newest = home
        .session_files()?
        .into_iter()
        .find(|path| path.to_string_lossy().contains(&format!("{id}_")))
        .ok_or("no continuation file")?;
    let view = bin()?.arg("view").arg(&newest).output()?;
    let view = String::from_utf8(view.stdout)?;
    assert!(view.contains("First answer.") && view.contains("Third answer, after the revert."));
    assert!(!view.contains("Second answer."), "{view}");
    // The session list shows the thread once, by its newest piece.
    let list = bin()?.arg("view").arg("--home").arg(home.path()).output()?;
    let list = String::from_utf8(list.stdout)?;
    assert!(list.starts_with("1 session(s)"), "{list}");
    assert_eq!(
        list.matches(&format!("codex resume {id}")).count(),
        1,
        "{list}"
    );
    Ok(())
}
