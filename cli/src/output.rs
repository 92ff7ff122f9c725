//! Where command output goes: standard output, as JSON or as human text, never raw.
//!
//! Every command writes through [`Output`], which guarantees the two promises of the tool:
//! `--json` gives machine output (one JSON document, or JSON Lines for streams), and nothing
//! from a file's contents reaches the terminal unescaped ([`sanitize`]). Diagnostics (notes,
//! warnings) go to standard error through [`note`] and [`warn`], sanitized the same way.

pub(crate) mod plan;
pub(crate) mod sanitize;
pub(crate) mod size;
mod spool;

use std::io::{self, Write};
use std::path::Path;

use codex_app_server_protocol::BuiltThread;
use codex_app_server_protocol::v2::{Thread, Turn, TurnStatus};
use serde::Serialize;

use crate::error::{Failure, Status};
pub(crate) use sanitize::{
    JsonTextWriter, clip, escape_json_text, holds_terminal_control, one_line, sanitize_text,
};
pub(crate) use spool::Spool;

/// The output of one command run.
pub(crate) struct Output {
    json: bool,
    /// Standard output is a terminal (a person reads it): long paths may be cut to fit.
    terminal: bool,
    sink: Box<dyn Write>,
    /// The serialized JSON of a document being written waiting to be escaped, kept from one
    /// document to the next (a stream of small documents allocates it once).
    pending_json: Vec<u8>,
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
    pub(crate) fn stdout(json: bool) -> Self {
        use std::io::IsTerminal;
        Self {
            terminal: io::stdout().is_terminal(),
            ..Self::to_writer(json, Box::new(io::BufWriter::new(io::stdout())))
        }
    }

    /// Output to any writer (tests).
    pub(crate) fn to_writer(json: bool, sink: Box<dyn Write>) -> Self {
        Self {
            json,
            terminal: false,
            sink,
            pending_json: Vec::new(),
        }
    }

    /// Whether standard output is a terminal: text may be shortened to fit its width only
    /// then (piped output is read by programs, and keeps every character).
    pub(crate) fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// Whether machine output (`--json`) was asked for.
    pub(crate) fn is_json(&self) -> bool {
        self.json
    }

    /// One line of human text, sanitized.
    pub(crate) fn line(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.sink, "{}", sanitize_text(text))?;
        Ok(())
    }

    /// Human text as is (several lines allowed), sanitized.
    pub(crate) fn text(&mut self, text: &str) -> Result<(), Failure> {
        self.sink.write_all(sanitize_text(text).as_bytes())?;
        Ok(())
    }

    /// One compact JSON document on its own line (a JSON Lines record).
    pub(crate) fn json_line<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
        self.json_written(value, serde_json::ser::CompactFormatter)
    }

    /// One record of a JSON Lines stream of several kinds: `{"type": kind, ...}`, the fields
    /// of `value` after its kind.
    pub(crate) fn json_record<T: Serialize>(
        &mut self,
        kind: &'static str,
        value: &T,
    ) -> Result<(), Failure> {
        #[derive(Serialize)]
        struct Record<'a, T> {
            #[serde(rename = "type")]
            kind: &'static str,
            #[serde(flatten)]
            value: &'a T,
        }
        self.json_line(&Record { kind, value })
    }

    /// A piece of serialized JSON as is, its raw terminal controls escaped (a document
    /// written in pieces; see [`escape_json_text`]).
    pub(crate) fn json_text(&mut self, json: &str) -> Result<(), Failure> {
        self.sink.write_all(escape_json_text(json).as_bytes())?;
        Ok(())
    }

    /// One pretty-printed JSON document.
    pub(crate) fn json_pretty<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failure> {
        self.json_written(value, serde_json::ser::PrettyFormatter::new())
    }

    /// `value` as JSON laid out by `formatter`, then a newline. Written as it is serialized
    /// (a thread or a prompt of a large file is a large document, never held as one string),
    /// escaped on the way ([`JsonTextWriter`]).
    fn json_written<T, F>(&mut self, value: &T, formatter: F) -> Result<(), Failure>
    where
        T: Serialize + ?Sized,
        F: serde_json::ser::Formatter,
    {
        let mut escaper = JsonTextWriter::new(&mut *self.sink, &mut self.pending_json);
        value.serialize(&mut serde_json::Serializer::with_formatter(
            &mut escaper,
            formatter,
        ))?;
        // Not flushed: the sink is buffered and flushed when the command ends (a flush per
        // line was a system call per line).
        writeln!(escaper.into_checked()?)?;
        Ok(())
    }

    /// JSON for `--json`: compact on one line; pretty otherwise (a person reads it).
    pub(crate) fn json_document<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
    ) -> Result<(), Failure> {
        if self.json {
            self.json_line(value)
        } else {
            self.json_pretty(value)
        }
    }

    /// Flushes what was written so far (a command that prints as it goes).
    pub(crate) fn flush(&mut self) -> Result<(), Failure> {
        self.sink.flush()?;
        Ok(())
    }

    /// Flushes everything written.
    pub(crate) fn finish(mut self) -> Result<(), Failure> {
        self.sink.flush()?;
        Ok(())
    }
}

