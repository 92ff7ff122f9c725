//! Generation is deterministic and well-formed, so a drift the xtask reports is always a real
//! change. Whether the committed `schema/` tree matches is checked by xtask (`cargo xtask
//! codegen --check`, and its `codegen_is_up_to_date` test on every `cargo test`), where the
//! file reading and the diff live.

use codex_app_server_protocol::export;

#[test]
fn generation_is_deterministic() -> Result<(), Box<dyn std::error::Error>> {
    let first = export::generate()?;
    let second = export::generate()?;
    assert_eq!(first, second);
    for (path, contents) in &first {
        assert!(contents.ends_with('\n'), "{path} lacks a trailing newline");
        assert!(!contents.ends_with("\n\n"), "{path} ends with a blank line");
        assert!(
            export::GENERATED_DIRS
                .iter()
                .any(|dir| path.starts_with(&format!("{dir}/"))),
            "{path} is outside the generated folders"
        );
    }
    Ok(())
}
