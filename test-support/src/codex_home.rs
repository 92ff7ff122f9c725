//! A throwaway `$CODEX_HOME` wired to a scripted model, and the real Codex run in it.
//!
//! Each [`CodexHome`] is a fresh temporary folder (outside the repository) holding the
//! `config.toml` of `../shared/reference/real-codex.md`: provider `mock` at a
//! [`ScriptedModel`]'s `base_url`, no retries, no network of Codex's own, commands run
//! without approval. Codex runs with its working directory in a second folder beside it, so
//! what a scripted command writes never lands in the home.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;

use crate::app_server::{AppServer, AppServerError};
use crate::process::run_bounded;
use crate::real_codex::RealCodex;
use crate::scripted_model::ScriptedModel;

/// The model a home uses unless told otherwise: a catalogue model with the classic tools
/// (`exec_command`, freeform `apply_patch`).
pub const DEFAULT_CODEX_MODEL: &str = "gpt-5.5";

/// How long one Codex run may take before it is killed.
pub const DEFAULT_RUN_TIMEOUT: Duration = Duration::from_secs(60);

/// The variable the `mock` provider's `env_key` names; every run sets it.
const MODEL_KEY_ENV: &str = "CODEX_TEST_MODEL_KEY";

/// Variables of the caller's environment that would change what Codex does (real keys and
/// endpoints, the markers Codex sets in the commands it runs); removed from every run, so a
/// test behaves the same when the suite itself runs under Codex.
const CLEARED_ENV: [&str; 5] = [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "CODEX_API_KEY",
    "CODEX_SANDBOX",
    "CODEX_SANDBOX_NETWORK_DISABLED",
];

/// A fresh Codex home and working directory, removed on drop.
#[derive(Debug)]
pub struct CodexHome {
    codex: RealCodex,
    _root: TempDir,
    home: PathBuf,
    work: PathBuf,
}

impl CodexHome {
    /// A home using [`DEFAULT_CODEX_MODEL`] from `model`.
    ///
    /// # Errors
    ///
    /// When the folders or `config.toml` cannot be written.
    pub fn new(codex: &RealCodex, model: &ScriptedModel) -> io::Result<CodexHome> {
        CodexHome::with_model(codex, model, DEFAULT_CODEX_MODEL)
    }

    /// A home using `model_name` (e.g. a code-mode `gpt-6-*` model) from `model`.
    ///
    /// # Errors
    ///
    /// When the folders or `config.toml` cannot be written.
    pub fn with_model(
        codex: &RealCodex,
        model: &ScriptedModel,
        model_name: &str,
    ) -> io::Result<CodexHome> {
        let root = tempfile::Builder::new()
            .prefix("codex-real-home-")
            .tempdir()?;
        let home = root.path().join("home");
        let work = root.path().join("work");
        std::fs::create_dir_all(&home)?;
        std::fs::create_dir_all(&work)?;
        std::fs::write(
            home.join("config.toml"),
            config_toml(model_name, model.base_url()),
        )?;
        Ok(CodexHome {
            codex: codex.clone(),
            _root: root,
            home,
            work,
        })
    }

    /// The folder `CODEX_HOME` points at.
    pub fn path(&self) -> &Path {
        &self.home
    }

    /// The working directory Codex runs in.
    pub fn work_dir(&self) -> &Path {
        &self.work
    }

    /// The binary this home runs.
    pub fn codex(&self) -> &RealCodex {
        &self.codex
    }

    /// From now on runs `codex` instead: another release reading and resuming what the first
    /// one wrote, in the same home and working directory.
    pub fn switch_to(&mut self, codex: &RealCodex) {
        self.codex = codex.clone();
    }

