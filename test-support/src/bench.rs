//! Benchmarks measure under `cargo bench` only.
//!
//! `cargo test --all-targets` builds every bench target and runs it as a test, with an
//! unoptimized build and without the `--bench` argument `cargo bench` passes. A benchmark's
//! measurements (gigabyte inputs, whole-process scale passes) mean nothing there and cost
//! minutes of the test suite, so each bench's `main` asks [`under_cargo_bench`] first.

/// Whether this process runs under `cargo bench` (it passed `--bench`). When not, says on
/// standard error that `name` measured nothing, so the test suite's log shows why (a test
/// helper's one line to standard error, as the missing-fixtures notice is).
#[allow(clippy::print_stderr)]
pub fn under_cargo_bench(name: &str) -> bool {
    let benching = std::env::args().any(|arg| arg == "--bench");
    if !benching {
        eprintln!("{name}: a benchmark; nothing measured outside `cargo bench`");
    }
    benching
}
