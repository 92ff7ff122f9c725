//! Opening a large session from its end: its last page of turns, read backwards, so the last
//! screen shows without reading the whole file; the pane then pages through the rest on
//! demand ([`Window`]).
//!
//! Only a plain file that records its turns for clients (`item_completed` or `user_message`
//! events in the part read) and continues no other file's history is opened this way;
//! anything else is read whole ([`codex_home::load_thread_file`]). The part read starts at a turn's
//! `task_started` line, so the turns shown are whole.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use codex_home::read_head_summary;
use codex_protocol::rollout::RolloutItem;

use super::window::Window;
use crate::error::Failure;

/// Files at least this large open from their end.
pub(crate) const TAIL_FROM_BYTES: u64 = 32 * 1024 * 1024;
/// The first bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The last page of the session at `path`, when it is large enough and fit to be read from
/// its end (see the module docs); `None` when it should be read whole.
pub(crate) fn load_tail(path: &Path) -> Result<Option<Window>, Failure> {
    let unreadable =
        |error: std::io::Error| Failure::Unreadable(format!("{}: {error}", path.display()));
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size < TAIL_FROM_BYTES {
        return Ok(None);
    }
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|mut file| file.read_exact(&mut magic))
        .map_err(unreadable)?;
    if magic == ZSTD_MAGIC {
        return Ok(None);
    }
    let Ok(head) = read_head_summary(path) else {
        return Ok(None);
    };
    let Some(meta) = head.session_meta else {
        return Ok(None);
    };
    if meta.meta.history_base.is_some() {
        return Ok(None);
    }
    let window = Window::at_end(path, size, meta)?;
    if window.start() == 0 {
        // The last page is the whole file: it is not large after all.
        return Ok(None);
    }
    let client_records = window.items().any(RolloutItem::records_client_items);
    Ok(client_records.then_some(window))
}
