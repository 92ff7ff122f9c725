//! Cutting a tool output (text or a list of parts) down to a budget.
//!
//! A text output is cut in the middle (see [`super::truncate`]). A list of parts shares one
//! budget front to back: text parts are kept while they fit, the first one that does not fit
//! is cut to what is left, later text parts are counted as omitted. Images and encrypted parts
//! are kept and not charged (the model needs them whole, and their cost is not text); audio
//! parts are kept while their estimated cost fits. A closing note says how many parts went.

use codex_protocol::models::FunctionCallOutputBody;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::FunctionCallOutputPayload;

use super::token_estimate::estimate_audio_token_count;
use super::truncate::TruncationPolicy;
use super::truncate::approx_token_count;
use super::truncate::truncate_text;

/// Returns `payload` cut to `policy`, keeping its success flag.
pub fn truncate_function_output_payload(
    payload: &FunctionCallOutputPayload,
    policy: TruncationPolicy,
) -> FunctionCallOutputPayload {
    let body = match &payload.body {
        FunctionCallOutputBody::Text(text) => {
            FunctionCallOutputBody::Text(truncate_text(text, policy))
        }
        FunctionCallOutputBody::ContentItems(items) => {
            FunctionCallOutputBody::ContentItems(truncate_function_output_items(items, policy))
        }
    };
    FunctionCallOutputPayload {
        body,
        success: payload.success,
    }
}

/// True when [`truncate_function_output_payload`] would change `payload`; lets the caller
/// avoid rebuilding the (usual) output that fits.
pub(crate) fn function_output_exceeds(
    payload: &FunctionCallOutputPayload,
    policy: TruncationPolicy,
) -> bool {
    match &payload.body {
        FunctionCallOutputBody::Text(text) => text_exceeds(text, policy),
        FunctionCallOutputBody::ContentItems(items) => {
            let mut budget = Budget::new(policy);
            items.iter().any(|item| match item {
                FunctionCallOutputContentItem::InputText { text } => {
                    budget.remaining == 0 || !budget.try_spend(text_cost(text, policy))
                }
                FunctionCallOutputContentItem::InputAudio { audio_url } => {
                    !budget.try_spend(audio_cost(audio_url, policy))
                }
                FunctionCallOutputContentItem::InputImage { .. }
                | FunctionCallOutputContentItem::EncryptedContent { .. } => false,
            })
        }
    }
}

/// Cuts a list of output parts to one shared budget (see the module docs).
pub(crate) fn truncate_function_output_items(
    items: &[FunctionCallOutputContentItem],
    policy: TruncationPolicy,
) -> Vec<FunctionCallOutputContentItem> {
    let mut budget = Budget::new(policy);
    let mut out = Vec::with_capacity(items.len());
    let mut omitted_text = 0usize;
    let mut omitted_audio = 0usize;
    for item in items {
        match item {
            FunctionCallOutputContentItem::InputText { text } => {
                if budget.remaining == 0 {
                    omitted_text += 1;
                    continue;
                }
                let cost = text_cost(text, policy);
                if budget.try_spend(cost) {
                    out.push(item.clone());
                } else {
                    let snippet = truncate_text(text, policy.with_limit(budget.remaining));
                    budget.remaining = 0;
                    if snippet.is_empty() {
                        omitted_text += 1;
                    } else {
                        out.push(FunctionCallOutputContentItem::input_text(snippet));
                    }
                }
            }
            FunctionCallOutputContentItem::InputAudio { audio_url } => {
                if budget.try_spend(audio_cost(audio_url, policy)) {
                    out.push(item.clone());
                } else {
                    omitted_audio += 1;
                }
            }
            FunctionCallOutputContentItem::InputImage { .. }
            | FunctionCallOutputContentItem::EncryptedContent { .. } => out.push(item.clone()),
        }
    }
    if omitted_text > 0 {
        out.push(FunctionCallOutputContentItem::input_text(format!(
            "[omitted {omitted_text} text items ...]"
        )));
    }
    if omitted_audio > 0 {
        out.push(FunctionCallOutputContentItem::input_text(format!(
            "[omitted {omitted_audio} audio items ...]"
        )));
    }
    out
}

/// What is left of the budget, in the policy's unit.
#[derive(Debug)]
struct Budget {
    remaining: usize,
}

impl Budget {
    fn new(policy: TruncationPolicy) -> Self {
        let remaining = match policy {
            TruncationPolicy::Bytes(bytes) => bytes,
            TruncationPolicy::Tokens(tokens) => tokens,
        };
        Self { remaining }
    }

    /// Spends `cost` when it fits; false (and nothing spent) otherwise.
    fn try_spend(&mut self, cost: usize) -> bool {
        if cost <= self.remaining {
            self.remaining -= cost;
            true
        } else {
            false
        }
    }
}

fn text_cost(text: &str, policy: TruncationPolicy) -> usize {
    match policy {
        TruncationPolicy::Bytes(_) => text.len(),
        TruncationPolicy::Tokens(_) => approx_token_count(text),
    }
}

fn audio_cost(audio_url: &str, policy: TruncationPolicy) -> usize {
    let tokens = estimate_audio_token_count(audio_url);
    match policy {
        TruncationPolicy::Bytes(_) => tokens.saturating_mul(4),
        TruncationPolicy::Tokens(_) => tokens,
    }
}

/// Whether [`truncate_text`] would change `text`.
fn text_exceeds(text: &str, policy: TruncationPolicy) -> bool {
    match policy {
        TruncationPolicy::Bytes(max) => text.len() > max,
        TruncationPolicy::Tokens(max) => {
            !text.is_empty() && (max == 0 || text.len() > max.saturating_mul(4))
        }
    }
}
