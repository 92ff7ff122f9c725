//! What a `web_search_call` did: search, open a page, or find text in a page.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// The action of a web search call, tagged by `type`.
///
/// Every field is optional because partial (streaming) items carry only some of them; an
/// unknown action kind reads as [`WebSearchAction::Other`] instead of failing the item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schemars(rename = "ResponsesApiWebSearchAction")]
pub enum WebSearchAction {
    /// `search`: run a search.
    Search {
        /// The query, when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        query: Option<String>,
        /// Several queries, when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        queries: Option<Vec<String>>,
    },
    /// `open_page`: open a page.
    OpenPage {
        /// The page's URL, when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        url: Option<String>,
    },
    /// `find_in_page`: look for text in a page.
    FindInPage {
        /// The page's URL, when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        url: Option<String>,
        /// The text looked for, when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        pattern: Option<String>,
    },
    /// An action kind this crate does not know; written back as `{"type":"other"}`.
    #[serde(other)]
    Other,
}
