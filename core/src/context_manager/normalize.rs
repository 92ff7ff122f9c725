//! The prompt projection: history made acceptable to the model, in one linear pass.
//!
//! The provider rejects a prompt where a tool call has no output, or an output has no call.
//! History can hold both: a turn interrupted while a tool ran, a session file cut mid-turn, a
//! trim that removed one half of a pair. Normalization repairs the *projection*, never the
//! stored history (which keeps the true, incomplete shape for traces and replay):
//!
//! - every call that expects an output and has none gets a synthesized `"aborted"` output,
//!   placed right after the call;
//! - every output that needs a call and has none before it is dropped (a standalone named
//!   function output and a server-side tool search output need no call);
//! - media the model cannot read become placeholder text (see [`super::modality`]).
//!
//! Pairing is positional: an output answers the nearest call with the same
//! [`PairKey`](codex_protocol::call_pairing::PairKey) before it that is not answered yet. So in
//! the result every call is followed by exactly one output and every output follows its call.
//! (Upstream accepts an output placed *before* its call and keeps duplicate outputs; we drop
//! both, because the provider only accepts an output after its call and one answer per call.)
//!
//! Cost: one matching pass (codex-protocol's `match_calls`: backwards, with a small map of the
//! outputs still waiting for their call, so almost nothing is hashed), then
//! one forward pass that moves (or, for a shared snapshot, clones) each kept item once.
//! Upstream inserts synthesized outputs into the vector one at a time, which is quadratic in
//! the number of missing outputs.

use codex_protocol::call_matching::match_calls;
use codex_protocol::call_pairing::OutputChannel;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;
use codex_protocol::response_item_id::ResponseItemId;
use uuid::Uuid;

use super::modality::MediaFilter;

/// Namespace of the UUIDv5 ids given to synthesized outputs.
///
/// A synthesized output is never persisted, so the only way to give it the same id each time
/// the same history is projected (and keep the prompt byte-identical for the provider's prompt
/// cache) is to derive the id from the call. This is the namespace upstream Codex uses, so our
/// prompts match its prompts. Changing it changes every synthesized id.
pub const SYNTHETIC_OUTPUT_ID_NAMESPACE: Uuid =
    Uuid::from_u128(0x90d3_8d3e_6a5b_4d52_bfe2_2f1e_634b_fac4);

/// The text of a synthesized output: the tool never reported back.
pub(crate) const SYNTHETIC_OUTPUT_TEXT: &str = "aborted";

/// The status a synthesized tool search output carries.
const SYNTHETIC_TOOL_SEARCH_STATUS: &str = "completed";

/// The execution a synthesized tool search output carries.
const SYNTHETIC_TOOL_SEARCH_EXECUTION: &str = "client";

/// What the projection does with one history item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Keep it as it is (media filtering aside).
    Keep,
    /// A call whose output is missing: keep it and add a synthesized output right after it.
    KeepAndAnswer,
    /// An output without its call, or a second output for one call: leave it out.
    Drop,
}

/// The decisions for a whole history, and whether any of them changes something.
#[derive(Debug)]
struct PairingPlan {
    fates: Vec<Fate>,
    synthesized: usize,
    dropped: usize,
}

impl PairingPlan {
    fn is_identity(&self) -> bool {
        self.synthesized == 0 && self.dropped == 0
    }
}

/// Decides, for each item, whether it is kept, dropped or answered: codex-protocol's one
/// matching rule ([`match_calls`]) says which calls are unanswered (they get a synthesized
/// output) and which outputs are orphans (before their call, a second output for one call, or
/// no call at all: they are left out).
fn plan_pairing(items: &[ResponseItem]) -> PairingPlan {
    let mut fates = vec![Fate::Keep; items.len()];
    let matches = match_calls(items.iter().enumerate());
    for &index in &matches.unanswered {
        fates[index] = Fate::KeepAndAnswer;
    }
    for &index in &matches.orphans {
        fates[index] = Fate::Drop;
    }
    PairingPlan {
        fates,
        synthesized: matches.unanswered.len(),
        dropped: matches.orphans.len(),
    }
}

/// Projects owned history items for the prompt (the snapshot was the only owner), in place:
/// no second vector is allocated.
///
/// Drops alone are a `retain`. With synthesized outputs the vector grows by their number and
/// items move towards the back, newest first, each output written right after its call; the
/// slots left at the front (one per dropped item) are removed at the end.
pub(crate) fn normalize_owned(
    mut items: Vec<ResponseItem>,
    media: MediaFilter,
) -> Vec<ResponseItem> {
    let plan = plan_pairing(&items);
    if plan.synthesized == 0 {
        if plan.dropped > 0 {
            let mut fates = plan.fates.iter();
            items.retain(|item| {
                let keep = fates.next() != Some(&Fate::Drop);
                if !keep {
                    log_dropped(item);
                }
                keep
            });
        }
        if !media.is_noop() {
            items.iter_mut().for_each(|item| media.apply(item));
        }
        return items;
    }
    let len = items.len();
    // Placeholders for the new slots: `Other` owns no heap memory.
    items.resize_with(len + plan.synthesized, || ResponseItem::Other);
    // Invariant: `write > index` whenever an item is written, so an unprocessed item is never
    // overwritten (each processed item uses at most the slots reserved for it).
    let mut write = items.len();
    for index in (0..len).rev() {
        let mut item = std::mem::replace(&mut items[index], ResponseItem::Other);
        match plan.fates[index] {
            Fate::Drop => log_dropped(&item),
            Fate::Keep => {
                media.apply(&mut item);
                write -= 1;
                items[write] = item;
            }
            Fate::KeepAndAnswer => {
                if let Some(answer) = synthesized_output_for(&item) {
                    write -= 1;
                    items[write] = answer;
                }
                media.apply(&mut item);
                write -= 1;
                items[write] = item;
            }
        }
    }
    items.drain(..write);
    items
}

