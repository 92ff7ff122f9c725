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
//!
//! The scan is fed forwards ([`Scanner`]): the segments are built as the items come, and of
//! each item only what the scan reads later is kept ([`Mark`]: compactions, turn ids, turn
//! contexts' settings), so a file can be scanned as a stream in memory of a few words per
//! turn; the walk from the newest segment back happens at the end.

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;

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

/// What the scan needs to remember of one item: the items themselves are not kept, so a
/// file can be scanned as a stream.
#[derive(Debug, Clone)]
enum Mark {
    /// A `compacted` item: the window it opened, whether it carries a replacement history.
    Compacted {
        window: Option<ContextWindow>,
        replacement: bool,
    },
    /// The turn id a `task_complete` or `turn_aborted` recorded.
    TurnId(Option<String>),
    /// A `turn_context`: its turn id and the settings it records.
    TurnContext {
        turn_id: Option<String>,
        settings: PreviousTurnSettings,
    },
}

impl Mark {
    fn of(item: &RolloutItem) -> Option<Self> {
        Some(match item {
            RolloutItem::Compacted(compacted) => Mark::Compacted {
                window: ContextWindow::from_compacted(compacted),
                replacement: compacted.replacement_history.is_some(),
            },
            RolloutItem::EventMsg(EventMsg::TurnComplete(complete)) => {
                Mark::TurnId(Some(complete.turn_id.clone()))
            }
            RolloutItem::EventMsg(EventMsg::TurnAborted(aborted)) => {
                Mark::TurnId(aborted.turn_id.clone())
            }
            RolloutItem::TurnContext(context) => Mark::TurnContext {
                turn_id: context.turn_id.clone(),
                settings: PreviousTurnSettings::from_context(context),
            },
            _ => return None,
        })
    }
}

/// The reverse scan, fed forwards: [`Scanner::push`] takes the items in file order (from a
/// slice or a stream), keeping of each only its [`Mark`] and its part in the turn segments;
/// [`Scanner::finish`] walks the segments from the newest back.
#[derive(Debug)]
pub(crate) struct Scanner {
    segments: SegmentScan,
    marks: Vec<(usize, Mark)>,
    next: usize,
}

impl Scanner {
    pub(crate) fn new() -> Self {
        Self {
            segments: SegmentScan::keeping_all(),
            marks: Vec::new(),
            next: 0,
        }
    }

    /// Takes the next item (its index is the number of items pushed before it).
    pub(crate) fn push(&mut self, item: &RolloutItem) {
        let index = self.next;
        self.next += 1;
        self.segments.push(index, item);
        if let Some(mark) = Mark::of(item) {
            self.marks.push((index, mark));
        }
    }

    /// The result (see the module docs).
    pub(crate) fn finish(self) -> ScanResult {
        let (segments, _) = self.segments.finish();
        let mut result = ScanResult {
            scanned_down_to: self.next,
            ..ScanResult::default()
        };
        for segment in segments.iter().rev() {
            result.scanned_down_to = segment.items.start;
            if segment.discarded {
                continue;
            }
            let first = self
                .marks
                .partition_point(|(index, _)| *index < segment.items.start);
            let last = self
                .marks
                .partition_point(|(index, _)| *index < segment.items.end);
            result.adopt(segment, read_segment(&self.marks[first..last]));
            if result.knows_everything() {
                // Only a segment that a `task_started` opened is known whole (the first one
                // of a suffix may be cut).
                result.knew_everything = segment.opened_by_turn_start;
                if result.knew_everything {
                    break;
                }
            }
        }
        result
    }
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

/// Reads the marks of one segment from the newest back.
fn read_segment(marks: &[(usize, Mark)]) -> Found {
    let mut found = Found::default();
    // The segment's turn id: its newest `task_complete`, `turn_aborted` or `turn_context`
    // that has one.
    let mut turn_id: Option<&str> = None;
    for (index, mark) in marks.iter().rev() {
        match mark {
            Mark::Compacted {
                window,
                replacement,
            } => {
                if found.window.is_none() {
                    found.window.clone_from(window);
                }
                if found.reference == Reference::NeverSet {
                    found.reference = Reference::Cleared;
                }
                if found.base.is_none() && *replacement {
                    found.base = Some(*index);
                }
            }
            Mark::TurnId(id) => {
                turn_id = turn_id.or_else(|| id.as_deref().and_then(non_empty_str));
            }
            Mark::TurnContext {
                turn_id: context_turn,
                settings,
            } => {
                turn_id = turn_id.or_else(|| context_turn.as_deref().and_then(non_empty_str));
                if ids_compatible(turn_id, context_turn.as_deref()) {
                    // Overwritten by every older compatible context: the oldest one wins.
                    found.previous_turn_settings = Some(settings.clone());
                    if found.reference == Reference::NeverSet {
                        found.reference = Reference::Latest(*index);
                    }
                }
            }
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
