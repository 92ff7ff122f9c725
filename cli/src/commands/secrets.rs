//! `codex-thread secrets [FILE|ID...] [--home DIR]`: the secrets (API keys, tokens, private
//! keys) written in session files, by file, line and kind, each shown by its first
//! characters only. Exit 1 when something was found, 0 when nothing was.
//!
//! codex-home's `SecretScanner` reads the files with the rule set `--redact` masks with;
//! this module lists the files and lays the findings out.

use std::path::PathBuf;

use clap::Args;
use codex_home::{SecretFinding, SecretScanner};
use serde::Serialize;

use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::inputs::{WhenEmpty, expand_sources};
use crate::output::{Output, note};

/// `secrets`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct SecretsArgs {
    /// Rollout files, folders, thread ids or unique id prefixes (default: every session of
    /// the Codex home).
    pub paths: Vec<PathBuf>,
    /// Codex home whose sessions to read (default with no PATH: `$CODEX_HOME`, else
    /// `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
}

/// What `secrets --json` prints.
#[derive(Debug, Serialize)]
struct Findings {
    files: usize,
    findings: Vec<SecretFinding>,
}

/// Runs `secrets`.
pub(crate) fn run(args: &SecretsArgs, out: &mut Output) -> CommandResult {
    let sources = expand_sources(&args.paths, args.home.as_deref(), WhenEmpty::DefaultHome)?;
    let scanner = SecretScanner::new().map_err(|err| Failure::Unreadable(err.to_string()))?;
    let mut findings = Vec::new();
    for source in &sources {
        let Source::File(path) = source else {
            return Err(Failure::Usage(
                "secrets works on files, folders and homes, not on standard input".to_string(),
            ));
        };
        let found = scanner
            .scan_file(path)
            .map_err(|err| Failure::Unreadable(err.to_string()))?;
        findings.extend(found);
    }
    let status = if findings.is_empty() {
        Status::Ok
    } else {
        Status::ContentProblems
    };
    if out.is_json() {
        out.json_line(&Findings {
            files: sources.len(),
            findings,
        })?;
        return Ok(status);
    }
    for found in &findings {
        out.line(&format!(
            "{}:{}: {}  {}",
            found.path.display(),
            found.line,
            found.kind,
            found.masked
        ))?;
    }
    note(&format!(
        "{} secret(s) in {} file(s)",
        findings.len(),
        sources.len()
    ));
    Ok(status)
}
