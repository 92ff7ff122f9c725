//! Where command output goes: standard output, as JSON or as human text, never raw.
//!
//! Every command writes through [`Output`], which guarantees the two promises of the tool:
//! `--json` gives machine output (one JSON document, or JSON Lines for streams), and nothing
//! from a file's contents reaches the terminal unescaped ([`sanitize`]). Diagnostics (notes,
//! warnings) go to standard error through [`note`] and [`warn`], sanitized the same way.

pub(crate) mod sanitize;
pub(crate) mod size;

use std::io::{self, Write};

use serde::Serialize;

use crate::error::Failure;
pub use sanitize::{
    JsonTextWriter, escape_json_text, may_hold_terminal_control, one_line, sanitize_text,
};

/// Bytes of serialized JSON escaped at a time by [`Output::json_line`].
const JSON_CHUNK_BYTES: usize = 64 * 1024;

/// The output of one command run.
pub struct Output {
    json: bool,
    sink: Box<dyn Write>,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output")
            .field("json", &self.json)
            .finish_non_exhaustive()
    }
}

impl Output {
    /// Output to standard output (buffered).
    pub fn stdout(json: bool) -> Self {
        Self::to_writer(json, Box::new(io::BufWriter::new(io::stdout())))
    }

    /// Output to any writer (tests).
    pub fn to_writer(json: bool, sink: Box<dyn Write>) -> Self {
        Self { json, sink }
    }

    /// Whether machine output (`--json`) was asked for.
    pub fn is_json(&self) -> bool {
        self.json
    }

    /// One line of human text, sanitized.
    pub fn line(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.sink, "{}", sanitize_text(text))?;
        Ok(())
    }

    /// Human text as is (several lines allowed), sanitized.
    pub fn text(&mut self, text: &str) -> Result<(), Failure> {
        self.sink.write_all(sanitize_text(text).as_bytes())?;
        Ok(())
    }

    /// One compact JSON document on its own line (a JSON Lines record).
    /// Written as it is serialized (a thread of a large file is a large document), escaped
    /// on the way ([`JsonTextWriter`]).
    pub fn json_line<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
        let mut writer =
            io::BufWriter::with_capacity(JSON_CHUNK_BYTES, JsonTextWriter::new(&mut *self.sink));
        serde_json::to_writer(&mut writer, value)?;
        let escaper = writer
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        // Not flushed: the sink is buffered and flushed when the command ends (a flush per
        // line was a system call per line).
        writeln!(escaper.into_checked()?)?;
        Ok(())
    }

    /// A piece of serialized JSON as is, its raw terminal controls escaped (a document
    /// written in pieces; see [`escape_json_text`]).
    pub fn json_text(&mut self, json: &str) -> Result<(), Failure> {
        self.sink.write_all(escape_json_text(json).as_bytes())?;
        Ok(())
    }

    /// One pretty-printed JSON document.
    pub fn json_pretty<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
        let json = serde_json::to_string_pretty(value)?;
        writeln!(self.sink, "{}", escape_json_text(&json))?;
        Ok(())
    }

    /// JSON for `--json`: compact on one line; pretty otherwise (a person reads it).
    pub fn json_document<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
        if self.json {
            self.json_line(value)
        } else {
            self.json_pretty(value)
        }
    }

    /// Flushes what was written so far (a command that prints as it goes).
    pub fn flush(&mut self) -> Result<(), Failure> {
        self.sink.flush()?;
        Ok(())
    }

    /// Flushes everything written.
    pub fn finish(mut self) -> Result<(), Failure> {
        self.sink.flush()?;
        Ok(())
    }
}

/// A note on standard error (`codex-thread: <message>`), sanitized. Errors writing to
/// standard error are ignored: there is nowhere left to report them.
pub fn note(message: &str) {
    let _ = writeln!(io::stderr(), "codex-thread: {}", sanitize_text(message));
}

/// A warning on standard error (`codex-thread: warning: <message>`), sanitized.
pub fn warn(message: &str) {
    let _ = writeln!(
        io::stderr(),
        "codex-thread: warning: {}",
        sanitize_text(message)
    );
}

/// An error on standard error (`codex-thread: error: <message>`), sanitized.
pub fn error(message: &str) {
    let _ = writeln!(
        io::stderr(),
        "codex-thread: error: {}",
        sanitize_text(message)
    );
}
