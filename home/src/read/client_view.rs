//! The items a client is shown of one session: codex-rollout's [`ClientView`] over the one
//! forward reader's lines, handed to a builder as they are read. The view's rule is decided
//! from the first items; when the end of the input says another rule was needed, the input
//! is read once more with the rule known, into a fresh builder (an input is never held).

use std::path::Path;

use codex_app_server_protocol::{BuiltThread, ThreadBuilder, TranscriptMode};
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{ClientView, TurnRecords};

use super::checked::{ItemsSeen, stream_again, stream_session};
use super::thread_file::{describe_thread_file, feed_with_base};
use super::{ReadError, SessionInput};

/// Streams the client view of `input` into a builder made by `new` (see the module docs).
pub fn stream_client_view<B>(
    input: &dyn SessionInput,
    new: impl Fn() -> B,
    feed: impl FnMut(&mut B, &RolloutItem),
) -> Result<B, ReadError> {
    stream_client_view_again(input, new, feed).map(|(builder, _)| builder)
}

/// What a later pass needs to hand on the same client view items again ([`ViewRead::again`]).
#[derive(Debug, Clone)]
pub(super) struct ViewRead {
    seen: ItemsSeen,
    rule: TurnRecords,
    thread_id: ThreadId,
}

/// [`stream_client_view`], with what a later pass needs to read the same items again.
pub(super) fn stream_client_view_again<B>(
    input: &dyn SessionInput,
    new: impl Fn() -> B,
    mut feed: impl FnMut(&mut B, &RolloutItem),
) -> Result<(B, ViewRead), ReadError> {
    let mut view = ClientView::streaming();
    let mut builder = new();
    let mut thread_id = None;
    let seen = stream_session(input, |line| {
        if let Some(format) = line.format() {
            view.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            if let (None, Some(meta)) = (thread_id, rollout_line.item.session_meta()) {
                thread_id = Some(meta.meta.id);
            }
            view.push(line.number, line.raw, &rollout_line.item, &mut |item| {
                feed(&mut builder, item);
            });
        }
    })?;
    let thread_id = thread_id.unwrap_or_else(ThreadId::unrecorded);
    let changed = match view.finish(&mut |item| feed(&mut builder, item)) {
        Ok(rule) => {
            let read = ViewRead {
                seen,
                rule,
                thread_id,
            };
            return Ok((builder, read));
        }
        Err(changed) => changed,
    };
    tracing::debug!(%changed, input = %input.name(), "reading the input again");
    let read = ViewRead {
        seen,
        rule: changed.file,
        thread_id,
    };
    let mut builder = new();
    read.again(input, "reading", |item| {
        feed(&mut builder, item);
        Ok::<(), ReadError>(())
    })?;
    Ok((builder, read))
}

impl ViewRead {
    /// Hands `visit` the client view's items of `input` again, by the rule the first pass
    /// settled, up to the last line it read; stops at the first error `visit` returns.
    pub(super) fn again<E: From<ReadError>>(
        &self,
        input: &dyn SessionInput,
        label: &str,
        mut visit: impl FnMut(&RolloutItem) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut view = ClientView::for_rule(self.rule, self.thread_id);
        let mut failed = None;
        let mut push = |item: &RolloutItem| {
            if failed.is_none() {
                failed = visit(item).err();
            }
        };
        stream_again(
            input,
            label,
            self.seen,
            ("read", "read"),
            |_, line, rollout_line| {
                view.push(line.number, line.raw, &rollout_line.item, &mut push);
                Ok::<(), E>(())
            },
        )?;
        // The rule is known, so the view cannot find that another one was needed.
        let _known = view.finish(&mut push);
        failed.map_or(Ok(()), Err)
    }
}

/// The thread of `input` showing the items of `mode`, whole or only its `last` turns, held:
/// a file's history base resolved through `home` (else the home it lies in, else the default
/// one), and what its home says of it ([`super::describe_thread_file`]). The last turns of a
/// file whose turns stand alone are read from its end ([`crate::last_turns_from_end`]), so
/// they cost those turns, not the file; otherwise the file is read forwards, once.
pub fn read_thread(
    input: &dyn SessionInput,
    home: Option<&Path>,
    mode: TranscriptMode,
    last: Option<usize>,
) -> Result<BuiltThread, ReadError> {
    let mut with_base = ThreadBuilder::in_mode(mode);
    let based = match input.file() {
        Some(path) => feed_with_base(path, home, |item| with_base.handle_rollout_item(item))?,
        None => false,
    };
    let from_end = match (input.file(), last) {
        (Some(path), Some(last)) if !based => crate::last_turns_from_end(path, last, mode)
            .map_err(|source| ReadError::Io {
                name: input.name(),
                source,
            })?,
        _ => None,
    };
    let mut built = match from_end {
        Some(built) => built,
        None if based => with_base.finish(),
        None => stream_client_view(
            input,
            || ThreadBuilder::in_mode(mode),
            |builder, item| {
                builder.handle_rollout_item(item);
            },
        )?
        .finish(),
    };
    if let Some(path) = input.file() {
        describe_thread_file(&mut built, path, home)?;
    }
    if let Some(last) = last {
        built.keep_last_turns(last);
    }
    Ok(built)
}
