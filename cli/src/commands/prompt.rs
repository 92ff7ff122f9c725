//! `codex-thread prompt [FILE] [--lite] [--modalities text,image]`: the request body the next
//! sampling step of the resumed session would send.
//!
//! Built the way a resumed session builds it, from core's own pieces: the reconstructed
//! history projected for the model (`ContextManager::for_prompt`: missing tool outputs
//! answered with `aborted`, orphan outputs removed, media the model cannot read replaced), the
//! base instructions restored from the session meta (`resolve_base_instructions`), the model
//! the home's `config.toml` names (Codex resumes with it; the last turn's when it names
//! none), the reasoning settings of the last turn, and the thread id as the prompt cache key; then
//! encoded as normal Responses or Responses Lite (`encode_prompt`, which takes the history
//! over rather than copying it). Tools are not recorded in
//! session files, so the request has none. A fork by reference is resolved first, through the
//! Codex home, as `history` does.

use codex_core::InputModality;
use codex_core::{
    InstructionsPlacement, Prompt, ProviderKind, RequestOptions, WireApi, encode_prompt,
    resolve_base_instructions,
};
use codex_protocol::models::ResponseItem;
use std::path::PathBuf;

use codex_protocol::rollout::TurnContextItem;

use crate::cli::Modality;
use crate::error::{CommandResult, Status};
use crate::input::Source;
use crate::output::Output;
use crate::session_history::SessionHistory;

/// The provider id of OpenAI's own endpoint: the only one sent harness metadata.
const OPENAI_PROVIDER: &str = "openai";

/// Model named when the file records none.
const UNKNOWN_MODEL: &str = "unknown-model";

/// Runs `prompt`.
pub(crate) fn run(
    source: &Source,
    lite: bool,
    modalities: &[Modality],
    home: Option<PathBuf>,
    out: &mut Output,
) -> CommandResult {
    let mut session = SessionHistory::load(source, home)?;
    let input_history = session.take_history();
    let rebuilt = session.rebuilt();
    let last_turn = session.newest_turn_context();
    let settings: Option<&TurnContextItem> = rebuilt.reference_context_item.as_ref().or(last_turn);
    // Codex resumes with the home's configured model; the file's is the next best answer.
    let model = session
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
    // Only the base instructions a meta records are restored: the `instructions` of an older
    // meta (0.77: the user's own instructions) Codex never sends in their place.
    let restored = session
        .session_meta()
        .and_then(|meta| meta.meta.base_instructions.clone());
    let base_instructions = resolve_base_instructions(None, restored.as_ref(), &model, "");
    let modalities: Vec<InputModality> = modalities
        .iter()
        .map(|modality| match modality {
            Modality::Text => InputModality::Text,
            Modality::Image => InputModality::Image,
            Modality::Audio => InputModality::Audio,
        })
        .collect();
    let input = input_history.for_prompt(&modalities);
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
        // A history that records its tools (code mode) is sent in the Lite shape, as Codex
        // sends it.
        wire_api: if lite || records_its_tools {
            WireApi::ResponsesLite
        } else {
            WireApi::Responses
        },
        provider: ProviderKind {
            is_openai: session.resumed_with().model_provider == OPENAI_PROVIDER,
            ..ProviderKind::default()
        },
        reasoning_effort: settings.and_then(|context| context.effort.clone()),
        reasoning_summary: settings.and_then(|context| context.summary.clone()),
        prompt_cache_key: session.thread_id().map(|id| id.to_string()),
        output_schema_strict: true,
        instructions_placement: InstructionsPlacement::FirstInput,
    };
    let request = encode_prompt(prompt, &options);
    out.json_document(&request.body)?;
    Ok(Status::Ok)
}