/// Projects history items that other snapshots still share: clones each kept item once,
/// instead of copying the whole vector and then editing it.
pub(crate) fn normalize_shared(items: &[ResponseItem], media: MediaFilter) -> Vec<ResponseItem> {
    let plan = plan_pairing(items);
    if plan.is_identity() && media.is_noop() {
        return items.to_vec();
    }
    let mut out = Vec::with_capacity(items.len() + plan.synthesized);
    let push = |out: &mut Vec<ResponseItem>, item: &ResponseItem| {
        if media.affects(item) {
            let mut copy = item.clone();
            media.apply(&mut copy);
            out.push(copy);
        } else {
            out.push(item.clone());
        }
    };
    for (item, fate) in items.iter().zip(plan.fates) {
        match fate {
            Fate::Drop => log_dropped(item),
            Fate::Keep => push(&mut out, item),
            Fate::KeepAndAnswer => {
                push(&mut out, item);
                out.extend(synthesized_output_for(item));
            }
        }
    }
    out
}

/// The `"aborted"` output that stands in for the missing output of `call`.
///
/// `None` when `call` is not a call with a call id (the plan never asks for that).
pub(crate) fn synthesized_output_for(call: &ResponseItem) -> Option<ResponseItem> {
    let link = call.call_link().filter(|link| link.is_call())?;
    let call_id = link.call_id?.to_string();
    let channel = link.channel();
    let id = synthetic_output_id(channel, call.id().map(ResponseItemId::as_str));
    log_missing_output(call, &call_id);
    Some(match channel {
        OutputChannel::Function => ResponseItem::FunctionCallOutput {
            id,
            call_id: Some(call_id),
            name: None,
            namespace: None,
            output: FunctionCallOutputPayload::from_text(SYNTHETIC_OUTPUT_TEXT),
            internal_chat_message_metadata_passthrough: None,
        },
        OutputChannel::CustomTool => ResponseItem::CustomToolCallOutput {
            id,
            call_id,
            name: None,
            output: FunctionCallOutputPayload::from_text(SYNTHETIC_OUTPUT_TEXT),
            internal_chat_message_metadata_passthrough: None,
        },
        OutputChannel::ToolSearch => ResponseItem::ToolSearchOutput {
            id,
            call_id: Some(call_id),
            status: SYNTHETIC_TOOL_SEARCH_STATUS.to_string(),
            execution: SYNTHETIC_TOOL_SEARCH_EXECUTION.to_string(),
            tools: Vec::new(),
            internal_chat_message_metadata_passthrough: None,
        },
    })
}

/// The id of a synthesized output: `{prefix}_{UUIDv5(namespace, "{prefix}:{call item id}")}`,
/// or `None` when the call item has no (or an empty) id, so the output carries none either.
pub fn synthetic_output_id(
    channel: OutputChannel,
    call_item_id: Option<&str>,
) -> Option<ResponseItemId> {
    let source = call_item_id.filter(|id| !id.is_empty())?;
    let prefix = channel.output_id_prefix();
    let name = format!("{prefix}:{source}");
    Some(ResponseItemId::with_suffix(
        prefix,
        Uuid::new_v5(&SYNTHETIC_OUTPUT_ID_NAMESPACE, name.as_bytes()),
    ))
}

fn log_missing_output(call: &ResponseItem, call_id: &str) {
    match call {
        ResponseItem::FunctionCall { .. } => {
            tracing::info!("Function call output is missing for call id: {call_id}");
        }
        ResponseItem::ToolSearchCall { .. } => {
            tracing::info!("Tool search output is missing for call id: {call_id}");
        }
        ResponseItem::CustomToolCall { .. } => {
            tracing::error!("Custom tool call output is missing for call id: {call_id}");
        }
        ResponseItem::LocalShellCall { .. } => {
            tracing::error!("Local shell call output is missing for call id: {call_id}");
        }
        _ => {}
    }
}

fn log_dropped(output: &ResponseItem) {
    let call_id = output.call_id().unwrap_or_default();
    match output {
        ResponseItem::FunctionCallOutput { .. } => {
            tracing::error!("Orphan function call output for call id: {call_id}");
        }
        ResponseItem::CustomToolCallOutput { .. } => {
            tracing::error!("Orphan custom tool call output for call id: {call_id}");
        }
        ResponseItem::ToolSearchOutput { .. } => {
            tracing::error!("Orphan tool search output for call id: {call_id}");
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "normalize_tests.rs"]
mod tests;
