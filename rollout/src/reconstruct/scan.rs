//! Phase A of reconstruction: from the newest item back, turn segment by turn segment, find
//! what survives the recorded rollbacks:
//! - the newest surviving compaction that carries a replacement history (the base of the
//!   rebuilt history; only items after it need replaying);
//! - the previous turn's settings (model, context hash) from the newest surviving user turn;
//! - the reference context item (the newest surviving turn context, or "cleared" when a
//!   compaction came after it);
//! - the context window the thread is in.
//!
//! Which segments a rollback discarded, and which hold a user turn, is the turn index's
//! answer (`turns::SegmentScan`, the rule fork, `inspect` and export count turns by): a
//! discarded segment contributes nothing. In particular, a compaction inside a rolled-back
//! turn is not taken as the base, and it does not hide the turns before it (upstream narrows
//! the replayed suffix as soon as it *sees* such a compaction, losing those turns).

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, TurnContextItem};

use super::{ContextWindow, PreviousTurnSettings};
use crate::turns::{Segment, SegmentScan};

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

/// What one surviving segment holds, read from its newest item back.
#[derive(Debug, Default)]
struct Found {
    previous_turn_settings: Option<PreviousTurnSettings>,
    reference: Reference,
    base: Option<usize>,
    window: Option<ContextWindow>,
}

/// Scans `items` from the newest back (see the module docs).
pub(crate) fn scan_backwards(items: &[RolloutItem]) -> ScanResult {
    let mut reader = SegmentScan::keeping_all();
    for (index, item) in items.iter().enumerate() {
        reader.push(index, item);
    }
    let (segments, _) = reader.finish();
    let mut result = ScanResult {
        scanned_down_to: items.len(),
        ..ScanResult::default()
    };
    for segment in segments.iter().rev() {
        result.scanned_down_to = segment.items.start;
        if segment.discarded {
            continue;
        }
        result.adopt(segment, read_segment(items, segment));
        if result.knows_everything() {
            // Only a segment that a `task_started` opened is known whole (the first one of
            // a suffix may be cut).
            result.knew_everything = segment.opened_by_turn_start;
            if result.knew_everything {
                break;
            }
        }
    }
    result
}

impl ScanResult {
    fn knows_everything(&self) -> bool {
        self.base.is_some()
            && self.previous_turn_settings.is_some()
            && self.reference != Reference::NeverSet
    }

    /// Takes what a surviving segment found where nothing newer did.
    fn adopt(&mut self, segment: &Segment, found: Found) {
        if self.base.is_none() {
            self.base = found.base;
        }
        if self.window.is_none() {
            self.window = found.window;
        }
        if self.previous_turn_settings.is_none() && segment.counts {
            self.previous_turn_settings = found.previous_turn_settings;
        }
        if self.reference == Reference::NeverSet
            && (segment.counts || found.reference == Reference::Cleared)
        {
            self.reference = found.reference;
        }
    }
}

/// Reads one segment from its newest item back.
fn read_segment(items: &[RolloutItem], segment: &Segment) -> Found {
    let mut found = Found::default();
    // The segment's turn id: its newest `task_complete`, `turn_aborted` or `turn_context`
    // that has one.
    let mut turn_id: Option<&str> = None;
    for index in segment.items.clone().rev() {
        let Some(item) = items.get(index) else {
            continue;
        };
        match item {
            RolloutItem::Compacted(compacted) => {
                if found.window.is_none() {
                    found.window = ContextWindow::from_compacted(compacted);
                }
                if found.reference == Reference::NeverSet {
                    found.reference = Reference::Cleared;
                }
                if found.base.is_none() && compacted.replacement_history.is_some() {
                    found.base = Some(index);
                }
            }
            RolloutItem::EventMsg(EventMsg::TurnComplete(complete)) => {
                turn_id = turn_id.or_else(|| non_empty_str(&complete.turn_id));
            }
            RolloutItem::EventMsg(EventMsg::TurnAborted(aborted)) => {
                turn_id = turn_id.or_else(|| aborted.turn_id.as_deref().and_then(non_empty_str));
            }
            RolloutItem::TurnContext(context) => {
                turn_id = turn_id.or_else(|| context.turn_id.as_deref().and_then(non_empty_str));
                if ids_compatible(turn_id, context.turn_id.as_deref()) {
                    // Overwritten by every older compatible context: the oldest one wins.
                    found.previous_turn_settings =
                        Some(PreviousTurnSettings::from_context(context));
                    if found.reference == Reference::NeverSet {
                        found.reference = Reference::Latest(index);
                    }
                }
            }
            _ => {}
        }
    }
    found
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
