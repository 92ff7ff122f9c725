//! What `--redact` masks in text people share (an export, a table written `--with-text`): one
//! rule for every command that offers it.
//!
//! What is masked, in this order (a later pattern never sees what an earlier one masked):
//! 1. private key blocks (`-----BEGIN … PRIVATE KEY-----` to its `END` line) → `[private key]`;
//! 2. tokens and keys by their well-known shapes (OpenAI `sk-…`, Anthropic `sk-ant-…`, GitHub
//!    `ghp_…`/`github_pat_…`, AWS `AKIA…`, Slack `xox?-…`, Google `AIza…`, JWTs,
//!    `Bearer …` headers) → `[token]`;
//! 3. email addresses → `[email]`;
//! 4. home-directory paths (`/home/NAME`, `/Users/NAME`, `C:\Users\NAME`) → `~`;
//! 5. host names: this machine's name ([`local_hostname`]), and names under the private
//!    suffixes `.local`, `.lan`, `.internal`, `.corp`, `.intranet`, `.home.arpa` → `[host]`;
//! 6. each custom pattern (`--redact-pattern REGEX`) → `[redacted]`.
//!
//! Which strings of a document are visited is the caller's (the export visits every string of
//! its transcript, the table writer the text columns); [`Redactor::mask`] masks one string and
//! counts what it masked.

use regex::Regex;

/// How many matches of each kind were masked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedactionReport {
    /// (kind, count) in the order of the patterns.
    pub counts: Vec<(String, usize)>,
}

impl RedactionReport {
    /// `3 email(s), 1 token(s)`; `nothing matched` when all counts are zero.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .counts
            .iter()
            .filter(|(_, count)| *count > 0)
            .map(|(kind, count)| format!("{count} {kind}(s)"))
            .collect();
        if parts.is_empty() {
            "nothing matched".to_string()
        } else {
            parts.join(", ")
        }
    }

    /// The count of `kind`.
    pub fn count(&self, kind: &str) -> usize {
        self.counts
            .iter()
            .find(|(known, _)| known == kind)
            .map_or(0, |(_, count)| *count)
    }
}

/// The masks to apply: the built-in patterns, this machine's name, and the caller's.
#[derive(Debug)]
pub struct Redactor {
    rules: Vec<Rule>,
}

#[derive(Debug)]
struct Rule {
    kind: String,
    pattern: Regex,
    mask: &'static str,
}

/// A `--redact-pattern` that is not a valid regex.
#[derive(Debug, thiserror::Error)]
#[error("--redact-pattern {pattern:?} is not a valid regex: {source}")]
pub struct BadPattern {
    pattern: String,
    source: regex::Error,
}

const BUILT_IN: &[(&str, &str, &str)] = &[
    (
        "private key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----",
        "[private key]",
    ),
    (
        "token",
        concat!(
            r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}",
            r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}",
            r"|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,}",
            r"|AIza[0-9A-Za-z_-]{35}",
            r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})",
            r"|\bBearer\s+[A-Za-z0-9._~+/=-]{16,}",
        ),
        "[token]",
    ),
    (
        "email",
        r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b",
        "[email]",
    ),
    (
        "home path",
        r"(?:/home/|/Users/|[A-Za-z]:\\Users\\|[A-Za-z]:/Users/)[^/\\\s'`<>|:]+",
        "~",
    ),
    (
        "host name",
        r"(?i)\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.(?:local|lan|internal|corp|intranet|home\.arpa)\b",
        "[host]",
    ),
];

impl Redactor {
    /// The built-in patterns, `hostname` (this machine's name, when known) and `custom`.
    pub fn new(hostname: Option<&str>, custom: &[String]) -> Result<Self, BadPattern> {
        let mut rules: Vec<Rule> = Vec::new();
        for (kind, pattern, mask) in BUILT_IN {
            let pattern = Regex::new(pattern).map_err(|source| BadPattern {
                pattern: (*pattern).to_string(),
                source,
            })?;
            rules.push(Rule {
                kind: (*kind).to_string(),
                pattern,
                mask,
            });
        }
        let hostname = hostname.map(str::trim).filter(|name| name.len() >= 3);
        if let Some(name) = hostname {
            let pattern = format!(r"(?i)\b{}\b", regex::escape(name));
            if let Ok(pattern) = Regex::new(&pattern) {
                // Counted as a host name, after the private-suffix rule.
                rules.push(Rule {
                    kind: "host name".to_string(),
                    pattern,
                    mask: "[host]",
                });
            }
        }
        for custom in custom {
            let pattern = Regex::new(custom).map_err(|source| BadPattern {
                pattern: custom.clone(),
                source,
            })?;
            rules.push(Rule {
                kind: "custom match".to_string(),
                pattern,
                mask: "[redacted]",
            });
        }
        Ok(Self { rules })
    }

    /// A report that has counted nothing yet, with a line per kind of mask.
    pub fn report(&self) -> RedactionReport {
        let mut report = RedactionReport::default();
        for rule in &self.rules {
            if !report.counts.iter().any(|(kind, _)| *kind == rule.kind) {
                report.counts.push((rule.kind.clone(), 0));
            }
        }
        report
    }

    /// Masks `value` in place, counting each match into `report`.
    pub fn mask(&self, value: &mut String, report: &mut RedactionReport) {
        for rule in &self.rules {
            let found = rule.pattern.find_iter(value).count();
            if found == 0 {
                continue;
            }
            *value = rule.pattern.replace_all(value, rule.mask).into_owned();
            if let Some((_, count)) = report
                .counts
                .iter_mut()
                .find(|(kind, _)| *kind == rule.kind)
            {
                *count += found;
            }
        }
    }
}

/// This machine's name, as the host-name rule masks it: `$HOSTNAME`, else `/etc/hostname`;
/// `None` when neither names one (or it is `localhost`).
pub fn local_hostname() -> Option<String> {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty() && name != "localhost")
}
