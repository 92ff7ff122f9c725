//! Tool definitions as the provider reads them.

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use serde_json::json;

/// One tool the model may call, kept as the exact JSON object the Responses API reads
/// (`{"type":"function","name":...,"parameters":...}`, `{"type":"custom",...}`,
/// `{"type":"local_shell"}`, `{"type":"web_search"}`, `{"type":"namespace",...}`, ...).
///
/// Why raw JSON and not a typed union: tool kinds evolve faster than this crate, and encoding
/// only ever needs two facts about a tool (its `type` and whether it is a plain function or a
/// freeform tool, which Responses Lite folds into one namespace). Keeping the object verbatim
/// means a new tool kind passes through unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ToolSpec(Value);

impl ToolSpec {
    /// A JSON-schema function tool.
    pub fn function(name: &str, description: &str, parameters: Value) -> Self {
        Self(json!({
            "type": "function",
            "name": name,
            "description": description,
            "strict": false,
            "parameters": parameters,
        }))
    }

    /// A freeform (grammar) tool such as `apply_patch`; its input is raw text.
    pub fn freeform(name: &str, description: &str, format: Value) -> Self {
        Self(json!({
            "type": "custom",
            "name": name,
            "description": description,
            "format": format,
        }))
    }

    /// Any tool object, passed through verbatim.
    pub fn raw(value: Value) -> Self {
        Self(value)
    }

    /// The tool's `type` tag (`""` when it has none).
    pub fn tool_type(&self) -> &str {
        self.0
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The tool's `name`, when it has one.
    pub fn name(&self) -> Option<&str> {
        self.0.get("name").and_then(Value::as_str)
    }

    /// True for plain function and freeform tools: the ones Responses Lite folds into the
    /// `functions` namespace.
    pub fn is_plain_function_or_freeform(&self) -> bool {
        matches!(self.tool_type(), "function" | "custom")
    }

    /// True for a namespace tool named `name`.
    pub fn is_namespace(&self, name: &str) -> bool {
        self.tool_type() == "namespace" && self.name() == Some(name)
    }

    /// The JSON object.
    pub fn as_json(&self) -> &Value {
        &self.0
    }

    /// The JSON object, owned.
    pub fn into_json(self) -> Value {
        self.0
    }
}
