//! Running a child process with a hard time bound, its output captured.
//!
//! Why here: a Codex run that waits forever (on a model reply that never comes, on input)
//! must fail its test, not hang the suite. The child runs in a process group of its own, so
//! a timeout kills the commands it started too.

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the output pipes may stay open after the child exits (a command it started in
/// the background may hold them) before their readers are abandoned.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// A finished (or killed) child.
#[derive(Debug)]
pub(crate) struct Finished {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
    pub(crate) timed_out: bool,
}

/// Runs `command` with stdin closed and stdout and stderr captured; kills its process group
/// when it has not exited after `timeout`.
pub(crate) fn run_bounded(command: &mut Command, timeout: Duration) -> io::Result<Finished> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command.spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let (status, timed_out) = loop {
        if let Some(status) = child.try_wait()? {
            break (status, false);
        }
        if started.elapsed() >= timeout {
            kill_group(&mut child);
            break (child.wait()?, true);
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let drained_by = Instant::now() + DRAIN_GRACE;
    while !(stdout.is_finished() && stderr.is_finished()) && Instant::now() < drained_by {
        std::thread::sleep(Duration::from_millis(10));
    }
    if !(stdout.is_finished() && stderr.is_finished()) {
        // Something the child started still holds the pipes: end it with the group.
        kill_group(&mut child);
    }
    Ok(Finished {
        status,
        stdout: stdout.take(),
        stderr: stderr.take(),
        timed_out,
    })
}

/// Kills the child's process group (the child leads it), then the child itself in case
/// the group signal could not be sent.
pub(crate) fn kill_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let _ = Command::new("kill")
        .args(["-KILL", "--", &group])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
}

/// A pipe read to its end on a thread of its own; what was read so far stays available if
/// the end never comes.
pub(crate) struct Drain {
    bytes: Arc<Mutex<Vec<u8>>>,
    reader: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Drain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Drain").finish_non_exhaustive()
    }
}

impl Drain {
    /// Whether the pipe has reached its end (or there was none).
    pub(crate) fn is_finished(&self) -> bool {
        self.reader.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// A copy of what was read so far.
    pub(crate) fn snapshot(&self) -> Vec<u8> {
        self.bytes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What was read, the reader abandoned if still running.
    pub(crate) fn take(self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Starts reading `pipe` to its end.
pub(crate) fn drain(pipe: Option<impl Read + Send + 'static>) -> Drain {
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let reader = pipe.and_then(|mut pipe| {
        let bytes = Arc::clone(&bytes);
        std::thread::Builder::new()
            .name("child-output".into())
            .spawn(move || {
                let mut chunk = [0_u8; 16 * 1024];
                loop {
                    match pipe.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(read) => bytes
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .extend_from_slice(&chunk[..read]),
                        Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            })
            .ok()
    });
    Drain { bytes, reader }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_and_status_are_captured() -> io::Result<()> {
        let finished = run_bounded(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(10),
        )?;
        assert_eq!(finished.status.code(), Some(3));
        assert!(!finished.timed_out);
        assert_eq!(finished.stdout, b"out\n");
        assert_eq!(finished.stderr, b"err\n");
        Ok(())
    }

    #[test]
    fn a_run_past_its_bound_is_killed_with_what_it_started() -> io::Result<()> {
        let started = Instant::now();
        // The background sleep holds stdout open: it must die with the group.
        let finished = run_bounded(
            Command::new("sh").args(["-c", "echo early; sleep 30 & sleep 30"]),
            Duration::from_millis(300),
        )?;
        assert!(finished.timed_out);
        assert!(!finished.status.success());
        assert_eq!(finished.stdout, b"early\n");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        Ok(())
    }
}