    /// Runs with `-c key=value` overrides (TOML values, e.g.
    /// `model_auto_compact_token_limit=5000`) or another time bound.
    pub fn runner(&self) -> CodexRunner<'_> {
        CodexRunner {
            home: self,
            overrides: Vec::new(),
            timeout: DEFAULT_RUN_TIMEOUT,
        }
    }

    /// `codex exec --json --skip-git-repo-check PROMPT`: a new thread.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started (a run that fails or times out is an [`ExecRun`]).
    pub fn exec(&self, prompt: &str) -> io::Result<ExecRun> {
        self.runner().exec(prompt)
    }

    /// `codex exec ... resume THREAD_ID PROMPT`: one more turn.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn resume(&self, thread_id: &str, prompt: &str) -> io::Result<ExecRun> {
        self.runner().resume(thread_id, prompt)
    }

    /// `codex exec ... fork THREAD_ID PROMPT`: a new thread continuing `thread_id`.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn fork(&self, thread_id: &str, prompt: &str) -> io::Result<ExecRun> {
        self.runner().fork(thread_id, prompt)
    }

    /// `codex archive ID`.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn archive(&self, id: &str) -> io::Result<ExecRun> {
        self.runner().run(&["archive", id])
    }

    /// `codex unarchive ID`.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn unarchive(&self, id: &str) -> io::Result<ExecRun> {
        self.runner().run(&["unarchive", id])
    }

    /// `codex delete --force ID`.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn delete(&self, id: &str) -> io::Result<ExecRun> {
        // Without a terminal Codex 0.169 asks for confirmation it cannot get; `--force` is
        // how it deletes unattended.
        self.runner().run(&["delete", "--force", id])
    }

    /// `codex ARGS...`, e.g. `["migrate-rollouts", "--apply", "--json"]`.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn run(&self, args: &[&str]) -> io::Result<ExecRun> {
        self.runner().run(args)
    }

    /// The rollout files under `sessions/` (at any depth) and `archived_sessions/`: every
    /// `rollout-*.jsonl` and `rollout-*.jsonl.zst`, sorted by path.
    ///
    /// # Errors
    ///
    /// When a folder that exists cannot be read.
    pub fn session_files(&self) -> io::Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        for folder in ["sessions", "archived_sessions"] {
            collect_rollouts(&self.home.join(folder), &mut files)?;
        }
        files.sort();
        Ok(files)
    }

    /// `codex app-server` on this home, initialized.
    ///
    /// # Errors
    ///
    /// When it cannot be started or does not answer `initialize`.
    pub fn app_server(&self) -> Result<AppServer, AppServerError> {
        AppServer::start(&self.codex, &self.home)
    }
}

/// One run of Codex in a [`CodexHome`], with its `-c` overrides and time bound.
#[derive(Debug)]
pub struct CodexRunner<'a> {
    home: &'a CodexHome,
    overrides: Vec<String>,
    timeout: Duration,
}

impl CodexRunner<'_> {
    /// Adds `-c key_value` (`key=value`, the value TOML).
    pub fn config(mut self, key_value: &str) -> Self {
        self.overrides.push(key_value.to_owned());
        self
    }

    /// Kills the run after `timeout` instead of [`DEFAULT_RUN_TIMEOUT`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// See [`CodexHome::exec`].
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn exec(&self, prompt: &str) -> io::Result<ExecRun> {
        self.run(&["exec", "--json", "--skip-git-repo-check", prompt])
    }

    /// See [`CodexHome::resume`].
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn resume(&self, thread_id: &str, prompt: &str) -> io::Result<ExecRun> {
        self.run(&[
            "exec",
            "--json",
            "--skip-git-repo-check",
            "resume",
            thread_id,
            prompt,
        ])
    }

    /// See [`CodexHome::fork`].
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn fork(&self, thread_id: &str, prompt: &str) -> io::Result<ExecRun> {
        self.run(&[
            "exec",
            "--json",
            "--skip-git-repo-check",
            "fork",
            thread_id,
            prompt,
        ])
    }

    /// `codex -c ... ARGS...` with `CODEX_HOME` set, stdin closed, in the work directory.
    ///
    /// # Errors
    ///
    /// When Codex cannot be started.
    pub fn run(&self, args: &[&str]) -> io::Result<ExecRun> {
        let mut command = self.home.codex.command();
        for key_value in &self.overrides {
            command.args(["-c", key_value]);
        }
        command.args(args).current_dir(&self.home.work);
        set_codex_env(&mut command, &self.home.home);
        let finished = run_bounded(&mut command, self.timeout)?;
        Ok(ExecRun::new(
            finished.status,
            finished.timed_out,
            String::from_utf8_lossy(&finished.stdout).into_owned(),
            String::from_utf8_lossy(&finished.stderr).into_owned(),
        ))
    }
}

