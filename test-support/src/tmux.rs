//! [`Tmux`]: a program run in a detached tmux session of a fixed size, driven by keys and
//! read back as text: how the terminal UI of `codex-thread view` is tested and its screens
//! are captured.
//!
//! Why here: the tests of `cli/` and `cargo xtask view-screens` drive the same UI the same
//! way. Each [`Tmux`] has a server of its own (a private socket), so parallel tests and a
//! person's own tmux never see each other; dropping it kills that server.

use std::ffi::OsStr;
use std::io;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long [`Tmux::wait_for`] waits by default.
pub const TMUX_WAIT: Duration = Duration::from_secs(20);

/// How long a screen must stay the same for [`Tmux::wait_for`] to take it as settled.
const SETTLE: Duration = Duration::from_millis(100);

static NEXT: AtomicU32 = AtomicU32::new(0);

/// The tmux binary, or an error that says how to install it (tests needing tmux fail with it:
/// `cargo xtask ci` installs tmux, so a missing one is never skipped silently).
pub fn tmux_bin() -> io::Result<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("tmux"))
            .find(|candidate| candidate.is_file())
    });
    found.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            "tmux is not installed: the terminal UI tests need it (apt-get install tmux; \
             `cargo xtask ci` installs it)",
        )
    })
}

/// A detached tmux session running one program.
#[derive(Debug)]
pub struct Tmux {
    bin: PathBuf,
    socket: String,
}

impl Tmux {
    /// Starts `program` with `args` in a `width` x `height` session, with `env` set (and
    /// `TERM=xterm-256color`).
    pub fn start<S: AsRef<OsStr>>(
        width: u16,
        height: u16,
        env: &[(&str, &OsStr)],
        program: &OsStr,
        args: &[S],
    ) -> io::Result<Tmux> {
        let bin = tmux_bin()?;
        let socket = format!(
            "codex-view-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let tmux = Tmux { bin, socket };
        let mut command = tmux.command();
        command.args(["-f", "/dev/null", "new-session", "-d", "-s", "main"]);
        command.args(["-x", &width.to_string(), "-y", &height.to_string()]);
        command.arg("env").arg("TERM=xterm-256color");
        for (key, value) in env {
            let mut pair = std::ffi::OsString::from(key);
            pair.push("=");
            pair.push(value);
            command.arg(pair);
        }
        command.arg(program).args(args);
        check(command.output()?, "new-session")?;
        // Keep the pane after the program exits, so a test can tell it exited.
        check(
            tmux.command()
                .args(["set-option", "-t", "main", "remain-on-exit", "on"])
                .output()?,
            "set-option",
        )?;
        Ok(tmux)
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.bin);
        command.args(["-L", &self.socket]);
        command
    }

    /// Sends tmux key names (`j`, `Enter`, `PageDown`, `C-c`), one after the other.
    pub fn keys(&self, keys: &[&str]) -> io::Result<()> {
        for key in keys {
            check(
                self.command()
                    .args(["send-keys", "-t", "main", key])
                    .output()?,
                "send-keys",
            )?;
        }
        Ok(())
    }

    /// Types `text` literally (each character a key press).
    pub fn type_text(&self, text: &str) -> io::Result<()> {
        check(
            self.command()
                .args(["send-keys", "-t", "main", "-l", text])
                .output()?,
            "send-keys -l",
        )
    }

    /// The screen as text, one line per row.
    pub fn capture(&self) -> io::Result<String> {
        let output = self
            .command()
            .args(["capture-pane", "-p", "-t", "main"])
            .output()?;
        let output = check_output(output, "capture-pane")?;
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// The pane's title (what an escape sequence in the program's output could set).
    pub fn title(&self) -> io::Result<String> {
        let output = self
            .command()
            .args(["display-message", "-p", "-t", "main", "#{pane_title}"])
            .output()?;
        let output = check_output(output, "display-message")?;
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    }

    /// Whether the program has exited.
    pub fn exited(&self) -> io::Result<bool> {
        let output = self
            .command()
            .args(["display-message", "-p", "-t", "main", "#{pane_dead}"])
            .output()?;
        let output = check_output(output, "display-message")?;
        Ok(String::from_utf8_lossy(&output.stdout).trim() == "1")
    }

    /// Waits until the screen satisfies `ready` and has settled ([`TMUX_WAIT`] at most); the
    /// screen then, or an error naming `what` with the last screen.
    ///
    /// Settled: two captures `SETTLE` (100 ms) apart are the same. A program draws a frame as many
    /// writes (ratatui sends the rows that changed, top to bottom), and a capture can fall
    /// between them: the title of a new frame already there, its status bar not yet. A test
    /// reading more of the screen than `ready` checked reads a whole frame this way.
    pub fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> io::Result<String> {
        let start = Instant::now();
        let mut last: Option<String> = None;
        loop {
            let screen = self.capture()?;
            let shown = ready(&screen);
            if shown && last.as_deref() == Some(screen.as_str()) {
                return Ok(screen);
            }
            if start.elapsed() > TMUX_WAIT {
                let state = if shown { "it to settle" } else { "it" };
                return Err(io::Error::other(format!(
                    "timed out waiting for {what} (waiting for {state}); the screen:\n{screen}"
                )));
            }
            if shown {
                last = Some(screen);
                std::thread::sleep(SETTLE);
            } else {
                last = None;
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_for_text(&self, text: &str) -> io::Result<String> {
        self.wait_for(&format!("{text:?}"), |screen| screen.contains(text))
    }

    /// Waits until the program exits ([`TMUX_WAIT`] at most).
    pub fn wait_exit(&self) -> io::Result<()> {
        let start = Instant::now();
        while !self.exited()? {
            if start.elapsed() > TMUX_WAIT {
                return Err(io::Error::other(format!(
                    "the program did not exit; the screen:\n{}",
                    self.capture()?
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").output();
    }
}

fn check(output: Output, what: &str) -> io::Result<()> {
    check_output(output, what).map(drop)
}

fn check_output(output: Output, what: &str) -> io::Result<Output> {
    if output.status.success() {
        Ok(output)
    } else {
        Err(io::Error::other(format!(
            "tmux {what} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )))
    }
}
