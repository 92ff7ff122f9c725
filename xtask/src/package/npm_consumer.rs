//! The fresh TypeScript project: what a user of the npm package does on day one. It installs
//! the packed tarball (and TypeScript) from scratch, compiles a strict program
//! (`ts-consumer/reduce.ts`) that imports only the package, runs it over real notification
//! streams, and checks its summary against a count made here from the same streams, so the
//! types, the validator and the package's `exports` are all exercised as installed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};

use super::run_captured;
use crate::log;

const PROGRAM: &str = include_str!("ts-consumer/reduce.ts");

/// Versions the consumer compiles with: the ones the in-repo client locks.
const TYPESCRIPT: &str = "typescript@~5.9.3";
const NODE_TYPES: &str = "@types/node@^20.19.0";

/// Builds the project in `dir` (created), installs `tarball`, runs the program on `streams`.
pub(super) fn run(dir: &Path, tarball: &Path, streams: &[PathBuf]) -> Result<()> {
    std::fs::create_dir_all(dir.join("src"))
        .with_context(|| format!("creating {}", dir.display()))?;
    write(
        &dir.join("package.json"),
        &json!({"name": "fresh-consumer", "version": "0.0.0", "private": true}),
    )?;
    write(
        &dir.join("tsconfig.json"),
        &json!({
            "compilerOptions": {
                "target": "ES2022",
                "module": "nodenext",
                "moduleResolution": "nodenext",
                "lib": ["ES2022"],
                "types": ["node"],
                "strict": true,
                "noUncheckedIndexedAccess": true,
                "exactOptionalPropertyTypes": true,
                "skipLibCheck": false,
                "outDir": "dist",
                "rootDir": "src"
            },
            "include": ["src/**/*.ts"]
        }),
    )?;
    std::fs::write(dir.join("src/reduce.ts"), PROGRAM).context("writing src/reduce.ts")?;
    let tarball = tarball.to_string_lossy().into_owned();
    run_captured(
        dir,
        "npm",
        &[
            "install",
            "--no-audit",
            "--no-fund",
            "--silent",
            &tarball,
            TYPESCRIPT,
            NODE_TYPES,
        ],
    )?;
    run_captured(dir, "npx", &["--no-install", "tsc", "-p", "tsconfig.json"])?;
    let mut args = vec!["dist/reduce.js".to_owned()];
    args.extend(
        streams
            .iter()
            .map(|path| path.to_string_lossy().into_owned()),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run_captured(dir, "node", &args)?;
    let results: Value =
        serde_json::from_str(&output).context("the program's summary is not JSON")?;
    for stream in streams {
        let key = stream.to_string_lossy();
        let got = results
            .get(key.as_ref())
            .with_context(|| format!("no summary for {key}"))?;
        let expected = expected_summary(stream)?;
        for field in [
            "messages",
            "notifications",
            "requests",
            "turns",
            "itemsCompleted",
        ] {
            ensure!(
                got[field] == expected[field],
                "{key}: the TypeScript reduction says {field} = {}, the stream has {}",
                got[field],
                expected[field]
            );
        }
        log(&format!(
            "{}: {} messages validated, {} turns, {} items completed",
            stream
                .file_name()
                .map_or_else(|| key.to_string(), |n| n.to_string_lossy().into_owned()),
            got["messages"],
            got["turns"],
            got["itemsCompleted"].as_object().map_or(0, |items| items
                .values()
                .filter_map(Value::as_u64)
                .sum::<u64>())
        ));
    }
    Ok(())
}

/// The same counts, made from the raw JSON lines.
fn expected_summary(stream: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(stream).with_context(|| format!("reading {}", stream.display()))?;
    let (mut messages, mut notifications, mut requests) = (0u64, 0u64, 0u64);
    let mut turns = std::collections::BTreeSet::new();
    let mut items: BTreeMap<String, u64> = BTreeMap::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let message: Value = serde_json::from_str(line).context("a stream line is not JSON")?;
        messages += 1;
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            continue;
        };
        if message.get("id").is_some() {
            requests += 1;
            continue;
        }
        notifications += 1;
        let params = &message["params"];
        match method {
            "turn/started" | "turn/completed" => {
                turns.insert(params["turn"]["id"].to_string());
            }
            "item/completed" => {
                let kind = params["item"]["type"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                *items.entry(kind).or_default() += 1;
            }
            _ => {}
        }
    }
    Ok(json!({
        "messages": messages,
        "notifications": notifications,
        "requests": requests,
        "turns": turns.len(),
        "itemsCompleted": items,
    }))
}

fn write(path: &Path, value: &Value) -> Result<()> {
    let text = serde_json::to_string_pretty(value).context("rendering JSON")?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}
