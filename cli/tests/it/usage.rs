//! `codex-thread usage` over generated homes: a parent, its sub-agent child (compressed),
//! a fork by reference and a plain/compressed pair of one session prove the fork and
//! compression rules against what each generated session spent; the report words, date
//! range, time zone, pricing override and table width are checked on the same home.

use crate::common;

use chrono::{Duration, TimeZone, Utc};
use serde_json::Value;

use common::usage_home::{Generated, Plan, Usage, generate};
use common::{TestResult, bin};

fn plan(seed: u64, start: chrono::DateTime<Utc>, model: &str, turns: usize) -> Plan {
    Plan {
        seed,
        start,
        model: model.to_string(),
        turns,
        responses_per_turn: 3,
        output_bytes: 200,
    }
}

/// The generated home: parent (plain and a `.zst` copy), child (`.zst` only), fork by
/// reference, and an unrelated session on another day.
fn home() -> Result<(tempfile::TempDir, Vec<Generated>), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let start = Utc
        .with_ymd_and_hms(2026, 7, 11, 22, 0, 0)
        .single()
        .ok_or("date")?;
    let parent = generate(&plan(1, start, "gpt-5.5", 2), None, false);
    let child = generate(
        &plan(2, start + Duration::hours(1), "gpt-5.6-sol", 2),
        Some(&parent),
        false,
    );
    let fork = generate(
        &plan(3, start + Duration::hours(2), "gpt-5.5", 1),
        Some(&parent),
        true,
    );
    let other = generate(
        &plan(4, start + Duration::days(3), "gpt-5.1-codex", 1),
        None,
        false,
    );
    parent.write_in(dir.path(), false)?;
    parent.write_in(dir.path(), true)?;
    child.write_in(dir.path(), true)?;
    fork.write_in(dir.path(), false)?;
    other.write_in(dir.path(), false)?;
    Ok((dir, vec![parent, child, fork, other]))
}

fn usage_json(args: &[&str]) -> Result<Value, Box<dyn std::error::Error>> {
    let output = bin()?.arg("--json").arg("usage").args(args).output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    Ok(serde_json::from_slice(&output.stdout)?)
}

fn counts(value: &Value) -> Usage {
    let get = |key: &str| value[key].as_u64().unwrap_or(u64::MAX);
    [
        get("input_tokens"),
        get("cached_input_tokens"),
        get("output_tokens"),
        get("reasoning_output_tokens"),
    ]
}

#[test]
fn children_never_count_their_parent_and_compressed_files_count() -> TestResult {
    let (dir, sessions) = home()?;
    let home = dir.path().to_str().ok_or("path")?;
    let report = usage_json(&["session", "--home", home, "--timezone", "UTC"])?;
    let rows = report["session"].as_array().ok_or("no session rows")?;
    // The parent once (its plain file, not its `.zst` copy too), the compressed child, the
    // fork, the other session.
    assert_eq!(rows.len(), 4, "{report:#}");
    for session in &sessions {
        let row = rows
            .iter()
            .find(|row| row["thread_id"] == session.id.as_str())
            .ok_or_else(|| format!("no row for {}", session.id))?;
        assert_eq!(counts(row), session.spent(), "{}", session.id);
        let total = row["total_tokens"].as_u64().ok_or("total")?;
        assert_eq!(total, session.spent()[0] + session.spent()[2]);
    }
    let child = &sessions[1];
    assert!(child.total[0] > child.spent()[0], "the child copied usage");
    let child_row = rows
        .iter()
        .find(|row| row["thread_id"] == child.id.as_str())
        .ok_or("child row")?;
    assert!(
        child_row["path"]
            .as_str()
            .is_some_and(|path| path.ends_with(".jsonl.zst"))
    );
    // The child's own responses are billed to its own model only.
    let models: Vec<&String> = child_row["models"]
        .as_object()
        .ok_or("models")?
        .keys()
        .collect();
    assert_eq!(models, ["gpt-5.6-sol"]);
    Ok(())
}

#[test]
fn every_report_adds_up_to_the_same_totals() -> TestResult {
    let (dir, sessions) = home()?;
    let home = dir.path().to_str().ok_or("path")?;
    let mut expected = [0u64; 4];
    for session in &sessions {
        for (sum, value) in expected.iter_mut().zip(session.spent()) {
            *sum += value;
        }
    }
    for report in ["daily", "weekly", "monthly", "session", "model"] {
        for zone in ["UTC", "Pacific/Kiritimati", "America/Los_Angeles"] {
            let json = usage_json(&[report, "--home", home, "--timezone", zone])?;
            assert_eq!(counts(&json["totals"]), expected, "{report} {zone}");
            let mut summed = [0u64; 4];
            for row in json[report].as_array().ok_or("rows")? {
                for (sum, value) in summed.iter_mut().zip(counts(row)) {
                    *sum += value;
                }
            }
            assert_eq!(summed, expected, "{report} {zone}");
            assert_eq!(json["timezone"], zone);
        }
    }
    // 22:00 UTC on 2026-07-11 is already the 12th in Kiritimati (UTC+14).
    let daily = usage_json(&["--home", home, "--timezone", "Pacific/Kiritimati"])?;
    assert_eq!(daily["daily"][0]["date"], "2026-07-12");
    let daily = usage_json(&["--home", home, "--timezone", "UTC"])?;
    assert_eq!(daily["daily"][0]["date"], "2026-07-11");
    Ok(())
}

