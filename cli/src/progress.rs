//! Progress on standard error for large inputs, and only when a person is watching.
//!
//! A bar is drawn only when standard error is a terminal and the input is large enough to
//! take noticeable time ([`LARGE_INPUT_BYTES`]); in pipes, CI logs and tests nothing is drawn,
//! so standard error stays clean for diagnostics. Standard output is never touched.

use std::io::{IsTerminal, Read};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Inputs at least this large get a progress bar (when standard error is a terminal).
pub(crate) const LARGE_INPUT_BYTES: u64 = 4 * 1024 * 1024;

/// Runs over at least this many files get a file-count bar (when standard error is a
/// terminal).
pub(crate) const MANY_FILES: u64 = 200;

/// A progress indicator that may be invisible. Dropping it clears what it drew.
#[derive(Debug)]
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// An indicator that draws nothing.
    pub(crate) fn hidden() -> Self {
        Self { bar: None }
    }

    /// A byte-count bar for reading `total` bytes, shown only for a large input on a
    /// terminal.
    pub(crate) fn for_bytes(total: u64, label: &str) -> Self {
        if total < LARGE_INPUT_BYTES || !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{msg:20!} [{bar:30}] {bytes:>9}/{total_bytes:9} {eta:>4}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(label.to_string());
        Self { bar: Some(bar) }
    }

    /// A bar counting `total` files, for a run that reads only a little of each (`list`
    /// reads heads), shown only for at least [`MANY_FILES`] files on a terminal.
    pub(crate) fn for_files(total: u64, label: &str) -> Self {
        if total < MANY_FILES || !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{msg:20!} [{bar:30}] {pos:>7}/{len:7} {eta:>4}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(label.to_string());
        Self { bar: Some(bar) }
    }

    /// A spinner for a step without a known length (parsing, reconstruction) of a large
    /// input, shown only on a terminal.
    pub(crate) fn spinner(input_bytes: u64, label: &str) -> Self {
        if input_bytes < LARGE_INPUT_BYTES || !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(label.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Self { bar: Some(bar) }
    }

    /// Advances the bar by `delta` units.
    pub(crate) fn inc(&self, delta: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(delta);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A reader that advances a [`Progress`] by the bytes read: one it shares with others, or
/// its own (cleared when the reader is dropped).
#[derive(Debug)]
pub(crate) enum ProgressReader<'a> {
    Shared(&'a Progress),
    Own(Progress),
}

impl<'a> ProgressReader<'a> {
    /// Advances `progress`.
    pub(crate) fn shared(progress: &'a Progress) -> Self {
        Self::Shared(progress)
    }

    /// Advances `progress`, which it owns.
    pub(crate) fn own(progress: Progress) -> Self {
        Self::Own(progress)
    }

    /// `inner`, advancing the progress as it is read.
    pub(crate) fn wrap<R: Read>(self, inner: R) -> Counted<'a, R> {
        Counted {
            inner,
            progress: self,
        }
    }

    fn progress(&self) -> &Progress {
        match self {
            Self::Shared(progress) => progress,
            Self::Own(progress) => progress,
        }
    }
}

/// A reader wrapped by [`ProgressReader::wrap`].
#[derive(Debug)]
pub(crate) struct Counted<'a, R> {
    inner: R,
    progress: ProgressReader<'a>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.progress.progress().inc(read as u64);
        Ok(read)
    }
}
