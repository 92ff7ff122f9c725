//! `codex-thread usage [daily|weekly|monthly|session|model|project] [FILE|DIR]... [--home DIR]
//! [--since DATE] [--until DATE] [--timezone ZONE] [--pricing FILE] [--by REPORT] [--json]`: tokens and cost
//! over many sessions.
//!
//! Which responses count, with which tokens, model and time, is codex-home's (each response
//! once whatever files hold it, a child's copied parent prefix never);
//! this command reads the files (several at a time), groups the responses by local date,
//! session or model ([`codex_home::build_usage_report`]), prices them ([`pricing`]) and prints
//! them ([`render`]). See `docs/usage.md`.

pub(crate) mod render;

use std::collections::HashMap;
use std::path::PathBuf;

use chrono::NaiveDate;
use chrono_tz::Tz;
use codex_home::{FileUsage, count_each_response_once, file_usage, file_usage_by_day};
use codex_rollout::RolloutStream;
use rayon::prelude::*;

use crate::damaged::DamagedFiles;
use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::input::resolve_home;
use crate::inputs::{WhenEmpty, expand_sources, zone_of};
use crate::output::{Output, warn};
use crate::progress::Progress;
use crate::streamed::source_size;
use codex_home::{DateRange, Pricing, PricingError, ReportKind, SessionUsage, build_usage_report};

/// The arguments of `usage`, as the command line gave them.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct UsageArgs {
    /// An optional REPORT, then rollout files, folders, thread ids or unique id
    /// prefixes (default: the Codex home).
    #[arg(value_name = "REPORT|FILE")]
    pub targets: Vec<PathBuf>,
    /// Codex home (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// First day counted (YYYY-MM-DD, in --timezone).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Last day counted (YYYY-MM-DD, in --timezone).
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// IANA time zone days are counted in (default: the local zone, from TZ, else the
    /// system's).
    #[arg(long, value_name = "ZONE")]
    pub timezone: Option<String>,
    /// Price table to use instead of the bundled one: LiteLLM's
    /// model_prices_and_context_window.json, or {"models": {NAME: {"input",
    /// "cached_input", "output"}}} in USD per million tokens
    #[arg(long, value_name = "FILE")]
    pub pricing: Option<PathBuf>,
    /// The report, as a REPORT word first would name it: daily, weekly, monthly,
    /// session, model or project (the session's git repository, else its directory).
    #[arg(long, value_name = "REPORT")]
    pub by: Option<String>,
}

/// Runs `usage`.
pub(crate) fn run(args: &UsageArgs, out: &mut Output) -> CommandResult {
    let (word, paths) = split_report_word(&args.targets)?;
    let kind = match (&args.by, word) {
        (None, word) => word.unwrap_or(ReportKind::Daily),
        (Some(by), word) => {
            let by_kind = ReportKind::from_word(by).ok_or_else(|| {
                Failure::Usage(format!(
                    "--by {by}: expected one of {}",
                    report_words().join(", ")
                ))
            })?;
            if word.is_some_and(|word| word != by_kind) {
                return Err(Failure::Usage(format!(
                    "--by {by} names another report than the word before the paths"
                )));
            }
            by_kind
        }
    };
    let range = DateRange {
        since: args.since.as_deref().map(parse_date).transpose()?,
        until: args.until.as_deref().map(parse_date).transpose()?,
    };
    if let (Some(since), Some(until)) = (range.since, range.until)
        && since > until
    {
        return Err(Failure::Usage(format!(
            "--since {since} is after --until {until}"
        )));
    }
    let zone = zone_of(args.timezone.as_deref())?;
    let pricing = match &args.pricing {
        Some(path) => Pricing::from_file(path),
        None => Pricing::bundled(),
    }
    .map_err(|err| match err {
        PricingError::Unreadable { .. } => Failure::Unreadable(err.to_string()),
        PricingError::Invalid { .. } => Failure::Usage(err.to_string()),
    })?;
    if args.home.is_some() || paths.is_empty() {
        resolve_home(args.home.as_deref())?;
    }
    let sources = expand_sources(paths, args.home.as_deref(), WhenEmpty::DefaultHome)?;
    let (mut sessions, unreadable) = read_all(&sources, zone);
    let mut damaged = DamagedFiles::default();
    for session in &sessions {
        if let Some(damage) = &session.usage.damage {
            damaged.note(&session.path, damage);
        }
    }
    let by_name: HashMap<String, &Source> = sources
        .iter()
        .map(|source| (source.name(), source))
        .collect();
    count_each_response_once(&mut sessions, zone, |session| {
        read_apart(by_name.get(&session.path)?)
    });
    let report = build_usage_report(kind, zone, range, &sessions);
    if out.is_json() {
        let mut json = render::to_json(kind, &report, &pricing, zone.name());
        if let Some(document) = json.as_object_mut() {
            document.insert("damaged".into(), damaged.to_json());
        }
        out.json_line(&json)?;
    } else {
        let mut text = render::to_table(kind, &report, &pricing, zone.name());
        if !damaged.is_empty() {
            text.push_str("Partial: damaged files were counted as far as they could be read.\n");
        }
        out.text(&text)?;
    }
    Ok(damaged.status(if unreadable {
        Status::Unreadable
    } else {
        Status::Ok
    }))
}

