//! What the integration tests over real files share.

use std::fs;
use std::path::Path;

use codex_protocol::rollout::{RolloutItem, parse_rollout_line, split_lines};

/// The items of the rollout at `path` that parse (unreadable lines left out, as the
/// readers skip them).
pub(crate) fn rollout_items(path: &Path) -> Result<Vec<RolloutItem>, Box<dyn std::error::Error>> {
    let bytes = fs::read(path)?;
    Ok(split_lines(&bytes)
        .filter_map(|(_, line)| parse_rollout_line(line).ok())
        .filter_map(|parsed| parsed.item().cloned())
        .collect())
}
