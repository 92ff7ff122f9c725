//! How a command ends: its exit status, or the failure that stopped it.
//!
//! Exit codes are part of the interface (scripts branch on them):
//! - `0`: done;
//! - `1`: the input was read but its content is wrong (malformed lines for `validate`, an
//!   empty file, a file with no readable rollout line, a fork asking for more turns than
//!   exist, ...);
//! - `2`: the input could not be read at all (missing file, a directory, permission denied),
//!   or the command line itself was wrong (clap's usage errors also exit with 2).

use std::io;

/// Exit code of success.
pub(crate) const EXIT_OK: u8 = 0;
/// Exit code of a content problem.
pub(crate) const EXIT_CONTENT: u8 = 1;
/// Exit code of unreadable input.
pub(crate) const EXIT_UNREADABLE: u8 = 2;

/// How a command that ran to its end went, from best to worst (as the exit codes go): the
/// worst of several is their `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Status {
    /// Everything was fine.
    Ok,
    /// The command reported content problems (already printed) and must exit with 1.
    ContentProblems,
    /// Some input could not be read (already reported) and the command must exit with 2.
    Unreadable,
}

impl Status {
    /// The process exit code of this status.
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Status::Ok => EXIT_OK,
            Status::ContentProblems => EXIT_CONTENT,
            Status::Unreadable => EXIT_UNREADABLE,
        }
    }
}

/// Why a command stopped early. The message always names the file concerned.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    /// The input was read but cannot be used (exit code 1).
    #[error("{0}")]
    Content(String),
    /// The input could not be read (exit code 2).
    #[error("{0}")]
    Unreadable(String),
    /// An argument was wrong in a way clap cannot check (exit code 2, like clap's own usage
    /// errors).
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed (exit code 1). A closed pipe is not a failure: see
    /// [`Failure::BrokenPipe`].
    #[error("cannot write output: {0}")]
    Output(io::Error),
    /// The reader of the output went away (`codex-thread ... | head`): stop quietly.
    #[error("output closed")]
    BrokenPipe,
}

impl Failure {
    /// The process exit code of this failure.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Failure::Content(_) | Failure::Output(_) => EXIT_CONTENT,
            Failure::Unreadable(_) | Failure::Usage(_) => EXIT_UNREADABLE,
            Failure::BrokenPipe => EXIT_OK,
        }
    }
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        if err.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Output(err)
        }
    }
}

impl From<codex_home::ReadError> for Failure {
    fn from(error: codex_home::ReadError) -> Self {
        match error {
            codex_home::ReadError::Io { name, source } => {
                Failure::Unreadable(format!("cannot read {name}: {}", describe(&source)))
            }
            codex_home::ReadError::NoHome { .. } => Failure::Usage(error.to_string()),
            error if error.is_unreadable() => Failure::Unreadable(error.to_string()),
            error => Failure::Content(error.to_string()),
        }
    }
}

impl From<codex_home::SessionArgsError> for Failure {
    fn from(error: codex_home::SessionArgsError) -> Self {
        match error.is_usage() {
            true => Failure::Usage(error.to_string()),
            false => Failure::Unreadable(error.to_string()),
        }
    }
}

impl From<codex_home::NotAHome> for Failure {
    fn from(error: codex_home::NotAHome) -> Self {
        codex_home::SessionArgsError::Home(error).into()
    }
}

impl From<serde_json::Error> for Failure {
    fn from(err: serde_json::Error) -> Self {
        if err.is_io() {
            Failure::from(io::Error::from(err))
        } else {
            Failure::Content(format!("cannot serialize output: {err}"))
        }
    }
}

/// A command's result.
pub(crate) type CommandResult = Result<Status, Failure>;

/// The operating system's message without the `(os error N)` suffix, lower-cased like the
/// rest of our messages (codex-home's `io_message`).
pub(crate) fn describe(err: &std::io::Error) -> String {
    codex_home::io_message(err, "no such file")
}
