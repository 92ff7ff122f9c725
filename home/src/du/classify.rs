//! Where the bytes of one line go: the line's kind (from the typed line the stream
//! classified) and, inside it, the image and encrypted spans ([`super::spans`]).

use codex_protocol::rollout::RolloutItem;
use serde::Serialize;

use codex_rollout::{StreamedContent, StreamedLine};

/// What a byte of a rollout is, for a disk-usage report. Every decoded byte of a file is
/// counted under exactly one kind; the line's `\n` belongs to its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ByteKind {
    /// Inline image data URLs (`"data:image/…"` string values, quotes included), wherever
    /// they are (see [`ImagePlace`]).
    Images,
    /// `encrypted_content` string values (encrypted reasoning, mostly).
    Encrypted,
    /// The rest of tool-output items (`function_call_output`, `custom_tool_call_output`,
    /// `tool_search_output`).
    ToolOutputs,
    /// The rest of `compacted` lines: the summary and the replacement history.
    Compacted,
    /// `session_meta` lines (base instructions, tools) and `turn_context` lines
    /// (instructions, settings).
    MetaAndInstructions,
    /// The rest of other response items: messages, reasoning summaries, tool calls.
    Conversation,
    /// The rest of `event_msg` lines.
    Events,
    /// Every other line: world state, token records, markers, and lines that do not parse.
    Other,
}

impl ByteKind {
    /// Every kind, in report order.
    pub const ALL: [ByteKind; 8] = [
        ByteKind::Images,
        ByteKind::Encrypted,
        ByteKind::ToolOutputs,
        ByteKind::Compacted,
        ByteKind::MetaAndInstructions,
        ByteKind::Conversation,
        ByteKind::Events,
        ByteKind::Other,
    ];

    /// The key `--json` uses and the label people read.
    pub fn name(self) -> &'static str {
        match self {
            ByteKind::Images => "images",
            ByteKind::Encrypted => "encrypted",
            ByteKind::ToolOutputs => "tool_outputs",
            ByteKind::Compacted => "compacted",
            ByteKind::MetaAndInstructions => "meta_and_instructions",
            ByteKind::Conversation => "conversation",
            ByteKind::Events => "events",
            ByteKind::Other => "other",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Which kind of line an inline image was stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImagePlace {
    /// A message or other non-output response item.
    Message,
    /// A tool output item.
    ToolOutput,
    /// A `compacted` line (its replacement history).
    Compacted,
    /// An event (`user_message.images`, `item_completed`, …).
    Event,
    /// Any other line (a session meta, a world state, …).
    Other,
}

impl ImagePlace {
    /// Every place, in report order.
    pub const ALL: [ImagePlace; 5] = [
        ImagePlace::Message,
        ImagePlace::ToolOutput,
        ImagePlace::Compacted,
        ImagePlace::Event,
        ImagePlace::Other,
    ];

    /// The key `--json` uses and the label people read.
    pub fn name(self) -> &'static str {
        match self {
            ImagePlace::Message => "message",
            ImagePlace::ToolOutput => "tool_output",
            ImagePlace::Compacted => "compacted",
            ImagePlace::Event => "event",
            ImagePlace::Other => "other",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// The kind the bytes of `line` outside its image and encrypted spans count as.
pub(crate) fn line_kind(line: &StreamedLine<'_>) -> ByteKind {
    let StreamedContent::Line(line, _) = &line.content else {
        return ByteKind::Other;
    };
    match &line.item {
        RolloutItem::SessionMeta(_) | RolloutItem::TurnContext(_) => ByteKind::MetaAndInstructions,
        RolloutItem::Compacted(_) => ByteKind::Compacted,
        RolloutItem::ResponseItem(item) if item.is_tool_output() => ByteKind::ToolOutputs,
        RolloutItem::ResponseItem(_) => ByteKind::Conversation,
        RolloutItem::EventMsg(_) => ByteKind::Events,
        _ => ByteKind::Other,
    }
}

/// Where an image found in a line of kind `kind` is stored.
pub(crate) fn image_place(kind: ByteKind) -> ImagePlace {
    match kind {
        ByteKind::Conversation => ImagePlace::Message,
        ByteKind::ToolOutputs => ImagePlace::ToolOutput,
        ByteKind::Compacted => ImagePlace::Compacted,
        ByteKind::Events => ImagePlace::Event,
        _ => ImagePlace::Other,
    }
}
