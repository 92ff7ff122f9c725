//! The model's memory of one thread: [`ContextManager`] history, its prompt projection,
//! rollback and compaction trimming.
//!
//! - [`history`]: the [`ContextManager`] state and its API (append, views, rewrites);
//! - [`record`]: which items enter history, and tool-output truncation on the way in
//!   ([`truncate`], [`truncate_output`]);
//! - [`normalize`] and [`modality`]: the prompt projection (every call answered, no orphan
//!   output, unsupported media replaced), linear time;
//! - [`trim`]: removing the oldest items with their call/output partners;
//! - [`rollback`]: dropping the last user turns;
//! - [`cursor`]: may a consumer read only the delta since it last looked?
//! - [`token_usage`] and [`token_estimate`]: reported usage and estimates;
//! - [`compaction`]: the compaction request loop that trims on context overflow;
//! - [`legacy_compaction`]: the history an old summary-only compaction left (replayed by
//!   the rollout crate when it rebuilds such a session);
//! - [`world_state`]: the world-state baseline kept alongside history.
//!
//! Nothing here opens a file or talks to a provider.

pub(crate) mod compaction;
pub(crate) mod cursor;
pub(crate) mod history;
pub(crate) mod legacy_compaction;
pub(crate) mod modality;
pub(crate) mod normalize;
pub(crate) mod record;
pub(crate) mod rollback;
pub(crate) mod token_estimate;
pub(crate) mod token_usage;
pub(crate) mod trim;
pub(crate) mod truncate;
pub(crate) mod truncate_output;
pub(crate) mod world_state;

pub use compaction::AttemptError;
pub use compaction::CompactionError;
pub use compaction::CompactionModel;
pub use compaction::CompactionRun;
pub use compaction::RetryPolicy;
pub use compaction::run_compaction_attempts;
pub use cursor::TranscriptCursor;
pub use cursor::TranscriptRead;
pub use history::ContextManager;
pub use modality::InputModality;
pub use modality::default_input_modalities;
pub use normalize::SYNTHETIC_OUTPUT_ID_NAMESPACE;
pub use record::is_api_message;
pub use rollback::user_turn_positions;
pub use token_estimate::estimate_item_token_count;
pub use truncate::TruncationPolicy;
pub use truncate::truncate_text;
pub use truncate_output::truncate_function_output_payload;
pub use world_state::WorldStateSnapshot;

#[cfg(test)]
pub(crate) mod test_support;
