//! `codex-thread mcp [--home DIR]`: what people ask of their sessions, as the tools of a
//! Model Context Protocol server on standard input and output (the `rmcp` crate), for agents
//! (Codex itself is an MCP client).
//!
//! Each tool answers exactly what the matching command's `--json` answers: it runs that
//! command in this process, on the served home, its output written to the tool's result
//! (`list_sessions` is `list`, `search_sessions` is `search`, `read_thread` is `thread` with
//! `--last N` for a page from the end, `usage` is `usage`, `sessions_touching_file` is
//! `search --role tool`, where patched paths and tool calls are indexed). A command that
//! fails is a tool result marked as an error, with the command's message.

use std::path::PathBuf;

use clap::Args;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, Implementation, ServerCapabilities, ServerInfo};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{CommandResult, Failure, Status};
use crate::input::resolve_home;
use crate::output::Output;

/// `mcp`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct McpArgs {
    /// The Codex home the tools answer about (default: $CODEX_HOME, else ~/.codex).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
}

/// Runs the server until its client closes standard input.
pub(crate) fn run(args: &McpArgs, _out: &mut Output) -> CommandResult {
    let home = resolve_home(args.home.as_deref())?.root;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| Failure::Content(format!("cannot start the MCP server: {error}")))?;
    runtime.block_on(async {
        let running = Sessions { home }
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| Failure::Content(format!("the MCP client did not start: {error}")))?;
        running
            .waiting()
            .await
            .map_err(|error| Failure::Content(format!("the MCP server stopped: {error}")))?;
        Ok(Status::Ok)
    })
}

/// The server: one home, its tools.
#[derive(Debug, Clone)]
struct Sessions {
    home: PathBuf,
}

/// `list_sessions`' arguments.
#[derive(Debug, Deserialize, JsonSchema)]
struct ListParams {
    /// Sessions per page (default 20).
    limit: Option<u32>,
    /// The page after this cursor (a previous answer's `next_cursor`).
    cursor: Option<String>,
    /// Archived sessions instead of live ones.
    #[serde(default)]
    archived: bool,
    /// Only these kinds of source (cli, vscode, exec, appServer, subAgent, ...).
    #[serde(default)]
    sources: Vec<String>,
}

/// `search_sessions`' arguments.
#[derive(Debug, Deserialize, JsonSchema)]
struct SearchParams {
    /// The words to find.
    query: String,
    /// Hits at most (default 20).
    limit: Option<u32>,
}

/// `read_thread`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
struct ThreadParams {
    /// The thread's id, or a unique prefix of one.
    thread: String,
    /// Only its last N turns (a page from the end); every turn when absent.
    last_turns: Option<u32>,
}

/// `usage`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
struct UsageParams {
    /// The report: daily (default), weekly, monthly, session, model or project.
    by: Option<String>,
    /// First day counted, YYYY-MM-DD.
    since: Option<String>,
    /// Last day counted, YYYY-MM-DD.
    until: Option<String>,
}

/// `sessions_touching_file`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
struct FileParams {
    /// The file's path, or part of it.
    path: String,
    /// Hits at most (default 20).
    limit: Option<u32>,
}

#[tool_router]
impl Sessions {
    #[tool(
        description = "List the Codex sessions of the home, newest first, a page at a time: each with its thread id, preview, name, source, working directory and times (what `codex-thread list --json` prints)."
    )]
    async fn list_sessions(
        &self,
        Parameters(params): Parameters<ListParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut args = self.command("list");
        push_option(&mut args, "--limit", params.limit);
        push_option(&mut args, "--cursor", params.cursor);
        if params.archived {
            args.push("--archived".to_owned());
        }
        for source in params.sources {
            args.extend(["--source".to_owned(), source]);
        }
        answer(args).await
    }

    #[tool(
        description = "Full-text search over every session of the home (messages, reasoning summaries, tool calls and outputs, patched paths); each hit with its thread, turn and a snippet (what `codex-thread search --json` prints)."
    )]
    async fn search_sessions(
        &self,
        Parameters(params): Parameters<SearchParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut args = self.command("search");
        args.insert(2, params.query);
        push_option(&mut args, "--limit", params.limit);
        answer(args).await
    }

    #[tool(
        description = "Read one thread as Codex's app-server shows it: its turns and items (messages, commands, patches, tool calls), all or the last N turns (what `codex-thread thread --json` prints)."
    )]
    async fn read_thread(
        &self,
        Parameters(params): Parameters<ThreadParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut args = self.command("thread");
        args.insert(2, params.thread);
        push_option(&mut args, "--last", params.last_turns);
        answer(args).await
    }

    #[tool(
        description = "Token usage and cost of the home's sessions by day, week, month, session, model or project, each model response counted once (what `codex-thread usage --json` prints)."
    )]
    async fn usage(
        &self,
        Parameters(params): Parameters<UsageParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut args = self.command("usage");
        push_option(&mut args, "--by", params.by);
        push_option(&mut args, "--since", params.since);
        push_option(&mut args, "--until", params.until);
        answer(args).await
    }

    #[tool(
        description = "The sessions whose tool calls, outputs or patches name a file (what `codex-thread search --role tool --json` prints for the path)."
    )]
    async fn sessions_touching_file(
        &self,
        Parameters(params): Parameters<FileParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut args = self.command("search");
        args.insert(2, params.path);
        args.extend(["--role".to_owned(), "tool".to_owned()]);
        push_option(&mut args, "--limit", params.limit);
        answer(args).await
    }
}

#[tool_handler]
impl ServerHandler for Sessions {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "codex-thread",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(format!(
                "Codex sessions of the home {}: list, search and read them, and their usage.",
                self.home.display()
            ))
    }
}

impl Sessions {
    /// `--json COMMAND --home HOME`: the start of a command line of this home.
    fn command(&self, command: &str) -> Vec<String> {
        vec![
            "--json".to_owned(),
            command.to_owned(),
            "--home".to_owned(),
            self.home.display().to_string(),
        ]
    }
}

/// Appends `--flag VALUE` when there is a value.
fn push_option(args: &mut Vec<String>, flag: &str, value: Option<impl ToString>) {
    if let Some(value) = value {
        args.extend([flag.to_owned(), value.to_string()]);
    }
}

/// The tool result of the command line `args`, run in this process on a blocking thread.
async fn answer(args: Vec<String>) -> Result<CallToolResult, ErrorData> {
    let ran = tokio::task::spawn_blocking(move || super::run_in_process(&args))
        .await
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
    Ok(match ran {
        Ok(text) => CallToolResult::success(vec![Content::text(text)]),
        Err(message) => CallToolResult::error(vec![Content::text(message)]),
    })
}
