//! Damaged files named by every command over a home: a truncated `.jsonl.zst`, a torn plain
//! file and a NUL-padded one, built from the real files of `../shared/fixtures/real/` (copied
//! into a temporary home, never into the project). `usage`, `table`, `du`, `list` and `search`
//! warn once per file on standard error (file, line, what is wrong), list them under
//! `"damaged"` in JSON, exit 1 (a partial answer), and count what could be read the same way
//! for plain and `.zst` files.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{TestResult, bin, real_files};

/// Stored compressed, then cut in half.
const COMPRESSED: &str = "dreyer-thomas__TravelBlogs__";
/// Stored plain, its last line torn.
const TORN: &str = "LAF-US__IDAHO-VAULT__";
/// Stored plain, NUL bytes after its last line (what a crash on some file systems leaves).
const PADDED: &str = "olivia215215__cabinet-governance__";

fn write(home: &Path, relative: &str, bytes: &[u8]) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path = home.join("sessions/2026/01/01").join(relative);
    std::fs::create_dir_all(path.parent().ok_or("no parent")?)?;
    std::fs::write(&path, bytes)?;
    Ok(path)
}

/// What a decoder reads of `compressed` before its damage, cut after the last whole line.
fn readable_prefix(compressed: &[u8]) -> Vec<u8> {
    let Ok(mut decoder) = zstd::stream::read::Decoder::new(compressed) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut buffer = [0u8; 8192];
    while let Ok(read) = decoder.read(&mut buffer) {
        if read == 0 {
            break;
        }
        out.extend_from_slice(&buffer[..read]);
    }
    let end = out
        .iter()
        .rposition(|byte| *byte == b'\n')
        .map_or(0, |at| at + 1);
    out.truncate(end);
    out
}

fn run(
    args: &[&str],
    home: &Path,
) -> Result<(Option<i32>, Value, String), Box<dyn std::error::Error>> {
    let output = bin()?
        .arg("--json")
        .args(args)
        .arg("--home")
        .arg(home)
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let json = serde_json::from_slice(&output.stdout).map_err(|err| format!("{err}: {stderr}"))?;
    Ok((output.status.code(), json, stderr))
}

fn total(json: &Value) -> u64 {
    json["totals"]["total_tokens"].as_u64().unwrap_or(u64::MAX)
}

#[test]
fn every_command_over_a_home_names_each_damaged_file_once_and_exits_1() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let home = dir.path().join("home");

    let (name, plain) = common::real_rollout(&files, COMPRESSED)?;
    let compressed = zstd::encode_all(plain.as_slice(), 3)?;
    let cut = &compressed[..compressed.len() / 2];
    let zst = write(&home, &format!("{name}.zst"), cut)?;

    let (name, mut torn) = common::real_rollout(&files, TORN)?;
    let last_line_start = torn[..torn.len() - 1]
        .iter()
        .rposition(|byte| *byte == b'\n')
        .ok_or("one line")?
        + 1;
    torn.truncate(last_line_start + 30);
    let torn_path = write(&home, &name, &torn)?;

    let (name, mut padded) = common::real_rollout(&files, PADDED)?;
    padded.extend([0u8; 4096]);
    let padded_path = write(&home, &name, &padded)?;

    let (code, json, stderr) = run(&["usage", "--timezone", "UTC"], &home)?;
    assert_eq!(code, Some(1), "{stderr}");
    let damaged = json["damaged"].as_array().ok_or("damaged")?;
    assert_eq!(damaged.len(), 3, "{json:#}");
    for (path, kind) in [
        (&zst, "damaged"),
        (&torn_path, "truncated"),
        (&padded_path, "malformed"),
    ] {
        let path = path.display().to_string();
        assert_eq!(stderr.matches(&path).count(), 1, "{path}: {stderr}");
        let entry = damaged
            .iter()
            .find(|entry| entry["path"] == path.as_str())
            .ok_or(format!("{path} not listed"))?;
        assert_eq!(entry["kind"], kind, "{entry}");
    }

    // The compressed file counts what a plain file of its readable lines counts.
    let prefix_home = dir.path().join("prefix");
    write(&prefix_home, &name_of(&zst), &readable_prefix(cut))?;
    let zst_only = dir.path().join("zst");
    write(&zst_only, &format!("{}.zst", name_of(&zst)), cut)?;
    let (_, prefix_json, _) = run(&["usage", "--timezone", "UTC"], &prefix_home)?;
    let (code, zst_json, _) = run(&["usage", "--timezone", "UTC"], &zst_only)?;
    assert_eq!(code, Some(1));
    assert!(total(&prefix_json) > 0);
    assert_eq!(total(&zst_json), total(&prefix_json));

    let out = dir.path().join("tables");
    let output = bin()?
        .args(["--json", "table", "--home"])
        .arg(&home)
        .arg("-o")
        .arg(&out)
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let json: Value = serde_json::from_slice(&output.stdout)?;
    assert_eq!(
        json["damaged"].as_array().map(Vec::len),
        Some(3),
        "{json:#}"
    );
    assert_eq!(stderr.matches(&torn_path.display().to_string()).count(), 1);

    let output = bin()?
        .args(["--json", "du", "--home"])
        .arg(&home)
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary: Value = serde_json::from_str(stdout.lines().last().ok_or("no summary")?)?;
    assert_eq!(
        summary["damaged"].as_array().map(Vec::len),
        Some(3),
        "{summary:#}"
    );
    assert_eq!(
        stderr.matches(&zst.display().to_string()).count(),
        1,
        "{stderr}"
    );
    Ok(())
}

/// A `.zst` path's plain name.
fn name_of(path: &Path) -> String {
    common::name(path).trim_end_matches(".zst").to_string()
}
