//! Phase A of reconstruction: one scan from the newest item back, turn segment by turn
//! segment, to find what survives the recorded rollbacks:
//! - the newest surviving compaction that carries a replacement history (the base of the
//!   rebuilt history; only items after it need replaying);
//! - the previous turn's settings (model, context hash) from the newest surviving user turn;
//! - the reference context item (the newest surviving turn context, or "cleared" when a
//!   compaction came after it);
//! - the context window the thread is in.
//!
//! A segment is what lies between two `task_started` events (a turn, or the implicit turns of
//! files written before turn events). A pending rollback discards whole segments, counting
//! only those that hold a user turn, and a discarded segment contributes nothing: in
//! particular, a compaction inside a rolled-back turn is not taken as the base, and it does not
//! hide the turns before it (upstream narrows the replayed suffix as soon as it *sees* such a
//! compaction, losing those turns).

use codex_core::turn_boundary::is_user_turn_boundary;
use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::{RolloutItem, TurnContextItem};

use super::{ContextWindow, PreviousTurnSettings};

/// What the reverse scan found.
#[derive(Debug, Clone, Default)]
pub(crate) struct ScanResult {
    /// Index of the newest surviving `compacted` item with a replacement history.
    pub(crate) base: Option<usize>,
    pub(crate) previous_turn_settings: Option<PreviousTurnSettings>,
    pub(crate) reference: Reference,
    pub(crate) window: Option<ContextWindow>,
    /// Index of the oldest item the scan looked at (it stops once everything is known).
    pub(crate) scanned_down_to: usize,
    /// The scan stopped because everything was known, not because the items ran out: older
    /// items could not have changed the result.
    pub(crate) knew_everything: bool,
}

/// The state of the reference context item while scanning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Reference {
    /// No turn context seen (yet).
    #[default]
    NeverSet,
    /// A compaction came after the newest turn context: the next turn must re-inject the
    /// full context, so there is no reference.
    Cleared,
    /// The turn context at this index.
    Latest(usize),
}

#[derive(Debug, Default)]
struct Segment {
    turn_id: Option<String>,
    counts_as_user_turn: bool,
    previous_turn_settings: Option<PreviousTurnSettings>,
    reference: Reference,
    base: Option<usize>,
    window: Option<ContextWindow>,
}

#[derive(Debug, Default)]
struct Scan {
    result: ScanResult,
    pending_rollback: usize,
    segment: Option<Segment>,
}

/// Scans `items` from the newest back (see the module docs).
pub(crate) fn scan_backwards(items: &[RolloutItem]) -> ScanResult {
    let mut scan = Scan::default();
    scan.result.scanned_down_to = items.len();
    for (index, item) in items.iter().enumerate().rev() {
        scan.result.scanned_down_to = index;
        scan.visit(index, item);
        if scan.knows_everything() {
            scan.result.knew_everything = true;
            break;
        }
    }
    scan.finalize();
    scan.result
}

impl Scan {
    fn segment(&mut self) -> &mut Segment {
        self.segment.get_or_insert_with(Segment::default)
    }

    fn knows_everything(&self) -> bool {
        self.result.base.is_some()
            && self.result.previous_turn_settings.is_some()
            && self.result.reference != Reference::NeverSet
    }

