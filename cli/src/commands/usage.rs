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
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use chrono_tz::Tz;
use codex_home::{UsageFile, count_each_response_once, read_usage_files};

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
    let files: Vec<UsageFile> = sources
        .iter()
        .map(|source| UsageFile {
            name: source.name(),
            path: source.path().map(Path::to_path_buf),
        })
        .collect();
    let (mut sessions, unreadable) = read_all(&sources, &files, zone);
    let mut damaged = DamagedFiles::default();
    for session in &sessions {
        if let Some(damage) = &session.usage.damage {
            damaged.note(&session.path, damage);
        }
    }
    let by_name: HashMap<&str, &UsageFile> = files
        .iter()
        .map(|file| (file.name.as_str(), file))
        .collect();
    count_each_response_once(&mut sessions, zone, |session| {
        by_name.get(session.path.as_str())?.read_apart()
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

/// Reads every file's usage (codex-home's `read_usage_files`) with one progress bar over
/// the sources' bytes, telling what cannot be read or placed in time; the second value says
/// whether a file could not be read.
fn read_all(sources: &[Source], files: &[UsageFile], zone: Tz) -> (Vec<SessionUsage>, bool) {
    let sizes: Vec<u64> = sources.iter().map(source_size).collect();
    let progress = Progress::for_bytes(sizes.iter().sum(), "reading sessions");
    let results = read_usage_files(files, zone, &|index| progress.inc(sizes[index]));
    drop(progress);
    let mut sessions = Vec::with_capacity(files.len());
    let mut unreadable = false;
    for result in results {
        match result {
            Ok(session) => {
                for line in &session.usage.undated_lines {
                    warn(&format!(
                        "{}:{line}: usage line without a readable timestamp, not counted",
                        session.path
                    ));
                }
                sessions.push(session);
            }
            Err(message) => {
                warn(&message);
                unreadable = true;
            }
        }
    }
    (sessions, unreadable)
}
