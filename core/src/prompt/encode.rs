//! Encoding a [`Prompt`] into a Responses request body.
//!
//! The same prompt has two wire shapes. Normal Responses puts the base instructions in the
//! top-level `instructions` and the tools in the top-level `tools`. Responses Lite has neither
//! slot, so the tools travel as a developer `additional_tools` item and the base instructions
//! as a developer message, both first in `input` (see [`super::lite`]). Everything here works
//! on copies: the prompt, and the session history it came from, are never modified.

use codex_protocol::models::ResponseItem;
use serde::Serialize;
use serde_json::Value;

use super::Prompt;
use super::lite;

/// Which request shape the model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WireApi {
    /// Normal Responses: top-level `instructions` and `tools`.
    #[default]
    Responses,
    /// Responses Lite: instructions and tools as developer items at the front of the input.
    ResponsesLite,
}

/// Where normal Responses puts the base instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InstructionsPlacement {
    /// In the top-level `instructions` field (seed 002's encoding).
    #[default]
    TopLevel,
    /// As a developer message first in `input`, with no `instructions` field: what Codex
    /// 0.169 sends for every model (checked against its requests in
    /// `cli/tests/it/real_codex_prompt.rs`).
    FirstInput,
}

/// What the provider accepts beyond the plain Responses API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderKind {
    /// OpenAI's own endpoint accepts the harness metadata and encrypted function arguments on
    /// items; other providers get them stripped.
    pub is_openai: bool,
    /// Whether the provider understands `namespace` tools (Responses Lite then folds plain
    /// function and freeform tools into one `functions` namespace).
    pub supports_namespace_tools: bool,
}

impl Default for ProviderKind {
    fn default() -> Self {
        Self {
            is_openai: true,
            supports_namespace_tools: false,
        }
    }
}

/// Everything besides the prompt that shapes the request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RequestOptions {
    /// The model slug.
    pub model: String,
    /// Normal Responses or Responses Lite.
    pub wire_api: WireApi,
    /// What the provider accepts.
    pub provider: ProviderKind,
    /// Reasoning effort (`low`, `medium`, `high`, ...), when the model takes one.
    pub reasoning_effort: Option<String>,
    /// Reasoning summary mode, when the model supports summaries (`none` means no summary).
    pub reasoning_summary: Option<String>,
    /// Cache key shared by the requests of one thread.
    pub prompt_cache_key: Option<String>,
    /// Whether the output schema is enforced strictly.
    pub output_schema_strict: bool,
    /// Where normal Responses puts the base instructions (Lite always puts them in `input`).
    pub instructions_placement: InstructionsPlacement,
}

/// The `reasoning` object of a request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReasoningRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The reasoning effort (`low`, `medium`, `high`, ...), omitted when the model has none.
    pub effort: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The reasoning summary setting (`auto`, `concise`, `detailed`), omitted when none.
    pub summary: Option<String>,
    /// Responses Lite asks the provider to keep reasoning of all turns (`all_turns`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// The `text` object of a request: the structured output format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextControls {
    /// The output format (`text`, or a JSON schema).
    pub format: TextFormat,
}

/// A JSON-schema output format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextFormat {
    #[serde(rename = "type")]
    pub kind: String,
    pub strict: bool,
    pub schema: Value,
    pub name: String,
}

/// A Responses request body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResponsesRequest {
    /// The model slug.
    pub model: String,
    /// Empty (and then omitted) for Responses Lite.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub instructions: String,
    /// The conversation: the prompt projection of the history, base instructions first when
    /// they are placed in the input.
    pub input: Vec<ResponseItem>,
    /// Omitted for Responses Lite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Value>>,
    /// Always `auto`.
    pub tool_choice: String,
    /// Whether the model may answer with several tool calls at once.
    pub parallel_tool_calls: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The `reasoning` object, for reasoning models.
    pub reasoning: Option<ReasoningRequest>,
    /// Always `false`: the provider keeps nothing; the history is sent with every request.
    pub store: bool,
    /// Always `true`: the response is read as server-sent events.
    pub stream: bool,
    /// Always `reasoning.encrypted_content`: reasoning comes back encrypted, to be sent again.
    pub include: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The cache key shared by the requests of one thread ([`RequestOptions::prompt_cache_key`]).
    pub prompt_cache_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The structured output format, when one is asked for.
    pub text: Option<TextControls>,
}

/// A request body plus the HTTP headers its shape requires.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodedRequest {
    /// The JSON body.
    pub body: ResponsesRequest,
    /// The headers, as name and value.
    pub headers: Vec<(String, String)>,
}

