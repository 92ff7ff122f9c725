//! Text set aside in a temporary file and written later, kept in the form it will be written.
//!
//! `export`'s Markdown and HTML headers count every turn, so the body is rendered first and
//! waits in a [`Spool`] until the header is written (`commands/export.rs`). The text is
//! prepared as it is pushed: sanitized for a terminal ([`Output::spool`]), escaped as JSON
//! text, or kept as it is for a file ([`Spool::plain`]). So writing it out afterwards is a
//! copy of bytes, and the work of preparing it is done by the thread that pushes (export's
//! rendering thread, beside the parse) instead of at the end, when nothing else runs: the
//! body of a 1 GiB session's HTML page is about 370 MB.
//!
//! The file is anonymous (removed by the operating system when it is closed, even after a
//! crash); memory stays a buffer.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};

use super::Output;
use super::sanitize::{escape_json_text, sanitize_text};
use crate::error::Failure;

/// Bytes read from the file at a time when the spool is written out.
const COPY_BYTES: usize = 256 * 1024;

/// Text kept in a temporary file, prepared as it will be written (see the module docs).
#[derive(Debug)]
pub(crate) struct Spool {
    file: BufWriter<File>,
    form: Form,
}

/// How a spool's text was prepared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// As it is: for a file.
    Plain,
    /// Sanitized as [`Output::text`] writes it.
    Text,
    /// Escaped as [`Output::json_text`] writes it.
    JsonText,
}

impl Spool {
    /// A spool of text kept as it is, for a file that no terminal reads
    /// ([`Spool::copy_plain_into`]).
    pub(crate) fn plain() -> Result<Self, Failure> {
        Self::new(Form::Plain)
    }

    fn new(form: Form) -> Result<Self, Failure> {
        let file = tempfile::tempfile().map_err(|err| spool_failure(&err))?;
        Ok(Self {
            file: BufWriter::with_capacity(COPY_BYTES, file),
            form,
        })
    }

    /// Sets `text` aside, prepared, after what was pushed before.
    pub(crate) fn push(&mut self, text: &str) -> Result<(), Failure> {
        let text = match self.form {
            Form::Plain => Cow::Borrowed(text),
            Form::Text => sanitize_text(text),
            Form::JsonText => escape_json_text(text),
        };
        self.file
            .write_all(text.as_bytes())
            .map_err(|err| spool_failure(&err))
    }

    /// Writes the text of a [`Spool::plain`] into `into`, then removes the spool; a failed
    /// write is reported as `unwritable` says. A spool of an [`Output`] is written by
    /// [`Output::append`].
    pub(crate) fn copy_plain_into(
        self,
        into: &mut impl Write,
        unwritable: impl Fn(io::Error) -> Failure,
    ) -> Result<(), Failure> {
        if self.form != Form::Plain {
            return Err(Failure::Content(
                "text prepared for standard output cannot go to a file".to_string(),
            ));
        }
        self.copy_into(into, unwritable)
    }

    /// Writes every byte pushed into `into`, in order, then removes the spool.
    fn copy_into(
        self,
        into: &mut dyn Write,
        unwritable: impl Fn(io::Error) -> Failure,
    ) -> Result<(), Failure> {
        let mut file = self
            .file
            .into_inner()
            .map_err(|err| spool_failure(err.error()))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|err| spool_failure(&err))?;
        let mut buffer = vec![0; COPY_BYTES];
        loop {
            let read = match file.read(&mut buffer) {
                Ok(0) => return Ok(()),
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(spool_failure(&err)),
            };
            into.write_all(buffer.get(..read).unwrap_or_default())
                .map_err(&unwritable)?;
        }
    }
}

impl Output {
    /// A spool of text for this output to write later ([`Output::append`]), prepared as it
    /// is pushed as [`Output::text`] (or, under `--json`, [`Output::json_text`]) prepares it.
    pub(crate) fn spool(&self) -> Result<Spool, Failure> {
        Spool::new(self.spool_form())
    }

    /// Writes what `spool` holds, as [`Output::text`] (or [`Output::json_text`]) would have
    /// written each text pushed, then removes the spool. Only a spool of this output's form
    /// ([`Output::spool`]) is taken.
    pub(crate) fn append(&mut self, spool: Spool) -> Result<(), Failure> {
        if spool.form != self.spool_form() {
            return Err(Failure::Content(
                "text spooled for another output cannot be written here".to_string(),
            ));
        }
        spool.copy_into(&mut *self.sink, Failure::from)
    }

    /// How this output prepares text: as [`Output::json_text`] under `--json`, else as
    /// [`Output::text`].
    fn spool_form(&self) -> Form {
        if self.json {
            Form::JsonText
        } else {
            Form::Text
        }
    }
}

fn spool_failure(err: &io::Error) -> Failure {
    Failure::Output(io::Error::new(
        err.kind(),
        format!("cannot keep text in a temporary file: {err}"),
    ))
}

#[cfg(test)]
#[path = "spool_tests.rs"]
mod tests;
