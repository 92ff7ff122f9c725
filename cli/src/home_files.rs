//! What the home-wide commands that rewrite or measure session files (`compress`, `du`)
//! share: which files they work on ([`FilesArgs`], [`files_of`]), how to encode
//! ([`EncoderArgs`]) and the options codex-home's compression takes from both.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use clap::Args;
use codex_home::CompressOptions;
use codex_rollout::{DEFAULT_LEVEL, EncoderSettings, MAX_WINDOW_LOG};

use crate::error::Failure;
use crate::input::Source;
use crate::input::resolve_home;
use crate::inputs::{WhenEmpty, expand_sources};

/// The files a home-wide command works on.
#[derive(Debug, Clone, Args)]
pub(crate) struct FilesArgs {
    /// Rollout files, folders, thread ids or unique id prefixes (default: the Codex home's
    /// sessions).
    pub paths: Vec<PathBuf>,
    /// Codex home whose `sessions/` and `archived_sessions/` to add (default with no PATH:
    /// `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Leave files modified more recently than this (`7d`, `12h`, `30m`, `0`).
    #[arg(long, value_name = "AGE", default_value = "7d", value_parser = codex_home::parse_age)]
    pub older_than: Duration,
}

/// How to encode.
#[derive(Debug, Clone, Args)]
pub(crate) struct EncoderArgs {
    /// zstd level (upstream writes 3).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LEVEL,
          value_parser = clap::value_parser!(i32).range(1..=19))]
    pub level: i32,
    /// zstd long-distance matching with a window of 2^LOG bytes (at most 27, what
    /// upstream's decoder reads by default).
    #[arg(long, value_name = "LOG", num_args = 0..=1, default_missing_value = "27",
          require_equals = true,
          value_parser = clap::value_parser!(u32).range(10..=i64::from(MAX_WINDOW_LOG)))]
    pub long: Option<u32>,
}

/// The files `args` name, as paths (standard input is refused: these commands work on files).
pub(crate) fn files_of(args: &FilesArgs, command: &str) -> Result<Vec<PathBuf>, Failure> {
    let sources = expand_sources(&args.paths, args.home.as_deref(), WhenEmpty::DefaultHome)?;
    sources
        .into_iter()
        .map(|source| match source {
            Source::File(path) => Ok(path),
            Source::Stdin | Source::Sample | Source::Spooled(_) => Err(Failure::Usage(format!(
                "{command} works on files and folders, not on standard input"
            ))),
        })
        .collect()
}

/// The options the library takes from the arguments.
pub(crate) fn options_of(
    files: &FilesArgs,
    encoder: &EncoderArgs,
    dry_run: bool,
) -> CompressOptions {
    CompressOptions {
        encoder: EncoderSettings {
            level: encoder.level,
            long_window_log: encoder.long,
        },
        older_than: files.older_than,
        now: SystemTime::now(),
        dry_run,
        lock_home: resolve_home(files.home.as_deref()).ok(),
    }
}

/// The bytes a run will read, for the progress bar.
pub(crate) fn total_bytes(paths: &[PathBuf]) -> u64 {
    paths
        .iter()
        .filter_map(|path| std::fs::metadata(path).ok())
        .map(|metadata| metadata.len())
        .sum()
}
