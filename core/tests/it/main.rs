//! The integration tests of this crate, one binary (as `../shared/STYLE.md` asks: one link,
//! not one per file): one module per behaviour or per comparison.

mod context_manager_props;
mod context_manager_real_fixtures;
mod event_mapping_real_fixtures;
mod session_cursor_props;
mod session_turn;
mod session_turn_ids;
mod session_turn_limit;
mod session_turn_tools;
