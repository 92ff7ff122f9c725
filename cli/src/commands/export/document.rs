//! Writing an export in order, a piece at a time: where it goes ([`Target`]: standard output,
//! or a file through a temporary one so a reader never sees half a page) and what each piece
//! is in the format asked for ([`Layout`]).
//!
//! Each format is its header, then one piece per turn, then an ending; concatenated, the
//! pieces are the document of the whole thread, byte for byte. The `--json` document is the
//! thread as `thread --json --complete` writes it: its fields, then each turn as it comes.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use codex_app_server_protocol::v2::Turn;
use tempfile::NamedTempFile;

use super::facts::{ContentsLine, Header, Overview};
use super::shown::{Shown, utc_second};
use super::{html, markdown};
use crate::cli::ExportFormat;
use crate::error::Failure;
use crate::input::Source;
use crate::output::status_word;
use crate::output::{Output, Spool, ThreadJson, thread_json_head};

/// What the pieces of the document are.
pub(crate) enum Layout {
    Markdown,
    Html,
    /// The thread as one JSON document.
    Json(ThreadJson),
}

impl Layout {
    /// The layout of `format`, or JSON.
    pub(crate) fn of(format: ExportFormat, json: bool) -> Self {
        match (json, format) {
            (true, _) => Self::Json(ThreadJson::default()),
            (false, ExportFormat::Markdown) => Self::Markdown,
            (false, ExportFormat::Html) => Self::Html,
        }
    }

    /// Whether the header needs the [`Overview`] (every turn) before the first turn.
    pub(crate) fn needs_overview(&self) -> bool {
        !matches!(self, Self::Json(_))
    }

    /// The document's first piece.
    pub(crate) fn head(
        &self,
        header: &Header,
        overview: &Overview,
        redaction: Option<&str>,
    ) -> Result<String, Failure> {
        Ok(match self {
            Self::Markdown => markdown::head(header, overview, redaction),
            Self::Html => html::head(header, overview, redaction),
            Self::Json(_) => thread_json_head(&header.thread)?,
        })
    }

    /// Whether the layout lists the turns in a table of contents ([`Layout::contents_row`]).
    pub(crate) fn lists_turns(&self) -> bool {
        matches!(self, Self::Html)
    }

    /// The table of contents' row of turn `number`, for a layout that lists the turns
    /// (HTML): rendered as the turn is, set aside until the header is written.
    pub(crate) fn contents_row(&self, number: usize, turn: &Turn, shown: &[Shown]) -> String {
        html::contents_row(&ContentsLine::of(number, turn, shown))
    }

    /// What goes around the rows of the table of contents, right after the header, when the
    /// document has one.
    pub(crate) fn contents(&self, overview: &Overview) -> Option<(String, &'static str)> {
        match self {
            Self::Html if html::has_contents(overview) => {
                Some((html::contents_start(overview), html::contents_end()))
            }
            _ => None,
        }
    }

    /// The piece of turn `number`, whose cells are `shown` (the JSON layout writes the turn
    /// itself).
    pub(crate) fn turn(
        &mut self,
        number: usize,
        turn: &Turn,
        shown: &[Shown],
    ) -> Result<String, Failure> {
        let started = turn.started_at.and_then(utc_second);
        Ok(match self {
            Self::Markdown => markdown::turn(number, started, shown),
            Self::Html => html::turn(number, status_word(turn.status), started, shown),
            Self::Json(json) => json.turn(turn)?,
        })
    }

    /// The document's last piece.
    pub(crate) fn tail(&self) -> String {
        match self {
            Self::Markdown => String::new(),
            Self::Html => html::tail(),
            Self::Json(_) => ThreadJson::TAIL.to_string(),
        }
    }
}

/// Where the document goes.
pub(crate) enum Target<'a> {
    /// Standard output, sanitized as text, or escaped as JSON text.
    Output { out: &'a mut Output, json: bool },
    /// A temporary file beside `path`, renamed to it when the document is whole (and removed
    /// when it is dropped before).
    File {
        path: PathBuf,
        file: BufWriter<NamedTempFile>,
    },
}

impl<'a> Target<'a> {
    /// Standard output (`out`), or `path`; refuses to overwrite the session file it reads.
    pub(crate) fn open(
        source: &Source,
        path: Option<&Path>,
        out: &'a mut Output,
    ) -> Result<Self, Failure> {
        let Some(path) = path else {
            let json = out.is_json();
            return Ok(Self::Output { out, json });
        };
        if let Source::File(input) = source {
            let same = std::fs::canonicalize(input)
                .ok()
                .zip(std::fs::canonicalize(path).ok())
                .is_some_and(|(input, output)| input == output);
            if same {
                return Err(Failure::Usage(format!(
                    "{}: refusing to write the export over the session file it reads",
                    path.display()
                )));
            }
        }
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut temporary = tempfile::Builder::new();
        // Read and write for all but what the umask takes, as a file created in place.
        #[cfg(unix)]
        temporary.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let file = temporary
            .tempfile_in(folder)
            .map_err(|err| unwritable(path, err))?;
        Ok(Self::File {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
        })
    }

    /// Writes the next piece.
    pub(crate) fn write(&mut self, piece: &str) -> Result<(), Failure> {
        match self {
            Self::Output { out, json: true } => out.json_text(piece),
            Self::Output { out, json: false } => out.text(piece),
            Self::File { path, file, .. } => file
                .write_all(piece.as_bytes())
                .map_err(|err| unwritable(path, err)),
        }
    }

    /// A spool for pieces this target writes later ([`Target::append`]), prepared as
    /// [`Target::write`] would write them.
    pub(crate) fn spool(&self) -> Result<Spool, Failure> {
        match self {
            Self::Output { out, .. } => out.spool(),
            Self::File { .. } => Spool::plain(),
        }
    }

    /// Writes the pieces `spool` holds ([`Target::spool`]), in order, then removes it.
    pub(crate) fn append(&mut self, spool: Spool) -> Result<(), Failure> {
        match self {
            Self::Output { out, .. } => out.append(spool),
            Self::File { path, file, .. } => {
                spool.copy_plain_into(file, |err| unwritable(path, err))
            }
        }
    }

    /// Ends the document: a file is synced and put in place (the written path is returned);
    /// after `failed`, or when that fails, the temporary file is removed instead.
    pub(crate) fn finish(self, failed: bool) -> Result<Option<PathBuf>, Failure> {
        let Self::File { path, file } = self else {
            return Ok(None);
        };
        if failed {
            return Ok(None);
        }
        file.into_inner()
            .map_err(std::io::IntoInnerError::into_error)
            .and_then(|file| file.as_file().sync_all().map(|()| file))
            .and_then(|file| file.persist(&path).map_err(|err| err.error))
            .map_err(|err| unwritable(&path, err))?;
        Ok(Some(path))
    }
}

fn unwritable(path: &Path, err: std::io::Error) -> Failure {
    Failure::Output(std::io::Error::new(
        err.kind(),
        format!("{}: {err}", path.display()),
    ))
}
