//! `codex-thread`'s integration tests, one binary (as `../shared/STYLE.md` asks: one link,
//! not one per file). Each module is one command or one comparison; the tests run against the
//! real Codex are the modules whose names hold `real_codex` (`cargo xtask real-codex diff`
//! runs them by that filter). `common` holds the helpers they share.

mod common;
mod live_equals_replay;

mod bad_input;
mod complete_transcript;
mod compress_crash;
mod compressed;
mod damaged;
mod disk_usage;
mod export_browser;
mod export_html;
mod export_streamed;
mod fork_by_reference;
mod home_rule;
mod import_continued_real_codex;
mod import_real_codex;
mod list_sources;
mod mcp_real_codex;
mod notifications_streamed;
mod prompt_old_metas;
mod prune;
mod real_codex_prompt;
mod real_codex_thread;
mod real_codex_view_follow;
mod real_codex_view_running;
mod real_codex_written;
mod real_fixtures;
mod redact;
mod repair_real_codex;
mod rescue;
mod sample;
mod sample_commands;
mod search;
mod serve_live_real_codex;
mod serve_real_codex;
mod serve_transport;
mod serve_tui;
mod small_things;
mod table;
mod table_crash;
mod table_engines;
mod terminal_safety;
mod thread_streamed;
mod turn_agreement;
mod usage;
mod usage_ccusage;
mod usage_once;
mod usage_project;
mod version_matrix;
mod view;
mod view_follow;
mod view_tmux;
