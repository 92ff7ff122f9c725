//! Items about the web and images: web searches, viewed images, generated images.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::models::WebSearchAction;

/// A web search the model ran. `query` is a one-line description of the action (the query,
/// the opened URL, or `'pattern' in url`); the id may be empty for partial items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct WebSearchItem {
    /// The id of the `web_search_call` item; may be empty for partial items.
    pub id: String,
    /// A one-line description of the action (the query, the opened URL, or `'pattern' in url`).
    pub query: String,
    /// What the search did.
    pub action: WebSearchAction,
    /// Result entries as the provider returned them (opaque).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown[]")]
    pub results: Option<Vec<serde_json::Value>>,
}

/// An image file the agent looked at (the `view_image` tool).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ImageViewItem {
    /// The item id.
    pub id: String,
    /// The image's path (or `file://` URI), as written.
    pub path: String,
}

/// An image the model generated. `result` is the image (base64) or empty while in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ImageGenerationItem {
    /// The id of the `image_generation_call` item.
    pub id: String,
    /// The call's status as the provider reported it (`completed`, ...).
    pub status: String,
    /// The prompt as the model rewrote it for generation, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub revised_prompt: Option<String>,
    /// The image (base64), or empty while in progress.
    pub result: String,
    /// Where the client saved the image, once it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub saved_path: Option<String>,
}
