//! Damaged files as every command over a home renders them: one warning per file on standard
//! error (file, line, what is wrong), the same facts under `"damaged"` in JSON, and the exit
//! status of a partial answer (1, content problems). Which files are damaged, and where, is
//! codex-home's (`Damage`).

use codex_home::Damage;
use serde_json::{Value, json};

use crate::error::Status;
use crate::output::warn;

/// The damaged files a command met, in the order it met them.
#[derive(Debug, Default)]
pub(crate) struct DamagedFiles {
    files: Vec<(String, Damage)>,
}

impl DamagedFiles {
    /// Notes the damage of the file named `path` and warns once about it.
    pub(crate) fn note(&mut self, path: &str, damage: &Damage) {
        warn(&format!(
            "{path}:{}: damaged ({}): {}; {} line(s) not read, what could be read is counted",
            damage.line, damage.kind, damage.message, damage.lines
        ));
        self.files.push((path.to_string(), damage.clone()));
    }

    /// The `"damaged"` array of a JSON answer.
    pub(crate) fn to_json(&self) -> Value {
        Value::Array(
            self.files
                .iter()
                .map(|(path, damage)| {
                    json!({
                        "path": path,
                        "line": damage.line,
                        "kind": damage.kind.as_str(),
                        "message": damage.message,
                        "lines": damage.lines,
                    })
                })
                .collect(),
        )
    }

    /// `status`, made partial (content problems) when a file was damaged.
    pub(crate) fn status(&self, status: Status) -> Status {
        match self.files.is_empty() {
            true => status,
            false => status.max(Status::ContentProblems),
        }
    }

    /// Whether no file was damaged.
    pub(crate) fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}
