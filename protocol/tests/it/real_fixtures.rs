//! Every line of every real Codex session file in `../shared/fixtures/real` is read with the
//! tolerant parser. Asserted per file: the count per line type and payload type; known kinds
//! parse into their typed variant (not a fallback) unless listed; unknown kinds are kept raw;
//! and nothing is lost (writing each line back gives the input bytes). Measured and printed:
//! how many lines the typed model alone reproduces, and which upstream keys it does not model.
#![allow(clippy::print_stderr)]

mod classify;
mod expected;
mod json_diff;

use std::collections::BTreeMap;
use std::error::Error;
use std::path::Path;

use classify::{Outcome, raw_key, typed_key};
use codex_protocol::rollout::{
    LineError, LineFormat, RolloutItem, RoundTrip, parse_rollout_line, parse_rollout_line_typed,
    split_lines,
};
use codex_test_support::{jsonl_files_in, real_fixtures_dir};
use serde_json::Value;

type TestResult = Result<(), Box<dyn Error>>;

/// A parser under timing: reads one line, says whether it accepted it.
type LineParser = dyn Fn(&[u8]) -> bool;

/// Everything measured about one file.
#[derive(Default)]
struct FileReport {
    lines: usize,
    counts: BTreeMap<String, usize>,
    outcomes: BTreeMap<(Outcome, String), usize>,
    round_trips: BTreeMap<&'static str, usize>,
    kept: usize,
    error_kinds: BTreeMap<String, usize>,
}

fn read_file(
    path: &Path,
    unmodelled: &mut json_diff::PathCounts,
) -> Result<FileReport, Box<dyn Error>> {
    let bytes = std::fs::read(path)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut report = FileReport::default();
    for (number, line) in split_lines(&bytes) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        report.lines += 1;
        let raw: Value = serde_json::from_slice(line)
            .map_err(|err| format!("{name}:{number}: fixture line is not JSON: {err}"))?;
        let key = raw_key(&raw);
        *report.counts.entry(key.clone()).or_default() += 1;
        let parsed = match parse_rollout_line(line) {
            Ok(parsed) => parsed,
            Err(err) => {
                assert!(
                    matches!(err, LineError::Payload { .. } | LineError::Legacy { .. }),
                    "{name}:{number}: a real line must be JSON with an envelope: {err}"
                );
                eprintln!("  {name}:{number}: typed error: {err}");
                *report.outcomes.entry((Outcome::Error, key)).or_default() += 1;
                *report
                    .error_kinds
                    .entry(err.kind().to_string())
                    .or_default() += 1;
                continue;
            }
        };
        // Nothing is lost: writing the line back reproduces the input bytes.
        let written = parsed.to_json_line()?;
        assert!(
            written.as_bytes() == line,
            "{name}:{number}: write-back differs from the input"
        );
        if parsed.is_original_kept() {
            report.kept += 1;
        }
        let outcome = match typed_key(&parsed) {
            None => {
                assert_eq!(key, "legacy/record_type:state", "{name}:{number}");
                Outcome::LegacyMarker
            }
            Some((typed, outcome @ (Outcome::Typed | Outcome::UnknownKept))) => {
                let expected = if outcome == Outcome::UnknownKept {
                    key.split('/').next().unwrap_or_default().to_string()
                } else {
                    key.clone()
                };
                assert_eq!(typed, expected, "{name}:{number}: parsed into another kind");
                outcome
            }
            Some((_, outcome)) => {
                assert!(
                    parsed.is_original_kept(),
                    "{name}:{number}: fallback without original"
                );
                outcome
            }
        };
        *report.outcomes.entry((outcome, key.clone())).or_default() += 1;
        let round_trip = parsed.round_trip()?;
        let label = match round_trip {
            RoundTrip::Exact => "exact",
            RoundTrip::JsonEqual => "json_equal",
            RoundTrip::Lossy => "lossy",
        };
        *report.round_trips.entry(label).or_default() += 1;
        if round_trip == RoundTrip::Lossy {
            json_diff::record(&key, &raw, &parsed.typed_value()?, unmodelled);
        }
    }
    Ok(report)
}

fn entries_for(report: &FileReport, wanted: Outcome) -> Vec<(String, usize)> {
    report
        .outcomes
        .iter()
        .filter(|((outcome, _), _)| *outcome == wanted)
        .map(|((_, key), count)| (key.clone(), *count))
        .collect()
}

fn sorted(entries: &[(&str, usize)]) -> Vec<(String, usize)> {
    let mut entries: Vec<(String, usize)> = entries
        .iter()
        .map(|(key, count)| ((*key).to_string(), *count))
        .collect();
    entries.sort();
    entries
}