/// What one Codex run did.
#[derive(Clone, Debug)]
pub struct ExecRun {
    /// The exit status (of the kill, when it timed out).
    pub status: ExitStatus,
    /// Whether it was killed for running past its time bound.
    pub timed_out: bool,
    /// Standard output as text.
    pub stdout: String,
    /// Standard error as text.
    pub stderr: String,
    /// The stdout lines that are JSON (`codex exec --json` events), in order.
    pub events: Vec<Value>,
    /// `thread_id` of the `thread.started` event.
    pub thread_id: Option<String>,
}

impl ExecRun {
    fn new(status: ExitStatus, timed_out: bool, stdout: String, stderr: String) -> ExecRun {
        let events: Vec<Value> = stdout
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        let thread_id = events
            .iter()
            .find(|event| event.get("type").and_then(Value::as_str) == Some("thread.started"))
            .and_then(|event| event.get("thread_id"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        ExecRun {
            status,
            timed_out,
            stdout,
            stderr,
            events,
            thread_id,
        }
    }

    /// Exited 0 within its time bound.
    pub fn success(&self) -> bool {
        self.status.success() && !self.timed_out
    }

    /// The events of one `type` (e.g. `item.completed`).
    pub fn events_of_type(&self, kind: &str) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|event| event.get("type").and_then(Value::as_str) == Some(kind))
            .collect()
    }

    /// The thread id, for a run that must have started a thread.
    ///
    /// # Panics
    ///
    /// When there was no `thread.started` event; the message shows the run.
    #[track_caller]
    #[allow(clippy::panic)]
    pub fn expect_thread_id(&self) -> &str {
        match &self.thread_id {
            Some(id) => id,
            None => panic!("the run started no thread\n{}", self.describe()),
        }
    }

    /// Itself, for a run that must have succeeded.
    ///
    /// # Panics
    ///
    /// When it failed or timed out; the message shows its status, stdout and stderr.
    #[track_caller]
    #[allow(clippy::panic)]
    pub fn assert_success(&self) -> &ExecRun {
        if !self.success() {
            panic!("the Codex run failed\n{}", self.describe());
        }
        self
    }

    fn describe(&self) -> String {
        format!(
            "status: {}{}\n--- stdout\n{}\n--- stderr\n{}",
            self.status,
            if self.timed_out { " (timed out)" } else { "" },
            self.stdout,
            self.stderr
        )
    }
}

/// Points `command` at `codex_home`: `CODEX_HOME`, the `mock` provider's key, and none of
/// the caller's variables that could send Codex elsewhere.
pub(crate) fn set_codex_env(command: &mut Command, codex_home: &Path) {
    command
        .env("CODEX_HOME", codex_home)
        .env(MODEL_KEY_ENV, "test-key");
    for name in CLEARED_ENV {
        command.env_remove(name);
    }
}

/// The `config.toml` of a test home (see the module docs).
fn config_toml(model_name: &str, base_url: &str) -> String {
    let model = toml_string(model_name);
    let base_url = toml_string(base_url);
    format!(
        r#"model = {model}
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = {base_url}
wire_api = "responses"
env_key = "{MODEL_KEY_ENV}"
requires_openai_auth = false
supports_websockets = false
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 120000

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
metrics_exporter = "none"

[features]
plugins = false
remote_plugin = false
apps = false
"#
    )
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for ch in text.chars() {
        match ch {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            ch if ch.is_control() => quoted.push_str(&format!("\\u{:04X}", u32::from(ch))),
            ch => quoted.push(ch),
        }
    }
    quoted.push('"');
    quoted
}

fn collect_rollouts(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect_rollouts(&path, files)?;
        } else if path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| {
                name.starts_with("rollout-")
                    && (name.ends_with(".jsonl") || name.ends_with(".jsonl.zst"))
            })
        {
            files.push(path);
        }
    }
    Ok(())
}
