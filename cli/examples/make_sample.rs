//! Regenerates the bundled sample session: `cargo run -p codex-thread --example make_sample`.
//!
//! Records the scripted sample session with the real recorder, pins its volatile values and
//! writes `cli/sample/session.jsonl` (or the path given as the first argument).

use std::io::Write;
use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let target = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join(codex_thread::sample::SAMPLE_RELATIVE_PATH)
        });
    let scratch = std::env::temp_dir().join(format!("codex-thread-sample-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let text = codex_thread::sample::generate(&scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let text = text?;
    std::fs::write(&target, &text)?;
    writeln!(
        std::io::stderr(),
        "wrote {} ({} lines)",
        target.display(),
        text.lines().count()
    )?;
    Ok(())
}
