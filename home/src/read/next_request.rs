//! The request the next sampling step of a resumed session would send, built from a
//! [`SessionHistory`] the way Codex builds it when it resumes the thread (see
//! `SessionHistory::next_request`).

use codex_core::{
    EncodedRequest, InputModality, InstructionsPlacement, Prompt, ProviderKind, RequestOptions,
    WireApi, encode_prompt, resolve_base_instructions,
};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::TurnContextItem;

use super::SessionHistory;

/// The provider id of OpenAI's own endpoint: the only one sent harness metadata.
const OPENAI_PROVIDER: &str = "openai";

/// Model named when neither the home nor the file names one.
const UNKNOWN_MODEL: &str = "unknown-model";

impl SessionHistory {
    /// The request body and headers the next sampling step would send, as Codex resumes the
    /// thread: the history projected for a model that reads `modalities`
    /// (`ContextManager::for_prompt`: missing tool outputs answered `aborted`, orphan outputs
    /// removed, unreadable media replaced); the model the home's `config.toml` names (Codex
    /// resumes with it), else the previous turn's, else that of the turn context below; the base
    /// instructions the session meta records (the `instructions` of an older meta, the user's
    /// own, Codex never sends in their place), else the model's; the reasoning settings of
    /// the reference context, else of the newest turn context; the thread id as the prompt
    /// cache key. Responses Lite when `lite` or when the history records its tools (code
    /// mode), as Codex sends such a history. Tools are not recorded in session files, so the
    /// request has none.
    pub fn next_request(mut self, lite: bool, modalities: &[InputModality]) -> EncodedRequest {
        let input_history = self.take_history();
        let rebuilt = self.rebuilt();
        let settings: Option<&TurnContextItem> = rebuilt
            .reference_context_item
            .as_ref()
            .or(self.newest_turn_context());
        let model = self
            .resumed_with()
            .configured_model
            .clone()
            .or_else(|| {
                rebuilt
                    .previous_turn_settings
                    .as_ref()
                    .map(|previous| previous.model.clone())
            })
            .or_else(|| settings.map(|context| context.model.clone()))
            .unwrap_or_else(|| UNKNOWN_MODEL.to_string());
        let restored = self
            .session_meta
            .as_ref()
            .and_then(|meta| meta.meta.base_instructions.clone());
        let base_instructions = resolve_base_instructions(None, restored.as_ref(), &model, "");
        let input = input_history.for_prompt(modalities);
        let records_its_tools = input.iter().any(ResponseItem::records_tools);
        let prompt = Prompt {
            base_instructions,
            input,
            tools: Vec::new(),
            parallel_tool_calls: true,
            output_schema: None,
        };
        let options = RequestOptions {
            model,
            wire_api: if lite || records_its_tools {
                WireApi::ResponsesLite
            } else {
                WireApi::Responses
            },
            provider: ProviderKind {
                is_openai: self.resumed_with().model_provider == OPENAI_PROVIDER,
                ..ProviderKind::default()
            },
            reasoning_effort: settings.and_then(|context| context.effort.clone()),
            reasoning_summary: settings.and_then(|context| context.summary.clone()),
            prompt_cache_key: self.thread_id().map(|id| id.to_string()),
            output_schema_strict: true,
            instructions_placement: InstructionsPlacement::FirstInput,
        };
        encode_prompt(prompt, &options)
    }
}
