//! Items produced by extensions, whose shape this crate does not own.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// An extension's item: a `kind` discriminator (e.g. `clock.sleep`), an `id`, and the
/// extension's own fields (camelCase by convention), kept as JSON so any extension's items
/// survive a load-and-write unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExtensionItem {
    /// The extension's discriminator (e.g. `clock.sleep`).
    pub kind: String,
    /// The item id.
    pub id: String,
    /// Every other field of the item.
    #[serde(flatten)]
    #[ts(flatten)]
    pub fields: serde_json::Map<String, serde_json::Value>,
}

impl ExtensionItem {
    /// An extension item of `kind` with the given fields.
    pub fn new(
        kind: impl Into<String>,
        id: impl Into<String>,
        fields: serde_json::Map<String, serde_json::Value>,
    ) -> Self {
        Self {
            kind: kind.into(),
            id: id.into(),
            fields,
        }
    }

    /// The item's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// One of the extension's own fields.
    pub fn field(&self, name: &str) -> Option<&serde_json::Value> {
        self.fields.get(name)
    }
}
