//! Replaying a session file: the core events a live session emitted, rebuilt in order.
//!
//! Why here: a client that attaches to a recorded thread (the `codex-thread notifications`
//! command, an app server resuming a thread) must see what it would have seen live, and
//! working that out from a file is rollout knowledge (which lines are events, what writers
//! dropped, how lines carry time), so it lives in the crate that reads files rather than in
//! a binary. It stops at core's [`EventMsg`]s: turning them into client notifications is
//! app-server-protocol's projection, which this crate must not depend on.
//!
//! What a replay holds, in file order:
//! - every persisted event, as recorded; a recorded `item_completed` is preceded by its
//!   `item_started` (which no history mode keeps), rebuilt from the completed item and the
//!   start time it recorded;
//! - for files that did not persist their items as `item_completed` (legacy files keep only
//!   plans and a few others; pre-envelope and hand-filtered files none), the pair core sent
//!   live for each recorded response item with a client-visible form. Core emits that pair
//!   for exactly the items [`parse_turn_item`] projects, so the replay rebuilds them with the
//!   same function. A person's message is rebuilt only where the turn index
//!   ([`crate::turns`]) has a user turn, every turn the file ever held (a live client saw the
//!   turns a later rollback removed): from its message item, or from its record event when
//!   the file lost the item. Other user-role items are injected context (the redaction of
//!   some real files makes them look typed) and are not shown. Each
//!   rebuilt item keeps its recorded id, or gets `line-<N>` (its 1-based line) where core
//!   would have minted a random one or left it empty, so replays are reproducible. Its turn
//!   is the item's recorded turn id, else the turn running at that point of the file (from
//!   `task_started` to `task_complete` / `turn_aborted`), else empty.
//!
//! Time follows the file: a rebuilt item starts and completes at its own line's timestamp
//! (0 when that line has none, as the protocol reads old records), and every replayed event
//! carries the replay clock ([`ReplayedEvent::at_ms`]) for consumers that stamp what they
//! derive. Streaming deltas were never persisted, so a replay has none.

use codex_core::parse_turn_item;
use codex_protocol::event::{EventMsg, ItemCompletedEvent, ItemStartedEvent};
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;

use crate::load::RolloutContents;
use crate::turns::TurnRecords;
#[cfg(any(test, feature = "testing"))]
use crate::turns::all_user_turns_in_rollout;

mod client_view;
mod replayer;

pub use client_view::{ClientView, DECIDING_ITEMS, ViewRuleChanged};
use codex_protocol::event::UserMessageEvent;
use codex_protocol::items::UserMessageItem;
use codex_protocol::user_input::UserInput;
pub use replayer::Replayer;

/// A recorded session as the ordered events a live session emitted (tests compare the
/// streamed replay with it).
#[cfg(any(test, feature = "testing"))]
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// The thread the file records (its first `session_meta`), or the nil id for a file
    /// without one, so that a replay of the same bytes is always the same.
    pub thread_id: ThreadId,
    /// The events, in the order they were emitted.
    pub events: Vec<ReplayedEvent>,
}

/// One event of a replay, as a [`Replayer`] hands it over.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayedEvent {
    /// The item (index into [`RolloutContents::items`]) the event was read or rebuilt from.
    pub item_index: usize,
    /// The replay clock when the event is emitted, in Unix milliseconds: the timestamp of the
    /// event's line, else of the latest earlier line that has one; `None` before any.
    pub at_ms: Option<i64>,
    /// Whether the file recorded the event or the replay rebuilt it.
    pub origin: EventOrigin,
    /// The event.
    pub msg: EventMsg,
}

/// Where a [`ReplayedEvent`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventOrigin {
    /// An `event_msg` line of the file.
    Recorded,
    /// Rebuilt from a response item whose item events the writer did not persist.
    Rebuilt,
}

#[cfg(test)]
impl Replay {
    /// The bare events, in order.
    pub(crate) fn into_messages(self) -> Vec<EventMsg> {
        self.events.into_iter().map(|event| event.msg).collect()
    }
}

