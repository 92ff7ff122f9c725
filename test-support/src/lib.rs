//! Test-only helpers shared by every crate of the workspace.
//!
//! Why this crate exists: many test files read the real Codex session files in
//! `../shared/fixtures/real` (relative to the workspace root), and all of them must follow the
//! same rule: when the folder is missing, say so loudly and pass, unless
//! `CODEX_REQUIRE_REAL_FIXTURES=1`, where a missing folder fails the test. Written once here,
//! the rule cannot drift between copies.
//!
//! It also holds the flags a headless browser runs with (`headless_browser`), which the
//! export's browser tests and `cargo xtask screenshots` share, and the rule that benchmarks
//! measure under `cargo bench` only (`under_cargo_bench`).
//!
//! It is a dev-dependency only and depends on nothing, so that even `codex-protocol` (which
//! everything else depends on) may use it without a dependency cycle.

mod bench;
mod browser;
mod real_fixtures;

pub use bench::under_cargo_bench;
pub use browser::headless_browser;

pub use real_fixtures::{
    REAL_FIXTURES, REQUIRE_REAL_FIXTURES_ENV, fixtures_dir_at, jsonl_files_in, non_empty_lines,
    real_file, real_fixtures_dir, real_jsonl_files, required_by_env, required_from,
};
