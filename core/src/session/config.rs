//! What a session is configured with, and the per-turn view of it.

use codex_protocol::models::BaseInstructions;
use codex_protocol::thread_id::ThreadId;

use super::media::MediaSettings;
use crate::context_manager::InputModality;
use crate::context_manager::TruncationPolicy;
use crate::context_manager::default_input_modalities;
use crate::prompt::InstructionsPlacement;
use crate::prompt::ProviderKind;
use crate::prompt::RequestOptions;
use crate::prompt::WireApi;

/// The facts about the model that recording and prompt building depend on.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSettings {
    /// The model slug sent in requests.
    pub slug: String,
    /// The model's default base instructions (used when neither an override nor a restored
    /// value exists; see [`crate::prompt::resolve_base_instructions`]).
    pub default_base_instructions: String,
    /// How much of a tool output history keeps.
    pub truncation_policy: TruncationPolicy,
    /// What the model can read; the prompt projection replaces other media.
    pub input_modalities: Vec<InputModality>,
    /// Normal Responses or Responses Lite.
    pub wire_api: WireApi,
    /// What the provider accepts.
    pub provider: ProviderKind,
    /// The reasoning effort sent with each request, when the model reasons.
    pub reasoning_effort: Option<String>,
    /// The reasoning summary setting sent with each request.
    pub reasoning_summary: Option<String>,
    /// Whether the model may emit several tool calls per response.
    pub supports_parallel_tool_calls: bool,
}

impl ModelSettings {
    /// Settings for `slug` with conservative defaults: normal Responses on OpenAI, text and
    /// image input, a 10 000-token tool-output budget, parallel tool calls allowed.
    pub fn new(slug: impl Into<String>, default_base_instructions: impl Into<String>) -> Self {
        Self {
            slug: slug.into(),
            default_base_instructions: default_base_instructions.into(),
            truncation_policy: TruncationPolicy::Tokens(10_000),
            input_modalities: default_input_modalities(),
            wire_api: WireApi::Responses,
            provider: ProviderKind::default(),
            reasoning_effort: None,
            reasoning_summary: None,
            supports_parallel_tool_calls: true,
        }
    }

    /// The request options this model's requests are encoded with.
    pub fn request_options(&self, prompt_cache_key: Option<String>) -> RequestOptions {
        RequestOptions {
            model: self.slug.clone(),
            wire_api: self.wire_api,
            provider: self.provider,
            reasoning_effort: self.reasoning_effort.clone(),
            reasoning_summary: self.reasoning_summary.clone(),
            prompt_cache_key,
            output_schema_strict: true,
            instructions_placement: InstructionsPlacement::TopLevel,
        }
    }
}

/// A session's configuration. Lives behind the session lock next to the history; readers get
/// a clone.
#[derive(Debug, Clone)]
pub struct SessionConfiguration {
    /// The thread this session records.
    pub thread_id: ThreadId,
    /// Resolved once at session start ([`crate::prompt::resolve_base_instructions`]) and
    /// attached to every prompt; never stored as a history message.
    pub base_instructions: BaseInstructions,
    /// The model and how requests to it are shaped.
    pub model: ModelSettings,
    /// Media preparation at the history boundary.
    pub media: MediaSettings,
    /// Developer instructions from the configuration, compiled into the initial context.
    pub developer_instructions: Option<String>,
    /// Whether raw reasoning text is shown to clients (legacy raw-reasoning events).
    pub show_raw_reasoning: bool,
    /// Plan mode (collaboration mode `plan`): changes what counts as visible answer text.
    pub plan_mode: bool,
}

impl SessionConfiguration {
    /// A configuration for a new thread with the model's default instructions.
    pub fn new(thread_id: ThreadId, model: ModelSettings) -> Self {
        let base_instructions = crate::prompt::resolve_base_instructions(
            None,
            None,
            &model.slug,
            &model.default_base_instructions,
        );
        Self {
            thread_id,
            base_instructions,
            model,
            media: MediaSettings::default(),
            developer_instructions: None,
            show_raw_reasoning: false,
            plan_mode: false,
        }
    }
}

/// The configuration one turn runs with: a snapshot taken when the turn starts, so a
/// configuration change mid-turn does not change how the running turn records.
#[derive(Debug, Clone)]
pub struct TurnContext {
    /// The turn (submission) id: stamped on recorded items, and the id of emitted events.
    pub sub_id: String,
    /// The model of this turn.
    pub model: ModelSettings,
    /// Media preparation for this turn's items.
    pub media: MediaSettings,
    /// Whether raw reasoning text is shown to clients (legacy raw-reasoning events).
    pub show_raw_reasoning: bool,
    /// Plan mode (collaboration mode `plan`): changes what counts as visible answer text.
    pub plan_mode: bool,
}

impl TurnContext {
    /// The turn context of `sub_id` under `configuration`.
    pub fn new(sub_id: impl Into<String>, configuration: &SessionConfiguration) -> Self {
        Self {
            sub_id: sub_id.into(),
            model: configuration.model.clone(),
            media: configuration.media.clone(),
            show_raw_reasoning: configuration.show_raw_reasoning,
            plan_mode: configuration.plan_mode,
        }
    }
}
