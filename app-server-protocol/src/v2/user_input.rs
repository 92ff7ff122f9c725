//! What a person submitted, as a client sees it.
//!
//! Core's `UserInput` is snake_case (`local_image`, `image_url`) because it is persisted;
//! the client contract is camelCase tags with short field names (`localImage`, `url`). The two
//! are kept apart so either can evolve without breaking the other; [`From`] bridges them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One piece of user input inside a `userMessage` item or a `turn/start` request.
///
/// Tag values are camelCase; fields inside a variant keep their Rust spelling (upstream's
/// enum-level rename only renames tags), hence `text_elements`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum UserInput {
    /// Typed text, with the spans that stand for pasted or attached placeholders.
    Text {
        /// The text as submitted.
        text: String,
        /// Spans of `text` that render as placeholders (for example a pasted blob).
        #[serde(default)]
        text_elements: Vec<TextElement>,
    },
    /// An image given by URL (http(s) or a `data:` URL).
    Image {
        /// How closely the model should look; null when the person did not choose.
        #[serde(default)]
        detail: Option<codex_protocol::models::ImageDetail>,
        /// Where the image is.
        url: String,
    },
    /// An image on the machine running the agent.
    LocalImage {
        /// Path of the file.
        path: String,
    },
    /// Audio given by URL.
    Audio {
        /// Where the audio is.
        url: String,
    },
    /// Audio on the machine running the agent.
    LocalAudio {
        /// Path of the file.
        path: String,
    },
    /// A skill the person invoked explicitly.
    Skill {
        /// Skill name.
        name: String,
        /// Path of its SKILL.md.
        path: String,
    },
    /// An app or plugin the person mentioned.
    Mention {
        /// Display name.
        name: String,
        /// Resource path such as `app://connector` or `plugin://name@marketplace`.
        path: String,
    },
}

/// A span of user text that a client renders as a placeholder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TextElement {
    /// Byte range in the UTF-8 text (start inclusive, end exclusive).
    pub byte_range: ByteRange,
    /// What to show instead of the covered text; null means "show the covered text".
    pub placeholder: Option<String>,
}

/// Half-open byte range `[start, end)` into UTF-8 text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(export_to = "v2/")]
pub struct ByteRange {
    /// First byte covered.
    #[ts(type = "number")]
    pub start: u64,
    /// First byte not covered.
    #[ts(type = "number")]
    pub end: u64,
}
