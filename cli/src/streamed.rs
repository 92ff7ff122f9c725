//! A [`Source`] as codex-home reads a session ([`SessionInput`]): named as the source is,
//! opened afresh for each pass with progress shown under the pass's label, and the unreadable
//! lines a reading skipped announced on standard error. Every command reads a session through
//! codex-home's one forward reader with this input ([`SourceInput`]).

use std::io::Read;
use std::path::Path;

use codex_home::{SessionInput, SkippedLines};

use crate::error::Failure;
use crate::error::describe;
use crate::input::{Source, note_sample, open_file};
use crate::output::warn;
use crate::progress::Progress;
use crate::sample::SAMPLE_JSONL;

/// The size of `source` on disk when it is a file that can be looked at (for progress).
pub(crate) fn source_size(source: &Source) -> u64 {
    match source {
        Source::File(_) | Source::Spooled(_) => source
            .path()
            .and_then(|path| std::fs::metadata(path).ok())
            .map_or(0, |metadata| metadata.len()),
        Source::Stdin | Source::Sample => 0,
    }
}

/// A source read by codex-home: its first pass advances `progress`, a later pass a bar of
/// its own under the pass's label.
pub(crate) struct SourceInput<'a> {
    source: &'a Source,
    progress: &'a Progress,
}

impl<'a> SourceInput<'a> {
    /// `source`, whose first pass advances `progress`.
    pub(crate) fn new(source: &'a Source, progress: &'a Progress) -> Self {
        Self { source, progress }
    }
}

impl SessionInput for SourceInput<'_> {
    fn name(&self) -> String {
        self.source.name()
    }

    fn open(&self, again: Option<&str>) -> std::io::Result<Box<dyn Read + '_>> {
        let own = again.map(|label| Progress::for_bytes(source_size(self.source), label));
        let progress = own.as_ref().unwrap_or(self.progress);
        Ok(match self.source {
            Source::Sample => {
                note_sample();
                Box::new(SAMPLE_JSONL.as_bytes())
            }
            Source::Stdin => Box::new(std::io::stdin()),
            Source::File(path) => Box::new(progress.wrap_read(open_file(path)?)),
            Source::Spooled(spooled) => Box::new(progress.wrap_read(open_file(spooled.path())?)),
        })
    }

    fn file(&self) -> Option<&Path> {
        match self.source {
            Source::File(path) => Some(path),
            _ => None,
        }
    }

    fn skipped(&self, lines: &SkippedLines) {
        warn(&format!("{}: {lines}", self.source.name()));
    }
}

/// The failure of a read that broke off.
pub(crate) fn unreadable(name: &str, err: &std::io::Error) -> Failure {
    Failure::Unreadable(format!("cannot read {name}: {}", describe(err)))
}