    fn visit(&mut self, index: usize, item: &RolloutItem) {
        match item {
            RolloutItem::Compacted(compacted) => {
                let segment = self.segment();
                if segment.window.is_none() {
                    segment.window = ContextWindow::from_compacted(compacted);
                }
                if segment.reference == Reference::NeverSet {
                    segment.reference = Reference::Cleared;
                }
                if segment.base.is_none() && compacted.replacement_history.is_some() {
                    segment.base = Some(index);
                }
            }
            RolloutItem::EventMsg(EventMsg::ThreadRolledBack(rollback)) => {
                let num_turns = usize::try_from(rollback.num_turns).unwrap_or(usize::MAX);
                self.pending_rollback = self.pending_rollback.saturating_add(num_turns);
            }
            RolloutItem::EventMsg(EventMsg::TurnComplete(complete)) => {
                let segment = self.segment();
                if segment.turn_id.is_none() {
                    segment.turn_id = non_empty(&complete.turn_id);
                }
            }
            RolloutItem::EventMsg(EventMsg::TurnAborted(aborted)) => {
                let turn_id = aborted.turn_id.as_deref().and_then(non_empty);
                match (&mut self.segment, turn_id) {
                    (Some(segment), turn_id) => {
                        if segment.turn_id.is_none() {
                            segment.turn_id = turn_id;
                        }
                    }
                    (None, Some(turn_id)) => {
                        self.segment = Some(Segment {
                            turn_id: Some(turn_id),
                            ..Segment::default()
                        });
                    }
                    (None, None) => {}
                }
            }
            RolloutItem::EventMsg(EventMsg::UserMessage(_)) => {
                self.segment().counts_as_user_turn = true;
            }
            RolloutItem::EventMsg(EventMsg::TurnStarted(started)) => {
                let compatible = self.segment.as_ref().is_some_and(|segment| {
                    ids_compatible(segment.turn_id.as_deref(), Some(&started.turn_id))
                });
                if compatible {
                    self.finalize();
                }
            }
            RolloutItem::TurnContext(context) => {
                let segment = self.segment();
                if segment.turn_id.is_none() {
                    segment.turn_id = context.turn_id.as_deref().and_then(non_empty);
                }
                if ids_compatible(segment.turn_id.as_deref(), context.turn_id.as_deref()) {
                    // Overwritten by every older compatible context: the oldest one wins.
                    segment.previous_turn_settings =
                        Some(PreviousTurnSettings::from_context(context));
                    if segment.reference == Reference::NeverSet {
                        segment.reference = Reference::Latest(index);
                    }
                }
            }
            RolloutItem::ResponseItem(response) => {
                let boundary = is_user_turn_boundary(response);
                let segment = self.segment();
                segment.counts_as_user_turn |= boundary;
            }
            // A paginated file's user turn: the completed UserMessage item.
            RolloutItem::EventMsg(EventMsg::ItemCompleted(done))
                if matches!(done.item, TurnItem::UserMessage(_)) =>
            {
                self.segment().counts_as_user_turn = true;
            }
            RolloutItem::InterAgentCommunication(_) => {
                self.segment().counts_as_user_turn = true;
            }
            RolloutItem::SessionMeta(_)
            | RolloutItem::EventMsg(_)
            | RolloutItem::InterAgentCommunicationMetadata(_)
            | RolloutItem::TokenUsageRecord(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::RetainedContext(_)
            | RolloutItem::SecurityRiskScore(_)
            | RolloutItem::RealtimeItem(_)
            | RolloutItem::Unknown(_) => {}
        }
    }

    /// Closes the current segment: discarded by a pending rollback, or merged into the result.
    fn finalize(&mut self) {
        let Some(segment) = self.segment.take() else {
            return;
        };
        if self.pending_rollback > 0 {
            if segment.counts_as_user_turn {
                self.pending_rollback -= 1;
            }
            return;
        }
        let result = &mut self.result;
        if result.base.is_none() {
            result.base = segment.base;
        }
        if result.window.is_none() {
            result.window = segment.window;
        }
        if result.previous_turn_settings.is_none() && segment.counts_as_user_turn {
            result.previous_turn_settings = segment.previous_turn_settings;
        }
        if result.reference == Reference::NeverSet
            && (segment.counts_as_user_turn || segment.reference == Reference::Cleared)
        {
            result.reference = segment.reference;
        }
    }
}

/// Two turn ids belong to the same turn unless both are known and differ.
fn ids_compatible(a: Option<&str>, b: Option<&str>) -> bool {
    match (a.and_then(non_empty_str), b.and_then(non_empty_str)) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

fn non_empty_str(id: &str) -> Option<&str> {
    (!id.is_empty()).then_some(id)
}

fn non_empty(id: &str) -> Option<String> {
    non_empty_str(id).map(str::to_string)
}

/// The turn context a [`Reference`] points at.
pub(crate) fn reference_item(
    items: &[RolloutItem],
    reference: Reference,
) -> Option<TurnContextItem> {
    match reference {
        Reference::Latest(index) => match items.get(index) {
            Some(RolloutItem::TurnContext(context)) => Some(context.as_ref().clone()),
            _ => None,
        },
        Reference::NeverSet | Reference::Cleared => None,
    }
}
