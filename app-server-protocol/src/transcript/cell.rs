//! [`Cell`]: one block of a terminal transcript, and the rule that picks it for a
//! [`ThreadItem`] (seed 004 §4.2: the item's type decides the history cell).
//!
//! Why here: which cell an item becomes, what is folded and what a finished command shows are
//! decisions a second client (a web view, a test) must make the same way, so they live beside
//! the items, not in the terminal renderer. Cells hold text, never styles or terminal bytes.

use crate::v2::{
    CommandExecutionStatus, DynamicToolCallStatus, McpToolCallStatus, PatchApplyStatus,
    PatchChangeKind, ThreadItem, TurnStatus, UserInput, WebSearchAction,
};

/// Output lines a command cell shows before it folds the rest.
pub const OUTPUT_FOLD_LINES: usize = 5;

/// One block of the transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The item the cell shows (the turn id for a turn separator or a marker of its own).
    pub item_id: String,
    /// The turn the cell belongs to.
    pub turn_id: String,
    /// What the cell shows.
    pub body: CellBody,
    /// Whether the cell is in the live tail (its item is still running), not in history.
    pub live: bool,
}

impl Cell {
    /// Whether the cell starts folded: reasoning always, a command whose output is longer
    /// than [`OUTPUT_FOLD_LINES`], a diff longer than twice that.
    pub fn folded_by_default(&self) -> bool {
        match &self.body {
            CellBody::Reasoning { .. } => true,
            CellBody::Command { output, .. } => output.lines().count() > OUTPUT_FOLD_LINES,
            CellBody::FileChange { files, .. } => {
                files
                    .iter()
                    .map(|file| file.diff.lines().count())
                    .sum::<usize>()
                    > 2 * OUTPUT_FOLD_LINES
            }
            _ => false,
        }
    }
}

/// What a cell shows, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum CellBody {
    /// What the person submitted: text, then a placeholder per image or attachment.
    User {
        /// The typed text.
        text: String,
        /// One label per image or attachment (`[image png 12.3 KiB]`).
        attachments: Vec<String>,
    },
    /// What the agent said, as Markdown.
    Agent {
        /// The Markdown text.
        markdown: String,
    },
    /// The agent's reasoning summary (folded by default).
    Reasoning {
        /// Summary paragraphs (raw content when there is no summary).
        paragraphs: Vec<String>,
    },
    /// A plan the agent wrote.
    Plan {
        /// The plan text.
        text: String,
    },
    /// A command: active while it runs, finished once it has an exit code.
    Command {
        /// The command line.
        command: String,
        /// Where it ran.
        cwd: String,
        /// Lifecycle word: `running`, `completed`, `failed`, `declined`.
        status: &'static str,
        /// Exit code once finished.
        exit_code: Option<i32>,
        /// Wall time once finished.
        duration_ms: Option<i64>,
        /// Combined output so far.
        output: String,
    },
    /// A patch, one diff per file.
    FileChange {
        /// Lifecycle word.
        status: &'static str,
        /// The touched files.
        files: Vec<FileDiff>,
    },
    /// A tool call (MCP, client tool, sub-agent, web search, image): a title and details.
    Tool {
        /// What kind of call (`mcp`, `tool`, `web search`, `agent`, `image`).
        kind: &'static str,
        /// One line naming the call.
        title: String,
        /// Lifecycle word.
        status: &'static str,
        /// Further lines (arguments, result, error).
        detail: String,
    },
    /// A one-line marker in the flow: compaction, rollback, review mode, a pause.
    Marker {
        /// The marker's text.
        text: String,
    },
    /// The end of a turn: its status, time and tokens.
    TurnEnd {
        /// How the turn ended.
        status: TurnStatus,
        /// How long it ran, when known.
        duration_ms: Option<i64>,
        /// Tokens the turn used, when the file says.
        tokens: Option<TurnTokens>,
        /// Why it failed, when it did.
        error: Option<String>,
    },
}

/// One file of a patch.
#[derive(Debug, Clone, PartialEq)]
pub struct FileDiff {
    /// The file (`old -> new` when moved).
    pub path: String,
    /// `add`, `delete` or `update`.
    pub kind: &'static str,
    /// Unified diff (update) or content (add, delete; shown with `+` or `-`).
    pub diff: String,
}

/// Tokens one turn used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnTokens {
    /// Input tokens (cached included).
    pub input: i64,
    /// Cached input tokens.
    pub cached_input: i64,
    /// Output tokens (reasoning included).
    pub output: i64,
}

/// The cell for `item` of turn `turn_id`; `live` when the item is still running.
pub fn cell_for_item(turn_id: &str, item: &ThreadItem) -> Cell {
    let body = body_for_item(item);
    let live = is_running(item);
    Cell {
        item_id: item.id().to_owned(),
        turn_id: turn_id.to_owned(),
        body,
        live,
    }
}

