//! `codex-thread list [FILE|DIR]... [--home DIR] [--limit N] [--cursor C] [--archived]`:
//! sessions with the first thing the person said.
//!
//! Without FILE/DIR arguments: the sessions of a Codex home (`sessions/`, or
//! `archived_sessions/` with `--archived`), newest first, one page at a time. codex-rollout's
//! listing does the work: the order comes from the dated file names, only the head of each
//! file is read, sessions without a user message are not listed. The next page starts after
//! the cursor printed at the end of this one.
//!
//! With FILE/DIR arguments (and `--home DIR` for a whole home besides): every named session,
//! in the order given ([`crate::inputs`]), each summarized by the function the home listing
//! uses ([`summarize_rollout_file`]), in parallel on rayon's pool, with one progress bar
//! over the files on a terminal. `--json` prints one listed session per line; a path that
//! cannot be read is reported in its place (`{"path", "error"}`) and sets the exit status as
//! `inspect` does.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use codex_home::{Cursor, ListedSession, SessionsPage, list_sessions_of, summarize_rollout_file};
use codex_rollout::CodexHome;
use rayon::prelude::*;
use serde::Serialize;

use crate::damaged::DamagedFiles;
use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::output::{Output, note, one_line};
use crate::progress::Progress;

/// What chooses the sessions `list` shows: its command line.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct ListArgs {
    /// Rollout files, folders of them, or thread ids (default: page through
    /// the Codex home).
    pub files: Vec<PathBuf>,
    /// Codex home (default: `$CODEX_HOME`, else `~/.codex`); with FILE/DIR
    /// arguments, also every session of it.
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Sessions per page (default 20; paging a home only).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Continue after this cursor (printed at the end of the previous page).
    #[arg(long, value_name = "CURSOR")]
    pub cursor: Option<String>,
    /// List the archived sessions (`archived_sessions/`) instead of the live ones.
    #[arg(long)]
    pub archived: bool,
    /// Only sessions started by these kinds of source (repeat or comma-separate): cli,
    /// vscode, exec, appServer, subAgent, subAgentReview, subAgentCompact,
    /// subAgentThreadSpawn, subAgentOther, unknown (Codex's spellings).
    #[arg(long = "source", value_name = "KIND", value_delimiter = ',')]
    pub sources: Vec<String>,
    /// Instead: the threads `prune` with POLICY would act on, and why any is held
    /// (e.g. `delete,older-than=90d,live`; see docs/storage.md).
    #[arg(long, value_name = "POLICY", value_parser = codex_home::parse_policy)]
    pub plan: Option<codex_home::Policy>,
}

/// Sessions per page when `--limit` is not given.
pub(crate) const DEFAULT_LIMIT: usize = 20;

/// What `list --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Listing {
    pub home: String,
    pub sessions: Vec<ListedSession>,
    /// Pass to `--cursor` for the next page; `null` on the last page.
    pub next_cursor: Option<String>,
    /// The damaged files of the page (path, line, kind, message, lines).
    pub damaged: serde_json::Value,
}

/// Runs `list`: a page of a home without FILE/DIR arguments, every named session with them.
pub(crate) fn run(args: ListArgs, out: &mut Output) -> CommandResult {
    if let Some(policy) = &args.plan {
        let home = crate::input::resolve_home(args.home.as_deref())?;
        let plan = codex_home::plan_prune(&home, policy, std::time::SystemTime::now())
            .map_err(|err| Failure::Unreadable(err.to_string()))?;
        return crate::output::plan::print_plan(&plan, None, out);
    }
    if args.limit == Some(0) {
        return Err(Failure::Usage(
            "--limit must be at least 1 (sessions per page)".to_string(),
        ));
    }
    let filter = codex_home::SourceFilter::of_kinds(&args.sources).map_err(Failure::Usage)?;
    if args.files.is_empty() {
        return run_page(
            args.home,
            args.limit.unwrap_or(DEFAULT_LIMIT),
            args.cursor.as_deref(),
            (args.archived, &filter),
            out,
        );
    }
    let paging = [
        (args.limit.is_some(), "--limit"),
        (args.cursor.is_some(), "--cursor"),
        (args.archived, "--archived"),
    ];
    if let Some((_, flag)) = paging.iter().find(|(given, _)| *given) {
        return Err(Failure::Usage(format!(
            "{flag} pages through a home; with FILE/DIR arguments every named session is listed"
        )));
    }
    let sources = crate::inputs::expand_sources_reporting_each(&args.files, args.home.as_deref())?;
    if sources
        .iter()
        .any(|source| !matches!(source, Source::File(_)))
    {
        return Err(Failure::Usage(
            "list reads the head of session files; standard input cannot be listed".to_string(),
        ));
    }
    run_files(&sources, args.home.as_deref(), &filter, out)
}

/// Lists the named `sources` that `filter` keeps, in order, each as the home listing would
/// show it (thread names from `home`, else the home each file lies in).
fn run_files(
    sources: &[Source],
    home: Option<&Path>,
    filter: &codex_home::SourceFilter,
    out: &mut Output,
) -> CommandResult {
    let progress = Progress::for_files(sources.len() as u64, "listing");
    let results: Vec<Result<Option<ListedSession>, Failure>> = sources
        .par_iter()
        .map(|source| {
            let result = summarize_source(source, home, filter);
            progress.inc(1);
            result
        })
        .collect();
    drop(progress);
    let mut status = Status::Ok;
    let mut damaged = DamagedFiles::default();
    for (source, result) in sources.iter().zip(results) {
        let name = source.name();
        if let Ok(Some(session)) = &result
            && let Some(damage) = &session.damage
        {
            damaged.note(&name, damage);
        }
        match result {
            Ok(Some(session)) if out.is_json() => out.json_line(&session)?,
            Ok(Some(session)) => render_session(&session, out)?,
            Ok(None) => note(&format!(
                "{name}: not listed (no session meta or no user message near its top)"
            )),
            Err(failure) => {
                status = crate::output::report_failure(out, status, "path", &name, &failure)?;
            }
        }
    }
    Ok(damaged.status(status))
}

