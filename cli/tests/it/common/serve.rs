//! `codex-thread serve` on a socket, as the transport and TUI tests start it: the address it
//! says it listens on (`ws://127.0.0.1:0` picks a port), the server killed on drop.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

type Failure = Box<dyn std::error::Error>;

/// A running `codex-thread serve`.
pub(crate) struct Served {
    child: Child,
    /// Where it listens (`ws://…` or `unix://…`), as its first line on standard error says.
    pub(crate) address: String,
}

impl Served {
    /// Serves `home` on `listen`, with `env` set and `args` added.
    pub(crate) fn start(
        home: &Path,
        listen: &str,
        env: &[(&str, &str)],
        args: &[&str],
    ) -> Result<Self, Failure> {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("codex-thread"))
            .args(["serve", "--listen", listen, "--home"])
            .arg(home)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        let stderr = child.stderr.take().ok_or("no standard error")?;
        let mut first = String::new();
        BufReader::new(stderr).read_line(&mut first)?;
        let address = first
            .split_whitespace()
            .find(|word| word.starts_with("ws://") || word.starts_with("unix://"))
            .map(str::to_owned);
        let Some(address) = address else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("serve did not say where it listens: {first}").into());
        };
        Ok(Self { child, address })
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `codex-thread serve` on `home` over standard input and output, initialized as Codex's
/// server is (the differential tests send both the same requests).
pub(crate) fn stdio_server(home: &Path) -> Result<codex_test_support::AppServer, Failure> {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("codex-thread"));
    command
        .args(["serve", "--listen", "stdio://", "--home"])
        .arg(home);
    Ok(codex_test_support::AppServer::start_command(command, home)?)
}
