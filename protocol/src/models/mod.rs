//! The model-facing wire types: [`ResponseItem`] (everything in model history),
//! [`ResponseInputItem`] (what the harness submits), and their content and payload types.
//!
//! One concept per submodule; everything is re-exported here so callers write
//! `codex_protocol::models::ContentItem`.

mod base_instructions;
mod configuration;
mod content;
mod function_output;
mod input_item;
mod local_shell;
mod metadata;
mod reasoning;
mod response_item;
mod response_item_accessors;
mod response_item_builders;
mod web_search;

pub use base_instructions::BaseInstructions;
pub use base_instructions::BaseInstructionsProvenance;
pub use configuration::ConfigurationReasoning;
pub use configuration::ReasoningEffort;
pub use content::AgentMessageInputContent;
pub use content::ContentItem;
pub use content::DEFAULT_IMAGE_DETAIL;
pub use content::ImageDetail;
pub use content::MessagePhase;
pub use content::plaintext_agent_message_content;
pub use function_output::FunctionCallOutputBody;
pub use function_output::FunctionCallOutputContentItem;
pub use function_output::FunctionCallOutputPayload;
pub use input_item::ResponseInputItem;
pub use local_shell::LocalShellAction;
pub use local_shell::LocalShellExecAction;
pub use local_shell::LocalShellStatus;
pub use metadata::InternalChatMessageMetadataPassthrough;
pub use reasoning::ReasoningItemContent;
pub use reasoning::ReasoningItemReasoningSummary;
pub use response_item::ResponseItem;
pub use web_search::WebSearchAction;

pub(crate) use function_output::read_output_body;

#[cfg(test)]
mod roundtrip_props_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod wire_traps_tests;
