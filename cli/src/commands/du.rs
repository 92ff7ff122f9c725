//! `codex-thread du [PATH...] [--home DIR] [--older-than AGE] [--level N] [--long[=LOG]]
//! [--no-estimate]`: where the bytes of a Codex home (or of files) go.
//!
//! codex-rollout's `du` measures (kinds, images, copied prefixes, duplicates, the
//! compression estimate with `compress`'s own rule); this module draws one progress bar and
//! lays the report out in 80 columns, or prints it as JSON Lines (`--json`: one record per
//! file, `"type":"file"`, then one `"type":"summary"`).

use clap::Args;
use codex_home::{ByteKind, DuOptions, DuReport, ImagePlace, measure_files};
use serde::Serialize;

use crate::damaged::DamagedFiles;
use crate::error::{CommandResult, Failure, Status};
use crate::home_files::{EncoderArgs, FilesArgs, files_of, options_of, total_bytes};
use crate::output::fit_path;
use crate::output::size::{human_bytes, percent};
use crate::output::{Output, note};
use crate::progress::Progress;

/// Days listed one by one; older ones are summed on one line.
const DAYS_SHOWN: usize = 14;

/// `du`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct DuArgs {
    #[command(flatten)]
    pub files: FilesArgs,
    #[command(flatten)]
    pub encoder: EncoderArgs,
    /// Do not estimate what `compress` would save (skips a zstd pass over the files it
    /// would take).
    #[arg(long)]
    pub no_estimate: bool,
    /// Instead: the home's bytes per working directory and per month, and how much of each
    /// `prune` with POLICY would act on (e.g. `archive,older-than=30d,keep-last=5`; see
    /// docs/storage.md).
    #[arg(long, value_name = "POLICY", value_parser = codex_home::parse_policy)]
    pub plan: Option<codex_home::Policy>,
}

/// What `du --json` prints last: the report, then what it says besides.
#[derive(Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    report: &'a DuReport,
    estimated_saving: Option<u64>,
    damaged: serde_json::Value,
}

/// Runs `du`.
pub(crate) fn run(args: &DuArgs, out: &mut Output) -> CommandResult {
    if let Some(policy) = &args.plan {
        return crate::output::plan::print_storage(args.files.home.as_deref(), policy, out);
    }
    let paths = files_of(&args.files, "du")?;
    let options = DuOptions {
        estimate_compression: !args.no_estimate,
        compress: options_of(&args.files, &args.encoder, true),
    };
    let progress = Progress::for_bytes(total_bytes(&paths), "du");
    let (files, report) = measure_files(&paths, &options, &|bytes| progress.inc(bytes));
    drop(progress);
    let mut damaged = DamagedFiles::default();
    for file in &files {
        if let Some(error) = &file.error {
            note(&format!("cannot read {}: {error}", file.path.display()));
        }
        if let Some(damage) = &file.damage {
            damaged.note(&file.path.display().to_string(), damage);
        }
    }
    if out.is_json() {
        for usage in &files {
            out.json_record("file", usage)?;
        }
        let summary = Summary {
            report: &report,
            estimated_saving: report.estimated_saving(),
            damaged: damaged.to_json(),
        };
        out.json_record("summary", &summary)?;
    } else {
        human(&report, args, out)?;
    }
    Ok(damaged.status(if report.unreadable_files > 0 {
        Status::Unreadable
    } else {
        Status::Ok
    }))
}