#[cfg(any(test, feature = "testing"))]
/// Replays `contents`: its events, with the item events its writer dropped rebuilt (see the
/// module docs). Never fails: lines that did not load simply contribute nothing. The
/// whole-file form of [`Replayer`], which a stream feeds line by line.
pub fn replay_rollout(contents: &RolloutContents) -> Replay {
    let thread_id = contents.thread_id().unwrap_or_else(ThreadId::unrecorded);
    let records = TurnRecords::of(contents);
    let turns = all_user_turns_in_rollout(contents.items(), records);
    let mut replayer = Replayer::of_turns(thread_id, records, turns);
    let mut events = Vec::new();
    for (index, item) in contents.items().iter().enumerate() {
        let (line, raw) = contents.entry_of_item(index).map_or((0, &[][..]), |entry| {
            (entry.number, contents.raw_line(entry))
        });
        replayer.push(index, line, raw, item, &mut |event| events.push(event));
    }
    Replay { thread_id, events }
}

/// The rollout items a client's resume view of `contents` is built from.
///
/// A file that records its turns for clients (`user_message` events, or completed
/// `UserMessage` items) gives its items as they are. A file that does not (the pre-envelope
/// format, files filtered by hand) would show a client no turns at all, although people
/// typed in it: its items come with the item events the replay rebuilds, each right after
/// the item it was rebuilt from, so the resume view and the replayed notifications show the
/// same turns. The whole-file form of [`ClientView`], which a stream feeds line by line.
pub fn client_view_items(contents: &RolloutContents) -> std::borrow::Cow<'_, [RolloutItem]> {
    let items = contents.items();
    let records = TurnRecords::of(contents);
    if !rebuilds_items(records) {
        return std::borrow::Cow::Borrowed(items);
    }
    let thread_id = contents.thread_id().unwrap_or_else(ThreadId::unrecorded);
    let mut view = ClientView::for_rule(records, thread_id);
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let (line, raw) = contents.entry_of_item(index).map_or((0, &[][..]), |entry| {
            (entry.number, contents.raw_line(entry))
        });
        view.push(line, raw, item, &mut |item| out.push(item.clone()));
    }
    // The rule is known, so the view cannot find that another one was needed.
    let _known = view.finish(&mut |item| out.push(item.clone()));
    std::borrow::Cow::Owned(out)
}

/// Whether the client view of a file counted by `records` holds rebuilt item events: only
/// when the file records no client view of its turns.
pub(crate) fn rebuilds_items(records: TurnRecords) -> bool {
    matches!(
        records,
        TurnRecords::BoundaryItems | TurnRecords::BoundaryItemsInTurns
    )
}

/// Where a rebuilt item sits: its line (1-based), that line's time, the thread, the running
/// turn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ItemPlace<'a> {
    pub(crate) line: usize,
    pub(crate) line_ms: Option<i64>,
    pub(crate) thread_id: ThreadId,
    pub(crate) running_turn: Option<&'a str>,
}

/// The `item_started` / `item_completed` pair core sent live for `response`, when it has a
/// client-visible form ([`parse_turn_item`]); a user message only when it is a turn's
/// message (`turn_message`: the turn index says so), other user-role items being injected
/// context. The replay and the client view both ask this.
pub(crate) fn rebuilt_item_events(
    response: &ResponseItem,
    place: ItemPlace<'_>,
    turn_message: bool,
) -> Option<[EventMsg; 2]> {
    let turn_item = parse_turn_item(response)?;
    if matches!(turn_item, TurnItem::UserMessage(_)) && !turn_message {
        return None;
    }
    let turn_item = with_stable_id(turn_item, stable_id(response, place.line));
    let turn_id = response
        .turn_id()
        .or(place.running_turn)
        .unwrap_or_default()
        .to_string();
    Some(item_event_pair(
        place.thread_id,
        turn_id,
        turn_item,
        place.line_ms.unwrap_or_default(),
    ))
}

/// The `item_started` no writer keeps, rebuilt from the completed item and the start time it
/// recorded.
pub(crate) fn started_of(done: &ItemCompletedEvent) -> EventMsg {
    EventMsg::ItemStarted(ItemStartedEvent {
        thread_id: done.thread_id.clone(),
        turn_id: done.turn_id.clone(),
        item: done.item.as_started(),
        started_at_ms: done.started_at_ms.unwrap_or(done.completed_at_ms),
    })
}

