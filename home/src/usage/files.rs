//! The usage job's reading: many files' usage at once, several files at a time on rayon's pool,
//! each file's responses merged per model and local day (what the reports need; memory flat in
//! the files' sizes).

use std::path::PathBuf;

use chrono_tz::Tz;
use codex_rollout::RolloutStream;
use rayon::prelude::*;

use super::{FileUsage, SessionUsage, file_usage, file_usage_by_day};

/// A file whose usage is read: its name in reports and messages, and its path (`None` for
/// standard input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageFile {
    /// What reports and messages call it.
    pub name: String,
    /// Where it is read from; standard input when `None`.
    pub path: Option<PathBuf>,
}

impl UsageFile {
    /// The file's usage with every response apart, read again (what
    /// [`super::count_each_response_once`] asks of a thread's files); `None` for standard
    /// input, which cannot be read twice, and for a file that cannot be read now.
    pub fn read_apart(&self) -> Option<FileUsage> {
        RolloutStream::open(self.path.as_ref()?)
            .and_then(file_usage)
            .ok()
    }
}

/// Reads every file's usage in `zone` ([`file_usage_by_day`]), several at a time, in the
/// order given; `read` hears each file's index once it is read (for progress). A file that
/// cannot be read is `Err` with a message naming it.
pub fn read_usage_files(
    files: &[UsageFile],
    zone: Tz,
    read: &(dyn Fn(usize) + Sync),
) -> Vec<Result<SessionUsage, String>> {
    files
        .par_iter()
        .enumerate()
        .map(|(index, file)| {
            let usage = match &file.path {
                Some(path) => RolloutStream::open(path).and_then(|s| file_usage_by_day(s, zone)),
                None => RolloutStream::new(std::io::stdin().lock())
                    .and_then(|stream| file_usage_by_day(stream, zone)),
            };
            read(index);
            usage
                .map(|usage| SessionUsage {
                    path: file.name.clone(),
                    usage,
                })
                .map_err(|err| format!("cannot read {}: {err}", file.name))
        })
        .collect()
}
