//! `--redact`: masking what people ask to hide before they share a transcript. The masks and
//! their order are `codex_home::Redactor`'s (shared with `codex-thread table --redact`); this
//! module masks every string of the thread and its turns with them ([`redact`]).
//!
//! What is masked, in this order (a later pattern never sees what an earlier one masked):
//! 1. private key blocks (`-----BEGIN … PRIVATE KEY-----` to its `END` line) → `[private key]`;
//! 2. tokens and keys by their well-known shapes (OpenAI `sk-…`, Anthropic `sk-ant-…`, GitHub
//!    `ghp_…`/`github_pat_…`, AWS `AKIA…`, Slack `xox?-…`, Google `AIza…`, JWTs,
//!    `Bearer …` headers) → `[token]`;
//! 3. email addresses → `[email]`;
//! 4. home-directory paths (`/home/NAME`, `/Users/NAME`, `C:\Users\NAME`) → `~`;
//! 5. host names: this machine's name, and names under the private suffixes `.local`,
//!    `.lan`, `.internal`, `.corp`, `.intranet`, `.home.arpa` → `[host]`;
//! 6. each `--redact-pattern REGEX` → `[redacted]`.
//!
//! Every string of the thread is visited (messages, reasoning, tool names, arguments,
//! commands, outputs, the cwd, image paths); image pixels are not (they are kept as they
//! are), nor the protocol's own words (an item's type, a status). The report counts each kind, and the export says it on standard error and in the
//! document.

pub(crate) use codex_home::{RedactionReport, Redactor};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::Failure;

/// Keys whose values are words of the protocol (an item's type, a status, a phase), not
/// text from the session: never masked, so the masked value still reads as the type it was.
const PROTOCOL_WORDS: &[&str] = &[
    "type",
    "status",
    "phase",
    "kind",
    "mode",
    "delivery",
    "source",
    "itemsView",
];

/// Masks every string `value` holds (messages, reasoning, commands, outputs, tool names and
/// arguments, call ids, the cwd, the branch, image paths) but protocol words and image data
/// (`data:` URLs keep their pixels), counting into `report`. The walk goes through the
/// value's JSON form, so every field of every item type is visited, those added later too.
pub(crate) fn redact<T: Serialize + DeserializeOwned>(
    redactor: &Redactor,
    value: &mut T,
    report: &mut RedactionReport,
) -> Result<(), Failure> {
    let mut json = serde_json::to_value(&*value)?;
    mask_strings(redactor, &mut json, report);
    *value = serde_json::from_value(json).map_err(|error| {
        Failure::Content(format!("a redacted item no longer reads as one: {error}"))
    })?;
    Ok(())
}

fn mask_strings(redactor: &Redactor, value: &mut Value, report: &mut RedactionReport) {
    match value {
        Value::String(text) if !text.starts_with("data:") => redactor.mask(text, report),
        Value::Array(values) => values
            .iter_mut()
            .for_each(|value| mask_strings(redactor, value, report)),
        Value::Object(fields) => {
            for (key, value) in fields.iter_mut() {
                if !(PROTOCOL_WORDS.contains(&key.as_str()) && value.is_string()) {
                    mask_strings(redactor, value, report);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "redact_tests.rs"]
mod tests;
