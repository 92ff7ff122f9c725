//! Rewriting the `session_meta` line of a fork: new thread id, lineage, start time and, for a
//! fork by reference, the `history_base`; every other key of the line kept exactly as written
//! and in its order.
//!
//! The typed [`codex_protocol::rollout::SessionMetaLine`] does not know every key every Codex
//! version writes, so re-serializing it would drop some. Instead the line is split into its
//! top-level entries as raw JSON text, the few keys a fork must change are replaced, and the
//! entries are joined again.

use codex_protocol::rollout::{HistoryBase, RawJson};
use codex_protocol::thread_id::ThreadId;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

/// What the fork's session meta must say.
#[derive(Debug, Clone)]
pub(crate) struct MetaRewrite {
    /// The fork's own thread id.
    pub(crate) thread_id: ThreadId,
    /// The thread the fork was taken from.
    pub(crate) forked_from_id: ThreadId,
    /// When the fork was made (line timestamp format).
    pub(crate) timestamp: String,
    /// The prefix a fork by reference continues (replacing any base the source had).
    pub(crate) history_base: Option<HistoryBase>,
}

/// Why the meta line could not be rewritten (it loaded, so this means a bug or a line whose
/// shape is not an object at the expected place).
#[derive(Debug, thiserror::Error)]
#[error("cannot rewrite the session_meta line: {0}")]
pub struct MetaRewriteError(String);

/// Rewrites one `session_meta` line. `legacy` selects the pre-envelope shape, where the meta
/// is the whole line rather than its `payload`.
pub(crate) fn rewrite_session_meta_line(
    line: &str,
    legacy: bool,
    rewrite: &MetaRewrite,
) -> Result<String, MetaRewriteError> {
    let mut top = Entries::parse(line)?;
    if legacy {
        rewrite_meta_entries(&mut top, rewrite)?;
        return top.render();
    }
    let payload = top
        .get("payload")
        .ok_or_else(|| MetaRewriteError("the line has no payload".to_string()))?;
    let mut meta = Entries::parse(payload.get())?;
    rewrite_meta_entries(&mut meta, rewrite)?;
    let payload = raw(&meta.render()?)?;
    top.set("payload", payload, None);
    top.set("timestamp", json_string(&rewrite.timestamp)?, None);
    top.render()
}

/// Sets the keys a fork changes inside the meta object.
fn rewrite_meta_entries(meta: &mut Entries, rewrite: &MetaRewrite) -> Result<(), MetaRewriteError> {
    let id = json_string(&rewrite.thread_id.to_string())?;
    // A session id names the root thread of a session; a fork starts a session of its own.
    // Classic files have none, and none is added.
    if meta.get("session_id").is_some() {
        meta.set("session_id", id.clone(), None);
    }
    meta.set("id", id, None);
    meta.set(
        "forked_from_id",
        json_string(&rewrite.forked_from_id.to_string())?,
        Some("id"),
    );
    meta.set("timestamp", json_string(&rewrite.timestamp)?, None);
    if let Some(base) = &rewrite.history_base {
        let base = serde_json::to_string(base).map_err(|err| MetaRewriteError(err.to_string()))?;
        // Upstream writes it right after `history_mode`.
        meta.set("history_base", raw(&base)?, Some("history_mode"));
    }
    Ok(())
}

fn json_string(text: &str) -> Result<RawJson, MetaRewriteError> {
    let encoded = serde_json::to_string(text).map_err(|err| MetaRewriteError(err.to_string()))?;
    raw(&encoded)
}

fn raw(text: &str) -> Result<RawJson, MetaRewriteError> {
    RawJson::from_text(text).map_err(|err| MetaRewriteError(err.to_string()))
}

/// The entries of one JSON object, in order, values as raw text.
#[derive(Debug, Default)]
struct Entries(Vec<(String, RawJson)>);

impl Entries {
    fn parse(text: &str) -> Result<Self, MetaRewriteError> {
        serde_json::from_str(text).map_err(|err| MetaRewriteError(err.to_string()))
    }

    fn get(&self, key: &str) -> Option<&RawJson> {
        self.0
            .iter()
            .find_map(|(name, value)| (name == key).then_some(value))
    }

    /// Replaces the value of `key` in place; a missing key is inserted after `after` (or at
    /// the end when `after` is absent too).
    fn set(&mut self, key: &str, value: RawJson, after: Option<&str>) {
        if let Some(slot) = self.0.iter_mut().find(|(name, _)| name == key) {
            slot.1 = value;
            return;
        }
        let position = after
            .and_then(|after| self.0.iter().position(|(name, _)| name == after))
            .map_or(self.0.len(), |index| index + 1);
        self.0.insert(position, (key.to_string(), value));
    }

    fn render(&self) -> Result<String, MetaRewriteError> {
        let mut out = String::from("{");
        for (index, (key, value)) in self.0.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            let key =
                serde_json::to_string(key).map_err(|err| MetaRewriteError(err.to_string()))?;
            out.push_str(&key);
            out.push(':');
            out.push_str(value.get());
        }
        out.push('}');
        Ok(out)
    }
}

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;

        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, RawJson>()? {
                    entries.push((key, value));
                }
                Ok(Entries(entries))
            }
        }

        deserializer.deserialize_map(EntriesVisitor)
    }
}
