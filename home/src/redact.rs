//! What `--redact` masks in text people share (an export, a table written `--with-text`): one
//! rule for every command that offers it.
//!
//! What is masked, in this order (a later pattern never sees what an earlier one masked):
//! 1. secrets, by the rule set of [`secrets`] (private key blocks → `[private key]`; API keys
//!    and tokens of the common providers, JWTs, `Bearer …` headers, passwords in URLs →
//!    `[token]`), each counted under its kind;
//! 2. email addresses → `[email]`;
//! 3. home-directory paths of every system and spelling → `~`: `/home/NAME`,
//!    `/var/home/NAME`, `/Users/NAME`, `C:\Users\NAME` and `C:/Users/NAME` (any case, and
//!    with the backslashes doubled as JSON and shell quoting write them), `/c/Users/NAME`
//!    (Git Bash, MSYS) and `/mnt/c/Users/NAME` (WSL);
//! 4. user names: every `NAME` a home path revealed so far is then masked wherever it stands
//!    as a word (the owner columns of `ls -l`, a prompt `NAME@host`, a URL) → `[user]`; names
//!    of fewer than three characters and generic account names (`user`, `admin`, `root`,
//!    `runner`, ...) are not, since they say nothing of a person and are common words;
//! 5. host names: this machine's name ([`local_hostname`]), and names under the private
//!    suffixes `.local`, `.lan`, `.internal`, `.corp`, `.intranet`, `.home.arpa` → `[host]`;
//! 6. each custom pattern (`--redact-pattern REGEX`) → `[redacted]`.
//!
//! A name is learned from the first home path that shows it and masked from there on: a
//! caller visits the header of a document (the session's working directory) first. Every
//! count is of what was replaced.
//!
//! Which strings of a document are visited is the caller's (the export visits every string of
//! its transcript, [`Redactor::mask_serialized`], the table writer the text columns);
//! [`Redactor::mask`] masks one string and counts what it masked.

mod secrets;

use std::sync::{Mutex, PoisonError};

