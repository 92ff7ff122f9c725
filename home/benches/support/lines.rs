//! The lines the home benchmarks build their sessions from, shared by `home.rs` and
//! `table.rs`.

use codex_test_support::{non_empty_lines, real_jsonl_files};

/// Every line of the real fixtures, or, without them (said on standard error, naming the
/// `bench`), 2,000 tool-output lines of our own of varied length.
pub(crate) fn line_pool(bench: &str) -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = real_jsonl_files()
        .ok()
        .flatten()
        .unwrap_or_default()
        .iter()
        .filter_map(|path| non_empty_lines(path).ok())
        .flatten()
        .collect();
    if lines.is_empty() {
        eprintln!("{bench} bench: no real fixtures, using lines of our own");
        for i in 0..2_000 {
            lines.push(format!(
                r#"{{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{{"type":"function_call_output","call_id":"c{i}","output":"line {i} {}"}}}}"#,
                "x".repeat(i % 700)
            ).into_bytes());
        }
    }
    lines
}