#[test]
fn every_line_of_every_real_file_is_read_typed_counted_and_kept() -> TestResult {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(());
    };
    let files = jsonl_files_in(&dir)?;
    assert!(!files.is_empty(), "no .jsonl file in {}", dir.display());
    let mut unmodelled = json_diff::PathCounts::default();
    let mut mismatches = Vec::new();
    eprintln!(
        "{:<58} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} | {:>5} {:>5} {:>5} {:>5}",
        "file",
        "lines",
        "typed",
        "fallb",
        "unkn",
        "mark",
        "err",
        "exact",
        "jsoneq",
        "lossy",
        "kept"
    );
    for path in &files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let report = read_file(path, &mut unmodelled)?;
        let total = |outcome| {
            entries_for(&report, outcome)
                .iter()
                .map(|(_, n)| n)
                .sum::<usize>()
        };
        eprintln!(
            "{:<58} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} | {:>5} {:>5} {:>5} {:>5}",
            name.chars().take(58).collect::<String>(),
            report.lines,
            total(Outcome::Typed),
            total(Outcome::Fallback),
            total(Outcome::UnknownKept),
            total(Outcome::LegacyMarker),
            total(Outcome::Error),
            report.round_trips.get("exact").copied().unwrap_or(0),
            report.round_trips.get("json_equal").copied().unwrap_or(0),
            report.round_trips.get("lossy").copied().unwrap_or(0),
            report.kept,
        );
        let Some(expected) = expected::FILES.iter().find(|file| file.name == name) else {
            eprintln!("  (no expectation table for {name}: generic checks only)");
            continue;
        };
        let counts: Vec<(String, usize)> = report.counts.clone().into_iter().collect();
        let checks = [
            (
                "line count",
                vec![(String::new(), report.lines)],
                vec![(String::new(), expected.lines)],
            ),
            ("counts per type", counts, sorted(expected.counts)),
            (
                "payload kinds read through the Other fallback",
                entries_for(&report, Outcome::Fallback),
                sorted(expected.fallbacks),
            ),
            (
                "lines the typed model rejects",
                entries_for(&report, Outcome::Error),
                sorted(expected.errors),
            ),
            (
                "round trips through the typed model alone",
                ["exact", "json_equal", "lossy"]
                    .iter()
                    .map(|label| {
                        let count = report.round_trips.get(label).copied().unwrap_or(0);
                        (label.to_string(), count)
                    })
                    .collect(),
                ["exact", "json_equal", "lossy"]
                    .iter()
                    .zip(expected.round_trip)
                    .map(|(label, count)| (label.to_string(), count))
                    .collect(),
            ),
        ];
        for (what, actual, wanted) in checks {
            if actual != wanted {
                mismatches.push(format!(
                    "{name}: {what}:\n  actual {actual:?}\n  wanted {wanted:?}"
                ));
            }
        }
    }
    eprintln!("Upstream keys the typed model does not reproduce (lines per key path):");
    for ((key, path, change), count) in &unmodelled.0 {
        eprintln!("  {count:>5}  {change:<8} {key}: {path}");
    }
    for mismatch in &mismatches {
        eprintln!("MISMATCH {mismatch}");
    }
    assert!(
        mismatches.is_empty(),
        "{} expectation(s) differ; see above",
        mismatches.len()
    );
    Ok(())
}

#[test]
fn legacy_file_is_recognised_as_legacy_and_its_items_read() -> TestResult {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(());
    };
    let bytes = std::fs::read(dir.join("AcidicSoil__codex-session-viewer__example.jsonl"))?;
    let mut formats = BTreeMap::new();
    let mut calls = 0;
    for (number, line) in split_lines(&bytes) {
        let parsed = parse_rollout_line(line).map_err(|err| format!("line {number}: {err}"))?;
        let LineFormat::Legacy(record) = parsed.format() else {
            return Err(format!("line {number} not recognised as legacy").into());
        };
        *formats.entry(record.as_str()).or_insert(0usize) += 1;
        if let Some(RolloutItem::ResponseItem(item)) = parsed.item()
            && item.item_type() == "function_call"
        {
            calls += 1;
        }
        if number == 1 {
            let Some(RolloutItem::SessionMeta(meta)) = parsed.item() else {
                return Err("line 1 must be the session meta".into());
            };
            assert_eq!(
                meta.meta.id.to_string(),
                "cf4def41-21e0-4b91-adb4-5397c1492084"
            );
            assert_eq!(
                meta.meta.session_id, meta.meta.id,
                "session_id copied from id"
            );
            assert!(meta.meta.instructions.is_some());
            assert!(meta.git.is_some());
        }
    }
    let expected: BTreeMap<&str, usize> = [
        ("session_meta", 1),
        ("state_marker", 628),
        ("response_item", 741),
    ]
    .into_iter()
    .collect();
    assert_eq!(formats, expected);
    assert_eq!(calls, 246);
    Ok(())
}

/// Release-mode timing of the parser against a plain `serde_json::Value` parse of the same
/// lines. Run: `cargo test --release -p codex-protocol --test it real_fixtures -- --ignored`.
#[test]
#[ignore = "timing; run in release mode"]
fn parser_cost_relative_to_plain_value_parse() -> TestResult {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(());
    };
    let mut lines = Vec::new();
    for path in jsonl_files_in(&dir)? {
        let bytes = std::fs::read(&path)?;
        lines.extend(split_lines(&bytes).map(|(_, line)| line.to_vec()));
    }
    let rounds = 5;
    let parsers: [&LineParser; 3] = [
        &|line| serde_json::from_slice::<Value>(line).is_ok(),
        &|line| parse_rollout_line(line).is_ok(),
        &|line| parse_rollout_line_typed(line).is_ok(),
    ];
    // Best of many short runs, the three parsers interleaved, to damp the noise of a shared
    // machine (frequency changes and other processes hit all three alike).
    let mut best = [std::time::Duration::MAX; 3];
    let mut accepted = 0usize;
    for _ in 0..15 {
        for (parser, best) in parsers.iter().zip(best.iter_mut()) {
            let start = std::time::Instant::now();
            for _ in 0..rounds {
                accepted += lines.iter().filter(|line| parser(line)).count();
            }
            *best = (*best).min(start.elapsed());
        }
    }
    let [value_time, parse_time, typed_time] = best;
    let ratio = |time: std::time::Duration| time.as_secs_f64() / value_time.as_secs_f64();
    eprintln!(
        "{} lines x {rounds} (best of 15): Value {value_time:?}; parse_rollout_line \
         {parse_time:?} ({:.2}x); parse_rollout_line_typed {typed_time:?} ({:.2}x) [{accepted}]",
        lines.len(),
        ratio(parse_time),
        ratio(typed_time),
    );
    Ok(())
}
