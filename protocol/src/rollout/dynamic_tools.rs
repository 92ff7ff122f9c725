//! The `dynamic_tools_updated` line (Codex 0.169 on): the tools a client gave the thread
//! (`thread/start`'s `dynamicTools`) as they are from this line on. A session meta's
//! `dynamic_tools` holds them as the thread began; a later line replaces them. Each tool spec
//! (a function, or a namespace of functions) is kept as written: its fields change with the
//! releases, and nothing here reads inside it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// The payload of a `dynamic_tools_updated` line. Read leniently (a field missing reads as
/// empty): what it holds is kept, never refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct DynamicToolsUpdated {
    /// The thread whose tools these are.
    #[serde(default)]
    pub thread_id: String,
    /// The tool specs (an array), as written.
    #[serde(default = "no_tools")]
    #[schemars(with = "Vec<Value>")]
    #[ts(type = "Array<unknown>")]
    pub tools: Value,
}

fn no_tools() -> Value {
    Value::Array(Vec::new())
}
