//! Budgets for tool output kept in model memory, and the head-and-tail text cut.
//!
//! A tool can print megabytes; the model only needs the start (what ran) and the end (how it
//! ended). So an over-budget text keeps a head and a tail of equal byte budget and replaces the
//! middle with a marker that says how much was cut, `…{n} tokens truncated…` or
//! `…{n} chars truncated…`. Tokens are approximated as four bytes each, everywhere, so budgets
//! can be checked without a tokenizer.

use std::ops::Mul;

use serde::Deserialize;
use serde::Serialize;

/// Bytes per approximate token; the one conversion rate used by every budget in this crate.
pub(crate) const APPROX_BYTES_PER_TOKEN: usize = 4;

/// How much of a tool output the history may keep.
///
/// The model configuration chooses the unit: byte budgets are exact, token budgets use the
/// four-bytes-per-token approximation. Wire form: `{"mode":"bytes"|"tokens","limit":N}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "mode", content = "limit", rename_all = "snake_case")]
pub enum TruncationPolicy {
    /// Keep at most this many bytes of text.
    Bytes(usize),
    /// Keep at most this many approximate tokens of text.
    Tokens(usize),
}

impl TruncationPolicy {
    /// The budget expressed in approximate tokens (`ceil(bytes / 4)` for a byte budget).
    pub fn token_budget(self) -> usize {
        match self {
            Self::Bytes(bytes) => bytes.div_ceil(APPROX_BYTES_PER_TOKEN),
            Self::Tokens(tokens) => tokens,
        }
    }

    /// The budget expressed in bytes (`4 × tokens` for a token budget, saturating).
    pub fn byte_budget(self) -> usize {
        match self {
            Self::Bytes(bytes) => bytes,
            Self::Tokens(tokens) => tokens.saturating_mul(APPROX_BYTES_PER_TOKEN),
        }
    }

    /// The policy with 20% headroom, `ceil(6n/5)`, computed in integers.
    ///
    /// History stores tool outputs with this larger budget because the budget is spent on the
    /// text alone while the model also pays for the JSON around it. Integer arithmetic keeps
    /// the result exact where `n as f64 * 1.2` would round (and it never overflows).
    pub fn with_serialization_budget(self) -> Self {
        let grow = |n: usize| n.saturating_add(n.div_ceil(5));
        match self {
            Self::Bytes(bytes) => Self::Bytes(grow(bytes)),
            Self::Tokens(tokens) => Self::Tokens(grow(tokens)),
        }
    }

    /// A policy of the same unit with another limit; used when a shared budget runs down.
    pub fn with_limit(self, limit: usize) -> Self {
        match self {
            Self::Bytes(_) => Self::Bytes(limit),
            Self::Tokens(_) => Self::Tokens(limit),
        }
    }
}

impl Mul<f64> for TruncationPolicy {
    type Output = Self;

    /// Scales the limit by `factor`, rounding up; negative or NaN factors give zero.
    ///
    /// Why: the upstream code spells the history budget `policy * 1.2`; this keeps that
    /// spelling available. A factor of exactly `1.2` is routed through
    /// [`TruncationPolicy::with_serialization_budget`] so it is exact.
    fn mul(self, factor: f64) -> Self {
        if factor == 1.2 {
            return self.with_serialization_budget();
        }
        let scale = |n: usize| {
            let scaled = (n as f64 * factor).ceil();
            if scaled.is_nan() || scaled <= 0.0 {
                0
            } else if scaled >= usize::MAX as f64 {
                usize::MAX
            } else {
                scaled as usize
            }
        };
        match self {
            Self::Bytes(bytes) => Self::Bytes(scale(bytes)),
            Self::Tokens(tokens) => Self::Tokens(scale(tokens)),
        }
    }
}

/// Approximate token count of a text: `ceil(bytes / 4)`.
pub(crate) fn approx_token_count(text: &str) -> usize {
    approx_tokens_from_byte_count(text.len())
}

/// Approximate tokens for a byte count: `ceil(bytes / 4)`.
pub(crate) fn approx_tokens_from_byte_count(bytes: usize) -> usize {
    bytes.div_ceil(APPROX_BYTES_PER_TOKEN)
}

/// Cuts `text` to the policy, keeping head and tail and naming what was removed.
///
/// Returns the text unchanged when it fits. Never splits a UTF-8 character.
pub fn truncate_text(text: &str, policy: TruncationPolicy) -> String {
    match policy {
        TruncationPolicy::Bytes(max_bytes) => cut_middle(text, max_bytes, MarkerUnit::Chars),
        TruncationPolicy::Tokens(max_tokens) => {
            truncate_middle_with_token_budget(text, max_tokens).0
        }
    }
}

/// Token-budget cut; also returns the approximate token count of the original text when a cut
/// happened (callers report it), `None` when the text was kept whole.
pub(crate) fn truncate_middle_with_token_budget(
    text: &str,
    max_tokens: usize,
) -> (String, Option<usize>) {
    if text.is_empty() {
        return (String::new(), None);
    }
    let max_bytes = max_tokens.saturating_mul(APPROX_BYTES_PER_TOKEN);
    if max_tokens > 0 && text.len() <= max_bytes {
        return (text.to_string(), None);
    }
    (
        cut_middle(text, max_bytes, MarkerUnit::Tokens),
        Some(approx_token_count(text)),
    )
}

/// Which unit the marker counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MarkerUnit {
    /// `…N tokens truncated…`, N computed from the bytes over budget.
    Tokens,
    /// `…N chars truncated…`, N the count of removed characters.
    Chars,
}

fn marker(removed: usize, unit: MarkerUnit) -> String {
    match unit {
        MarkerUnit::Tokens => format!("…{removed} tokens truncated…"),
        MarkerUnit::Chars => format!("…{removed} chars truncated…"),
    }
}

/// The head-and-tail cut shared by both units.
fn cut_middle(text: &str, max_bytes: usize, unit: MarkerUnit) -> String {
    if text.is_empty() {
        return String::new();
    }
    if max_bytes == 0 {
        let removed = match unit {
            MarkerUnit::Tokens => approx_token_count(text),
            MarkerUnit::Chars => text.chars().count(),
        };
        return marker(removed, unit);
    }
    if text.len() <= max_bytes {
        return text.to_string();
    }
    let head_budget = max_bytes / 2;
    let tail_budget = max_bytes - head_budget;
    let head_end = floor_char_boundary(text, head_budget);
    let tail_start = ceil_char_boundary(text, text.len() - tail_budget).max(head_end);
    let removed = match unit {
        // The count comes from the budget, not from the bytes actually dropped: the marker
        // tells the model how far over budget the output was.
        MarkerUnit::Tokens => approx_tokens_from_byte_count(text.len() - max_bytes),
        MarkerUnit::Chars => text[head_end..tail_start].chars().count(),
    };
    let marker = marker(removed, unit);
    let mut out = String::with_capacity(head_end + marker.len() + (text.len() - tail_start));
    out.push_str(&text[..head_end]);
    out.push_str(&marker);
    out.push_str(&text[tail_start..]);
    out
}

/// Largest char boundary `<= index` (the text's length when `index` is past the end).
fn floor_char_boundary(text: &str, index: usize) -> usize {
    if index >= text.len() {
        return text.len();
    }
    let mut at = index;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Smallest char boundary `>= index`.
fn ceil_char_boundary(text: &str, index: usize) -> usize {
    if index >= text.len() {
        return text.len();
    }
    let mut at = index;
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
#[path = "truncate_tests.rs"]
mod tests;
