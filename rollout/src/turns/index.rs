//! The turn index read forwards, one item at a time: the user turns of one or of every
//! counting rule ([`TurnRecords`]), where each starts, and (from the rollback segments,
//! [`SegmentScan`]) which ones a rollback removed. The whole-file functions of the parent
//! module, the streaming turn count of `inspect` and the streamed index of `export` are this
//! one reader fed differently.

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{LineFormat, RolloutItem};

use super::packed::{PackedTurns, PackedTurnsIter};
use super::segments::{RULES, SegmentScan};
use super::{COUNTED_RULES, TurnRecords, UserTurn, is_boundary};

/// The state of one counting rule.
#[derive(Debug, Clone)]
struct RuleState {
    records: TurnRecords,
    /// The rule's turns so far, a few bytes each (empty when only counting, or once the file
    /// has shown that another rule counts its turns: [`TurnIndexer::drop_beaten_rules`]).
    turns: PackedTurns,
    /// Whether the rule still keeps its turns.
    keeping: bool,
    /// The latest turn-starting message item not yet claimed by an event, with the turn
    /// start that was in force when it was read.
    pending_message: Option<(usize, Option<usize>)>,
    /// Where the next turn's preamble may begin: after the previous turn's first record.
    floor: usize,
}

impl RuleState {
    fn new(records: TurnRecords) -> Self {
        Self {
            records,
            turns: PackedTurns::default(),
            keeping: true,
            pending_message: None,
            floor: 0,
        }
    }
}

/// The forward turn reader.
#[derive(Debug, Clone)]
pub(crate) struct TurnIndexer {
    rules: Vec<RuleState>,
    /// The slot of each rule in the segments' turn spans.
    slots: Vec<usize>,
    segments: SegmentScan,
    keep_turns: bool,
    next_index: usize,
    in_turns: bool,
    /// The latest `task_started` with no turn end, rollback, compaction or meta after it.
    open_start: Option<usize>,
    legacy_lines: bool,
    /// Whether a record of each event rule was seen.
    records_seen: [bool; 2],
}

impl TurnIndexer {
    /// A reader of the turns of `records` only, keeping them.
    pub(crate) fn of(records: TurnRecords) -> Self {
        let slot = COUNTED_RULES
            .iter()
            .position(|rule| *rule == records)
            .unwrap_or_default();
        Self::new(
            vec![RuleState::new(records)],
            vec![slot],
            true,
            SegmentScan::keeping_all(),
        )
    }

    /// A reader of every rule side by side; `keep_turns` false keeps counts only (memory a
    /// few words per surviving turn segment).
    pub(crate) fn every_rule(keep_turns: bool) -> Self {
        let rules = COUNTED_RULES.iter().copied().map(RuleState::new).collect();
        let segments = if keep_turns {
            SegmentScan::keeping_discarded_turns()
        } else {
            SegmentScan::counting()
        };
        Self::new(rules, (0..RULES).collect(), keep_turns, segments)
    }

    fn new(
        rules: Vec<RuleState>,
        slots: Vec<usize>,
        keep_turns: bool,
        segments: SegmentScan,
    ) -> Self {
        Self {
            rules,
            slots,
            segments,
            keep_turns,
            next_index: 0,
            in_turns: false,
            open_start: None,
            legacy_lines: false,
            records_seen: [false; 2],
        }
    }

    /// Notes the format of a line that loaded: a file with pre-envelope lines counts
    /// turn-starting items ([`TurnRecords::of`]).
    pub(crate) fn note_format(&mut self, format: LineFormat) {
        self.legacy_lines |= matches!(format, LineFormat::Legacy(_));
    }

    /// Takes the file's item at position `index`: positions increase, and may leave gaps (a
    /// reader that numbers items by their lines). The turns keep these positions.
    pub(crate) fn push_at(&mut self, index: usize, item: &RolloutItem) {
        self.next_index = index;
        self.push(item);
    }

    /// Whether the next item changes the index whatever its type: right after a counting
    /// message item (its record event pairs with it only when nothing comes between), and
    /// while a message item waits for its event. Otherwise an item of a type
    /// [`super::passing::may_pass_over`] lists changes nothing.
    pub(crate) fn reads_next_item(&self) -> bool {
        self.segments.after_counting_item()
            || self.rules.iter().any(|rule| rule.pending_message.is_some())
    }

    /// Takes the file's next item.
    pub(crate) fn push(&mut self, item: &RolloutItem) {
        let index = self.next_index;
        self.next_index += 1;
        self.segments.push(index, item);
        for (seen, rule) in self.records_seen.iter_mut().zip(COUNTED_RULES) {
            *seen |= rule.is_record(item);
        }
        let boundary = is_boundary(item);
        let in_turns = self.in_turns;
        let open_start = self.open_start;
        for (rule, slot) in self.rules.iter_mut().zip(&self.slots) {
            if push_to_rule(
                rule,
                index,
                item,
                boundary,
                in_turns,
                open_start,
                self.keep_turns,
            ) {
                self.segments.note_turn(*slot);
            }
        }
        if self.rules.len() > 1 {
            self.drop_beaten_rules();
        }
        match item {
            RolloutItem::EventMsg(EventMsg::TurnStarted(_)) => {
                self.in_turns = true;
                self.open_start = Some(index);
            }
            RolloutItem::EventMsg(
                EventMsg::TurnComplete(_)
                | EventMsg::TurnAborted(_)
                | EventMsg::ThreadRolledBack(_),
            )
            | RolloutItem::Compacted(_)
            | RolloutItem::SessionMeta(_) => self.open_start = None,
            _ => {}
        }
    }

