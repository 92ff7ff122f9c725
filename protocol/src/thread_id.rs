//! [`ThreadId`]: the identity of one conversation.
//!
//! A thread id names a session file, the `thread_id` of item events and the parent of a fork,
//! so it must be unique without coordination and sort by creation time: a UUID v7. On the
//! wire it is the UUID's hyphenated lowercase string; reading demands a real UUID, because a
//! malformed thread id would silently detach events from their thread.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::Serializer;
use ts_rs::TS;
use uuid::Uuid;

/// The id of a thread (conversation), a UUID v7 written as a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(type = "string")]
pub struct ThreadId(Uuid);

/// Why a string is not a [`ThreadId`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid thread id {input:?}: {reason}")]
pub struct ThreadIdParseError {
    /// The rejected text (kept so the message names it).
    pub input: String,
    /// The UUID parser's explanation.
    pub reason: String,
}

impl ThreadId {
    /// Mints a fresh id. UUID v7 so ids sort by creation time, as session files do.
    pub fn new() -> Self {
        Self(Uuid::now_v7())
    }

    /// Wraps an existing UUID (any version: older sessions used v4).
    pub const fn from_uuid(uuid: Uuid) -> Self {
        Self(uuid)
    }

    /// The id of a session whose file records none (no session meta): the nil UUID, as every
    /// view shows it.
    pub const fn unrecorded() -> Self {
        Self(Uuid::nil())
    }

    /// The underlying UUID.
    pub const fn as_uuid(&self) -> &Uuid {
        &self.0
    }

    /// Parses the wire form (any form [`Uuid::parse_str`] accepts).
    pub fn from_string(text: &str) -> Result<Self, ThreadIdParseError> {
        Uuid::parse_str(text)
            .map(Self)
            .map_err(|err| ThreadIdParseError {
                input: text.to_string(),
                reason: err.to_string(),
            })
    }
}

impl Default for ThreadId {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.hyphenated(), f)
    }
}

impl FromStr for ThreadId {
    type Err = ThreadIdParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::from_string(text)
    }
}

impl TryFrom<&str> for ThreadId {
    type Error = ThreadIdParseError;

    fn try_from(text: &str) -> Result<Self, Self::Error> {
        Self::from_string(text)
    }
}

impl TryFrom<String> for ThreadId {
    type Error = ThreadIdParseError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::from_string(&text)
    }
}

impl From<Uuid> for ThreadId {
    fn from(uuid: Uuid) -> Self {
        Self(uuid)
    }
}

impl From<ThreadId> for String {
    fn from(id: ThreadId) -> Self {
        id.to_string()
    }
}

impl Serialize for ThreadId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0.hyphenated())
    }
}

impl<'de> Deserialize<'de> for ThreadId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Self::from_string(&text).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for ThreadId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ThreadId".into()
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "uuid",
        })
    }
}

#[cfg(test)]
#[path = "thread_id_tests.rs"]
mod tests;
