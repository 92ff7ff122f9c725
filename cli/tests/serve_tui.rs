//! The real Codex TUI as a client of `codex-thread serve`: in tmux, `codex resume --remote`
//! lists the threads of a home the real Codex wrote, `^t` shows a transcript, Enter opens a
//! thread with its history, a typed prompt gets the read-only refusal and the TUI stays
//! usable; `codex agents --remote` lists the threads. tmux and the real Codex must be
//! installed (`cargo xtask ci` installs both): a missing one fails, never skips.

mod common;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use codex_test_support::{
    CodexHome, RealCodex, Reply, Script, ScriptedModel, Tmux, assistant_message, exec_command_call,
    real_codex_or_skip,
};

use common::TestResult;

type Failure = Box<dyn std::error::Error>;

/// `codex-thread serve` of `home` on a WebSocket of a free loopback port, killed on drop.
struct Served {
    child: Child,
    address: String,
}

impl Served {
    fn start(home: &Path) -> Result<Self, Failure> {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("codex-thread"))
            .args(["serve", "--listen", "ws://127.0.0.1:0", "--home"])
            .arg(home)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        let stderr = child.stderr.take().ok_or("no standard error")?;
        let mut first = String::new();
        BufReader::new(stderr).read_line(&mut first)?;
        let address = first
            .split_whitespace()
            .find(|word| word.starts_with("ws://"))
            .ok_or_else(|| format!("serve did not say where it listens: {first}"))?
            .to_owned();
        Ok(Self { child, address })
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The real Codex TUI with `args`, its own home `client` (which names a model), in a
/// 120 x 36 tmux session.
fn tui(codex: &RealCodex, client: &Path, args: &[&str]) -> Result<Tmux, Failure> {
    Ok(Tmux::start(
        120,
        36,
        &[
            ("CODEX_HOME", client.as_os_str()),
            ("RUST_LOG", OsStr::new("")),
        ],
        codex.bin().as_os_str(),
        args,
    )?)
}

/// A home with a thread the real Codex wrote: a command, an answer, and a resumed turn.
fn written_home(codex: &RealCodex) -> Result<(ScriptedModel, CodexHome, String), Failure> {
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
    Ok((model, home, id))
}

#[test]
#[allow(clippy::print_stderr)] // the screens, for the log of a test run
fn the_codex_tui_browses_a_served_home() -> TestResult {
    let Some(codex) = real_codex_or_skip("the_codex_tui_browses_a_served_home") else {
        return Ok(());
    };
    let (model, served_home, _id) = written_home(&codex)?;
    let served = Served::start(served_home.path())?;
    // The TUI's own home: a model named, nothing else.
    let client = CodexHome::new(&codex, &model)?;
    let tmux = tui(
        &codex,
        client.path(),
        &[
            "resume",
            "--include-non-interactive",
            "--remote",
            &served.address,
        ],
    )?;
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
    let (model, served_home, _id) = written_home(&codex)?;
    let served = Served::start(served_home.path())?;
    let client = CodexHome::new(&codex, &model)?;
    let tmux = tui(
        &codex,
        client.path(),
        &["agents", "--remote", &served.address],
    )?;
    let screen = tmux.wait_for_text("[[served]] list the folder")?;
    assert!(!screen.contains("Could not load"), "{screen}");
    tmux.keys(&["C-c"])?;
    Ok(())
}