/// The report the first argument names (when it is a report word and not an existing path),
/// and the paths after it. A first argument that is no path and only a letter or two away
/// from a report word (`dayly`) is a usage error that names the word meant.
fn split_report_word(targets: &[PathBuf]) -> Result<(Option<ReportKind>, &[PathBuf]), Failure> {
    if let Some((first, rest)) = targets.split_first()
        && !first.exists()
        && let Some(word) = first.to_str()
    {
        if let Some(kind) = ReportKind::from_word(word) {
            return Ok((Some(kind), rest));
        }
        let looks_like_a_word = word.chars().all(|ch| ch.is_ascii_alphabetic());
        let near = report_words()
            .into_iter()
            .find(|name| strsim::levenshtein(&word.to_ascii_lowercase(), name) <= 2);
        if looks_like_a_word && let Some(name) = near {
            return Err(Failure::Usage(format!(
                "unknown report `{word}`: did you mean `{name}`? (reports: {}; a file of that \
                 name does not exist)",
                report_words().join(", ")
            )));
        }
    }
    Ok((None, targets))
}

/// The words that name a report.
fn report_words() -> Vec<&'static str> {
    ReportKind::ALL.iter().map(|(word, _)| *word).collect()
}

/// A `--since`/`--until` day, by codex-home's rule ([`codex_home::parse_day`]).
fn parse_date(text: &str) -> Result<NaiveDate, Failure> {
    codex_home::parse_day(text)
        .ok_or_else(|| Failure::Usage(format!("invalid date `{text}`: expected YYYY-MM-DD")))
}

/// Reads every source's usage, several files at a time, in the order given, each file's
/// responses merged per model and local day in `zone` (what the reports need; memory flat in
/// the files' sizes). Unreadable files are reported and left out (the second value says
/// whether there were any).
fn read_all(sources: &[Source], zone: Tz) -> (Vec<SessionUsage>, bool) {
    let sizes: Vec<u64> = sources.iter().map(source_size).collect();
    let total_bytes: u64 = sizes.iter().sum();
    let progress = Progress::for_bytes(total_bytes, "reading sessions");
    // On rayon's pool, one file per task, in the order given.
    let results: Vec<Result<FileUsage, String>> = sources
        .par_iter()
        .zip(&sizes)
        .map(|(source, size)| {
            let result = read_one(source, zone);
            progress.inc(*size);
            result
        })
        .collect();
    let mut sessions = Vec::with_capacity(sources.len());
    let mut unreadable = false;
    for (source, result) in sources.iter().zip(results) {
        match result {
            Ok(usage) => {
                for line in &usage.undated_lines {
                    warn(&format!(
                        "{}:{line}: usage line without a readable timestamp, not counted",
                        source.name()
                    ));
                }
                sessions.push(SessionUsage {
                    path: source.name(),
                    usage,
                });
            }
            Err(message) => {
                warn(&message);
                unreadable = true;
            }
        }
    }
    (sessions, unreadable)
}

/// One source's usage by day: a file (read with a buffer sized by it), or standard input, the
/// only other source [`expand_sources`] gives for `usage`.
fn read_one(source: &Source, zone: Tz) -> Result<FileUsage, String> {
    let usage = match source.path() {
        Some(path) => RolloutStream::open(path).and_then(|stream| file_usage_by_day(stream, zone)),
        None => RolloutStream::new(std::io::stdin().lock())
            .and_then(|stream| file_usage_by_day(stream, zone)),
    };
    usage.map_err(|err| format!("cannot read {}: {err}", source.name()))
}

/// A file's usage with every response apart, read again for
/// [`count_each_response_once`]; standard input cannot be read twice.
fn read_apart(source: &Source) -> Option<FileUsage> {
    RolloutStream::open(source.path()?)
        .and_then(file_usage)
        .ok()
}
