//! Stable identifiers of [`crate::models::ResponseItem`]s.
//!
//! An item id names one item of model history across retries, resumes and forks, so that a
//! provider cache or a client can refer to the same item twice. Ids minted by this harness look
//! like `{prefix}_{uuid v7}` (`msg_0190f3c1-…`), where the prefix says which kind of item it
//! is; ids that came from the model provider are kept verbatim. Reading never rejects an id:
//! legacy session files carry ids of every shape, and losing them would break pairing.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;
use uuid::Uuid;

/// Identifier of one response item; a transparent string on the wire.
///
/// Why a newtype and not a `String`: the constructors are the only place where the
/// `{prefix}_{suffix}` convention is spelled, and [`ResponseItemId::is_prefixed`] is how a
/// client-minted id is told apart from an opaque legacy one.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(transparent)]
#[ts(type = "string")]
pub struct ResponseItemId(String);

impl ResponseItemId {
    /// Mints a fresh id `{prefix}_{uuid v7}`. UUIDv7 sorts by creation time, which keeps ids of
    /// one session roughly ordered when they are listed.
    pub fn new(prefix: &str) -> Self {
        Self::with_suffix(prefix, Uuid::now_v7())
    }

    /// Builds `{prefix}_{suffix}` from any displayable suffix, for deterministic ids (tests,
    /// synthesized outputs whose suffix is a UUIDv5).
    pub fn with_suffix(prefix: &str, suffix: impl fmt::Display) -> Self {
        Self(format!("{prefix}_{suffix}"))
    }

    /// Keeps an id received from the provider (or read from a file) exactly as it was.
    pub fn from_server(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// True when the id has the `{prefix}_{rest}` shape: an underscore with non-empty text on
    /// both sides of the first one. Provider ids such as `msg_abc` count as prefixed too; bare
    /// legacy ids (`server-item-id`, a UUID) do not.
    pub fn is_prefixed(&self) -> bool {
        match self.0.split_once('_') {
            Some((prefix, rest)) => !prefix.is_empty() && !rest.is_empty(),
            None => false,
        }
    }

    /// The text of the id.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Gives back the owned text.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for ResponseItemId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for ResponseItemId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for ResponseItemId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ResponseItemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<ResponseItemId> for String {
    fn from(id: ResponseItemId) -> Self {
        id.0
    }
}

impl From<String> for ResponseItemId {
    fn from(id: String) -> Self {
        Self(id)
    }
}

impl From<&str> for ResponseItemId {
    fn from(id: &str) -> Self {
        Self(id.to_string())
    }
}

impl PartialEq<str> for ResponseItemId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ResponseItemId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

#[cfg(test)]
#[path = "response_item_id_tests.rs"]
mod tests;