/// The listed form of one named file, `None` when it is not listable or `filter` leaves it
/// out.
fn summarize_source(
    source: &Source,
    home: Option<&Path>,
    filter: &codex_home::SourceFilter,
) -> Result<Option<ListedSession>, Failure> {
    let Source::File(path) = source else {
        return Ok(None);
    };
    if !path.is_file() {
        return Err(Failure::Unreadable(format!(
            "cannot read {}: {}",
            path.display(),
            if path.exists() {
                "not a file, and no rollout file under it"
            } else {
                "no such file or folder"
            }
        )));
    }
    let summary = summarize_rollout_file(path)
        .map_err(|err| Failure::Unreadable(format!("cannot read {}: {err}", path.display())))?;
    let Some(summary) = summary.filter(|summary| filter.keeps(summary)) else {
        return Ok(None);
    };
    let names = match codex_home::home_of(path, home) {
        Ok(home) => thread_names(&home),
        Err(_) => HashMap::new(),
    };
    Ok(Some(ListedSession::of(summary, &names)))
}

/// The home's thread names, by thread id (none when its index cannot be read: a listing
/// still lists).
fn thread_names(home: &CodexHome) -> HashMap<String, String> {
    home.thread_names().unwrap_or_else(|error| {
        note(&format!(
            "{}: {error}; threads listed without names",
            home.root.join(codex_rollout::SESSION_INDEX_FILE).display()
        ));
        HashMap::new()
    })
}

/// Runs `list` over one page of a home.
fn run_page(
    home: Option<PathBuf>,
    limit: usize,
    cursor: Option<&str>,
    (archived, filter): (bool, &codex_home::SourceFilter),
    out: &mut Output,
) -> CommandResult {
    let home_arg = home.clone();
    let home = crate::input::resolve_home(home.as_deref())?;
    if !home.root.is_dir() {
        return Err(Failure::Unreadable(format!(
            "Codex home {} is not a directory",
            home.root.display()
        )));
    }
    let cursor = cursor
        .map(|text| {
            text.parse::<Cursor>().map_err(|_| {
                Failure::Usage(format!(
                    "invalid --cursor `{text}`: expected `<time>|<thread id>` as printed by list"
                ))
            })
        })
        .transpose()?;
    let page =
        list_sessions_of(&home, archived, limit, cursor.as_ref(), filter).map_err(|err| {
            Failure::Unreadable(format!("cannot list {}: {err}", home.root.display()))
        })?;
    let mut damaged = DamagedFiles::default();
    for session in &page.items {
        if let Some(damage) = &session.damage {
            damaged.note(&session.path.display().to_string(), damage);
        }
    }
    let mut listing = listing(&home, page);
    listing.damaged = damaged.to_json();
    if out.is_json() {
        out.json_line(&listing)?;
        return Ok(damaged.status(Status::Ok));
    }
    if listing.sessions.is_empty() {
        let folder = if archived {
            home.archived_sessions_dir()
        } else {
            home.sessions_dir()
        };
        note(&format!("no sessions under {}", folder.display()));
    }
    for session in &listing.sessions {
        render_session(session, out)?;
    }
    if let Some(cursor) = &listing.next_cursor {
        // The hint repeats what chose this page, so pasting it continues the same listing.
        let mut again = String::from("codex-thread list");
        if let Some(home) = &home_arg {
            again.push_str(&format!(" --home '{}'", home.display()));
        }
        if archived {
            again.push_str(" --archived");
        }
        again.push_str(&format!(" --limit {limit} --cursor '{cursor}'"));
        out.line(&format!("more: {again}"))?;
    }
    Ok(damaged.status(Status::Ok))
}

/// Two lines per session: when, which thread, which version, its source when not a person's
/// own client and its name; then the preview.
fn render_session(session: &ListedSession, out: &mut Output) -> Result<(), Failure> {
    // The minute in the local zone is enough for a person; `--json` has the whole time, UTC.
    let created = crate::output::local_minute(&session.created_at);
    let mut first = format!(
        "{}  {}  {}",
        created, session.thread_id, session.cli_version
    );
    first.push_str(&crate::output::source_tag(
        session.source,
        session.parent_thread_id.as_deref(),
    ));
    if let Some(name) = &session.name {
        first.push_str(&format!("  \"{}\"", one_line(name, 40)));
    }
    out.line(&first)?;
    out.line(&format!("    {}", one_line(&session.preview, 74)))
}

fn listing(home: &CodexHome, page: SessionsPage) -> Listing {
    let names = thread_names(home);
    let sessions = page
        .items
        .into_iter()
        .map(|summary| ListedSession::of(summary, &names))
        .collect();
    Listing {
        home: home.root.display().to_string(),
        sessions,
        next_cursor: page.next_cursor.map(|cursor| cursor.to_string()),
        damaged: serde_json::Value::Array(Vec::new()),
    }
}
