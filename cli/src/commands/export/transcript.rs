//! The transcript model `export` renders (Markdown and HTML alike): turns of timed entries,
//! built from rollout items one part at a time by [`TranscriptBuilder`] after a first pass
//! made the file's [`FileIndex`] (a loaded file: the same builder fed from memory).
//!
//! What a reader of a conversation wants, from the file alone:
//! - one turn per user turn of codex-rollout's turn index (the same turns `inspect`, `fork`
//!   and every other command see), opening with the person's message: its response item when
//!   the file has it (core's `parse_turn_item` renders it), else the turn's record event;
//!   what comes before the first turn is the preamble; other user-role items are injected
//!   context and are left out;
//! - assistant messages (with their phase), reasoning summaries and web searches as the model
//!   produced them;
//! - each tool call with its output next to it, paired by codex-protocol's call matching
//!   (its forward `CallMatcher`) whatever came in between (an output before its call, or a
//!   second one, stands alone), with the command, exit code and duration where the file records
//!   them;
//! - the images of the session (the person's and those inside tool outputs), recognized by
//!   their header, or said to be missing;
//! - how each turn ended (`task_complete`, `turn_aborted`), compactions where they happened;
//! - rolled-back turns kept but marked, so a reader sees what was undone (they carry no
//!   number: the numbers are the turns every other command counts).
//!
//! Why one model: both renderers (and `--redact`) work on it, so the two formats cannot show
//! different turns, and redaction has one place to visit every string.

mod build;
mod image;
mod index;
mod meta;
mod tool;

pub(crate) use build::{Part, TranscriptBuilder};
pub(crate) use image::{Image, ImageSource, human_bytes};
pub(crate) use index::{FileIndex, IndexScan};
pub(crate) use meta::{duration_between, human_duration_ms};

use serde::Serialize;

/// A whole transcript.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Transcript {
    pub thread_id: Option<String>,
    pub cli_version: Option<String>,
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    /// Every model the session used, in order of first use.
    pub models: Vec<String>,
    /// The session's start (its first session meta).
    pub started_at: Option<String>,
    /// The time of the last line that has one.
    pub ended_at: Option<String>,
    /// The session's token totals, when the file counted them.
    pub tokens: Option<TokenTotals>,
    /// What the file holds before its first user turn (injected context aside).
    pub preamble: Vec<Entry>,
    pub turns: Vec<TranscriptTurn>,
    /// Turns removed by rollbacks (kept in `turns`, marked `rolled_back`).
    pub rolled_back_turns: usize,
}

/// What the session's own responses used, counted as `usage` counts them (a forked child's
/// copied parent prefix is not charged to it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub(crate) struct TokenTotals {
    pub input: i64,
    pub cached_input: i64,
    pub output: i64,
    pub reasoning_output: i64,
    pub total: i64,
}

/// One turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct TranscriptTurn {
    /// The turn's number among the turns that count (1-based, as `fork --drop-turns` and
    /// `inspect` count them); `None` for a rolled-back turn.
    pub number: Option<usize>,
    /// How the turn ended, by app-server-protocol's rule (what `thread` shows): `completed`,
    /// `interrupted` or `failed`.
    pub status: &'static str,
    /// A later rollback removed this turn from the model's memory.
    pub rolled_back: bool,
    /// The time of the turn's first line.
    pub started_at: Option<String>,
    pub entries: Vec<Entry>,
}

/// One entry of a turn, with the time of the line it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Entry {
    /// The line's `timestamp` (UTC), when it has one.
    pub at: Option<String>,
    #[serde(flatten)]
    pub kind: EntryKind,
}

/// What an entry is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum EntryKind {
    User {
        text: String,
        images: Vec<Image>,
    },
    Assistant {
        text: String,
        /// `commentary` or `final_answer` when the file says.
        phase: Option<String>,
    },
    Reasoning {
        summary: Vec<String>,
    },
    ToolCall(Box<ToolCall>),
    WebSearch {
        query: String,
    },
    Compaction,
    Note {
        text: String,
    },
}

/// A tool call and what came back.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct ToolCall {
    pub name: String,
    pub call_id: Option<String>,
    /// The arguments (pretty-printed when they are JSON), or the freeform input.
    pub input: String,
    /// The command line, for shell-like calls.
    pub command: Option<String>,
    /// The patch text, for `apply_patch` calls (in the input, or in a shell command).
    pub patch: Option<String>,
    /// The output's text; `None` when no output was recorded.
    pub output: Option<String>,
    /// Images inside the output.
    pub output_images: Vec<Image>,
    pub exit_code: Option<i64>,
    pub duration_ms: Option<u64>,
}

impl Entry {
    /// Hands `visit` every string of the entry a reader sees: texts, tool names, call ids,
    /// inputs, commands, patches, outputs, image locations; not image data. The one walk of
    /// an entry's strings: redaction masks them with it, [`Entry::text_bytes`] counts them.
    pub(crate) fn visit_strings(&mut self, visit: &mut impl FnMut(&mut String)) {
        match &mut self.kind {
            EntryKind::User { text, images } => {
                visit(text);
                images
                    .iter_mut()
                    .filter_map(|image| image.location.as_mut())
                    .for_each(&mut *visit);
            }
            EntryKind::Assistant { text, .. } | EntryKind::Note { text } => visit(text),
            EntryKind::Reasoning { summary } => summary.iter_mut().for_each(&mut *visit),
            EntryKind::WebSearch { query } => visit(query),
            EntryKind::ToolCall(call) => {
                visit(&mut call.name);
                visit(&mut call.input);
                for value in [
                    &mut call.call_id,
                    &mut call.command,
                    &mut call.patch,
                    &mut call.output,
                ]
                .into_iter()
                .flatten()
                {
                    visit(value);
                }
                call.output_images
                    .iter_mut()
                    .filter_map(|image| image.location.as_mut())
                    .for_each(&mut *visit);
            }
            EntryKind::Compaction => {}
        }
    }

    /// The bytes of the entry's strings ([`Entry::visit_strings`]) and embedded images. It
    /// takes the entry mutably only because that walk does.
    pub(crate) fn text_bytes(&mut self) -> usize {
        let mut bytes: usize = self
            .images()
            .iter()
            .map(|image| image.data_url.as_ref().map_or(0, String::len))
            .sum();
        self.visit_strings(&mut |text| bytes += text.len());
        bytes
    }

    /// The images of this entry (the person's, or inside a tool output).
    pub(crate) fn images(&self) -> &[Image] {
        match &self.kind {
            EntryKind::User { images, .. } => images.as_slice(),
            EntryKind::ToolCall(call) => call.output_images.as_slice(),
            _ => &[],
        }
    }
}
