//! What a client is shown of one session file, read once for `thread` and `view`: the items
//! of its client view (codex-rollout's [`ClientView`]) streamed into a builder, or, for a file
//! that continues another thread's history (a `history_base`), its resolved chain.

use std::path::Path;

use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{
    ClientView, CodexHome, history_base_of_file, home_of_rollout_path, load_rollout_with_base,
};
use uuid::Uuid;

use crate::error::Failure;
use crate::input::Source;
use crate::progress::Progress;
use crate::streamed::{stream_again, stream_session};

/// Streams the client view of `source` into a builder made by `new`. The view's rule is
/// decided from the first items; when the end of the file says another rule was needed, the
/// file is streamed once more with the rule known, into a fresh builder (a file is never
/// held).
pub(crate) fn stream_client_view<B>(
    source: &Source,
    progress: &Progress,
    new: impl Fn() -> B,
    mut feed: impl FnMut(&mut B, &RolloutItem),
) -> Result<B, Failure> {
    let mut view = ClientView::streaming();
    let mut builder = new();
    let mut thread_id = None;
    let seen = stream_session(source, progress, |line| {
        if let Some(format) = line.format() {
            view.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            if let (None, RolloutItem::SessionMeta(meta)) = (thread_id, &rollout_line.item) {
                thread_id = Some(meta.meta.id);
            }
            view.push(line.number, line.raw, &rollout_line.item, &mut |item| {
                feed(&mut builder, item);
            });
        }
    })?;
    let Err(changed) = view.finish(&mut |item| feed(&mut builder, item)) else {
        return Ok(builder);
    };
    tracing::debug!(%changed, source = %source.name(), "reading the file again");
    let thread_id = thread_id.unwrap_or_else(|| ThreadId::from_uuid(Uuid::nil()));
    let mut view = ClientView::for_rule(changed.file, thread_id);
    let mut builder = new();
    let mut push = |item: &RolloutItem| feed(&mut builder, item);
    stream_again(
        source,
        "reading",
        seen,
        ("read", "read"),
        |_, line, rollout_line| {
            view.push(line.number, line.raw, &rollout_line.item, &mut push);
            Ok(())
        },
    )?;
    // The rule is known, so the view cannot find that another one was needed.
    let _known = view.finish(&mut push);
    Ok(builder)
}

/// The items of the file at `path` with its history base resolved (the parent's prefix, then
/// its own lines), fed to `feed`, when the file continues another thread's history; `false`
/// when it does not (then nothing is fed). The parent is found through `home`, else the home
/// the file lies in, else the default one; a missing parent is an error that names it.
pub(crate) fn feed_with_base(
    path: &Path,
    home: Option<&Path>,
    mut feed: impl FnMut(&RolloutItem),
) -> Result<bool, Failure> {
    if !continues_another(path) {
        return Ok(false);
    }
    let home = home_of(path, home)?;
    let resolved = load_rollout_with_base(&home, path)
        .map_err(|error| Failure::Content(format!("{}: {error}", path.display())))?;
    for item in resolved.items() {
        feed(item);
    }
    Ok(true)
}

/// Whether the file at `path` continues another thread's history (its first line names a
/// `history_base`): a fork by reference or a continuation file.
pub(crate) fn continues_another(path: &Path) -> bool {
    matches!(history_base_of_file(path), Ok(Some(_)))
}

/// The home named by `home` (which must be one: [`crate::inputs::resolve_home`]), else the one
/// `path` lies in, else the default one.
pub(crate) fn home_of(path: &Path, home: Option<&Path>) -> Result<CodexHome, Failure> {
    Ok(match home {
        Some(root) => crate::inputs::resolve_home(Some(root))?,
        None => match home_of_rollout_path(path) {
            Some(home) => home,
            None => CodexHome::resolve(None).map_err(|error| Failure::Usage(error.to_string()))?,
        },
    })
}
