//! The request side of a turn: what the model is asked, and how that is spelled on the wire.
//!
//! A [`Prompt`] is the provider-neutral request a session builds for every sampling step: the
//! base instructions (kept in the session configuration, never as a history message), the
//! history projection as input items, the tools, whether tools may run in parallel, and an
//! optional output schema. [`encode`] turns one prompt into a Responses request body, either
//! the normal shape (instructions and tools at the top level) or the Responses Lite shape
//! (both moved into developer items at the front of the input). Encoding always works on a
//! copy: the session's prompt and history are never changed by a provider adaptation.
//!
//! - [`instructions`]: [`resolve_base_instructions`], override > restored > model default;
//! - [`tools`]: [`ToolSpec`], a tool definition as the provider reads it;
//! - [`encode`]: [`encode_request`], [`RequestOptions`], [`ResponsesRequest`];
//! - [`lite`]: the Responses Lite specifics (tool folding, image detail removal).

pub(crate) mod encode;
pub(crate) mod instructions;
pub(crate) mod lite;
pub(crate) mod tools;

use codex_protocol::models::BaseInstructions;
use codex_protocol::models::ResponseItem;

pub use encode::EncodedRequest;
pub use encode::InstructionsPlacement;
pub use encode::ProviderKind;
pub use encode::ReasoningRequest;
pub use encode::RequestOptions;
pub use encode::ResponsesRequest;
pub use encode::TextControls;
pub use encode::WireApi;
pub use encode::prepare_input_for_request;
pub use encode::{encode_prompt, encode_request};
pub use instructions::resolve_base_instructions;
pub use tools::ToolSpec;

/// One sampling request, independent of the wire format.
///
/// Why the base instructions are a field and not the first history item: they are part of the
/// current request contract. A history message can be truncated, compacted or hidden; the
/// session re-attaches the instructions to every prompt instead, so they never silently go
/// missing (and a `previous_response_id` chain does not carry them over either).
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// The highest-authority instructions, resolved once per session.
    pub base_instructions: BaseInstructions,
    /// The history projection (`ContextManager::for_prompt`) plus anything queued for this step.
    pub input: Vec<ResponseItem>,
    /// The tools the model may call.
    pub tools: Vec<ToolSpec>,
    /// Whether the model may emit several tool calls in one response.
    pub parallel_tool_calls: bool,
    /// A JSON schema the final answer must follow, when the turn asked for structured output.
    pub output_schema: Option<serde_json::Value>,
}

impl Prompt {
    /// A prompt with instructions and input, no tools, parallel tool calls off, no schema.
    pub fn new(base_instructions: BaseInstructions, input: Vec<ResponseItem>) -> Self {
        Self {
            base_instructions,
            input,
            tools: Vec::new(),
            parallel_tool_calls: false,
            output_schema: None,
        }
    }
}
