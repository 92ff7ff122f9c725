//! The sample session bundled in the binary.
//!
//! Every command falls back to this sample when no file is given, so a first
//! `cargo run -p codex-thread` shows something real: a five-turn session written by this
//! project's own recorder, with tool calls and outputs, an interrupted turn and a rollback.
//! The file is committed at `cli/sample/session.jsonl`; `cargo xtask sample` records it afresh
//! through core's turn driver, and a test fails when the committed file and a fresh recording
//! differ, so the sample always matches what the current code writes.

/// The bundled sample session (JSONL).
pub const SAMPLE_JSONL: &str = include_str!("../sample/session.jsonl");

/// What the sample is called in messages and in `path` fields.
pub const SAMPLE_NAME: &str = "<bundled sample>";
