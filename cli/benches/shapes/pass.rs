//! The shapes pass of the `large` bench (`CODEX_BENCH_SHAPES=1`): every one-session command
//! on every hard shape of the one generator (`generate::named_shapes`), at each size of
//! `CODEX_BENCH_SCALE_MIB`, whole process, each as a ratio to the one-thread `Value` parse of
//! the same file measured just before, with its peak resident memory. One file on disk at a
//! time. The output is a Markdown table, one row per shape and command, as
//! `docs/benchmarks.md` keeps it. `CODEX_BENCH_SHAPE_COMMANDS` (command names, comma
//! separated: `notifications,thread`) measures only those commands.

use std::path::Path;
use std::time::Duration;

use crate::generate::{self, RealLines};
use crate::{MIB, bench_dir, measure, time_value_parse, write_rollout};

/// The commands measured on each shape (arguments before the file's path).
const COMMANDS: &[&[&str]] = &[
    &["history", "--json"],
    &["prompt", "--json"],
    &["inspect", "--json"],
    &["thread", "--json"],
    &["thread", "--json", "--complete"],
    &["thread"],
    &["view", "--plain"],
    &["notifications"],
    &["export", "--format", "markdown"],
    &["export", "--format", "html"],
    &["usage", "session", "--timezone", "UTC"],
];

/// Runs the pass (see the module docs).
pub(crate) fn shapes(lines: &RealLines) {
    let without_rollbacks = lines.without_rollbacks();
    let only = std::env::var("CODEX_BENCH_SHAPE_COMMANDS").ok();
    let commands: Vec<&[&str]> = COMMANDS
        .iter()
        .copied()
        .filter(|command| {
            only.as_deref().is_none_or(|only| {
                only.split(',')
                    .any(|name| command.first() == Some(&name.trim()))
            })
        })
        .collect();
    eprintln!("| size | shape | command | time | ratio to the Value parse | peak |");
    eprintln!("|---|---|---|---|---|---|");
    for mib in generate::scale_sizes_from("CODEX_BENCH_SCALE_MIB") {
        for (name, shape, real_rollbacks) in generate::named_shapes(mib * MIB) {
            let source = if real_rollbacks {
                lines
            } else {
                &without_rollbacks
            };
            let path = bench_dir().join(format!("shape-{name}-{mib}mib.jsonl"));
            write_rollout(&path, source, &shape).unwrap();
            let value = time_value_parse(&path);
            row(mib, name, "`Value` parse (baseline)", value, value, 0);
            for command in &commands {
                let (took, peak) = measure_on(command, &path);
                row(
                    mib,
                    name,
                    &format!("`{}`", command.join(" ")),
                    took,
                    value,
                    peak,
                );
            }
            std::fs::remove_file(&path).unwrap();
        }
    }
}

fn measure_on(command: &[&str], path: &Path) -> (Duration, u64) {
    let file = path.to_string_lossy();
    let mut args: Vec<&str> = command.to_vec();
    args.push(&file);
    measure(&args, None)
}

/// One table row; `peak` in KiB (0: not measured).
fn row(mib: u64, shape: &str, command: &str, took: Duration, value: Duration, peak: u64) {
    let size = if mib >= 1024 && mib.is_multiple_of(1024) {
        format!("{} GiB", mib / 1024)
    } else {
        format!("{mib} MiB")
    };
    let peak = if peak == 0 {
        String::new()
    } else {
        format!("{} MiB", peak / 1024)
    };
    eprintln!(
        "| {size} | {shape} | {command} | {:.2} s | {:.3}× | {peak} |",
        took.as_secs_f64(),
        took.as_secs_f64() / value.as_secs_f64(),
    );
}
