//! The sample session bundled in the binary, and the generator that writes it.
//!
//! Every command falls back to this sample when no file is given, so a first
//! `cargo run -p codex-thread` shows something real: a five-turn session written by this
//! project's own recorder (see `sample/script.rs`), with tool calls and outputs, an interrupted
//! turn and a rollback. The file is committed at `cli/sample/session.jsonl` and regenerated
//! with `cargo run -p codex-thread --example make_sample`; a test fails when the committed file
//! and a fresh generation differ, so the sample always matches what the current code writes.

pub(crate) mod script;

use std::path::Path;

pub use script::{SAMPLE_START, SAMPLE_THREAD_ID};

/// The bundled sample session (JSONL).
pub const SAMPLE_JSONL: &str = include_str!("../sample/session.jsonl");

/// What the sample is called in messages and in `path` fields.
pub const SAMPLE_NAME: &str = "<bundled sample>";

/// Path of the committed sample relative to the `cli/` folder.
pub const SAMPLE_RELATIVE_PATH: &str = "sample/session.jsonl";

/// Records the sample session afresh and returns its text: the recording itself, reproducible
/// because the session and the recorder take their time and ids from `sample/script.rs`'s
/// deterministic sources. `scratch_dir` receives the recording (`raw-session.jsonl`,
/// replaced if present).
pub fn generate(scratch_dir: &Path) -> anyhow::Result<String> {
    let raw_path = scratch_dir.join("raw-session.jsonl");
    if raw_path.exists() {
        std::fs::remove_file(&raw_path)?;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(script::record(&raw_path))?;
    Ok(std::fs::read_to_string(&raw_path)?)
}
