//! The integration tests of this crate, one binary (as `../shared/STYLE.md` asks: one link,
//! not one per file): one module per behaviour or per comparison.

mod common;
#[path = "../../benches/support/generate.rs"]
mod generate;

mod compressed;
mod crash_safety;
mod fork;
mod fork_by_reference;
mod load_fuzz;
mod load_real_fixtures;
mod read_paths_agree;
mod reconstruct;
mod recorder;
mod turn_index_passing;
