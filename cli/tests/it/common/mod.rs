//! Helpers shared by the integration tests: running the binary, the real fixtures, the
//! generated JSON Schema.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub(crate) mod browser;
pub(crate) mod ccusage;
#[path = "../../../../rollout/benches/support/generate.rs"]
pub(crate) mod generate;
pub(crate) mod home;
pub(crate) mod large_session;
pub(crate) mod moments;
pub(crate) mod real_codex;
pub(crate) mod serve;
pub(crate) mod tables;
pub(crate) mod usage_home;
pub(crate) mod view;

pub(crate) type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The real session files folder (see `shared/fixtures/real/README.md`).
pub(crate) use codex_test_support::REAL_FIXTURES;

/// Files there that are shape catalogues with trimmed values, not captures.
/// The thread the bundled sample records (`cargo xtask sample` writes it; `sample.rs` checks
/// the committed file says so).
pub(crate) const SAMPLE_THREAD_ID: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55";

pub(crate) const SHAPE_CATALOGUES: &[&str] = &["jazzyalex__agent-sessions__small.jsonl"];

/// The generated JSON Schema folder of the app-server protocol.
pub(crate) const SCHEMA_DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../app-server-protocol/schema/json"
);

/// The largest of `files` and a zstd copy of it (level 3, one frame) written into `dir`: what
/// the streamed-versus-whole tests read as a compressed rollout.
pub(crate) fn compressed_copy_of_largest(
    files: &[PathBuf],
    dir: &Path,
) -> Result<(PathBuf, PathBuf), Box<dyn std::error::Error>> {
    let plain = files
        .iter()
        .max_by_key(|file| fs::metadata(file).map_or(0, |meta| meta.len()))
        .ok_or("no files to compress")?;
    let zst = dir.join("copy.jsonl.zst");
    fs::write(&zst, zstd::encode_all(fs::read(plain)?.as_slice(), 3)?)?;
    Ok((plain.clone(), zst))
}

/// The `codex-thread` binary, with a clean environment for logging.
pub(crate) fn bin() -> Result<Command, Box<dyn std::error::Error>> {
    let mut command = Command::cargo_bin("codex-thread")?;
    command.env_remove("RUST_LOG").env_remove("CODEX_HOME");
    Ok(command)
}

/// The real session files, or `None` (after saying so loudly) when the folder is absent and
/// `CODEX_REQUIRE_REAL_FIXTURES=1` is not set; an empty folder is an error here.
pub(crate) fn real_files() -> Result<Option<Vec<PathBuf>>, Box<dyn std::error::Error>> {
    let Some(files) = codex_test_support::real_jsonl_files()? else {
        return Ok(None);
    };
    if files.is_empty() {
        return Err(format!("no .jsonl files in {REAL_FIXTURES}").into());
    }
    Ok(Some(files))
}

/// The real file whose fixture name starts with `prefix`: the name Codex gave it (from
/// `rollout-` on) and its bytes.
pub(crate) fn real_rollout(
    files: &[PathBuf],
    prefix: &str,
) -> Result<(String, Vec<u8>), Box<dyn std::error::Error>> {
    let path = files
        .iter()
        .find(|path| name(path).starts_with(prefix))
        .ok_or(prefix.to_string())?;
    let file_name = name(path);
    let at = file_name.find("rollout-").ok_or("no rollout name")?;
    Ok((file_name[at..].to_string(), fs::read(path)?))
}

/// The file name of `path`, for messages.
pub(crate) fn name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether `path` is a shape catalogue rather than a capture.
pub(crate) fn is_catalogue(path: &Path) -> bool {
    SHAPE_CATALOGUES.contains(&name(path).as_str())
}

/// A validator for the committed schema file `file` (relative to the schema folder).
pub(crate) fn schema(file: &str) -> Result<jsonschema::Validator, Box<dyn std::error::Error>> {
    let path = Path::new(SCHEMA_DIR).join(file);
    let value: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path)?)?;
    Ok(jsonschema::validator_for(&value)?)
}

/// The two schemas a line of `codex-thread notifications` must satisfy: a server request
/// when it carries an `id`, a notification otherwise.
pub(crate) struct MessageSchemas {
    notification: jsonschema::Validator,
    request: jsonschema::Validator,
}

impl MessageSchemas {
    pub(crate) fn load() -> Result<Self, Box<dyn std::error::Error>> {
        Ok(Self {
            notification: schema("ServerNotification.json")?,
            request: schema("ServerRequest.json")?,
        })
    }

    /// The violations of one JSON-RPC message against the schema its shape calls for.
    pub(crate) fn violations(&self, message: &serde_json::Value) -> Vec<String> {
        let validator = if message.get("id").is_some() {
            &self.request
        } else {
            &self.notification
        };
        violations(validator, message)
    }
}

/// The schema violations of `value`, at most five, as text.
pub(crate) fn violations(
    validator: &jsonschema::Validator,
    value: &serde_json::Value,
) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .take(5)
        .collect()
}

/// Runs the binary with `args`, expects exit 0, and returns standard output.
pub(crate) fn stdout_of(args: &[&str]) -> Result<String, Box<dyn std::error::Error>> {
    let output = bin()?.args(args).output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("codex-thread {args:?} failed ({}): {stderr}", output.status).into());
    }
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    Ok(String::from_utf8(output.stdout)?)
}

/// Parses JSON Lines.
pub(crate) fn json_lines(text: &str) -> Result<Vec<serde_json::Value>, serde_json::Error> {
    text.lines().map(serde_json::from_str).collect()
}

/// Counts the `user_message` events of a file and the rollbacks, independently of the tool:
/// each line parsed on its own as JSON.
pub(crate) fn user_message_events(
    path: &Path,
) -> Result<Option<usize>, Box<dyn std::error::Error>> {
    let text = fs::read_to_string(path)?;
    let mut events: usize = 0;
    let mut any_envelope = false;
    for line in text.lines() {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if value.get("payload").is_some() {
            any_envelope = true;
        }
        if value.get("type").and_then(|t| t.as_str()) != Some("event_msg") {
            continue;
        }
        let payload = &value["payload"];
        match payload.get("type").and_then(|t| t.as_str()) {
            Some("user_message") => events += 1,
            Some("thread_rolled_back") => {
                let turns = payload["num_turns"].as_u64().unwrap_or(0) as usize;
                events = events.saturating_sub(turns);
            }
            _ => {}
        }
    }
    Ok(any_envelope.then_some(events))
}

/// A thread's JSON (`thread --json`, `export --json`) without what the file itself is (its
/// path and modification time) and what its home says (the default model provider a meta
/// without one gets; standard input has no home), which are not content: what two reads of
/// one session by different names or streams must agree on.
pub(crate) fn without_file_facts(
    output: &str,
) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
    let mut thread: serde_json::Value = serde_json::from_str(output)?;
    if let Some(fields) = thread.as_object_mut() {
        for key in ["path", "updatedAt", "recencyAt", "modelProvider"] {
            fields.remove(key);
        }
    }
    Ok(thread)
}
