//! The real Codex TUI as a client of `codex-thread serve`: in tmux, `codex resume --remote`
//! lists the threads of a home the real Codex wrote, `^t` shows a transcript, Enter opens a
//! thread with its history, a typed prompt gets the read-only refusal and the TUI stays
//! usable; `codex agents --remote` lists the threads. `cargo xtask ci` installs tmux and the
//! real Codex and requires both: there a missing one fails, never skips.

use crate::common;

use std::ffi::OsStr;

use codex_test_support::{
    CodexHome, RealCodex, Reply, Script, ScriptedModel, Tmux, assistant_message, exec_command_call,
    real_codex_or_skip,
};

use common::TestResult;
use common::serve::Served;

type Failure = Box<dyn std::error::Error>;

/// The real Codex TUI on `codex-thread serve` of a home the real Codex wrote (a thread with a
/// command, an answer and a resumed turn), in a 120 x 36 tmux session; what must live while
/// it runs.
struct TuiOnServed {
    tmux: Tmux,
    _served: Served,
    _client: CodexHome,
    _home: CodexHome,
    _model: ScriptedModel,
}

impl TuiOnServed {
    /// `codex ARGS --remote ADDR`, with a home of its own that names a model, nothing else.
    fn start(codex: &RealCodex, args: &[&str]) -> Result<Self, Failure> {
        let model = ScriptedModel::start(
            Script::new()
                .reply(Reply::items(vec![exec_command_call("call_1", "ls")]))
                .reply(Reply::items(vec![assistant_message(
                    "msg_1",
                    "The folder is listed.",
                )]))
                .reply(Reply::items(vec![assistant_message(
                    "msg_2",
                    "Resumed and answered.",
                )])),
        )?;
        let home = CodexHome::new(codex, &model)?;
        let run = home.exec("[[served]] list the folder")?;
        run.assert_success();
        let id = run.expect_thread_id().to_owned();
        home.resume(&id, "[[served]] and once more")?
            .assert_success();
        let served = Served::start(home.path(), "ws://127.0.0.1:0", &[], &[])?;
        let client = CodexHome::new(codex, &model)?;
        let mut args = args.to_vec();
        args.extend(["--remote", &served.address]);
        let tmux = Tmux::start(
            120,
            36,
            &[
                ("CODEX_HOME", client.path().as_os_str()),
                ("RUST_LOG", OsStr::new("")),
            ],
            codex.bin().as_os_str(),
            &args,
        )?;
        Ok(Self {
            tmux,
            _served: served,
            _client: client,
            _home: home,
            _model: model,
        })
    }
}

#[test]
#[allow(clippy::print_stderr)] // the screens, for the log of a test run
fn the_codex_tui_browses_a_served_home() -> TestResult {
    let Some(codex) = real_codex_or_skip("the_codex_tui_browses_a_served_home") else {
        return Ok(());
    };
    let tui = TuiOnServed::start(&codex, &["resume", "--include-non-interactive"])?;
    let tmux = &tui.tmux;
    // The picker lists the thread.
    let picker = tmux.wait_for_text("[[served]] list the folder")?;
    assert!(picker.contains("Resume a previous session"), "{picker}");
    // ^t: the transcript, read through thread/read, thread/turns/list and thread/items/list.
    tmux.keys(&["C-t"])?;
    let transcript = tmux.wait_for_text("The folder is listed.")?;
    assert!(
        transcript.contains("[[served]] and once more"),
        "{transcript}"
    );
    tmux.keys(&["q"])?;
    tmux.wait_for_text("Resume a previous session")?;
    // Enter: the thread resumed (a pure read) with its history.
    tmux.keys(&["Enter"])?;
    let opened = tmux.wait_for_text("Resumed and answered.")?;
    assert!(!opened.contains("Failed to resume"), "{opened}");
    // A prompt is refused as a read-only archive; the TUI stays.
    tmux.type_text("one more question")?;
    tmux.wait_for_text("› one more question")?;
    // Keys that come fast after typing read as a paste, where Enter is a new line.
    std::thread::sleep(std::time::Duration::from_millis(700));
    tmux.keys(&["Enter"])?;
    let refused = tmux.wait_for_text("read-only archive")?;
    assert!(refused.contains("-32600"), "{refused}");
    for (what, screen) in [
        ("picker", &picker),
        ("transcript", &transcript),
        ("refused", &refused),
    ] {
        eprintln!("--- {what} ---\n{screen}");
    }
    assert!(!tmux.exited()?, "the TUI exited:\n{refused}");
    tmux.keys(&["C-c"])?;
    Ok(())
}

#[test]
fn codex_agents_lists_the_threads_of_a_served_home() -> TestResult {
    let Some(codex) = real_codex_or_skip("codex_agents_lists_the_threads_of_a_served_home") else {
        return Ok(());
    };
    let tui = TuiOnServed::start(&codex, &["agents"])?;
    let tmux = &tui.tmux;
    let screen = tmux.wait_for_text("[[served]] list the folder")?;
    assert!(!screen.contains("Could not load"), "{screen}");
    tmux.keys(&["C-c"])?;
    Ok(())
}
