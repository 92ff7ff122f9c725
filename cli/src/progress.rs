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

/// A progress indicator that may be invisible (then it costs nothing). What it drew is
/// cleared when it and its readers ([`Progress::wrap_read`]) are dropped: indicatif clears a
/// bar when its last handle goes.
#[derive(Debug, Clone)]
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
        let counts = "{bytes:>9}/{total_bytes:9}";
        Self::on_terminal(total >= LARGE_INPUT_BYTES, Some(total), counts, label)
    }

    /// A bar counting `total` files, for a run that reads only a little of each (`list`
    /// reads heads), shown only for at least [`MANY_FILES`] files on a terminal.
    pub(crate) fn for_files(total: u64, label: &str) -> Self {
        Self::on_terminal(total >= MANY_FILES, Some(total), "{pos:>7}/{len:7}", label)
    }

    /// A spinner for a step without a known length (parsing, reconstruction) of a large
    /// input, shown only on a terminal.
    pub(crate) fn spinner(input_bytes: u64, label: &str) -> Self {
        let progress = Self::on_terminal(input_bytes >= LARGE_INPUT_BYTES, None, "", label);
        if let Some(bar) = &progress.bar {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        progress
    }

    /// A bar of `len` units (a spinner without), labelled, whose counts are `counts`: drawn
    /// only when `large` and standard error is a terminal.
    fn on_terminal(large: bool, len: Option<u64>, counts: &str, label: &str) -> Self {
        if !large || !std::io::stderr().is_terminal() {
            return Self::hidden();
        }
        let template = match len {
            Some(_) => format!("{{msg:20!}} [{{bar:30}}] {counts} {{eta:>4}}"),
            None => "{spinner} {msg} ({elapsed})".to_string(),
        };
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar =
            ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr()).with_style(style);
        bar.set_message(label.to_string());
        Self { bar: Some(bar) }
    }

    /// Advances the bar by `delta` units.
    pub(crate) fn inc(&self, delta: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(delta);
        }
    }

    /// `inner`, advancing this progress by the bytes read. Unlike indicatif's `wrap_read`,
    /// which sets the bar's position, it adds to it, so that readers on several threads can
    /// share one bar (`inspect`, `validate`).
    pub(crate) fn wrap_read<R: Read>(&self, inner: R) -> Counted<R> {
        Counted {
            inner,
            progress: self.clone(),
        }
    }
}

/// A reader wrapped by [`Progress::wrap_read`].
#[derive(Debug)]
pub(crate) struct Counted<R> {
    inner: R,
    progress: Progress,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.progress.inc(read as u64);
        Ok(read)
    }
}
