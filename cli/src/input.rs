//! Where a rollout comes from: a file path, standard input (`-`), a thread id or prefix, or
//! the bundled sample when no path is given.
//!
//! Reading is `streamed.rs`'s: one forward reader for every command, whose checks stop a
//! command for four things only (unreadable input, exit 2; an empty input, an input of which
//! no line could be read, a compressed input whose stream is damaged, exit 1), always naming
//! the input; bad lines are skipped and counted.
//!
//! Standard input and the sample are *spooled* ([`Source::spool`]) by the commands that read a
//! session more than once or from its end: copied into a temporary file, which is then read
//! like any other file, so every command has one reading path. A compressed rollout
//! (`.jsonl.zst`, on a path or on standard input) is read exactly as the plain one: the zstd
//! magic number decides, in codex-rollout, for this tool as for every other reader.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use codex_home::STDIN_ARG;
use codex_rollout::CodexHome;

use crate::error::{Failure, describe};
use crate::output::note;
use crate::sample::{SAMPLE_JSONL, SAMPLE_NAME};

/// What standard input is called in messages.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// Where a command reads its rollout from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// A file.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// The sample bundled in the binary (no path given).
    Sample,
    /// Standard input or the sample copied into a temporary file ([`Source::spool`]).
    Spooled(Spooled),
}

/// Standard input or the sample, copied into a temporary file that is removed when the last
/// copy of the source is dropped. Named in messages as what it was copied from.
#[derive(Debug, Clone)]
pub(crate) struct Spooled {
    name: &'static str,
    file: Arc<tempfile::TempPath>,
}

impl Spooled {
    /// The temporary file.
    pub(crate) fn path(&self) -> &Path {
        &self.file
    }
}

impl PartialEq for Spooled {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.file, &other.file)
    }
}

impl Eq for Spooled {}

impl Source {
    /// The source a `[FILE]` argument names: a file, `-`, or a thread id or a unique prefix
    /// of one (at least [`codex_home::MIN_THREAD_PREFIX`] characters) when no such file exists,
    /// found under `home`, else the Codex home ([`thread_source`]). An ambiguous prefix is a
    /// usage error (exit 2) that lists the candidates.
    pub(crate) fn from_arg(arg: Option<&Path>, home: Option<&Path>) -> Result<Self, Failure> {
        Ok(match arg {
            None => Source::Sample,
            Some(path) if path.as_os_str() == STDIN_ARG => Source::Stdin,
            Some(path) => {
                thread_source(path, home)?.unwrap_or_else(|| Source::File(path.to_path_buf()))
            }
        })
    }

    /// How the source is named in messages and output.
    pub(crate) fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Stdin => STDIN_NAME.to_string(),
            Source::Sample => SAMPLE_NAME.to_string(),
            Source::Spooled(spooled) => spooled.name.to_string(),
        }
    }

    /// The file the source can be read from as often as needed: a file's path, or a spooled
    /// copy's; `None` for standard input and the sample not spooled.
    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            Source::File(path) => Some(path),
            Source::Spooled(spooled) => Some(spooled.path()),
            Source::Stdin | Source::Sample => None,
        }
    }

    /// The source as a file: standard input or the sample copied into a temporary file
    /// (announcing the sample), a file as it is.
    pub(crate) fn spool(self) -> Result<Self, Failure> {
        let (name, bytes): (&'static str, Box<dyn std::io::Read>) = match self {
            Source::Stdin => (STDIN_NAME, Box::new(std::io::stdin().lock())),
            Source::Sample => {
                note_sample();
                (SAMPLE_NAME, Box::new(SAMPLE_JSONL.as_bytes()))
            }
            Source::File(_) | Source::Spooled(_) => return Ok(self),
        };
        let failed = |err: std::io::Error| {
            Failure::Unreadable(format!(
                "cannot copy {name} into a temporary file: {}",
                describe(&err)
            ))
        };
        let mut file = tempfile::NamedTempFile::new().map_err(failed)?;
        let mut bytes = bytes;
        std::io::copy(&mut bytes, file.as_file_mut()).map_err(|err| {
            Failure::Unreadable(format!("cannot read {name}: {}", describe(&err)))
        })?;
        Ok(Source::Spooled(Spooled {
            name,
            file: Arc::new(file.into_temp_path()),
        }))
    }
}

/// The file `arg` names when it is a thread id (or a unique prefix of one) and no path of
/// that name exists (codex-home's `thread_file_named`: an ambiguous prefix is a usage error
/// that lists the threads it could mean, an unknown one unreadable). `None` for every other
/// argument.
pub(crate) fn thread_source(arg: &Path, home: Option<&Path>) -> Result<Option<Source>, Failure> {
    Ok(codex_home::thread_file_named(arg, home)?.map(Source::File))
}

/// The one session file `arg` names: a path, else a thread id or unique prefix under the
/// home ([`thread_source`]).
pub(crate) fn session_path(arg: &Path, home: Option<&Path>) -> Result<PathBuf, Failure> {
    match thread_source(arg, home)? {
        Some(Source::File(path)) => Ok(path),
        _ if arg.exists() => Ok(arg.to_path_buf()),
        _ => Err(Failure::Unreadable(format!(
            "{}: no such file or thread",
            arg.display()
        ))),
    }
}

/// Says on standard error that the bundled sample is used.
pub(crate) fn note_sample() {
    note(
        "no FILE given: using the bundled sample session (5 turns with tool calls, an \
         interrupted turn and a rollback)",
    );
}

/// Opens `path` for reading as a rollout; a folder is an error of its own kind.
pub(crate) fn open_file(path: &Path) -> std::io::Result<File> {
    if std::fs::metadata(path)?.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory, not a rollout file",
        ));
    }
    File::open(path)
}

/// The Codex home named by `--home`, else `$CODEX_HOME`, else `~/.codex`, when it is one by
/// codex-home's rule ([`codex_home::resolve_home`]): every command that reads a home comes
/// through here, so a missing or mistyped home is the same error (exit 2) everywhere.
pub(crate) fn resolve_home(home: Option<&Path>) -> Result<CodexHome, Failure> {
    Ok(codex_home::resolve_home(home)?)
}
