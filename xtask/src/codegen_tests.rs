//! The committed `schema/` tree and the TypeScript client's fixtures must be exactly what the
//! Rust types and scenarios generate, so plain `cargo test` catches a change that was not
//! regenerated. Fix a failure with `cargo xtask codegen`.

use codex_app_server_protocol::export;

use super::generated_files;

#[test]
fn generated_files_match_the_committed_ones() -> Result<(), Box<dyn std::error::Error>> {
    let root = export::crate_root();
    let drifts = export::check(&root, &generated_files()?)?;
    assert!(drifts.is_empty(), "{}", export::render_drift(&drifts));
    Ok(())
}

#[test]
fn generation_is_deterministic() -> Result<(), Box<dyn std::error::Error>> {
    let first = generated_files()?;
    let second = generated_files()?;
    assert_eq!(first, second);
    for (path, contents) in &first {
        assert!(contents.ends_with('\n'), "{path} lacks a trailing newline");
        assert!(!contents.ends_with("\n\n"), "{path} ends with a blank line");
    }
    Ok(())
}
