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
    pub id: String,
    pub query: String,
    pub action: WebSearchAction,
    /// Result entries as the provider returned them (opaque).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown[]")]
    pub results: Option<Vec<serde_json::Value>>,
}

/// An image file the agent looked at (the `view_image` tool).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ImageViewItem {
    pub id: String,
    /// The image's path (or `file://` URI), as written.
    pub path: String,
}

/// An image the model generated. `result` is the image (base64) or empty while in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ImageGenerationItem {
    pub id: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub revised_prompt: Option<String>,
    pub result: String,
    /// Where the client saved the image, once it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub saved_path: Option<String>,
}
