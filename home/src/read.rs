//! Reading one session as every view of it does: the one forward reader's lines, checked as a
//! loaded session is checked ([`stream_session`]), turned into the client view's items
//! ([`stream_client_view`]) and the thread a client is shown ([`TwoPassThread`]: its turns
//! handed on as each becomes final, so no view holds a whole thread), with what the file's
//! home says of the thread beyond its lines ([`describe_thread_file`]).
//!
//! What is read is a [`SessionInput`]: a name for messages and a way to open it afresh for
//! each pass (a file, or whatever a caller spooled into one; [`FileInput`] is a file). Every
//! failure is a [`ReadError`] naming the input; the unreadable lines a read skipped are told
//! to the input ([`SessionInput::skipped`]), once per read, so the caller decides how a person
//! hears of them.

mod checked;
mod client_view;
mod model_history;
mod next_request;
mod planned;
mod thread_file;

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use codex_rollout::LineProblem;

pub use checked::{
    FirstPass, ItemsSeen, LineTest, Passes, every_line, stream_again, stream_again_lines,
    stream_again_where, stream_session, stream_session_where,
};
pub use client_view::{read_thread, stream_client_view};
pub use model_history::{HistoryError, SessionHistory};
pub use planned::{LeftOpen, TwoPassThread};
pub(crate) use thread_file::{HomeThreads, describe_home_file};
pub use thread_file::{
    ResumedWith, continues_another, describe_thread_file, feed_with_base, home_of,
};

/// Something a session is read from, as often as a reading needs.
pub trait SessionInput {
    /// How the input is named in messages.
    fn name(&self) -> String;

    /// The input from its start. `again` is `None` for a reading's first pass and names a
    /// later pass (`"reading"`, `"replaying"`) otherwise, for a caller that shows progress.
    fn open(&self, again: Option<&str>) -> io::Result<Box<dyn Read + '_>>;

    /// The file the input is, when it is one a home may hold: its history base is resolved
    /// and its home describes it. `None` for a copy of another input.
    fn file(&self) -> Option<&Path>;

    /// Told, once per reading, of the unreadable lines it skipped (there was at least one).
    fn skipped(&self, lines: &SkippedLines) {
        tracing::warn!(input = %self.name(), "{lines}");
    }
}

/// The unreadable lines a reading skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedLines {
    /// How many.
    pub count: usize,
    /// The first of them.
    pub first: LineProblem,
}

impl std::fmt::Display for SkippedLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} unreadable line(s) ignored (first: {}); `codex-thread validate` lists them",
            self.count, self.first
        )
    }
}

/// A session file, read as it is (plain or `.jsonl.zst`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInput(pub PathBuf);

impl SessionInput for FileInput {
    fn name(&self) -> String {
        self.0.display().to_string()
    }

    fn open(&self, _again: Option<&str>) -> io::Result<Box<dyn Read + '_>> {
        if self.0.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory, not a rollout file",
            ));
        }
        Ok(Box::new(std::fs::File::open(&self.0)?))
    }

    fn file(&self) -> Option<&Path> {
        Some(&self.0)
    }
}

/// A session held in memory, for the tests of what reads a [`SessionInput`].
#[cfg(test)]
pub(crate) struct BytesInput(pub(crate) Vec<u8>);

#[cfg(test)]
impl SessionInput for BytesInput {
    fn name(&self) -> String {
        "bytes".to_string()
    }

    fn open(&self, _again: Option<&str>) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.0.as_slice()))
    }

    fn file(&self) -> Option<&Path> {
        None
    }
}

/// Why a session could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The input could not be opened or read.
    #[error("cannot read {name}: {source}")]
    Io {
        /// The input.
        name: String,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A compressed input's stream is damaged.
    #[error(
        "{name} is damaged: {message}; the {lines} complete line(s) before the damage were \
         read, the rest is lost (`codex-thread validate` lists the lines' problems)"
    )]
    Damaged {
        /// The input.
        name: String,
        /// What the decoder said.
        message: String,
        /// The complete lines read before the damage.
        lines: usize,
    },
    /// The input holds no line.
    #[error("{name} is empty: it holds no rollout lines")]
    Empty {
        /// The input.
        name: String,
    },
    /// No line of the input is a rollout line.
    #[error("{name}: no line could be read as a rollout line ({lines} line(s), {problems} problem(s){})",
        first.as_ref().map(|problem| format!("; first: {problem}")).unwrap_or_default())]
    NoRolloutLine {
        /// The input.
        name: String,
        /// Its lines.
        lines: usize,
        /// The unreadable ones.
        problems: usize,
        /// The first of those.
        first: Option<LineProblem>,
    },
    /// A later pass found other items than the first.
    #[error(
        "{name} changed while it was {done} ({before} item(s) at first, {now} now); {redo} it \
         again"
    )]
    Changed {
        /// The input.
        name: String,
        /// What the reading was doing (`"read"`, `"indexed"`).
        done: String,
        /// What to do again.
        redo: String,
        /// The items the first pass read.
        before: usize,
        /// The items the later pass read.
        now: usize,
    },
    /// The thread's history base (a fork by reference's parent, a continuation's earlier
    /// pieces) could not be resolved.
    #[error("{}: {source}", path.display())]
    Base {
        /// The file that continues another thread.
        path: PathBuf,
        /// Why its base could not be read.
        #[source]
        source: Box<codex_rollout::HistoryBaseError>,
    },
    /// No Codex home was named, the file lies in none, and there is no default one.
    #[error("cannot find the Codex home of {}: {message}; pass --home DIR", path.display())]
    NoHome {
        /// The file.
        path: PathBuf,
        /// Why the default home could not be found.
        message: String,
    },
    /// The home named for the file is not a Codex home.
    #[error(transparent)]
    NotAHome(#[from] crate::NotAHome),
    /// The file's home could not say what it knows of the thread.
    #[error("{}: {source}", path.display())]
    Home {
        /// What could not be read (the file, or the home's session index).
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

impl ReadError {
    /// Whether the input itself could not be read, as opposed to read and found wrong.
    pub fn is_unreadable(&self) -> bool {
        matches!(
            self,
            Self::Io { .. } | Self::NoHome { .. } | Self::NotAHome(_) | Self::Home { .. }
        )
    }
}
