//! `--redact`: masking what people ask to hide before they share a transcript. The masks and
//! their order are `codex_home::Redactor`'s (shared with `codex-thread table --redact`); this
//! module masks every string of a transcript with them (the walk is the transcript's
//! `Entry::visit_strings`).
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
//! Every string of the transcript is visited (messages, reasoning, tool names, inputs,
//! commands, outputs, the cwd, image paths); image pixels are not (they are kept as they
//! are). The report counts each kind, and the export says it on standard error and in the
//! document.

pub(crate) use codex_home::{RedactionReport, Redactor};

use super::transcript::{Entry, Transcript};

/// The export's walk of a transcript: every string it holds, masked by a [`Redactor`].
pub(crate) trait RedactTranscript {
    /// Masks every string of `transcript` in place (the export redacts part by part; the
    /// tests check that the parts add up to this).
    #[cfg(test)]
    fn redact(&self, transcript: &mut Transcript) -> RedactionReport;
    /// Masks the header's strings (the cwd, the branch), counting into `report`.
    fn redact_head(&self, head: &mut Transcript, report: &mut RedactionReport);
    /// Masks every string of `entries` (one part of a transcript), counting into `report`:
    /// a transcript redacted part by part is masked and counted as it is whole.
    fn redact_entries(&self, entries: &mut [Entry], report: &mut RedactionReport);
}

impl RedactTranscript for Redactor {
    #[cfg(test)]
    fn redact(&self, transcript: &mut Transcript) -> RedactionReport {
        let mut report = self.report();
        self.redact_head(transcript, &mut report);
        self.redact_entries(&mut transcript.preamble, &mut report);
        for turn in &mut transcript.turns {
            self.redact_entries(&mut turn.entries, &mut report);
        }
        report
    }

    /// Masks the header's strings (the cwd, the branch), counting into `report`.
    fn redact_head(&self, head: &mut Transcript, report: &mut RedactionReport) {
        for value in [&mut head.cwd, &mut head.git_branch].into_iter().flatten() {
            self.mask(value, report);
        }
    }

    /// Masks every string of `entries` (one part of a transcript), counting into `report`:
    /// a transcript redacted part by part is masked and counted as it is whole.
    fn redact_entries(&self, entries: &mut [Entry], report: &mut RedactionReport) {
        let mut visit = |value: &mut String| self.mask(value, report);
        for entry in entries {
            entry.visit_strings(&mut visit);
        }
    }
}

#[cfg(test)]
#[path = "redact_tests.rs"]
mod tests;
