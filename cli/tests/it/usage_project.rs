//! `codex-thread usage project` / `--by project` on a home built from the real files of
//! `../shared/fixtures/real/` (copied into a temporary home, never into the project): a
//! session is grouped by its git remote when its meta records one, else by its `cwd`; a
//! sub-agent child and its parent (one repository) are one project.

use crate::common;

use std::collections::BTreeMap;

use serde_json::Value;

use common::{TestResult, bin, real_files};

/// The multi-agent parent and its child: both record `https://github.com/Mxb-boy/DouluoContinent.git`.
const FAMILY: [&str; 2] = [
    "doudouqie66__CommonTools__rollout-2026-07-11T10-22-29",
    "doudouqie66__CommonTools__rollout-2026-07-11T10-23-56",
];

fn usage(args: &[&str]) -> Result<Value, Box<dyn std::error::Error>> {
    let output = bin()?.arg("--json").arg("usage").args(args).output()?;
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(serde_json::from_slice(&output.stdout)?)
}

fn total(value: &Value) -> u64 {
    value["total_tokens"].as_u64().unwrap_or(u64::MAX)
}

#[test]
fn sessions_are_grouped_by_repository_else_by_directory() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let folder = dir.path().join("sessions/2026/07/11");
    std::fs::create_dir_all(&folder)?;
    let mut family = Vec::new();
    for file in &files {
        let name = common::name(file);
        let Some(at) = name.find("rollout-") else {
            continue;
        };
        let path = folder.join(&name[at..]);
        std::fs::copy(file, &path)?;
        if FAMILY.iter().any(|prefix| name.starts_with(prefix)) {
            family.push(path);
        }
    }
    assert_eq!(family.len(), 2);
    let home = dir.path().to_str().ok_or("path")?;
    let by_word = usage(&["project", "--home", home, "--timezone", "UTC"])?;
    let by_flag = usage(&["--by", "project", "--home", home, "--timezone", "UTC"])?;
    assert_eq!(by_word, by_flag);
    let rows: BTreeMap<String, u64> = by_word["project"]
        .as_array()
        .ok_or("rows")?
        .iter()
        .filter_map(|row| Some((row["project"].as_str()?.to_string(), total(row))))
        .collect();
    assert_eq!(
        rows.values().sum::<u64>(),
        total(&by_word["totals"]),
        "{rows:?}"
    );
    // The parent and its child: one project, their two sessions' sum.
    let mut family_total = 0;
    for path in &family {
        let one = usage(&[path.to_str().ok_or("path")?, "--timezone", "UTC"])?;
        family_total += total(&one["totals"]);
    }
    assert!(family_total > 0);
    assert_eq!(
        rows.get("github.com/Mxb-boy/DouluoContinent"),
        Some(&family_total),
        "{rows:?}"
    );
    // Sessions without a remote are grouped by their directory.
    assert!(rows.keys().any(|key| key.starts_with('/')), "{rows:?}");
    // A --by that names another report than the word, or no report, is a usage error.
    for args in [
        vec!["model", "--by", "project", "--home", home],
        vec!["--by", "projects", "--home", home],
    ] {
        let output = bin()?.arg("usage").args(&args).output()?;
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    Ok(())
}
