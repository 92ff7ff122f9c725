//! The terminal's modes while the UI runs: raw mode, the alternate screen and mouse capture,
//! set by [`TerminalGuard::enter`] and undone when the guard drops, however the UI ends.

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use crate::error::Failure;

/// A terminal error, as a command failure.
pub(crate) fn io_failure(error: std::io::Error) -> Failure {
    Failure::Unreadable(format!("terminal: {error}"))
}

/// Raw mode, the alternate screen and mouse capture, undone on drop.
#[derive(Debug)]
pub(crate) struct TerminalGuard;

impl TerminalGuard {
    /// Sets the modes.
    pub(crate) fn enter() -> Result<Self, Failure> {
        enable_raw_mode().map_err(io_failure)?;
        execute!(std::io::stdout(), EnterAlternateScreen, EnableMouseCapture)
            .map_err(io_failure)?;
        Ok(Self)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), DisableMouseCapture, LeaveAlternateScreen);
        let _ = disable_raw_mode();
    }
}
