//! `codex-thread export [FILE] --format markdown`: a readable transcript of the session.
//!
//! With `--json` the same transcript is printed as JSON (whole tool outputs included).

mod markdown;
mod transcript;

pub use transcript::{Entry, Transcript, TranscriptTurn, build};

use crate::cli::ExportFormat;
use crate::error::{CommandResult, Status};
use crate::input::{Source, load_session};
use crate::output::Output;

/// Runs `export`.
pub fn run(source: &Source, format: ExportFormat, out: &mut Output) -> CommandResult {
    let session = load_session(source)?;
    let transcript = build(session.contents());
    if out.is_json() {
        out.json_line(&transcript)?;
        return Ok(Status::Ok);
    }
    match format {
        ExportFormat::Markdown => out.text(&markdown::render(&transcript))?,
    }
    Ok(Status::Ok)
}
