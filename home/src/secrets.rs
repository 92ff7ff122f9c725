//! Finding secrets in session files: every line of every file (plain or compressed) read
//! through the rule set `--redact` masks with (`redact/secrets.rs`), each finding named by
//! its file, line and kind, the secret itself shown only by its first characters.
//!
//! Why here: `codex-thread secrets` lists them over a home, and the rule set is the
//! redactor's, so what one reports is what the other masks.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use codex_rollout::CodexHome;

use crate::redact::{SecretRules, masked};

/// One secret found in a file; serialized as `codex-thread secrets --json` prints it (the
/// path as it displays, whatever its bytes).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SecretFinding {
    /// The file.
    #[serde(serialize_with = "displayed")]
    pub path: PathBuf,
    /// The line (1-based, of the decoded file).
    pub line: u64,
    /// What it is (`OpenAI API key`, `private key`, ...).
    pub kind: &'static str,
    /// Its first characters and `…`.
    pub masked: String,
}

/// `path` as it displays (a path that is not UTF-8 too, lossily).
fn displayed<S: serde::Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&path.display())
}

/// Why a scan stopped.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    /// A file could not be opened or read.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being attempted.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The home's sessions could not be listed.
    #[error(transparent)]
    Home(#[from] codex_rollout::RolloutError),
    /// A rule of the table does not compile (a mistake in the code, caught by its tests).
    #[error("secret rule {pattern:?}: {source}")]
    Rule {
        /// The rule's pattern.
        pattern: &'static str,
        /// The regex crate's answer.
        #[source]
        source: regex::Error,
    },
}

/// A scanner holding the compiled rule set.
#[derive(Debug)]
pub struct SecretScanner {
    rules: SecretRules,
}

impl SecretScanner {
    /// Compiles the rule set.
    pub fn new() -> Result<Self, SecretsError> {
        let rules = SecretRules::new()
            .map_err(|(pattern, source)| SecretsError::Rule { pattern, source })?;
        Ok(Self { rules })
    }

    /// The secrets of the file at `path` (plain or zstd), in line order.
    pub fn scan_file(&self, path: &Path) -> Result<Vec<SecretFinding>, SecretsError> {
        let failed = |action| {
            move |source| SecretsError::Io {
                action,
                path: path.to_path_buf(),
                source,
            }
        };
        let reader = codex_rollout::open_rollout(path).map_err(failed("open"))?;
        let mut reader = BufReader::new(reader);
        let mut findings = Vec::new();
        let mut bytes = Vec::new();
        let mut line = 0;
        loop {
            bytes.clear();
            if reader
                .read_until(b'\n', &mut bytes)
                .map_err(failed("read"))?
                == 0
            {
                break;
            }
            line += 1;
            let mut text = String::from_utf8_lossy(&bytes).into_owned();
            self.rules.mask(&mut text, &mut |kind, secret| {
                findings.push(SecretFinding {
                    path: path.to_path_buf(),
                    line,
                    kind,
                    masked: masked(secret),
                });
            });
        }
        Ok(findings)
    }

    /// The secrets of every session file of `home` (live then archived, as
    /// [`crate::all_rollout_files`] lists them).
    pub fn scan_home(&self, home: &CodexHome) -> Result<Vec<SecretFinding>, SecretsError> {
        let mut findings = Vec::new();
        for file in crate::list::all_rollout_files(home)? {
            findings.extend(self.scan_file(&file.path)?);
        }
        Ok(findings)
    }
}

#[cfg(test)]
#[path = "secrets_tests.rs"]
mod tests;
