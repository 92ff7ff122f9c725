//! The integration tests of this crate, one binary (as `../shared/STYLE.md` asks: one link,
//! not one per file): one module per behaviour or per comparison.

mod message_snapshots;
mod thread_item_snapshots;
