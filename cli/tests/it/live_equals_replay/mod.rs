//! Tests that compare `codex-rollout` with `codex-app-server-protocol`: what a client saw live
//! against what a resume of the session file shows. They live here, in the crate above both,
//! so that neither of the two sibling crates depends on the other, not even for its tests.
//!
//! - [`recorder`]: the catalogued scripted threads through the real recorder and a file;
//! - [`driver_items`]: core's turn driver recorded, reloaded and projected;
//! - [`scenarios_property`]: the same as a property over generated turns, through the policy.

mod driver_items;
mod recorder;
mod scenarios_property;