/// A note on standard error (`codex-thread: <message>`), sanitized. Errors writing to
/// standard error are ignored: there is nowhere left to report them.
pub(crate) fn note(message: &str) {
    let _ = writeln!(io::stderr(), "codex-thread: {}", sanitize_text(message));
}

/// A warning on standard error (`codex-thread: warning: <message>`), sanitized.
pub(crate) fn warn(message: &str) {
    let _ = writeln!(
        io::stderr(),
        "codex-thread: warning: {}",
        sanitize_text(message)
    );
}

/// An error on standard error (`codex-thread: error: <message>`), sanitized.
pub(crate) fn error(message: &str) {
    let _ = writeln!(
        io::stderr(),
        "codex-thread: error: {}",
        sanitize_text(message)
    );
}

/// The error that stopped a `--json` run, as one JSON object on standard error (standard
/// output keeps only results, so a script reading it never parses an error as one):
/// `{"error":{"message":"…","exit_code":2}}`.
pub(crate) fn error_json(message: &str, exit_code: u8) {
    let error = serde_json::json!({
        "error": { "message": message, "exit_code": exit_code }
    });
    let _ = writeln!(io::stderr(), "{}", escape_json_text(&error.to_string()));
}

/// `  [subAgentThreadSpawn of 019a…]` for a thread a sub-agent or tool started, nothing for
/// a person's own client (`cli`, `vscode`).
pub(crate) fn source_tag(source: &str, parent: Option<&str>) -> String {
    match (source, parent) {
        ("cli" | "vscode", _) => String::new(),
        (source, Some(parent)) => format!("  [{source} of {}]", short_id(parent)),
        (source, None) => format!("  [{source}]"),
    }
}

/// The first eight characters of a thread id (enough to tell threads apart in a list).
fn short_id(id: &str) -> String {
    let short: String = id.chars().take(8).collect();
    format!("{short}…")
}

/// Reports in place the failure of one file of a many-file run (`inspect`, `list`): with
/// `--json` a JSON Lines record `{<key>: name, "error": ...}` (`key` is the name the
/// command's own records give the file), else a line; returns the run's status made worse
/// by it.
pub(crate) fn report_failure(
    out: &mut Output,
    status: Status,
    key: &'static str,
    name: &str,
    failure: &Failure,
) -> Result<Status, Failure> {
    if out.is_json() {
        out.json_line(&FileError {
            key,
            name,
            error: failure.to_string(),
        })?;
    } else {
        out.line(&format!("{name}: {failure}"))?;
    }
    Ok(worse(status, failure))
}

/// One file's JSON Lines record when it could not be read: `{<key>: name, "error": ...}`.
struct FileError<'a> {
    key: &'static str,
    name: &'a str,
    error: String,
}

