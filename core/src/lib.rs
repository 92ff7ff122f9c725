//! The conversation semantics of a Codex thread, on top of [`codex_protocol`].
//!
//! Entry points (every public item is re-exported here, at the root; the modules are
//! private):
//!
//! - [`parse_turn_item`], [`ContextFragment`], [`is_user_turn_boundary`]: what a person sees
//!   of a [`codex_protocol::models::ResponseItem`] and where a user turn starts;
//! - [`ContextManager`]: the model's memory (history), its prompt projection and rollback;
//!   [`run_compaction_attempts`] and [`build_legacy_compacted_history`]: compaction;
//! - [`Session`]: recording provider output into history, the durable sink
//!   ([`RolloutSink`]) and the event stream ([`EventSink`]); [`TurnRunner`]: one turn against
//!   a [`ModelClient`]; [`encode_request`]: building the next request.
//!
//! Architecture invariant: this crate opens no files. Durable recording goes through the
//! rollout sink trait [`RolloutSink`], implemented by `codex-rollout`.
//!
//! A key design decision: stored history is never rewritten by projection.
//! [`ContextManager::for_prompt`] consumes a snapshot and repairs only that copy ("normalizes"
//! it: every call answered, no orphan output), so what was recorded stays what happened.
//!
//! # Example
//!
//! Build a history and its next prompt. The model called a tool and the turn was interrupted
//! before the output arrived; the history keeps the truth, the prompt answers the call.
//!
//! ```
//! use codex_core::{ContextManager, TruncationPolicy, default_input_modalities, parse_turn_item};
//! use codex_protocol::items::TurnItem;
//! use codex_protocol::models::ResponseItem;
//!
//! let question = ResponseItem::user_text("List the files.");
//! // What a person sees of the item: their message, without injected context.
//! let Some(TurnItem::UserMessage(seen)) = parse_turn_item(&question) else {
//!     panic!("a user message is shown as one");
//! };
//! assert_eq!(seen.message(), "List the files.");
//!
//! let call = ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "call_1");
//! let mut history = ContextManager::new();
//! history.record_items([&question, &call], TruncationPolicy::Bytes(10_000));
//! assert_eq!(history.raw_items().len(), 2); // no output was recorded
//!
//! let prompt = history.clone().for_prompt(&default_input_modalities());
//! assert_eq!(prompt.len(), 3);
//! let Some(ResponseItem::FunctionCallOutput { call_id, output, .. }) = prompt.last() else {
//!     panic!("the unanswered call gets a synthesized output");
//! };
//! assert_eq!(call_id.as_deref(), Some("call_1"));
//! assert_eq!(output.text_content(), Some("aborted"));
//! assert_eq!(history.raw_items().len(), 2); // the stored history is unchanged
//! ```
//!
//! # Cargo features
//!
//! None. The session driver needs tokio's runtime pieces (`rt`, `sync`, `time`) and always
//! has them; core itself never opens a file or a socket.

#![warn(missing_docs)]

mod context_manager;
mod contextual;
mod event_mapping;
mod prompt;
mod session;
mod turn_boundary;

pub use context_manager::legacy_compaction::{
    COMPACT_USER_MESSAGE_MAX_TOKENS, SUMMARY_PREFIX, build_legacy_compacted_history,
};
pub use context_manager::normalize::synthetic_output_id;
pub use context_manager::{
    AttemptError, CompactionError, CompactionModel, CompactionRun, ContextManager, InputModality,
    RetryPolicy, SYNTHETIC_OUTPUT_ID_NAMESPACE, TranscriptCursor, TranscriptRead, TruncationPolicy,
    WorldStateSnapshot, default_input_modalities, estimate_item_token_count, is_api_message,
    run_compaction_attempts, truncate_function_output_payload, truncate_text, user_turn_positions,
};
pub use contextual::{
    ContextFragment, DeveloperFragmentKind, FragmentError, FragmentKind, FragmentRole, PromptSlot,
    UserFragmentKind, build_hook_prompt_message, build_text_message,
    is_inter_agent_instruction_content, match_developer_fragment, match_user_fragment,
    merge_context_fragments, parse_hook_prompt_fragment, parse_hook_prompt_message,
    parse_visible_hook_prompt_message, render_hook_prompt_fragment,
};
pub use event_mapping::{parse_turn_item, web_search_action_detail};
pub use prompt::{
    EncodedRequest, InstructionsPlacement, Prompt, ProviderKind, ReasoningRequest, RequestOptions,
    ResponsesRequest, TextControls, ToolSpec, WireApi, encode_prompt, encode_request,
    prepare_input_for_request, resolve_base_instructions,
};
pub use session::clock::{Clock, IdSource, SequentialIds, SteppingClock};
pub use session::media::data_url::{decode_data_url, encode_data_url, is_data_url};
pub use session::media::image_header::read_image_info;
pub use session::media::session_image::SessionImage;
pub use session::media::{
    AudioPreparationError, ImageInfo, ImageOrigin, ImagePreparationError, ImagePreparationMetadata,
};
pub use session::turn::scripted::output_for_call;
pub use session::turn::{
    BoxFuture, ModelClient, ModelError, ModelResponse, ScriptedModel, ScriptedTools, ToolExecutor,
    ToolInvocation, ToolRun, TurnError, TurnInterrupt, TurnOutcome, TurnRunner,
};
pub use session::{
    EventSink, ImagePreparationMode, InMemoryEventSink, InMemoryMediaFiles, InMemoryRolloutSink,
    InitialContextInputs, MediaFiles, MediaSettings, ModelSettings, PreparedItems, RolloutSink,
    Session, SessionConfiguration, SinkError, SinkFuture, TurnContext,
    assign_missing_response_item_id, assign_missing_response_item_ids, compile_context_update,
    compile_initial_context, create_time_of, normalize_user_submission,
    prepare_conversation_items_for_history, should_defer_mailbox, stamp_response_item_for_history,
};
pub use turn_boundary::is_user_turn_boundary;

/// The README's examples, compiled and run as doc tests so the first code a downstream user
/// copies stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
