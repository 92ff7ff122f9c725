//! `cargo xtask pricing [--version V] [--from FILE]`: regenerates the price table `usage`
//! ships (`home/data/litellm_prices.json`) from LiteLLM's model price data, the table ccusage
//! prices with.
//!
//! LiteLLM publishes `model_prices_and_context_window.json`; its PyPI package ships a copy as
//! `litellm/model_prices_and_context_window_backup.json` inside the wheel. Without `--from`,
//! the wheel is fetched with `pip download --no-deps litellm[==V]` into a temporary folder and
//! the file read out of it (Python's `zipfile`, as pip needs Python anyway). The snapshot keeps
//! LiteLLM's own shape, so `codex-home` reads it and a full LiteLLM file alike, cut to what
//! `usage` reads: the chat and responses models of the providers Codex talks to (OpenAI and
//! Azure, [`PROVIDERS`]), and of each only its per-token prices. A `_snapshot` entry records
//! the day it was made and the LiteLLM version it came from.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

/// The providers whose models are kept (LiteLLM's `litellm_provider`).
const PROVIDERS: [&str; 2] = ["openai", "azure"];

/// The kinds of model kept (LiteLLM's `mode`).
const MODES: [&str; 2] = ["chat", "responses"];

/// The fields kept of each model.
const FIELDS: [&str; 4] = [
    "input_cost_per_token",
    "cache_read_input_token_cost",
    "output_cost_per_token",
    "litellm_provider",
];

/// The file in LiteLLM's wheel.
const WHEEL_FILE: &str = "litellm/model_prices_and_context_window_backup.json";

/// Where the snapshot is written, from the workspace root.
const SNAPSHOT: &str = "home/data/litellm_prices.json";

/// `cargo xtask pricing`.
pub(crate) fn run(version: Option<&str>, from: Option<&Path>) -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (text, version) = match from {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?,
            version.unwrap_or("unknown").to_string(),
        ),
        None => download(version)?,
    };
    let litellm: Value = serde_json::from_str(&text).context("LiteLLM's file is not JSON")?;
    let date = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let snapshot = snapshot(&litellm, &version, &date)?;
    let path = root.join(SNAPSHOT);
    std::fs::write(&path, snapshot).with_context(|| format!("writing {}", path.display()))?;
    crate::ci::banner(&format!("wrote {SNAPSHOT} from LiteLLM {version} ({date})"));
    Ok(())
}

/// The snapshot of `litellm` (LiteLLM's price file): one model a line, sorted by name, the
/// `_snapshot` entry first.
pub(crate) fn snapshot(litellm: &Value, version: &str, date: &str) -> Result<String> {
    let Some(models) = litellm.as_object() else {
        bail!("LiteLLM's file is not an object of models");
    };
    let mut kept: Vec<(&String, Value)> = models
        .iter()
        .filter(|(_, model)| wanted(model))
        .map(|(name, model)| {
            let fields: Map<String, Value> = FIELDS
                .iter()
                .filter_map(|field| Some((field.to_string(), model.get(*field)?.clone())))
                .collect();
            (name, Value::Object(fields))
        })
        .collect();
    kept.sort_by(|a, b| a.0.cmp(b.0));
    if kept.is_empty() {
        bail!("no model of {PROVIDERS:?} with prices in LiteLLM's file");
    }
    let about = json!({
        "date": date,
        "litellm_version": version,
        "source": format!("LiteLLM model_prices_and_context_window.json ({WHEEL_FILE} of the litellm {version} wheel on PyPI), cut to the chat and responses models of {} and their per-token prices by `cargo xtask pricing`", PROVIDERS.join(", ")),
    });
    let mut text = format!("{{\n  \"_snapshot\": {about}");
    for (name, fields) in kept {
        write!(text, ",\n  {}: {fields}", Value::String(name.clone()))?;
    }
    text.push_str("\n}\n");
    Ok(text)
}

/// Whether a LiteLLM entry is kept: a chat or responses model of a kept provider, priced.
fn wanted(model: &Value) -> bool {
    let is = |key: &str, values: &[&str]| {
        model
            .get(key)
            .and_then(Value::as_str)
            .is_some_and(|value| values.contains(&value))
    };
    is("litellm_provider", &PROVIDERS)
        && is("mode", &MODES)
        && model
            .get("input_cost_per_token")
            .is_some_and(Value::is_number)
        && model
            .get("output_cost_per_token")
            .is_some_and(Value::is_number)
}

/// LiteLLM's price file out of its wheel from PyPI, and the wheel's version.
fn download(version: Option<&str>) -> Result<(String, String)> {
    let dir = tempfile::tempdir()?;
    let requirement = version.map_or("litellm".to_string(), |version| {
        format!("litellm=={version}")
    });
    crate::ci::banner(&format!("pip download --no-deps {requirement}"));
    let status = Command::new("python3")
        .args([
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--disable-pip-version-check",
            "-d",
        ])
        .arg(dir.path())
        .arg(&requirement)
        .status()
        .context("could not run python3 -m pip")?;
    if !status.success() {
        bail!("pip download {requirement} failed ({status})");
    }
    let wheel = wheel_in(dir.path())?;
    let name = wheel
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or_default();
    let found_version = name.split('-').nth(1).unwrap_or("unknown").to_string();
    let output = Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))",
        ])
        .arg(&wheel)
        .arg(WHEEL_FILE)
        .output()
        .context("could not run python3 to read the wheel")?;
    if !output.status.success() {
        bail!(
            "{WHEEL_FILE} not read from {}: {}",
            wheel.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok((String::from_utf8(output.stdout)?, found_version))
}

fn wheel_in(dir: &Path) -> Result<PathBuf> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|extension| extension == "whl") {
            return Ok(path);
        }
    }
    bail!("pip downloaded no wheel into {}", dir.display())
}

#[cfg(test)]
#[path = "pricing_tests.rs"]
mod tests;