/// Whether `item` is still running: a command, patch or tool call whose status says so.
/// Messages and reasoning are complete whenever they are seen in history.
pub fn is_running(item: &ThreadItem) -> bool {
    match item {
        ThreadItem::CommandExecution { status, .. } => {
            *status == CommandExecutionStatus::InProgress
        }
        ThreadItem::FileChange { status, .. } => *status == PatchApplyStatus::InProgress,
        ThreadItem::McpToolCall { status, .. } => *status == McpToolCallStatus::InProgress,
        ThreadItem::DynamicToolCall { status, .. } => *status == DynamicToolCallStatus::InProgress,
        _ => false,
    }
}

fn body_for_item(item: &ThreadItem) -> CellBody {
    match item {
        ThreadItem::UserMessage { content, .. } => user_body(content),
        ThreadItem::HookPrompt { fragments, .. } => CellBody::User {
            text: fragments
                .iter()
                .map(|fragment| fragment.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            attachments: vec!["[hook prompt]".to_owned()],
        },
        ThreadItem::AgentMessage { text, .. } => CellBody::Agent {
            markdown: text.clone(),
        },
        ThreadItem::FunctionCallOutput { name, output, .. } => CellBody::Tool {
            kind: "output",
            title: name.clone(),
            status: "completed",
            detail: serde_json::to_string(output).unwrap_or_default(),
        },
        ThreadItem::Plan { text, .. } => CellBody::Plan { text: text.clone() },
        ThreadItem::Reasoning {
            summary, content, ..
        } => CellBody::Reasoning {
            paragraphs: if summary.is_empty() {
                content.clone()
            } else {
                summary.clone()
            },
        },
        ThreadItem::CommandExecution {
            command,
            cwd,
            status,
            aggregated_output,
            exit_code,
            duration_ms,
            ..
        } => CellBody::Command {
            command: command.clone(),
            cwd: cwd.clone(),
            status: match status {
                CommandExecutionStatus::InProgress => "running",
                CommandExecutionStatus::Completed => "completed",
                CommandExecutionStatus::Failed => "failed",
                CommandExecutionStatus::Declined => "declined",
            },
            exit_code: *exit_code,
            duration_ms: *duration_ms,
            output: aggregated_output.clone().unwrap_or_default(),
        },
        ThreadItem::FileChange {
            changes, status, ..
        } => CellBody::FileChange {
            status: patch_status(*status),
            files: changes
                .iter()
                .map(|change| {
                    let (kind, path) = match &change.kind {
                        PatchChangeKind::Add => ("add", change.path.clone()),
                        PatchChangeKind::Delete => ("delete", change.path.clone()),
                        PatchChangeKind::Update {
                            move_path: Some(to),
                        } => ("update", format!("{} -> {to}", change.path)),
                        PatchChangeKind::Update { move_path: None } => {
                            ("update", change.path.clone())
                        }
                    };
                    FileDiff {
                        path,
                        kind,
                        diff: change.diff.clone(),
                    }
                })
                .collect(),
        },
        ThreadItem::McpToolCall {
            server,
            tool,
            status,
            arguments,
            result,
            error,
            ..
        } => {
            let mut detail = format!("arguments: {arguments}");
            if let Some(result) = result {
                for block in &result.content {
                    let text = block
                        .get("text")
                        .and_then(serde_json::Value::as_str)
                        .map_or_else(|| block.to_string(), str::to_owned);
                    detail.push('\n');
                    detail.push_str(&text);
                }
            }
            if let Some(error) = error {
                detail.push_str("\nerror: ");
                detail.push_str(&error.message);
            }
            CellBody::Tool {
                kind: "mcp",
                title: format!("{server}.{tool}"),
                status: match status {
                    McpToolCallStatus::InProgress => "running",
                    McpToolCallStatus::Completed => "completed",
                    McpToolCallStatus::Failed => "failed",
                },
                detail,
            }
        }
        ThreadItem::DynamicToolCall {
            namespace,
            tool,
            arguments,
            status,
            ..
        } => CellBody::Tool {
            kind: "tool",
            title: match namespace {
                Some(namespace) => format!("{namespace}.{tool}"),
                None => tool.clone(),
            },
            status: match status {
                DynamicToolCallStatus::InProgress => "running",
                DynamicToolCallStatus::Completed => "completed",
                DynamicToolCallStatus::Failed => "failed",
            },
            detail: format!("arguments: {arguments}"),
        },
        ThreadItem::CollabAgentToolCall {
            tool,
            receiver_thread_ids,
            prompt,
            ..
        } => CellBody::Tool {
            kind: "agent",
            title: format!("{tool:?} {}", receiver_thread_ids.join(", ")),
            status: "completed",
            detail: prompt.clone().unwrap_or_default(),
        },
        ThreadItem::SubAgentActivity {
            kind, agent_path, ..
        } => CellBody::Marker {
            text: format!("sub-agent {agent_path}: {kind:?}"),
        },
        ThreadItem::WebSearch { query, action, .. } => CellBody::Tool {
            kind: "web search",
            title: web_search_title(query, action.as_ref()),
            status: "completed",
            detail: String::new(),
        },
        ThreadItem::ImageView { path, .. } => CellBody::Tool {
            kind: "image",
            title: format!("viewed {path}"),
            status: "completed",
            detail: String::new(),
        },
        ThreadItem::Sleep { duration_ms, .. } => CellBody::Marker {
            text: format!("paused {duration_ms} ms"),
        },
        ThreadItem::ImageGeneration {
            status,
            revised_prompt,
            result,
            saved_path,
            ..
        } => CellBody::Tool {
            kind: "image",
            title: match saved_path {
                Some(path) => format!("generated {path}"),
                None => format!("generated [image {}]", human_bytes(base64_len(result))),
            },
            status: if status == "completed" {
                "completed"
            } else {
                "running"
            },
            detail: revised_prompt.clone().unwrap_or_default(),
        },
        ThreadItem::EnteredReviewMode { review, .. } => CellBody::Marker {
            text: format!("entered review: {review}"),
        },
        ThreadItem::ExitedReviewMode { .. } => CellBody::Marker {
            text: "left review mode".to_owned(),
        },
        ThreadItem::ContextCompaction { .. } => CellBody::Marker {
            text: "context compacted".to_owned(),
        },
        ThreadItem::Extension { kind, .. } => CellBody::Marker {
            text: format!("extension item {kind}"),
        },
    }
}

fn user_body(content: &[UserInput]) -> CellBody {
    let mut text = Vec::new();
    let mut attachments = Vec::new();
    for part in content {
        match part {
            UserInput::Text { text: typed, .. } => text.push(typed.as_str()),
            UserInput::Image { url, .. } => attachments.push(image_label(url)),
            UserInput::LocalImage { path } => attachments.push(format!("[image {path}]")),
            UserInput::Audio { url } => attachments.push(format!("[audio {}]", short_url(url))),
            UserInput::LocalAudio { path } => attachments.push(format!("[audio {path}]")),
            UserInput::Skill { name, .. } => attachments.push(format!("[skill {name}]")),
            UserInput::Mention { name, .. } => attachments.push(format!("[mention {name}]")),
        }
    }
    CellBody::User {
        text: text.join("\n"),
        attachments,
    }
}

/// `[image png 12.3 KiB]` for a `data:` URL (the size of the decoded image), `[image URL]`
/// otherwise. The image itself is never shown.
pub fn image_label(url: &str) -> String {
    if let Some(rest) = url.strip_prefix("data:") {
        let (header, data) = rest.split_once(',').unwrap_or((rest, ""));
        let mime = header.split(';').next().unwrap_or_default();
        let format = mime.strip_prefix("image/").unwrap_or(mime);
        return format!("[image {format} {}]", human_bytes(base64_len(data)));
    }
    format!("[image {}]", short_url(url))
}

/// The decoded length of base64 `data`, from its length (the image is never decoded).
fn base64_len(data: &str) -> u64 {
    let digits = data
        .bytes()
        .filter(|byte| !byte.is_ascii_whitespace() && *byte != b'=')
        .count();
    u64::try_from(digits).unwrap_or(u64::MAX).saturating_mul(3) / 4
}

/// `1.5 KiB`, `320 B`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

fn short_url(url: &str) -> String {
    const MAX: usize = 80;
    if url.chars().count() <= MAX {
        return url.to_owned();
    }
    let cut: String = url.chars().take(MAX).collect();
    format!("{cut}…")
}

fn patch_status(status: PatchApplyStatus) -> &'static str {
    match status {
        PatchApplyStatus::InProgress => "running",
        PatchApplyStatus::Completed => "completed",
        PatchApplyStatus::Failed => "failed",
        PatchApplyStatus::Declined => "declined",
    }
}

fn web_search_title(query: &str, action: Option<&WebSearchAction>) -> String {
    match action {
        Some(WebSearchAction::OpenPage { url: Some(url) }) => format!("open {url}"),
        Some(WebSearchAction::FindInPage { url, pattern, .. }) => format!(
            "find {:?} in {}",
            pattern.as_deref().unwrap_or_default(),
            url.as_deref().unwrap_or_default()
        ),
        _ => format!("search {query}"),
    }
}
