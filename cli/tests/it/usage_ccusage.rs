//! `codex-thread usage` against ccusage (the pinned npm release) on a Codex home built from
//! the real session files of `../shared/fixtures/real/` (copied into a temporary
//! `sessions/YYYY/MM/DD/` tree, never into the project).
//!
//! ccusage reads the plain home; we read the same home with one session compressed
//! (`.jsonl.zst`, which ccusage skips, see docs/usage.md). Per session and per day, in two
//! time zones, every count must be equal; costs must be equal for every model our table
//! prices, and the models it does not price must be listed. Then ccusage on the compressed
//! home must miss exactly the compressed session: the one documented difference.

use crate::common;
use common::ccusage;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{TestResult, bin, real_files};

/// The real file stored compressed in our home.
const COMPRESSED: &str = "dreyer-thomas__TravelBlogs__";

/// The real file kept under `archived_sessions/` (where its author's Codex had it).
const ARCHIVED: &str = "LAF-US__IDAHO-VAULT__";

/// Copies every real file with a session meta into `home`, named as Codex names it; the
/// file starting with `compress` (if any) is written as `.jsonl.zst`. Returns the thread ids
/// by fixture name.
fn build_home(
    files: &[PathBuf],
    home: &Path,
    compress: Option<&str>,
) -> Result<BTreeMap<String, String>, Box<dyn std::error::Error>> {
    let mut ids = BTreeMap::new();
    for file in files {
        let text = std::fs::read(file)?;
        let meta = text
            .split(|byte| *byte == b'\n')
            .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
            .find(|line| line["type"] == "session_meta");
        let Some(meta) = meta else { continue };
        let (Some(id), Some(at)) = (
            meta["payload"]["id"].as_str(),
            meta["payload"]["timestamp"]
                .as_str()
                .or(meta["timestamp"].as_str()),
        ) else {
            continue;
        };
        let at = chrono::DateTime::parse_from_rfc3339(at)?.with_timezone(&chrono::Utc);
        let name = common::name(file);
        let folder = if name.starts_with(ARCHIVED) {
            home.join("archived_sessions")
        } else {
            home.join("sessions")
                .join(at.format("%Y/%m/%d").to_string())
        };
        std::fs::create_dir_all(&folder)?;
        let mut path = folder.join(format!(
            "rollout-{}-{id}.jsonl",
            at.format("%Y-%m-%dT%H-%M-%S")
        ));
        if compress.is_some_and(|prefix| name.starts_with(prefix)) {
            path.set_extension("jsonl.zst");
            std::fs::write(&path, zstd::encode_all(text.as_slice(), 3)?)?;
        } else {
            std::fs::write(&path, &text)?;
        }
        ids.insert(name, id.to_string());
    }
    Ok(ids)
}

fn ours(report: &str, home: &Path, zone: &str) -> Result<Value, Box<dyn std::error::Error>> {
    let output = bin()?
        .args(["--json", "usage", report, "--home"])
        .arg(home)
        .args(["--timezone", zone])
        .output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(serde_json::from_slice(&output.stdout)?)
}

fn our_counts(row: &Value) -> [u64; 5] {
    let get = |key: &str| row[key].as_u64().unwrap_or(u64::MAX);
    [
        get("input_tokens"),
        get("cached_input_tokens"),
        get("output_tokens"),
        get("reasoning_output_tokens"),
        get("total_tokens"),
    ]
}

/// Our cost must equal ccusage's when every model of the row is priced by us; otherwise the
/// unpriced ones must be listed.
fn check_cost(what: &str, mine: &Value, theirs: &Value, unpriced: &[Value]) {
    let has_unpriced = mine["models"].as_object().is_some_and(|models| {
        models
            .keys()
            .any(|model| unpriced.contains(&Value::from(model.as_str())))
    });
    if has_unpriced {
        return;
    }
    let (Some(mine), Some(theirs)) = (mine["cost_usd"].as_f64(), theirs["costUSD"].as_f64()) else {
        panic!("{what}: a cost is missing: ours {mine}, ccusage {theirs}");
    };
    assert!(
        (mine - theirs).abs() <= 1e-9 * theirs.abs().max(1.0),
        "{what}: cost {mine} vs ccusage {theirs}"
    );
}