impl Serialize for FileError<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut record = serializer.serialize_map(Some(2))?;
        record.serialize_entry(self.key, self.name)?;
        record.serialize_entry("error", &self.error)?;
        record.end()
    }
}

/// The worse of `status` and the status a failure stands for.
fn worse(status: Status, failure: &Failure) -> Status {
    let failed = match failure.exit_code() {
        crate::error::EXIT_CONTENT => Status::ContentProblems,
        _ => Status::Unreadable,
    };
    if failed.exit_code() > status.exit_code() {
        failed
    } else {
        status
    }
}

/// `path` in at most `width` characters on a terminal: a longer one keeps its end (the file
/// name) after `…`, so a line of sizes and paths fits 80 columns. Piped (`out` is not a
/// terminal), the path is whole: a program reading it needs every character.
pub(crate) fn fit_path(path: &Path, width: usize, out: &Output) -> String {
    let text = path.display().to_string();
    let count = text.chars().count();
    if count <= width || !out.is_terminal() {
        return text;
    }
    let keep = width.saturating_sub(1);
    let tail: String = text.chars().skip(count - keep).collect();
    format!("…{tail}")
}

/// An RFC 3339 time to the minute in the local zone (`2026-03-30 19:22`), what a person
/// needs in a list; a text that is no such time as it is.
pub(crate) fn local_minute(at: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(at).map_or_else(
        |_| at.to_owned(),
        |at| {
            let local = at.with_timezone(&chrono::Local);
            local.format("%Y-%m-%d %H:%M").to_string()
        },
    )
}

/// The word of a turn's status, as every view says it: `completed`, `interrupted`, `failed`,
/// `in progress`.
pub(crate) fn status_word(status: TurnStatus) -> &'static str {
    match status {
        TurnStatus::Completed => "completed",
        TurnStatus::Interrupted => "interrupted",
        TurnStatus::Failed => "failed",
        TurnStatus::InProgress => "in progress",
    }
}

/// A thread's id, or `(no session meta)` for a file without one: what names it in text.
pub(crate) fn thread_title(thread: &BuiltThread) -> &str {
    match thread {
        BuiltThread::Thread(thread) => &thread.id,
        BuiltThread::TurnsOnly(_) => "(no session meta)",
    }
}

/// A thread's JSON document written a turn at a time (`thread --json`, `export --json`):
/// [`thread_json_head`], then each turn ([`ThreadJson::turn`]), then [`ThreadJson::TAIL`].
#[derive(Debug, Default)]
pub(crate) struct ThreadJson {
    /// The turns written so far.
    turns: usize,
}

impl ThreadJson {
    /// What ends the document, after its last turn.
    pub(crate) const TAIL: &str = "]}\n";

    /// The next turn, after a comma unless it is the first.
    pub(crate) fn turn(&mut self, turn: &Turn) -> Result<String, Failure> {
        let comma = if self.turns > 0 { "," } else { "" };
        self.turns += 1;
        Ok(format!("{comma}{}", serde_json::to_string(turn)?))
    }
}

/// A thread's JSON document up to its first turn (`{"turns": [...]}` for a file without
/// session meta), open at its turns, which its serialization writes last: what a thread
/// written a turn at a time starts with; each turn follows, comma-separated, then `]}`.
pub(crate) fn thread_json_head(thread: &BuiltThread) -> Result<String, Failure> {
    let BuiltThread::Thread(thread) = thread else {
        return Ok("{\"turns\":[".to_string());
    };
    let mut json = serde_json::to_string(&Thread {
        turns: Vec::new(),
        ..(**thread).clone()
    })?;
    // The thread's last field is its turns: `…,"turns":[]}` is left open at them.
    if !json.ends_with("\"turns\":[]}") {
        return Err(Failure::Content(
            "a thread's turns are not its last field".to_string(),
        ));
    }
    json.truncate(json.len() - 2);
    Ok(json)
}

#[cfg(test)]
#[path = "output_tests.rs"]
mod tests;
