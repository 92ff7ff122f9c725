//! Rollout lines: the JSONL records of a Codex session file, and their tolerant parser.
//!
//! A session file holds one [`RolloutLine`] per line:
//! `{"timestamp": "...", ["ordinal": n,] "type": "<tag>", "payload": {...}}`, where the tag
//! selects the [`RolloutItem`] kind. Files written by any Codex version must load, so:
//!
//! - [`parse_rollout_line`] reads one line's bytes into a [`ParsedLine`] or a typed
//!   [`LineError`] naming what was wrong; it never panics;
//! - line kinds the model does not know are kept as [`RolloutItem::Unknown`] (tag plus exact
//!   payload text), and envelope keys it does not know as [`RolloutLine::extra`];
//! - when the typed line does not write back the exact input bytes, the [`ParsedLine`] keeps
//!   the original text, so [`ParsedLine::to_json_line`] reproduces every line byte for byte;
//! - the pre-envelope legacy format is recognised ([`LineFormat::Legacy`]).
//!
//! No IO happens here: reading and writing files is `codex-rollout`'s job.

mod compacted;
mod dynamic_tools;
mod envelope;
mod error;
mod initial_history;
mod inter_agent;
mod item;
mod legacy;
mod line;
mod parse;
mod parsed_line;
mod raw_json;
mod session_meta;
mod session_source;
mod token_usage_record;
mod turn_context;
mod world_state;

pub use compacted::{CompactedItem, CompactionWindowId};
pub use dynamic_tools::DynamicToolsUpdated;
pub use error::LineError;
pub use initial_history::{InitialHistory, ResumedHistory};
pub use inter_agent::{InterAgentCommunication, InterAgentCommunicationMetadata};
pub use item::{RolloutItem, UnknownRolloutItem};
pub use line::{RolloutLine, RolloutLineRef};
pub use parse::{parse_rollout_line, parse_rollout_line_typed, parse_rollout_line_typed_derived};
pub use parsed_line::{LegacyRecord, LineFormat, ParsedLine, ParsedRecord, RoundTrip, TypedLine};
pub use raw_json::RawJson;
pub use session_meta::{
    BaseInstructions, GitInfo, HistoryBase, SessionContextWindow, SessionMeta, SessionMetaLine,
};
pub use session_source::{HistoryMode, SessionSource};
pub use token_usage_record::TokenUsageRecord;
pub use turn_context::TurnContextItem;
pub use world_state::WorldStateItem;

/// Splits the bytes of a JSONL file into numbered lines (1-based), each without its `\n`.
///
/// A final line without a terminator is yielded too (a file cut mid-write); the empty
/// remainder after a trailing newline is not. Blank lines are yielded, so the caller decides
/// (the parser reports them as [`LineError::Blank`]).
pub fn split_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let empty = bytes.is_empty();
    body.split(|byte| *byte == b'\n')
        .enumerate()
        .filter(move |_| !empty)
        .map(|(index, line)| (index + 1, line))
}
