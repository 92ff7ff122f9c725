//! `codex-thread compress [PATH...] [--home DIR] [--older-than AGE] [--dry-run] [--level N]
//! [--long[=LOG]]`: old rollouts rewritten as Codex-readable `.jsonl.zst`, in place.
//!
//! codex-rollout's `compress` decides and does everything (which files, the verified
//! replacement, the writer locks); this module turns the arguments into its options, draws
//! one progress bar for the run and prints the results (`--json`: one JSON line per file,
//! then a summary line).

use clap::Args;
use codex_home::{CompressRun, CompressSummary, FileResult, compress_files};
use codex_rollout::CompressOutcome;

use crate::error::{CommandResult, Failure, Status};
use crate::home_files::{EncoderArgs, FilesArgs, files_of, options_of, total_bytes};
use crate::output::size::{human_bytes, percent};
use crate::output::{Output, fit_path, note};
use crate::progress::Progress;

/// `compress`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct CompressArgs {
    #[command(flatten)]
    pub files: FilesArgs,
    #[command(flatten)]
    pub encoder: EncoderArgs,
    /// Say what would be compressed; change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Runs `compress`.
pub(crate) fn run(args: &CompressArgs, out: &mut Output) -> CommandResult {
    let paths = files_of(&args.files, "compress")?;
    let options = options_of(&args.files, &args.encoder, args.dry_run);
    let progress = Progress::for_bytes(total_bytes(&paths), "compress");
    let run = compress_files(&paths, &options, &|bytes| progress.inc(bytes));
    drop(progress);
    let summary = CompressSummary::of(&run, args.dry_run);
    for result in &run.files {
        if out.is_json() {
            out.json_record("file", result)?;
        } else {
            human_line(result, out)?;
        }
    }
    if out.is_json() {
        out.json_record("summary", &summary)?;
    } else {
        human_summary(&summary, &run, out)?;
    }
    Ok(if summary.failed > 0 {
        Status::ContentProblems
    } else {
        Status::Ok
    })
}

fn human_line(result: &FileResult, out: &mut Output) -> Result<(), Failure> {
    // 10 + 4 + 10 + 7 + 2 columns of sizes before the path.
    let path = fit_path(&result.path, 80 - 33, out);
    if let Some((plain_bytes, compressed_bytes)) = result.outcome.sizes() {
        return out.line(&format!(
            "{:>10} -> {:>10} {:>6}  {path}",
            human_bytes(plain_bytes),
            human_bytes(compressed_bytes),
            percent(compressed_bytes, plain_bytes),
        ));
    }
    match &result.outcome {
        CompressOutcome::Compressed { .. } | CompressOutcome::Finished { .. } => Ok(()),
        CompressOutcome::WouldCompress { plain_bytes, .. } => out.line(&format!(
            "would compress {:>10}  {}",
            human_bytes(*plain_bytes),
            fit_path(&result.path, 80 - 27, out)
        )),
        CompressOutcome::Skipped { .. } => Ok(()),
        CompressOutcome::Failed { error } => {
            note(&format!("not compressed: {error}"));
            Ok(())
        }
    }
}

fn human_summary(
    summary: &CompressSummary,
    run: &CompressRun,
    out: &mut Output,
) -> Result<(), Failure> {
    let verb = if summary.dry_run {
        "would compress"
    } else {
        "compressed"
    };
    let mut line = format!(
        "{verb} {} of {} file(s), {}",
        summary.compressed,
        summary.files,
        human_bytes(summary.plain_bytes)
    );
    if !summary.dry_run && summary.compressed > 0 {
        line.push_str(&format!(
            " -> {} (saved {})",
            human_bytes(summary.compressed_bytes),
            human_bytes(summary.plain_bytes.saturating_sub(summary.compressed_bytes))
        ));
    }
    out.line(&line)?;
    for (reason, count) in run.skip_reasons() {
        out.line(&format!("  left alone: {count} {reason}"))?;
    }
    if summary.failed > 0 {
        out.line(&format!("  failed: {} (see above)", summary.failed))?;
    }
    if summary.stale_temporary_files > 0 {
        let verb = if summary.dry_run { "found" } else { "removed" };
        out.line(&format!(
            "  {verb} {} temporary file(s) of an interrupted run",
            summary.stale_temporary_files
        ))?;
    }
    Ok(())
}
