//! The integration tests of this crate, one binary (as `../shared/STYLE.md` asks: one link,
//! not one per file): one module per behaviour or per comparison.

mod common;

mod complete_mode;
mod real_fixtures;
mod scheduled_turns;
mod schema_fixtures;