    /// Stops keeping the turns of the rules the file can no longer be counted by: a rule
    /// ranked below one whose record was seen ([`TurnIndexer::records`]); with legacy
    /// lines, every rule but [`TurnRecords::BoundaryItems`]. That rule is kept whatever was
    /// seen, as a legacy line read later makes it the file's. So a file keeps two lists of
    /// turns, not four. Only a reader of every rule chooses; a reader of one rule keeps it.
    fn drop_beaten_rules(&mut self) {
        let beaten_below = if self.legacy_lines {
            Some(0)
        } else {
            self.records_seen
                .iter()
                .position(|seen| *seen)
                .map(|rank| rank + 1)
        };
        let Some(beaten_below) = beaten_below else {
            return;
        };
        for rule in &mut self.rules {
            let rank = COUNTED_RULES
                .iter()
                .position(|counted| *counted == rule.records);
            let beaten = rule.records != TurnRecords::BoundaryItems
                && rank.is_some_and(|rank| rank >= beaten_below);
            if beaten && rule.keeping {
                rule.keeping = false;
                rule.turns = PackedTurns::default();
            }
        }
    }

    /// The rule the file's turns are counted by (see [`TurnRecords::of`]).
    pub(crate) fn records(&self) -> TurnRecords {
        if self.legacy_lines {
            return TurnRecords::BoundaryItems;
        }
        COUNTED_RULES
            .iter()
            .zip(self.records_seen)
            .find_map(|(rule, seen)| seen.then_some(*rule))
            .unwrap_or(TurnRecords::BoundaryItemsInTurns)
    }

    /// The turns of `records` that survive the rollbacks read so far.
    pub(crate) fn surviving_count(&self, records: TurnRecords) -> usize {
        self.slot_of(records)
            .map(|slot| self.segments.surviving_turns(slot))
            .unwrap_or_default()
    }

    /// Every turn of `records` in file order, the ones a rollback removed marked.
    pub(crate) fn finish(self, records: TurnRecords) -> Vec<UserTurn> {
        let position = self.rules.iter().position(|rule| rule.records == records);
        let slot = self.slot_of(records);
        let discarded = self.segments.discarded_turns();
        let (Some(position), Some(slot)) = (position, slot) else {
            return Vec::new();
        };
        let mut turns: Vec<UserTurn> = self.rules[position].turns.iter().collect();
        for spans in &discarded {
            for index in spans[slot].indices() {
                if let Some(turn) = turns.get_mut(index) {
                    turn.rolled_back = true;
                }
            }
        }
        turns
    }

    /// Every turn of `records` read so far, in file order, none marked rolled back: what a
    /// replay asks (every turn the file ever held), without a list of them.
    pub(crate) fn every_turn(&self, records: TurnRecords) -> PackedTurnsIter<'_> {
        self.rules
            .iter()
            .find(|rule| rule.records == records)
            .map(|rule| rule.turns.iter())
            .unwrap_or_default()
    }

    fn slot_of(&self, records: TurnRecords) -> Option<usize> {
        self.rules
            .iter()
            .zip(&self.slots)
            .find_map(|(rule, slot)| (rule.records == records).then_some(*slot))
    }
}

/// Feeds the item at `index` to one rule; true when it opened one of the rule's turns.
fn push_to_rule(
    rule: &mut RuleState,
    index: usize,
    item: &RolloutItem,
    boundary: bool,
    in_turns: bool,
    open_start: Option<usize>,
    keep_turns: bool,
) -> bool {
    let records = rule.records;
    if records.opens_turn(item, boundary, in_turns) {
        let (event, message, start) = if records.counts_events() {
            match rule.pending_message.take() {
                Some((message, start)) => (Some(index), Some(message), start),
                None => (Some(index), None, open_start),
            }
        } else {
            (None, Some(index), open_start)
        };
        let mut turn = UserTurn {
            event,
            message,
            start: 0,
            rolled_back: false,
        };
        let record = turn.first_record();
        turn.start = start.filter(|start| *start >= rule.floor).unwrap_or(record);
        rule.floor = record + 1;
        if keep_turns && rule.keeping {
            rule.turns.push(&turn);
        }
        return true;
    }
    match item {
        RolloutItem::ResponseItem(_) if boundary && records.counts_events() => {
            rule.pending_message = Some((index, open_start));
        }
        RolloutItem::ResponseItem(_) if boundary => {}
        // The recorder writes a message item right before its event; anything the model saw
        // in between, or a rollback, means the pending item belongs to no event.
        RolloutItem::EventMsg(
            EventMsg::ThreadRolledBack(_) | EventMsg::TurnComplete(_) | EventMsg::TurnAborted(_),
        )
        | RolloutItem::ResponseItem(_)
        | RolloutItem::Compacted(_) => rule.pending_message = None,
        _ => {}
    }
    false
}
