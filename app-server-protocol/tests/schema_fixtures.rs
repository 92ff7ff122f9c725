//! The committed `schema/` tree (and the TypeScript client's fixtures) must be exactly what
//! the Rust types generate, so plain `cargo test` catches a type change that was not
//! regenerated. Fix a failure with `cargo xtask codegen` (or, equivalently, by running this
//! test with `CODEX_WRITE_SCHEMA=1`).

// Reporting (what was written, what was measured, what was skipped) is this test's job.
#![allow(clippy::print_stderr)]

use codex_app_server_protocol::export;

#[test]
fn schema_fixtures_match_generated() -> Result<(), Box<dyn std::error::Error>> {
    let root = export::crate_root();
    let generated = export::generate()?;
    if std::env::var("CODEX_WRITE_SCHEMA").as_deref() == Ok("1") {
        let summary = export::write(&root, &generated)?;
        eprintln!(
            "CODEX_WRITE_SCHEMA=1: wrote {} file(s), removed {}, {} unchanged",
            summary.written.len(),
            summary.removed.len(),
            summary.unchanged
        );
        return Ok(());
    }
    let drifts = export::check(&root, &generated)?;
    assert!(drifts.is_empty(), "{}", export::render_drift(&drifts));
    Ok(())
}

#[test]
fn generation_is_deterministic() -> Result<(), Box<dyn std::error::Error>> {
    let first = export::generate()?;
    let second = export::generate()?;
    assert_eq!(first, second);
    for (path, contents) in &first {
        assert!(contents.ends_with('\n'), "{path} lacks a trailing newline");
        assert!(!contents.ends_with("\n\n"), "{path} ends with a blank line");
    }
    Ok(())
}
