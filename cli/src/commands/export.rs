//! `codex-thread export [FILE] --format markdown|html [-o OUT] [--redact]`: a transcript of
//! the session to read and share.
//!
//! One model, two renderers: `transcript` builds the turns (from codex-rollout's turn index
//! and codex-protocol's call matching), `markdown` and `html` lay them out, and
//! `redact` masks what people hide before sharing, on the model, so both formats (and
//! `--json`, which prints the model itself) get the same masking.

mod excerpt;
mod facts;
mod html;
mod markdown;
mod redact;
mod transcript;

pub use redact::{RedactionReport, Redactor};
pub use transcript::{
    Entry, EntryKind, Image, ImageSource, ToolCall, Transcript, TranscriptTurn, build,
};

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::cli::ExportFormat;
use crate::error::{CommandResult, Failure, Status};
use crate::input::{Source, load_session};
use crate::output::{Output, note};

/// What `export` was asked for.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    pub format: ExportFormat,
    /// Write here instead of standard output.
    pub output: Option<PathBuf>,
    /// Mask the built-in patterns (and `patterns`).
    pub redact: bool,
    /// Extra regexes to mask (imply `redact`).
    pub patterns: Vec<String>,
}

/// Runs `export`.
pub fn run(source: &Source, options: &ExportOptions, out: &mut Output) -> CommandResult {
    let session = load_session(source)?;
    let mut transcript = build(session.contents());
    let report = if options.redact || !options.patterns.is_empty() {
        let hostname = local_hostname();
        let redactor = Redactor::new(hostname.as_deref(), &options.patterns)
            .map_err(|err| Failure::Usage(err.to_string()))?;
        let report = redactor.redact(&mut transcript);
        note(&format!("redacted: {}", report.summary()));
        Some(report)
    } else {
        None
    };
    let summary = report.as_ref().map(RedactionReport::summary);
    if out.is_json() && options.output.is_none() {
        out.json_line(&transcript)?;
        return Ok(Status::Ok);
    }
    let document = if out.is_json() {
        serde_json::to_string(&transcript)? + "\n"
    } else {
        match options.format {
            ExportFormat::Markdown => markdown::render(&transcript, summary.as_deref()),
            ExportFormat::Html => html::render(&transcript, summary.as_deref()),
        }
    };
    match &options.output {
        Some(path) => {
            write_file(source, path, &document)?;
            note(&format!("wrote {}", path.display()));
        }
        None => out.text(&document)?,
    }
    Ok(Status::Ok)
}

/// Writes `document` to `path` through a temporary file in the same folder, so a reader
/// never sees half a page; refuses to overwrite the session file it was read from.
fn write_file(source: &Source, path: &Path, document: &str) -> Result<(), Failure> {
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
    let unwritable = |err: std::io::Error| {
        Failure::Output(std::io::Error::new(
            err.kind(),
            format!("{}: {err}", path.display()),
        ))
    };
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".to_string());
    let temporary = folder.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(document.as_bytes())?;
        file.sync_all()
    });
    if let Err(err) = written.and_then(|()| std::fs::rename(&temporary, path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(unwritable(err));
    }
    Ok(())
}

/// This machine's name, masked by `--redact` (it shows in prompts and paths).
fn local_hostname() -> Option<String> {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty() && name != "localhost")
}
