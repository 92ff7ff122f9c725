//! The replay of a file taken one item at a time: what [`super::replay_rollout`] gives for
//! the whole file, handed on event by event, so a live replay can be written from a stream
//! in the memory of the turn index rather than of the file.
//!
//! Which response items are a person's message, and which turns lost their message item, is
//! the turn index's answer over the whole file (every turn it ever held: a live client saw
//! the turns a later rollback removed); a stream takes it from a first pass
//! ([`crate::turns::StreamedTurnIndex`]), then feeds the items again.

use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;

use super::{
    EventOrigin, ItemPlace, ReplayedEvent, item_event_pair, raw_line_time_ms, rebuilt_item_events,
    started_of, track_turn, user_message_from_event,
};
use crate::turns::{PackedPositions, StreamedTurnIndex, TurnRecords, UserTurn};

/// The replay of a file, fed one item at a time in file order (see the module docs).
#[derive(Debug)]
pub struct Replayer {
    thread_id: ThreadId,
    /// A paginated file records its items itself; rebuilding them too would double them.
    rebuild_items: bool,
    /// Items that are a turn's message.
    turn_messages: PackedPositions,
    /// `user_message` events of turns whose message item the file lost.
    event_only_turns: PackedPositions,
    clock_ms: Option<i64>,
    running_turn: Option<String>,
}

impl Replayer {
    /// The replay of the file of thread `thread_id` (its first `session_meta`, else the nil
    /// id), whose turns the first pass over the whole file indexed in `index`.
    pub fn new(thread_id: ThreadId, index: &StreamedTurnIndex) -> Self {
        let (records, turns) = index.every_turn();
        Self::of_turns(thread_id, records, turns)
    }

    /// The replay of the file of thread `thread_id` whose turns are `turns` under `records`:
    /// every turn of the whole file, rolled-back ones included
    /// ([`crate::turns::all_user_turns_in_rollout`]).
    pub(crate) fn of_turns(
        thread_id: ThreadId,
        records: TurnRecords,
        turns: impl IntoIterator<Item = UserTurn>,
    ) -> Self {
        let (mut messages, mut event_only) = (Vec::new(), Vec::new());
        for turn in turns {
            match (turn.message, turn.event) {
                (Some(message), _) => messages.push(message),
                (None, Some(event)) => event_only.push(event),
                (None, None) => {}
            }
        }
        Self {
            thread_id,
            rebuild_items: records != TurnRecords::CompletedUserMessages,
            turn_messages: PackedPositions::of(messages),
            event_only_turns: PackedPositions::of(event_only),
            clock_ms: None,
            running_turn: None,
        }
    }

    /// Takes the turns as `index` knows them now, for a replay that goes on as the file
    /// grows: every turn read so far, under the rule the index counts by now (it may have
    /// been decided only now). The items already replayed stay as they were; the next ones
    /// are replayed by these turns.
    pub fn learn(&mut self, index: &StreamedTurnIndex) {
        let learned = Self::new(self.thread_id, index);
        self.rebuild_items = learned.rebuild_items;
        self.turn_messages = learned.turn_messages;
        self.event_only_turns = learned.event_only_turns;
    }

    /// Whether a reader may hand the replay the line `raw` unparsed
    /// ([`Replayer::pass_over`]) instead of its item ([`Replayer::push`]): the replay acts on
    /// events and response items only, and takes nothing else from a line but its time. Told
    /// from the line's type tags ([`crate::line_tags`]): a line of another shape, or of a
    /// type not known to be an item of another kind, is parsed. Whether such a line held an
    /// item at all (it may not parse) only a parse tells; the reader asks one that did.
    pub fn may_pass_over(raw: &[u8]) -> bool {
        crate::line_tags(raw).is_some_and(|tags| OTHER_ITEMS.contains(&tags.line_type))
    }

    /// Takes line `raw`, passed over unparsed ([`Replayer::may_pass_over`]), which held an
    /// item: its time moves the replay's clock, as the item's push would have.
    pub fn pass_over(&mut self, raw: &[u8]) {
        self.clock_ms = raw_line_time_ms(raw).or(self.clock_ms);
    }

    /// Takes item `index` of line `line` (1-based), whose bytes are `raw`, and hands `out` the
    /// events it replays, in order. `index` is the item's position in the numbering of the
    /// turns (0-based among the file's items, or a reader's own numbering such as the line,
    /// [`crate::StreamedTurnIndex::push_at`]); it increases from one item to the next.
    pub fn push(
        &mut self,
        index: usize,
        line: usize,
        raw: &[u8],
        item: &RolloutItem,
        out: &mut impl FnMut(ReplayedEvent),
    ) {
        let line_ms = raw_line_time_ms(raw);
        self.clock_ms = line_ms.or(self.clock_ms);
        let at_ms = self.clock_ms;
        let mut emit = |origin, msg| {
            out(ReplayedEvent {
                item_index: index,
                at_ms,
                origin,
                msg,
            });
        };
        match item {
            RolloutItem::EventMsg(msg) => {
                track_turn(&mut self.running_turn, msg);
                // No writer keeps `item_started`: a completed item is announced first, as it
                // was live, with the start time the completion recorded.
                if let EventMsg::ItemCompleted(done) = msg {
                    emit(EventOrigin::Rebuilt, started_of(done));
                }
                emit(EventOrigin::Recorded, msg.clone());
                // A turn whose message item the file lost: its item pair from the record.
                if let EventMsg::UserMessage(event) = msg
                    && self.rebuild_items
                    && self.event_only_turns.take(index)
                {
                    let item = TurnItem::UserMessage(user_message_from_event(
                        event,
                        format!("line-{line}"),
                    ));
                    let turn_id = self.running_turn.clone().unwrap_or_default();
                    for msg in
                        item_event_pair(self.thread_id, turn_id, item, line_ms.unwrap_or_default())
                    {
                        emit(EventOrigin::Rebuilt, msg);
                    }
                }
            }
            RolloutItem::ResponseItem(response) if self.rebuild_items => {
                let place = ItemPlace {
                    line,
                    line_ms,
                    thread_id: self.thread_id,
                    running_turn: self.running_turn.as_deref(),
                };
                let turn_message = self.turn_messages.take(index);
                for msg in rebuilt_item_events(response, place, turn_message)
                    .into_iter()
                    .flatten()
                {
                    emit(EventOrigin::Rebuilt, msg);
                }
            }
            _ => {}
        }
    }
}

/// The line types of the items the replay emits nothing for (every kind but events and
/// response items).
const OTHER_ITEMS: &[&[u8]] = &[
    b"session_meta",
    b"compacted",
    b"turn_context",
    b"inter_agent_communication",
    b"inter_agent_communication_metadata",
    b"token_usage_record",
    b"world_state",
    b"dynamic_tools_updated",
    b"retained_context",
    b"security_risk_score",
    b"realtime_item",
];
