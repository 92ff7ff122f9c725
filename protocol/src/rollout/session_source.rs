//! Open enumerations of the session meta line: who started a thread and how its history is
//! paged.
//!
//! Both grew new values across Codex versions. A reader that rejected an unknown value would
//! refuse the whole first line of a file, so each keeps unknown values verbatim instead.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// What started a thread: an interactive client, `codex exec`, an MCP caller, a sub-agent...
///
/// Upstream spells these externally tagged in lowercase (`"cli"`, `{"subagent": ...}`).
/// Values this reader does not know are kept in [`SessionSource::Unknown`] as written.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum SessionSource {
    /// The terminal UI.
    Cli,
    /// The IDE extension (upstream's default when the key is missing).
    #[default]
    VSCode,
    /// `codex exec`.
    Exec,
    /// Codex running as an MCP server.
    Mcp,
    /// A named custom client (`{"custom": "atlas"}`).
    Custom(String),
    /// A sub-agent; the detail (`review`, `{"thread_spawn": {...}}`, ...) is kept as JSON.
    SubAgent(Value),
    /// An internal job (`{"internal": "memory_consolidation"}`), detail kept as JSON.
    Internal(Value),
    /// Any other spelling, kept verbatim.
    Unknown(Value),
}

impl Serialize for SessionSource {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        fn single(key: &str, value: Value) -> Value {
            let mut map = Map::new();
            map.insert(key.to_string(), value);
            Value::Object(map)
        }
        match self {
            SessionSource::Cli => serializer.serialize_str("cli"),
            SessionSource::VSCode => serializer.serialize_str("vscode"),
            SessionSource::Exec => serializer.serialize_str("exec"),
            SessionSource::Mcp => serializer.serialize_str("mcp"),
            SessionSource::Custom(name) => {
                single("custom", Value::String(name.clone())).serialize(serializer)
            }
            SessionSource::SubAgent(detail) => {
                single("subagent", detail.clone()).serialize(serializer)
            }
            SessionSource::Internal(detail) => {
                single("internal", detail.clone()).serialize(serializer)
            }
            SessionSource::Unknown(value) => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for SessionSource {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ok(SessionSource::from_value(value))
    }
}

impl SessionSource {
    /// Classifies a wire value; never fails.
    pub fn from_value(value: Value) -> Self {
        match value {
            Value::String(text) => match text.as_str() {
                "cli" => SessionSource::Cli,
                "vscode" => SessionSource::VSCode,
                "exec" => SessionSource::Exec,
                "mcp" => SessionSource::Mcp,
                _ => SessionSource::Unknown(Value::String(text)),
            },
            Value::Object(map) if map.len() == 1 => {
                let mut entries = map.into_iter();
                match entries.next() {
                    Some((key, Value::String(name))) if key == "custom" => {
                        SessionSource::Custom(name)
                    }
                    Some((key, detail)) if key == "subagent" => SessionSource::SubAgent(detail),
                    Some((key, detail)) if key == "internal" => SessionSource::Internal(detail),
                    Some((key, detail)) => {
                        let mut map = Map::new();
                        map.insert(key, detail);
                        SessionSource::Unknown(Value::Object(map))
                    }
                    None => SessionSource::Unknown(Value::Object(Map::new())),
                }
            }
            other => SessionSource::Unknown(other),
        }
    }

    /// True for the sources a person drives directly (terminal and IDE).
    pub fn is_interactive(&self) -> bool {
        matches!(self, SessionSource::Cli | SessionSource::VSCode)
    }
}

/// How a thread's history is stored: `legacy` (one file, no ordinals) or `paginated`.
///
/// Upstream refuses unknown values; a reader of old and foreign files keeps them in
/// [`HistoryMode::Other`] and lets the caller decide.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum HistoryMode {
    /// One append-only file without ordinals (what classic files mean by omission).
    #[default]
    Legacy,
    /// Lines carry `ordinal` and history may continue from a base.
    Paginated,
    /// Any other spelling, kept verbatim.
    Other(String),
}

impl HistoryMode {
    /// Whether this is the paginated mode (ordinals on every line, the client view kept as
    /// completed items). Any other spelling reads as legacy, the mode every file without
    /// `history_mode` was written in.
    pub fn is_paginated(&self) -> bool {
        matches!(self, HistoryMode::Paginated)
    }

    /// The wire spelling.
    pub fn as_str(&self) -> &str {
        match self {
            HistoryMode::Legacy => "legacy",
            HistoryMode::Paginated => "paginated",
            HistoryMode::Other(other) => other,
        }
    }
}

impl Serialize for HistoryMode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for HistoryMode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(match text.as_str() {
            "legacy" => HistoryMode::Legacy,
            "paginated" => HistoryMode::Paginated,
            _ => HistoryMode::Other(text),
        })
    }
}
