//! The v2 client contract: items, turns, threads, notification payloads, approvals and request
//! params. Every type here exports to `schema/typescript/v2/` and `schema/json/v2/`.

mod approval;
mod decision_mapping;
mod from_core;
mod from_core_parts;
mod item;
mod item_parts;
mod notification;
mod requests;
mod thread;
mod turn;
mod user_input;

pub use approval::*;
pub use from_core::SLEEP_EXTENSION_KIND;
pub use from_core_parts::{convert_patch_changes, duration_ms, review_output_text, shell_join};
pub use item::*;
pub use item_parts::*;
pub use notification::*;
pub use requests::*;
pub use thread::*;
pub use turn::*;
pub use user_input::*;