fn human(report: &DuReport, args: &DuArgs, out: &mut Output) -> Result<(), Failure> {
    let mut head = format!(
        "{} file(s), {} on disk, {} of JSON Lines",
        report.files,
        human_bytes(report.disk_bytes),
        human_bytes(report.decoded_bytes)
    );
    if report.unreadable_files > 0 {
        head.push_str(&format!(" ({} unreadable)", report.unreadable_files));
    }
    out.line(&head)?;
    out.line("")?;
    // A row of the table: what, how many bytes, and their share of the JSON Lines.
    let row = |what: &str, bytes: u64| {
        let share = percent(bytes, report.decoded_bytes);
        format!("{what:<40}{:>12}{share:>8}", human_bytes(bytes))
    };
    out.line(&format!(
        "{:<40}{:>12}{:>8}",
        "Where the bytes go", "bytes", "share"
    ))?;
    for kind in ByteKind::ALL {
        out.line(&row(
            &format!("  {}", kind_label(kind)),
            report.bytes.get(kind),
        ))?;
    }
    out.line("")?;
    let images = &report.images;
    out.line(&format!(
        "Inline images: {} ({} distinct)",
        images.count, report.distinct_images
    ))?;
    for place in ImagePlace::ALL {
        let bytes = images.bytes.get(place);
        if bytes > 0 {
            out.line(&format!(
                "  in {:<35}{:>12}",
                place_label(place),
                human_bytes(bytes)
            ))?;
        }
    }
    let again = format!("  stored again ({} copies)", images.duplicate_count);
    out.line(&row(&again, images.duplicate_bytes))?;
    let copied = "Copied from a parent (replayed prefix)";
    out.line(&row(copied, report.copied_prefix_bytes))?;
    let identical = "Lines identical to an earlier file's";
    out.line(&row(identical, report.identical_line_bytes))?;
    out.line("")?;
    out.line("Largest files")?;
    for file in &report.largest {
        out.line(&format!(
            "  {:>10}  {}",
            human_bytes(file.disk_bytes),
            fit_path(&file.path, 80 - 14, out)
        ))?;
    }
    out.line("")?;
    out.line(&format!("{:<16}{:>8}{:>14}", "Per day", "files", "on disk"))?;
    let older = report.days.len().saturating_sub(DAYS_SHOWN);
    if older > 0 {
        let (files, bytes) = report.days[..older]
            .iter()
            .fold((0, 0), |(f, b), day| (f + day.files, b + day.disk_bytes));
        out.line(&format!(
            "  {:<14}{files:>8}{:>14}",
            format!("{older} earlier"),
            human_bytes(bytes)
        ))?;
    }
    for day in &report.days[older..] {
        out.line(&format!(
            "  {:<14}{:>8}{:>14}",
            day.day,
            day.files,
            human_bytes(day.disk_bytes)
        ))?;
    }
    out.line("")?;
    let mut rule = format!("zstd -{}", args.encoder.level);
    if let Some(log) = args.encoder.long {
        rule.push_str(&format!(" --long={log}"));
    }
    let line = format!(
        "compress ({rule}, older than {}): {} file(s), {}",
        codex_home::format_age(args.files.older_than),
        report.compressible_files,
        human_bytes(report.compressible_bytes)
    );
    out.line(&line)?;
    if let (Some(compressed), Some(saving)) =
        (report.estimated_compressed_bytes, report.estimated_saving())
    {
        out.line(&format!(
            "  would be {}, saves {} ({})",
            human_bytes(compressed),
            human_bytes(saving),
            percent(saving, report.compressible_bytes)
        ))?;
    }
    for (reason, count) in &report.not_compressible {
        out.line(&format!(
            "  left alone: {count} {}",
            reason.replace('_', " ")
        ))?;
    }
    Ok(())
}

fn kind_label(kind: ByteKind) -> &'static str {
    match kind {
        ByteKind::Images => "inline images",
        ByteKind::Encrypted => "encrypted content (reasoning)",
        ByteKind::ToolOutputs => "tool outputs",
        ByteKind::Compacted => "compacted (replacement histories)",
        ByteKind::MetaAndInstructions => "session metas, turn contexts",
        ByteKind::Conversation => "messages, reasoning, tool calls",
        ByteKind::Events => "events",
        ByteKind::Other => "other lines",
    }
}

fn place_label(place: ImagePlace) -> &'static str {
    match place {
        ImagePlace::Message => "messages",
        ImagePlace::ToolOutput => "tool outputs",
        ImagePlace::Compacted => "compacted records",
        ImagePlace::Event => "events",
        ImagePlace::Other => "other lines",
    }
}