/// The header that marks a Responses Lite request.
pub(crate) const RESPONSES_LITE_HEADER: &str = "x-openai-internal-codex-responses-lite";

/// Encodes `prompt` for the wire. Never modifies `prompt`: the request holds a copy of its
/// input ([`encode_prompt`] takes the prompt instead, for a caller done with it).
pub fn encode_request(prompt: &Prompt, options: &RequestOptions) -> EncodedRequest {
    encode_prompt(prompt.clone(), options)
}

/// [`encode_request`] of a prompt the caller gives up: its input becomes the request's,
/// adapted in place, so a long history is held once, not twice.
pub fn encode_prompt(mut prompt: Prompt, options: &RequestOptions) -> EncodedRequest {
    let use_lite = options.wire_api == WireApi::ResponsesLite;
    // The Lite prefix looks at the whole input, so it is made before the input is taken.
    let lite_prefix = use_lite.then(|| lite::lite_input_prefix(&prompt, options.provider));
    let mut input = std::mem::take(&mut prompt.input);
    prepare_input_in_place(&mut input, options.wire_api, options.provider);
    let prompt = &prompt;
    let (instructions, tools, parallel_tool_calls) = if let Some(mut prefixed) = lite_prefix {
        prefixed.append(&mut input);
        input = prefixed;
        (String::new(), None, false)
    } else {
        let tools = prompt
            .tools
            .iter()
            .map(|tool| tool.as_json().clone())
            .collect();
        let instructions = match options.instructions_placement {
            InstructionsPlacement::TopLevel => prompt.base_instructions.text.clone(),
            InstructionsPlacement::FirstInput => {
                if !prompt.base_instructions.text.is_empty() {
                    input.insert(0, lite::base_instructions_message(prompt));
                }
                String::new()
            }
        };
        (instructions, Some(tools), prompt.parallel_tool_calls)
    };
    let summary = options
        .reasoning_summary
        .clone()
        .filter(|summary| summary != "none");
    let context = use_lite.then(|| "all_turns".to_string());
    let reasoning = (options.reasoning_effort.is_some() || summary.is_some() || context.is_some())
        .then(|| ReasoningRequest {
            effort: options.reasoning_effort.clone(),
            summary,
            context,
        });
    let text = prompt.output_schema.as_ref().map(|schema| TextControls {
        format: TextFormat {
            kind: "json_schema".to_string(),
            strict: options.output_schema_strict,
            schema: schema.clone(),
            name: "codex_output_schema".to_string(),
        },
    });
    let headers = if use_lite {
        vec![(RESPONSES_LITE_HEADER.to_string(), "true".to_string())]
    } else {
        Vec::new()
    };
    EncodedRequest {
        body: ResponsesRequest {
            model: options.model.clone(),
            instructions,
            input,
            tools,
            tool_choice: "auto".to_string(),
            parallel_tool_calls,
            reasoning,
            store: false,
            stream: true,
            include: vec!["reasoning.encrypted_content".to_string()],
            prompt_cache_key: options.prompt_cache_key.clone(),
            text,
        },
        headers,
    }
}

/// The input items as they go on the wire: a copy of `input` adapted to the request shape and
/// the provider.
///
/// - Responses Lite: image `detail` removed everywhere (messages and tool outputs);
/// - providers other than OpenAI: harness metadata and encrypted function arguments removed;
/// - always: legacy ids that are not `{prefix}_{rest}` cleared, since the API rejects them.
pub fn prepare_input_for_request(
    input: &[ResponseItem],
    wire_api: WireApi,
    provider: ProviderKind,
) -> Vec<ResponseItem> {
    let mut items = input.to_vec();
    prepare_input_in_place(&mut items, wire_api, provider);
    items
}

/// [`prepare_input_for_request`] done to the items themselves.
fn prepare_input_in_place(items: &mut [ResponseItem], wire_api: WireApi, provider: ProviderKind) {
    for item in items {
        if wire_api == WireApi::ResponsesLite {
            lite::strip_image_detail(item);
        }
        if !provider.is_openai {
            item.clear_internal_chat_message_metadata_passthrough();
            if let ResponseItem::FunctionCall {
                encrypted_function_args,
                ..
            } = item
            {
                *encrypted_function_args = None;
            }
        }
        if item.id().is_some_and(|id| !id.is_prefixed()) {
            item.set_id(None);
        }
    }
}

#[cfg(test)]
#[path = "encode_tests.rs"]
mod tests;