#[test]
fn date_range_files_and_pricing() -> TestResult {
    let (dir, sessions) = home()?;
    let home = dir.path().to_str().ok_or("path")?;
    let only_other = usage_json(&[
        "--home",
        home,
        "--timezone",
        "UTC",
        "--since",
        "2026-07-13",
        "--until",
        "20260720",
    ])?;
    assert_eq!(counts(&only_other["totals"]), sessions[3].spent());
    // Given files instead of a home; the report word comes first.
    let path = sessions[3].path_in(dir.path());
    let path = path.to_str().ok_or("path")?;
    let one = usage_json(&["model", path, "--timezone", "UTC"])?;
    assert_eq!(one["model"][0]["model"], "gpt-5.1-codex");
    assert!(
        one["totals"]["cost_usd"]
            .as_f64()
            .is_some_and(|cost| cost > 0.0)
    );
    // A pricing override: only gpt-5.5 priced, everything else listed as unpriced.
    let pricing = dir.path().join("prices.json");
    std::fs::write(
        &pricing,
        r#"{"models": {"gpt-5.5": {"input": 1000000, "cached_input": 0, "output": 0, "date": "2026-12-01", "source": "test"}}}"#,
    )?;
    let priced = usage_json(&[
        "model",
        "--home",
        home,
        "--timezone",
        "UTC",
        "--pricing",
        pricing.to_str().ok_or("path")?,
    ])?;
    let unpriced = priced["unpriced_models"].as_array().ok_or("unpriced")?;
    assert_eq!(unpriced.len(), 2, "{priced:#}");
    // The total leaves the other models' tokens out, and says so.
    let totals = &priced["totals"];
    let priced_tokens = priced["model"]
        .as_array()
        .ok_or("rows")?
        .iter()
        .filter(|row| row["model"] == "gpt-5.5")
        .filter_map(|row| row["total_tokens"].as_u64())
        .sum::<u64>();
    assert_eq!(totals["cost_complete"], false);
    assert_eq!(
        totals["unpriced_tokens"].as_u64(),
        totals["total_tokens"]
            .as_u64()
            .map(|total| total - priced_tokens)
    );
    let text = bin()?
        .args(["usage", "--home", home, "--timezone", "UTC", "--pricing"])
        .arg(&pricing)
        .output()?;
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.lines()
            .any(|line| line.starts_with("Total") && line.ends_with('*') && line.contains("≥$")),
        "{text}"
    );
    assert!(text.contains("* No price for:"), "{text}");
    for row in priced["model"].as_array().ok_or("rows")? {
        let cost = &row["cost_usd"];
        if row["model"] == "gpt-5.5" {
            let uncached = row["input_tokens"].as_u64().ok_or("input")?
                - row["cached_input_tokens"].as_u64().ok_or("cached")?;
            assert_eq!(cost.as_f64(), Some(uncached as f64));
        } else {
            assert!(cost.is_null(), "{row}");
        }
    }
    Ok(())
}

#[test]
fn the_table_fits_80_columns_and_bad_arguments_are_usage_errors() -> TestResult {
    let (dir, _) = home()?;
    let home = dir.path().to_str().ok_or("path")?;
    for report in ["daily", "weekly", "monthly", "session", "model"] {
        let output = bin()?
            .args(["usage", report, "--home", home, "--timezone", "Asia/Tokyo"])
            .output()?;
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout)?;
        assert!(text.contains("Total"), "{text}");
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{report}: {line:?}");
        }
    }
    for bad in [
        vec!["--timezone", "Mars/Olympus"],
        vec!["--since", "yesterday"],
        vec!["--since", "2026-02-02", "--until", "2026-01-01"],
    ] {
        let output = bin()?
            .arg("usage")
            .args(["--home", home])
            .args(&bad)
            .output()?;
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
    }
    let missing = dir.path().join("no-such-home");
    let output = bin()?.arg("usage").arg("--home").arg(&missing).output()?;
    assert_eq!(output.status.code(), Some(2));
    let empty = bin()?
        .args([
            "usage",
            "--timezone",
            "UTC",
            "--since",
            "2099-01-01",
            "--home",
            home,
        ])
        .output()?;
    assert!(String::from_utf8(empty.stdout)?.starts_with("no token usage found"));
    Ok(())
}

/// `TZ` is the local zone (`usage` says it and groups days in it); `--timezone` wins over it.
#[test]
fn tz_is_the_local_zone_and_timezone_overrides_it() -> TestResult {
    let (dir, _) = home()?;
    let home = dir.path().to_str().ok_or("path")?;
    let with_tz = |tz: &str, args: &[&str]| -> Result<Value, Box<dyn std::error::Error>> {
        let output = bin()?
            .env("TZ", tz)
            .args(["--json", "usage", "--home", home])
            .args(args)
            .output()?;
        assert!(output.status.success());
        Ok(serde_json::from_slice(&output.stdout)?)
    };
    let days = |value: &Value| -> Vec<String> {
        value["daily"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|row| row["date"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let new_york = with_tz("America/New_York", &[])?;
    assert_eq!(new_york["timezone"], "America/New_York");
    let named = usage_json(&["--home", home, "--timezone", "America/New_York"])?;
    assert_eq!(days(&new_york), days(&named));
    // The home's sessions start at 22:00 UTC: the next day in Tokyo, the same in New York.
    let tokyo = with_tz(":Asia/Tokyo", &[])?;
    assert_eq!(tokyo["timezone"], "Asia/Tokyo");
    assert_ne!(days(&tokyo), days(&new_york));
    let overridden = with_tz("Asia/Tokyo", &["--timezone", "America/New_York"])?;
    assert_eq!(days(&overridden), days(&new_york));
    let text = bin()?
        .env("TZ", "America/New_York")
        .args(["usage", "--home", home])
        .output()?;
    assert!(String::from_utf8_lossy(&text.stdout).contains("Times in America/New_York."));
    Ok(())
}
