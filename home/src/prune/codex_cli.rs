//! The real Codex's own commands for what changes its state: `codex archive ID` and
//! `codex delete --force ID`, run with `CODEX_HOME` set to the home.
//!
//! Why invoke Codex rather than write its database: Codex 0.169 keeps a row per thread in
//! `state_5.sqlite` (the file's path, `archived`, `archived_at`) and the thread's turns and
//! items in `thread_history_1.sqlite`. A file moved behind its back keeps a row naming the old
//! path: `thread/list` then hides the thread (it checks that the file exists) and
//! `thread/read` fails ("missing source rollout"). Its own commands change files and rows
//! together, and their schema is theirs to change.

use std::ffi::OsString;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use codex_protocol::thread_id::ThreadId;
use codex_rollout::{CODEX_HOME_ENV, CodexHome};

use super::lock::PruneLock;

/// The state database whose presence says that Codex (0.1xx with SQLite state) keeps rows
/// for this home's threads.
pub(super) const STATE_DATABASE: &str = "state_5.sqlite";

/// The Codex executable prune runs.
#[derive(Debug, Clone)]
pub struct CodexCli {
    program: OsString,
}

/// A Codex command that failed.
#[derive(Debug, thiserror::Error)]
pub enum CodexCliError {
    /// It could not be started.
    #[error("cannot run {program} (pass the Codex executable with --codex): {source}")]
    Start {
        /// The program.
        program: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// What it would need to run could not be prepared: its standard input (the home's prune
    /// lock) or the temporary file it writes its messages to.
    #[error("cannot prepare to run Codex: {source}")]
    Prepare {
        /// What failed.
        source: std::io::Error,
    },
    /// The home has Codex state and no Codex was given to change it.
    #[error(
        "this home has Codex state ({STATE_DATABASE}): pass the Codex executable (--codex) so \
         that Codex changes it"
    )]
    NotGiven,
    /// It ran and failed.
    #[error("`codex {command} {thread}` failed: {stderr}")]
    Failed {
        /// `archive` or `delete`.
        command: &'static str,
        /// The thread.
        thread: ThreadId,
        /// What it said.
        stderr: String,
    },
}

impl CodexCli {
    /// Runs `program` (a path, or a name looked up on `PATH`).
    pub fn new(program: impl Into<OsString>) -> CodexCli {
        CodexCli {
            program: program.into(),
        }
    }

    /// Whether `home` has Codex state that a move must go through Codex to keep in step.
    pub fn home_has_state(home: &CodexHome) -> bool {
        home.root.join(STATE_DATABASE).exists()
    }

    /// `codex archive ID`: Codex moves the thread's file to `archived_sessions/` and marks
    /// its row archived.
    pub fn archive(
        &self,
        home: &CodexHome,
        thread: ThreadId,
        lock: &PruneLock,
    ) -> Result<(), CodexCliError> {
        self.run(home, "archive", &[], thread, lock)
    }

    /// `codex delete --force ID`: Codex removes the thread's file (if still there) and its
    /// rows in both databases.
    pub fn delete(
        &self,
        home: &CodexHome,
        thread: ThreadId,
        lock: &PruneLock,
    ) -> Result<(), CodexCliError> {
        self.run(home, "delete", &["--force"], thread, lock)
    }

    fn run(
        &self,
        home: &CodexHome,
        command: &'static str,
        flags: &[&str],
        thread: ThreadId,
        lock: &PruneLock,
    ) -> Result<(), CodexCliError> {
        let start = |source| CodexCliError::Start {
            program: Path::new(&self.program).to_path_buf(),
            source,
        };
        // Once started, the command runs to its end whatever happens to us: it holds the
        // home's prune lock until it exits, even if we are killed first (see `super::lock`),
        // and it writes to a file, not to a pipe whose reader a kill would take (its next
        // write would then kill it half-way).
        let prepare = |source| CodexCliError::Prepare { source };
        let stdin = lock.child_stdin().map_err(prepare)?;
        let mut errors = tempfile::tempfile().map_err(prepare)?;
        let mut codex = Command::new(&self.program);
        // Its own process group: a Ctrl-C meant for prune does not stop it half-way either.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut codex, 0);
        let status = codex
            .arg(command)
            .args(flags)
            .arg(thread.to_string())
            .env(CODEX_HOME_ENV, &home.root)
            .stdin(stdin)
            .stdout(Stdio::null())
            .stderr(errors.try_clone().map_err(prepare)?)
            .status()
            .map_err(start)?;
        if status.success() {
            return Ok(());
        }
        let mut stderr = String::new();
        // What it said is only the error's detail: an unreadable file leaves it empty.
        let _ = errors
            .seek(SeekFrom::Start(0))
            .and_then(|_| errors.read_to_string(&mut stderr));
        let stderr = stderr
            .lines()
            .filter(|line| !line.starts_with("WARNING:") && !line.trim().is_empty())
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        Err(CodexCliError::Failed {
            command,
            thread,
            stderr,
        })
    }
}
