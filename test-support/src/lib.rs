//! Test-only helpers shared by every crate of the workspace.
//!
//! Why this crate exists: tests need two things from outside the repository, and all of them
//! must follow the same rule when one is missing: say so loudly and pass, unless a
//! `CODEX_REQUIRE_*` variable is `1`, where the missing thing fails the test. Written once
//! here, the rule cannot drift between copies.
//!
//! - **The real session files** in `../shared/fixtures/real` (relative to the workspace
//!   root; `CODEX_REQUIRE_REAL_FIXTURES`): [`real_fixtures_dir`], [`real_jsonl_files`].
//! - **The real Codex CLI**, version [`PINNED_CODEX_VERSION`], installed by
//!   `cargo xtask real-codex install` (`CODEX_REQUIRE_REAL_CODEX`; `CODEX_REAL_BIN` points at
//!   another binary). [`real_codex_or_skip`] finds it. A [`ScriptedModel`] plays the model
//!   on 127.0.0.1 from a [`Script`] of [`Reply`]s and records every [`RecordedRequest`]; a
//!   [`CodexHome`] is a throwaway `$CODEX_HOME` wired to it, where [`CodexHome::exec`] and
//!   friends run Codex with a time bound and return an [`ExecRun`]; an [`AppServer`] reads
//!   the home back the way a Codex client does. [`json_differences`] says where our answer
//!   and Codex's part, and a [`DiffReport`] records each comparison for
//!   `cargo xtask real-codex diff`.
//!
//! - **DuckDB** and **PySpark** from PyPI ([`DUCKDB`], [`PYSPARK`]), each at a pinned version
//!   in a virtual environment that `cargo xtask duckdb` / `cargo xtask spark` (and `ci`)
//!   create (`CODEX_REQUIRE_DUCKDB`, `CODEX_REQUIRE_SPARK`; `CODEX_DUCKDB_PYTHON` and
//!   `CODEX_SPARK_PYTHON` point at another Python): [`PythonPackage::python_or_skip`], for the
//!   Parquet table tests; [`TableFolder`], what a tables folder holds, for the tests that stop
//!   or kill a run.
//!
//! It also holds one old session file the compression tests of codex-rollout and codex-home
//! share ([`old_session`]), the flags a headless browser runs with (`headless_browser`), which the
//! export's browser tests and `cargo xtask screenshots` share, and the rule that benchmarks
//! measure under `cargo bench` only (`under_cargo_bench`).
//!
//! A real-Codex test reads:
//!
//! ```no_run
//! use codex_test_support::{
//!     CodexHome, Reply, Script, ScriptedModel, assistant_message, exec_command_call,
//!     real_codex_or_skip,
//! };
//!
//! let Some(codex) = real_codex_or_skip("doc_example") else { return Ok(()) };
//! let model = ScriptedModel::start(
//!     Script::new()
//!         .reply(Reply::items(vec![exec_command_call("call_1", "echo hi")]))
//!         .reply(Reply::items(vec![assistant_message("msg_1", "Done.")])),
//! )?;
//! let home = CodexHome::new(&codex, &model)?;
//! let run = home.exec("say hi")?;
//! run.assert_success();
//! assert_eq!(model.model_calls().len(), 2);
//! let threads = home.app_server()?.thread_list(false)?;
//! assert_eq!(threads.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! It is a dev-dependency only and depends on no workspace crate (external crates only), so
//! that even `codex-protocol` (which everything else depends on) may use it without a
//! dependency cycle.

mod app_server;
mod bench;
mod browser;
mod codex_home;
mod diff_report;
mod http;
mod json_diff;
mod model_items;
pub mod old_session;
mod process;
mod python_package;
mod real_codex;
mod real_fixtures;
mod script;
mod scripted_model;
mod skip;
mod table_folder;
mod tmux;

pub use crate::app_server::{ALL_SOURCE_KINDS, AppServer, AppServerError, DEFAULT_CALL_TIMEOUT};
pub use crate::bench::under_cargo_bench;
pub use crate::browser::headless_browser;
pub use crate::codex_home::{
    CodexHome, CodexRunner, DEFAULT_CODEX_MODEL, DEFAULT_RUN_TIMEOUT, ExecRun,
};
pub use crate::diff_report::{
    DIFF_REPORT_ENV, DiffOutcome, DiffRecord, DiffReport, read_diff_report,
};
pub use crate::json_diff::{
    Difference, DifferenceKind, assert_same_json, describe_differences, json_differences,
};
pub use crate::model_items::{
    Usage, apply_patch_call, assistant_message, exec_command_call, function_call, reasoning,
    web_search_call,
};
pub use crate::python_package::{DUCKDB, PYSPARK, PythonPackage, python_in_venv};
pub use crate::real_codex::{
    CI_WRITER_CODEX_VERSION, MATRIX_CODEX_VERSIONS, PINNED_CODEX_VERSION, REAL_CODEX_BIN_ENV,
    REQUIRE_REAL_CODEX_ENV, RealCodex, WRITER_CODEX_BIN_ENV, bin_in_install_dir, real_codex_at,
    real_codex_bin, real_codex_install_dir, real_codex_or_skip, writer_codex_or_skip,
};
pub use crate::real_fixtures::{
    REAL_FIXTURES, REQUIRE_REAL_FIXTURES_ENV, fixtures_dir_at, jsonl_files_in, non_empty_lines,
    real_file, real_fixtures_dir, real_jsonl_files, required_by_env,
};
pub use crate::script::{DEFAULT_MODEL_DEADLINE, Reply, Script};
pub use crate::scripted_model::{Answer, RecordedRequest, ScriptedModel};
pub use crate::skip::required_from;
pub use crate::table_folder::{TableFolder, copy_dir};
pub use crate::tmux::{TMUX_WAIT, Tmux, tmux_bin};