use regex::{Captures, Regex};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub(crate) use secrets::{SECRET_RULES, SecretRules, masked};

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

    /// Adds `found` to the count of `kind`.
    fn add(&mut self, kind: &str, found: usize) {
        match self.counts.iter_mut().find(|(known, _)| known == kind) {
            Some((_, count)) => *count += found,
            None => self.counts.push((kind.to_string(), found)),
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
    secrets: SecretRules,
    email: Rule,
    home_path: Regex,
    names: Mutex<Names>,
    /// Host names and custom patterns, masked after the user names.
    last: Vec<Rule>,
}

#[derive(Debug)]
struct Rule {
    kind: String,
    pattern: Regex,
    mask: &'static str,
}

/// The user names learned from home paths, and the pattern masking them as words.
#[derive(Debug, Default)]
struct Names {
    known: Vec<String>,
    pattern: Option<Regex>,
}

/// A `--redact-pattern` that is not a valid regex.
#[derive(Debug, thiserror::Error)]
#[error("--redact-pattern {pattern:?} is not a valid regex: {source}")]
pub struct BadPattern {
    pattern: String,
    source: regex::Error,
}

const EMAIL: &str = r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b";

/// A home directory in every spelling (module docs), the user's name in group `name`.
const HOME_PATH: &str = concat!(
    r"(?:(?:/mnt)?/[A-Za-z]/(?i:users)/|/var/home/|/home/|/Users/",
    r"|[A-Za-z]:(?:\\+|/)(?i:users)(?:\\+|/))",
    r#"(?P<name>[^/\\\s'"`<>|:,;()\[\]{}*?]+)"#,
);

const PRIVATE_HOSTS: &str = r"(?i)\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.(?:local|lan|internal|corp|intranet|home\.arpa)\b";

/// Account names that say nothing of a person, and are common words: never masked as words.
const GENERIC_NAMES: &[&str] = &[
    "admin",
    "administrator",
    "all users",
    "default",
    "guest",
    "home",
    "public",
    "root",
    "runner",
    "shared",
    "ubuntu",
    "user",
    "users",
    "vagrant",
];

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

fn compiled(pattern: &str) -> Result<Regex, BadPattern> {
    Regex::new(pattern).map_err(|source| BadPattern {
        pattern: pattern.to_string(),
        source,
    })
}

impl Redactor {
    /// The built-in patterns, `hostname` (this machine's name, when known) and `custom`.
    pub fn new(hostname: Option<&str>, custom: &[String]) -> Result<Self, BadPattern> {
        let secrets = SecretRules::new().map_err(|(pattern, source)| BadPattern {
            pattern: pattern.to_string(),
            source,
        })?;
        let mut last = vec![Rule {
            kind: "host name".to_string(),
            pattern: compiled(PRIVATE_HOSTS)?,
            mask: "[host]",
        }];
        let hostname = hostname.map(str::trim).filter(|name| name.len() >= 3);
        if let Some(name) = hostname {
            // Counted as a host name, after the private-suffix rule.
            last.push(Rule {
                kind: "host name".to_string(),
                pattern: compiled(&format!(r"(?i)\b{}\b", regex::escape(name)))?,
                mask: "[host]",
            });
        }
        for custom in custom {
            last.push(Rule {
                kind: "custom match".to_string(),
                pattern: compiled(custom)?,
                mask: "[redacted]",
            });
        }
        Ok(Self {
            secrets,
            email: Rule {
                kind: "email".to_string(),
                pattern: compiled(EMAIL)?,
                mask: "[email]",
            },
            home_path: compiled(HOME_PATH)?,
            names: Mutex::new(Names::default()),
            last,
        })
    }

    /// The built-in patterns, this machine's host name and `custom`: what
    /// `--redact` masks with.
    pub fn for_this_machine(custom: &[String]) -> Result<Self, BadPattern> {
        Self::new(local_hostname().as_deref(), custom)
    }

    /// A report that has counted nothing yet, with a line per kind of mask.
    pub fn report(&self) -> RedactionReport {
        let mut report = RedactionReport::default();
        let kinds = SECRET_RULES
            .iter()
            .map(|(kind, _)| *kind)
            .chain([self.email.kind.as_str(), "home path", "user name"])
            .chain(self.last.iter().map(|rule| rule.kind.as_str()));
        for kind in kinds {
            if !report.counts.iter().any(|(known, _)| known == kind) {
                report.counts.push((kind.to_string(), 0));
            }
        }
        report
    }

    /// Masks `value` in place, counting each replacement into `report`.
    pub fn mask(&self, value: &mut String, report: &mut RedactionReport) {
        self.secrets.mask(value, &mut |kind, _| report.add(kind, 1));
        self.email.apply(value, report);
        let mut names = self.names.lock().unwrap_or_else(PoisonError::into_inner);
        let mut paths = 0;
        let masked = self.home_path.replace_all(value, |found: &Captures<'_>| {
            paths += 1;
            if let Some(name) = found.name("name") {
                names.learn(name.as_str());
            }
            "~"
        });
        if paths > 0 {
            *value = masked.into_owned();
            report.add("home path", paths);
        }
        if let Some(pattern) = &names.pattern {
            let found = pattern.find_iter(value).count();
            if found > 0 {
                *value = pattern.replace_all(value, "[user]").into_owned();
                report.add("user name", found);
            }
        }
        drop(names);
        for rule in &self.last {
            rule.apply(value, report);
        }
    }

    /// Masks every string `value` holds (messages, reasoning, commands, outputs, tool names
    /// and arguments, call ids, the cwd, the branch, image paths) but protocol words and image
    /// data (`data:` URLs keep their pixels), counting into `report`. The walk goes through
    /// the value's JSON form, so every field of every item type is visited, those added later
    /// too. An error when the value does not serialize, or no longer reads as its type.
    pub fn mask_serialized<T: Serialize + DeserializeOwned>(
        &self,
        value: &mut T,
        report: &mut RedactionReport,
    ) -> Result<(), serde_json::Error> {
        let mut json = serde_json::to_value(&*value)?;
        self.mask_value(&mut json, report);
        *value = serde_json::from_value(json)?;
        Ok(())
    }

    fn mask_value(&self, value: &mut Value, report: &mut RedactionReport) {
        match value {
            Value::String(text) if !text.starts_with("data:") => self.mask(text, report),
            Value::Array(values) => values
                .iter_mut()
                .for_each(|value| self.mask_value(value, report)),
            Value::Object(fields) => {
                for (key, value) in fields.iter_mut() {
                    if !(PROTOCOL_WORDS.contains(&key.as_str()) && value.is_string()) {
                        self.mask_value(value, report);
                    }
                }
            }
            _ => {}
        }
    }
}

impl Rule {
    fn apply(&self, value: &mut String, report: &mut RedactionReport) {
        let found = self.pattern.find_iter(value).count();
        if found > 0 {
            *value = self.pattern.replace_all(value, self.mask).into_owned();
            report.add(&self.kind, found);
        }
    }
}

impl Names {
    /// Adds `name` (as a home path showed it) to the names masked as words, unless it is
    /// too short or generic to say anything of a person.
    fn learn(&mut self, name: &str) {
        let generic = GENERIC_NAMES.contains(&name.to_lowercase().as_str());
        if name.chars().count() < 3 || generic || self.known.iter().any(|known| known == name) {
            return;
        }
        self.known.push(name.to_string());
        let words: Vec<String> = self.known.iter().map(|name| regex::escape(name)).collect();
        // Known names are escaped literals: the pattern always compiles.
        self.pattern = Regex::new(&format!(r"(?i)\b(?:{})\b", words.join("|"))).ok();
    }
}

/// This machine's name, as the host-name rule masks it: `$HOSTNAME`, else `/etc/hostname`;
/// `None` when neither names one (or it is `localhost`).
fn local_hostname() -> Option<String> {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty() && name != "localhost")
}

#[cfg(test)]
#[path = "redact_tests.rs"]
pub(crate) mod tests;