/// The user message a `user_message` event describes (text, then images by URL, then
/// local images), for a turn whose message item the file does not hold.
pub(crate) fn user_message_from_event(event: &UserMessageEvent, id: String) -> UserMessageItem {
    let mut content = vec![UserInput::Text {
        text: event.message.clone(),
        text_elements: Vec::new(),
    }];
    content.extend(event.images.iter().flatten().map(|url| UserInput::Image {
        image_url: url.clone(),
        detail: None,
    }));
    content.extend(event.local_images.iter().map(|path| UserInput::LocalImage {
        path: path.clone(),
        detail: None,
    }));
    UserMessageItem {
        id,
        client_id: event.client_id.clone(),
        content,
    }
}

/// Follows the running turn the way a live client sees it: from its start to its end.
pub(crate) fn track_turn(running_turn: &mut Option<String>, msg: &EventMsg) {
    match msg {
        EventMsg::TurnStarted(event) => *running_turn = Some(event.turn_id.clone()),
        EventMsg::TurnComplete(_) | EventMsg::TurnAborted(_) => *running_turn = None,
        _ => {}
    }
}

/// The id a rebuilt item gets: the recorded one, else one naming the line it came from.
fn stable_id(response: &ResponseItem, line: usize) -> String {
    match response.id() {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => format!("line-{line}"),
    }
}

/// The `item_started` / `item_completed` pair core sends for `item`, both at `at_ms`.
pub(crate) fn item_event_pair(
    thread_id: ThreadId,
    turn_id: String,
    item: TurnItem,
    at_ms: i64,
) -> [EventMsg; 2] {
    let thread_id = thread_id.to_string();
    let started = EventMsg::ItemStarted(ItemStartedEvent {
        thread_id: thread_id.clone(),
        turn_id: turn_id.clone(),
        item: item.clone(),
        started_at_ms: at_ms,
    });
    let completed = EventMsg::ItemCompleted(ItemCompletedEvent {
        thread_id,
        turn_id,
        item,
        started_at_ms: Some(at_ms),
        completed_at_ms: at_ms,
    });
    [started, completed]
}

/// `item` with its id replaced by `stable_id` where [`parse_turn_item`] minted a random one
/// (user messages and hook prompts always, agent messages recorded without an id) or left it
/// empty.
fn with_stable_id(item: TurnItem, stable_id: String) -> TurnItem {
    match item {
        TurnItem::UserMessage(mut message) => {
            message.id = stable_id;
            TurnItem::UserMessage(message)
        }
        TurnItem::HookPrompt(mut prompt) => {
            prompt.id = stable_id;
            TurnItem::HookPrompt(prompt)
        }
        TurnItem::Reasoning(mut reasoning) if reasoning.id.is_empty() => {
            reasoning.id = stable_id;
            TurnItem::Reasoning(reasoning)
        }
        TurnItem::WebSearch(mut search) if search.id.is_empty() => {
            search.id = stable_id;
            TurnItem::WebSearch(search)
        }
        // Core mints a random id for an agent message recorded without one; a recorded id
        // is kept (`stable_id` is that id).
        TurnItem::AgentMessage(mut message) => {
            message.id = stable_id;
            TurnItem::AgentMessage(message)
        }
        other => other,
    }
}

/// The `timestamp` of the line `raw`, in Unix milliseconds, when it has one that reads as
/// RFC 3339.
pub(crate) fn raw_line_time_ms(raw: &[u8]) -> Option<i64> {
    // Codex writes the timestamp first: read it without scanning the rest of the line (a
    // replay reads every line's time, and lines can be megabytes). An escaped timestamp, or
    // any other shape, takes the parse below.
    const PREFIX: &[u8] = br#"{"timestamp":""#;
    if let Some(rest) = raw.strip_prefix(PREFIX)
        && let Some(end) = rest.iter().position(|&byte| byte == b'"' || byte == b'\\')
        && rest.get(end) == Some(&b'"')
    {
        let at = std::str::from_utf8(rest.get(..end)?).ok()?;
        let at = chrono::DateTime::parse_from_rfc3339(at).ok()?;
        return Some(at.timestamp_millis());
    }
    #[derive(serde::Deserialize)]
    struct Stamp {
        timestamp: Option<String>,
    }
    let stamp: Stamp = serde_json::from_slice(raw).ok()?;
    let at = chrono::DateTime::parse_from_rfc3339(&stamp.timestamp?).ok()?;
    Some(at.timestamp_millis())
}

#[cfg(test)]
#[path = "replay_tests.rs"]
mod tests;
