//! `codex-thread usage` counts each response once, whatever files hold it, on homes built
//! from the real files of `../shared/fixtures/real/` (copied into temporary homes, never into
//! the project): a continuation piece whose base is missing is charged its own responses (by
//! `usage` and `inspect` alike); a copy under `archived_sessions/`, a `.jsonl.zst` beside its
//! plain file, and a base with its piece add nothing twice; a forked child with its parent
//! counts each once.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{TestResult, bin, real_files};

/// A 0.72 file (no `token_usage_record`): copied, compressed and archived.
const COPIED: &str = "dreyer-thomas__TravelBlogs__";
/// A 0.117 file (Codex repeats the last total when a turn starts): cut into base and piece.
const CUT: &str = "LAF-US__IDAHO-VAULT__";
/// A multi-agent parent and its forked child (which copies the parent's lines).
const PARENT: &str = "doudouqie66__CommonTools__rollout-2026-07-11T10-22-29";
const CHILD: &str = "doudouqie66__CommonTools__rollout-2026-07-11T10-23-56";

/// The real file whose name starts with `prefix`: its Codex name and its text.
fn real(files: &[PathBuf], prefix: &str) -> Result<(String, String), Box<dyn std::error::Error>> {
    let (name, bytes) = common::real_rollout(files, prefix)?;
    Ok((name, String::from_utf8(bytes)?))
}

/// `text` cut at the first user message after its half: the base, and a 0.159+
/// continuation piece (its meta names the base's rollout id as `history_base`, then the rest).
fn base_and_piece(
    text: &str,
    rollout_id: &str,
) -> Result<(String, String), Box<dyn std::error::Error>> {
    let lines: Vec<&str> = text.lines().collect();
    let cut = (lines.len() / 2..lines.len())
        .find(|&index| lines[index].contains(r#""type":"user_message""#))
        .ok_or("no user message after the half")?;
    let mut meta: Value = serde_json::from_str(lines.first().ok_or("empty")?)?;
    meta["payload"]["history_base"] = serde_json::json!({
        "thread_id": rollout_id,
        "end_ordinal_exclusive": cut,
        "end_byte_offset": lines[..cut].iter().map(|line| line.len() + 1).sum::<usize>(),
    });
    let base = lines[..cut].join("\n") + "\n";
    let piece = std::iter::once(serde_json::to_string(&meta)?)
        .chain(lines[cut..].iter().map(|line| line.to_string()))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    Ok((base, piece))
}

fn write(home: &Path, relative: &str, bytes: &[u8]) -> TestResult {
    let path = home.join(relative);
    std::fs::create_dir_all(path.parent().ok_or("no parent")?)?;
    std::fs::write(path, bytes)?;
    Ok(())
}

/// `usage --json` over `home`: the totals, and the responses counted once.
fn usage(home: &Path) -> Result<(u64, u64, Value), Box<dyn std::error::Error>> {
    let output = bin()?
        .args(["--json", "usage", "--timezone", "UTC", "--home"])
        .arg(home)
        .output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout)?;
    let total = json["totals"]["total_tokens"].as_u64().ok_or("no total")?;
    let repeated = json["repeated_responses"].as_u64().ok_or("no count")?;
    Ok((total, repeated, json))
}

/// The total of a home holding only `files` (relative path, bytes).
fn total_of(files: &[(&str, &[u8])]) -> Result<u64, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    for (relative, bytes) in files {
        write(dir.path(), relative, bytes)?;
    }
    Ok(usage(dir.path())?.0)
}

#[test]
fn a_continuation_piece_without_its_base_is_charged_its_own_responses() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let (name, text) = real(&files, CUT)?;
    let rollout_id =
        &name[name.len() - "uuid-uuid-uuid-uuid-uuiduuiduuid.jsonl".len()..name.len() - 6];
    let (base, piece) = base_and_piece(&text, rollout_id)?;
    let piece_name = name.replace(
        rollout_id,
        &format!("{rollout_id}_019d4200-0000-7000-8000-000000000001"),
    );
    let piece_path = format!("sessions/2026/03/30/{piece_name}");
    let base_path = format!("sessions/2026/03/30/{name}");
    let whole = total_of(&[(&base_path, text.as_bytes())])?;
    let base_only = total_of(&[(&base_path, base.as_bytes())])?;
    let piece_only = total_of(&[(&piece_path, piece.as_bytes())])?;
    let both = total_of(&[
        (&base_path, base.as_bytes()),
        (&piece_path, piece.as_bytes()),
    ])?;
    assert!(base_only > 0 && piece_only > 0);
    assert_eq!(piece_only, whole - base_only, "the piece alone");
    assert_eq!(both, whole, "base and piece");
    // `inspect` of the piece charges it the same (one rule, codex-home's `UsageScan`).
    let dir = tempfile::tempdir()?;
    let path = dir.path().join(&piece_name);
    std::fs::write(&path, piece.as_bytes())?;
    let output = bin()?.args(["--json", "inspect"]).arg(&path).output()?;
    let first = output
        .stdout
        .split(|byte| *byte == b'\n')
        .next()
        .unwrap_or_default();
    let inspected: Value = serde_json::from_slice(first)?;
    assert_eq!(
        inspected["tokens"]["total"].as_u64(),
        Some(piece_only),
        "inspect"
    );
    Ok(())
}

#[test]
fn copies_compressed_copies_and_forks_count_each_response_once() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let (copied_name, copied) = real(&files, COPIED)?;
    let (parent_name, parent) = real(&files, PARENT)?;
    let (child_name, child) = real(&files, CHILD)?;
    let plain = format!("sessions/2025/12/20/{copied_name}");
    let parent_path = format!("sessions/2026/07/11/{parent_name}");
    let child_path = format!("sessions/2026/07/11/{child_name}");
    let one = total_of(&[(&plain, copied.as_bytes())])?;
    let family = total_of(&[
        (&parent_path, parent.as_bytes()),
        (&child_path, child.as_bytes()),
    ])?;
    let parent_only = total_of(&[(&parent_path, parent.as_bytes())])?;
    let child_only = total_of(&[(&child_path, child.as_bytes())])?;
    assert_eq!(family, parent_only + child_only, "a fork with its parent");

    let dir = tempfile::tempdir()?;
    write(dir.path(), &plain, copied.as_bytes())?;
    write(
        dir.path(),
        &format!("{plain}.zst"),
        &zstd::encode_all(copied.as_bytes(), 3)?,
    )?;
    write(
        dir.path(),
        &format!("archived_sessions/{copied_name}"),
        copied.as_bytes(),
    )?;
    write(dir.path(), &parent_path, parent.as_bytes())?;
    write(dir.path(), &child_path, child.as_bytes())?;
    let (total, repeated, json) = usage(dir.path())?;
    assert_eq!(total, one + family);
    assert!(repeated > 0);
    let text = bin()?
        .args(["usage", "--timezone", "UTC", "--home"])
        .arg(dir.path())
        .output()?;
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("counted once"), "{text}\n{json}");
    Ok(())
}
