//! Benchmarks measure under `cargo bench` only.
//!
//! `cargo test --all-targets` builds every bench target and runs it as a test, with an
//! unoptimized build and without the `--bench` argument `cargo bench` passes. A benchmark's
//! measurements (gigabyte inputs, whole-process scale passes) mean nothing there and cost
//! minutes of the test suite, so each bench's `main` asks [`under_cargo_bench`] first; a
//! criterion bench writes its `main` with [`crate::bench_main!`], which asks it.

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

/// The `main` of a criterion bench: under `cargo bench` only ([`under_cargo_bench`]), runs
/// each of the given functions (criterion groups, or passes of the bench's own) in order,
/// then criterion's summary. In place of `criterion_main!`, which measures under
/// `cargo test` too. The bench crate must depend on `criterion`.
///
/// ```text
/// criterion_group!(benches, bench_load);
/// codex_test_support::bench_main!("load", interleaved_ratios, benches);
/// ```
#[macro_export]
macro_rules! bench_main {
    ($name:literal, $($run:path),+ $(,)?) => {
        fn main() {
            if !$crate::under_cargo_bench($name) {
                return;
            }
            $($run();)+
            criterion::Criterion::default()
                .configure_from_args()
                .final_summary();
        }
    };
}
