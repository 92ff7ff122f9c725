//! The integration tests of this crate, one binary (as `../shared/STYLE.md` asks: one link,
//! not one per file): one module per behaviour or per comparison.

mod common;

mod bad_input;
mod docs_examples;
mod events_real_fixtures;
mod events_roundtrip;
mod models_roundtrip;
mod real_fixtures;
mod type_first_real_fixtures;
mod type_first_tags;
