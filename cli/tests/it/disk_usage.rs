//! `du` and `compress` on a home made of the real session files: every byte is counted once,
//! the JSON Lines records are stable, human output fits 80 columns, and after `compress`
//! every session is listed once and loads to the same items.

use crate::common;

use std::time::SystemTime;

use common::home::{OLD, home_of_real_files, sessions_of};
use common::{TestResult, bin, real_files};
use serde_json::Value;

fn json_lines(bytes: &[u8]) -> Result<Vec<Value>, serde_json::Error> {
    bytes
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .map(serde_json::from_slice)
        .collect()
}

#[test]
fn du_counts_every_byte_of_every_real_file_once() -> TestResult {
    let Some(real) = real_files()? else {
        return Ok(());
    };
    // Files are taken as given, whatever their names.
    let output = bin()?.args(["--json", "du"]).args(&real).output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let records = json_lines(&output.stdout)?;
    let (summary, files) = records.split_last().ok_or("no output")?;
    assert_eq!(summary["type"], "summary");
    assert_eq!(files.len(), real.len());
    let mut total = 0;
    for file in files {
        assert_eq!(file["type"], "file");
        let path = file["path"].as_str().ok_or("path")?;
        let len = std::fs::metadata(path)?.len();
        let kinds: u64 = file["bytes"]
            .as_object()
            .ok_or("bytes")?
            .values()
            .filter_map(Value::as_u64)
            .sum();
        assert_eq!(file["decoded_bytes"].as_u64(), Some(len), "{path}");
        assert_eq!(kinds, len, "{path}");
        assert!(file["error"].is_null());
        total += len;
    }
    assert_eq!(summary["decoded_bytes"].as_u64(), Some(total));
    // Real images: in a message (0.40), in a tool output (0.117 view_image).
    assert!(summary["images"]["bytes"]["message"].as_u64() > Some(0));
    assert!(summary["images"]["bytes"]["tool_output"].as_u64() > Some(0));
    assert!(summary["bytes"]["encrypted"].as_u64() > Some(0));
    // The 0.144 sub-agent child replays its parent's meta and items.
    let child = files
        .iter()
        .find(|f| f["path"].as_str().is_some_and(|p| p.contains("019f4efd")))
        .ok_or("the 0.144 child")?;
    assert_eq!(child["copied_from"], "019f4efb-ae76-7e30-b44e-3fa464c16193");
    assert!(child["copied_prefix_bytes"].as_u64() > Some(0));
    Ok(())
}

#[test]
fn du_of_a_home_fits_80_columns_and_estimates_compress() -> TestResult {
    let Some(real) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let copies = home_of_real_files(&real, dir.path(), OLD)?;
    let output = bin()?.arg("du").arg("--home").arg(dir.path()).output()?;
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout)?;
    // Piped, a path is printed whole (a program reads it); the rest fits 80 columns.
    let home = dir.path().display().to_string();
    for line in text.lines() {
        let layout = line.find(&home).map_or(line, |at| &line[..at]);
        assert!(layout.chars().count() <= 80, "too wide: {line:?}");
        assert!(!line.contains('…'), "a path cut when piped: {line:?}");
    }
    assert!(
        text.contains(&format!("{} file(s)", copies.len())),
        "{text}"
    );
    assert!(text.contains("saves "), "{text}");
    let json = bin()?
        .args(["--json", "du", "--home"])
        .arg(dir.path())
        .output()?;
    let records = json_lines(&json.stdout)?;
    let summary = records.last().ok_or("no summary")?;
    assert_eq!(
        summary["compressible_files"].as_u64(),
        Some(copies.len() as u64)
    );
    let estimated = summary["estimated_compressed_bytes"]
        .as_u64()
        .ok_or("estimate")?;
    // Then compress, and the estimate is what it wrote.
    let run = bin()?
        .args(["--json", "compress", "--home"])
        .arg(dir.path())
        .output()?;
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let records = json_lines(&run.stdout)?;
    let summary = records.last().ok_or("no summary")?;
    assert_eq!(summary["compressed"].as_u64(), Some(copies.len() as u64));
    assert_eq!(summary["compressed_bytes"].as_u64(), Some(estimated));
    Ok(())
}

#[test]
fn compress_keeps_every_session_and_its_time_and_skips_recent_ones() -> TestResult {
    let Some(real) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let copies = home_of_real_files(&real, dir.path(), OLD)?;
    let before = sessions_of(dir.path())?;
    let times: Vec<SystemTime> = copies
        .iter()
        .map(|c| std::fs::metadata(c).and_then(|m| m.modified()))
        .collect::<Result<_, _>>()?;
    // A dry run and a too-young age change nothing.
    for args in [
        vec!["compress", "--dry-run"],
        vec!["compress", "--older-than", "60d"],
    ] {
        let output = bin()?.args(&args).arg("--home").arg(dir.path()).output()?;
        assert!(output.status.success());
        assert!(copies.iter().all(|c| c.exists()), "{args:?}");
    }
    let output = bin()?
        .arg("compress")
        .env("CODEX_HOME", dir.path())
        .output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout)?;
    // Piped, a path is printed whole (a program reads it); the rest fits 80 columns.
    let home = dir.path().display().to_string();
    for line in text.lines() {
        let layout = line.find(&home).map_or(line, |at| &line[..at]);
        assert!(layout.chars().count() <= 80, "too wide: {line:?}");
        assert!(!line.contains('…'), "a path cut when piped: {line:?}");
    }
    let after = sessions_of(dir.path())?;
    assert_eq!(after.len(), before.len());
    for ((key, (_, items)), (copy, time)) in before.iter().zip(copies.iter().zip(&times)) {
        let (path, loaded) = &after[key];
        assert!(path.to_string_lossy().ends_with(".jsonl.zst"), "{key}");
        assert_eq!(loaded, items, "{key}");
        assert!(!copy.exists());
        let zst = std::path::PathBuf::from(format!("{}.zst", copy.display()));
        assert_eq!(std::fs::metadata(&zst)?.modified()?, *time);
        assert_eq!(
            zstd::decode_all(std::fs::File::open(&zst)?)?,
            std::fs::read(real_of(&real, copy)?)?
        );
    }
    Ok(())
}

fn real_of<'a>(
    real: &'a [std::path::PathBuf],
    copy: &std::path::Path,
) -> Result<&'a std::path::PathBuf, Box<dyn std::error::Error>> {
    let name = common::name(copy);
    real.iter()
        .find(|r| common::name(r).ends_with(&name))
        .ok_or_else(|| format!("no original of {name}").into())
}

#[test]
fn standard_input_is_refused() -> TestResult {
    let output = bin()?.args(["du", "-"]).output()?;
    assert_eq!(output.status.code(), Some(2));
    Ok(())
}