#[test]
fn usage_equals_ccusage_on_the_real_files() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let Some(ccusage) = ccusage::ccusage() else {
        return Ok(());
    };
    let plain = tempfile::tempdir()?;
    let ids = build_home(&files, plain.path(), None)?;
    let mixed = tempfile::tempdir()?;
    build_home(&files, mixed.path(), Some(COMPRESSED))?;
    let compressed_id = ids
        .iter()
        .find(|(name, _)| name.starts_with(COMPRESSED))
        .map(|(_, id)| id.clone())
        .ok_or("the compressed fixture is missing")?;

    for zone in ["UTC", "Asia/Tokyo"] {
        // Sessions.
        let theirs = ccusage::report(&ccusage, "session", plain.path(), zone)?;
        let mine = ours("session", mixed.path(), zone)?;
        let unpriced = mine["unpriced_models"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let their_rows = theirs["sessions"].as_array().ok_or("ccusage sessions")?;
        let my_rows = mine["session"].as_array().ok_or("our sessions")?;
        assert_eq!(my_rows.len(), their_rows.len(), "{zone}: sessions");
        for their in their_rows {
            let session_id = their["sessionId"].as_str().ok_or("sessionId")?;
            let thread_id = &session_id[session_id.len().saturating_sub(36)..];
            let my = my_rows
                .iter()
                .find(|row| row["thread_id"] == thread_id)
                .ok_or_else(|| format!("{zone}: no session {thread_id} in ours"))?;
            assert_eq!(
                our_counts(my),
                ccusage::counts(their),
                "{zone}: {session_id}"
            );
            let their_models: Vec<&String> = their["models"]
                .as_object()
                .ok_or("models")?
                .keys()
                .collect();
            let my_models: Vec<&String> =
                my["models"].as_object().ok_or("models")?.keys().collect();
            assert_eq!(my_models, their_models, "{zone}: {session_id} models");
            check_cost(session_id, my, their, &unpriced);
        }
        // Days, per model.
        let theirs = ccusage::report(&ccusage, "daily", plain.path(), zone)?;
        let mine = ours("daily", mixed.path(), zone)?;
        let their_days = theirs["daily"].as_array().ok_or("ccusage daily")?;
        let my_days = mine["daily"].as_array().ok_or("our daily")?;
        let dates = |rows: &[Value]| -> Vec<String> {
            rows.iter()
                .map(|row| row["date"].as_str().unwrap_or("").to_string())
                .collect()
        };
        assert_eq!(dates(my_days), dates(their_days), "{zone}: days");
        for (my, their) in my_days.iter().zip(their_days) {
            let date = my["date"].as_str().unwrap_or("");
            assert_eq!(our_counts(my), ccusage::counts(their), "{zone}: {date}");
            let their_models = their["models"].as_object().ok_or("models")?;
            let my_models = my["models"].as_object().ok_or("models")?;
            assert_eq!(my_models.len(), their_models.len(), "{zone}: {date} models");
            for (model, their_model) in their_models {
                let my_model = &my_models[model];
                assert_eq!(
                    our_counts(my_model),
                    ccusage::counts(their_model),
                    "{zone}: {date} {model}"
                );
            }
            check_cost(date, my, their, &unpriced);
        }
        assert_eq!(
            our_counts(&mine["totals"]),
            ccusage::counts(&theirs["totals"]),
            "{zone}: totals"
        );
    }

    // The documented difference: ccusage does not read `.jsonl.zst`.
    let theirs = ccusage::report(&ccusage, "session", mixed.path(), "UTC")?;
    let their_ids: Vec<&str> = theirs["sessions"]
        .as_array()
        .ok_or("ccusage sessions")?
        .iter()
        .filter_map(|row| row["sessionId"].as_str())
        .map(|id| &id[id.len().saturating_sub(36)..])
        .collect();
    assert!(
        !their_ids.contains(&compressed_id.as_str()),
        "ccusage now reads .zst"
    );
    assert_eq!(
        their_ids.len() + 1,
        ids.len() - sessions_without_usage(&ids)
    );
    Ok(())
}

/// Real files with a session meta whose usage is empty (no `token_count` with info): both
/// tools leave them out of session reports.
fn sessions_without_usage(ids: &BTreeMap<String, String>) -> usize {
    ["codemie-ai__", "woven-reviews__"]
        .iter()
        .filter(|prefix| ids.keys().any(|name| name.starts_with(*prefix)))
        .count()
}
