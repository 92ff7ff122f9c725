//! The integration tests of `codex-home`, one binary (as ripgrep's `tests/tests.rs`): homes
//! written by our own recorder, and homes built from the real session files.

mod common;
mod follow_real;
mod list;
mod search_real;
