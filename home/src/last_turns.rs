//! The last turns of a thread read from the end of its file, so showing them costs those
//! turns, not the file (`codex-thread thread --last N`).
//!
//! A page of whole turns is read backwards ([`turns_before`]) and built by the thread's own
//! builder ([`ThreadBuilder`]), started afresh at the page's first turn. The page is enough
//! when the builder says nothing in it depends on what came before
//! ([`ThreadBuilder::reads_earlier_items`]: no id numbered by position, no record naming a
//! turn the page lacks, no rollback of more turns than it holds, a turn context for the
//! thread's model) and it holds one turn more than asked: the page's first turn is the one a
//! builder fed from the start could have shaped otherwise (a `task_started` adopting the user
//! message before it), so it is never shown. Otherwise the page is doubled, until it reaches
//! the file's start, where the answer is `None` and the caller reads the whole file forwards.
//! The identity and preview come from the head, read forwards up to the page by the same
//! builder (a preview is the first user message, which a rollback does not change).
//!
//! Only a plain file whose first line is a paginated session meta is read this way: its items
//! carry their own ids and turns (the only files whose pages stand alone). Its client view is
//! the items as recorded when it holds a user turn record (a completed `UserMessage` item, as
//! Codex writes every user turn of a paginated file, or a `user_message` event): the preview
//! is taken from one, so a file without a preview is left to the whole-file reading, whose
//! view rebuilds item events. A pre-envelope line in a paginated file (which no Codex
//! writes) would change that view too; it is not looked for before the page. Lines that do
//! not parse are left out, as the forward reading leaves them, but not announced: the lines
//! before the page are never read.

use std::fs::File;
use std::io;
use std::path::Path;

use codex_app_server_protocol::{BuiltThread, ThreadBuilder, TranscriptMode};
use codex_protocol::rollout::{HistoryMode, RolloutItem};
use codex_rollout::{COMPRESSED_SUFFIX, RolloutStream, turns_before};

/// The thread of the file at `path` with only its last `last` turns (showing the items of
/// `mode`), read from the end;
/// `None` when the file is not one whose last turns stand alone (see the module docs) or
/// when telling them needs the whole file: the caller then builds the thread from the
/// whole file, which gives the same answer.
pub fn last_turns_from_end(
    path: &Path,
    last: usize,
    mode: TranscriptMode,
) -> io::Result<Option<BuiltThread>> {
    if last == 0 || path.to_string_lossy().ends_with(COMPRESSED_SUFFIX) || !is_paginated(path)? {
        return Ok(None);
    }
    let end = std::fs::metadata(path)?.len();
    let mut wanted = last.saturating_add(1);
    // Read once, up to the first page: the head's identity and preview are the file's first
    // meta and first user message whatever page follows; without a preview before the first
    // page's start, there is none before a larger page's either, which then finds it.
    let mut head: Option<ThreadBuilder> = None;
    loop {
        let page = turns_before(path, end, wanted, u64::MAX)?;
        if page.start == 0 {
            return Ok(None);
        }
        let head = match &mut head {
            Some(head) => head,
            None => head.insert(head_up_to(path, page.start, mode)?),
        };
        if !head.has_identity() {
            return Ok(None);
        }
        let mut builder = head.for_later_page();
        for item in &page.items {
            builder.handle_rollout_item(item);
        }
        // No user turn record up to the end: the file's view rebuilds item events from its
        // response items, a rule only the whole file can apply.
        if builder.preview().is_none() {
            return Ok(None);
        }
        let enough = page.turns >= wanted && !builder.reads_earlier_items();
        if enough {
            let mut built = builder.finish();
            if built.turns().len() > last {
                built.keep_last_turns(last);
                return Ok(Some(built));
            }
        }
        tracing::debug!(path = %path.display(), turns = wanted, "the page is not enough");
        wanted = wanted.saturating_mul(2);
    }
}

/// Whether the file's first line is a paginated session meta.
fn is_paginated(path: &Path) -> io::Result<bool> {
    let mut stream = RolloutStream::new(File::open(path)?)?;
    let Some(line) = stream.next_line()? else {
        return Ok(false);
    };
    Ok(match line.line().map(|line| &line.item) {
        Some(RolloutItem::SessionMeta(meta)) => {
            meta.meta.history_mode == Some(HistoryMode::Paginated)
        }
        _ => false,
    })
}

/// A builder fed the file's items from its start until it has the thread's identity and
/// preview, reading no line at or after `limit`.
fn head_up_to(path: &Path, limit: u64, mode: TranscriptMode) -> io::Result<ThreadBuilder> {
    let mut builder = ThreadBuilder::in_mode(mode);
    let mut stream = RolloutStream::new(File::open(path)?)?;
    while let Some(line) = stream.next_line()? {
        if line.offset >= limit {
            break;
        }
        if let Some(rollout_line) = line.line() {
            builder.handle_rollout_item(&rollout_line.item);
        }
        if builder.has_identity() && builder.preview().is_some() {
            break;
        }
    }
    Ok(builder)
}

#[cfg(test)]
#[path = "last_turns_tests.rs"]
mod tests;
