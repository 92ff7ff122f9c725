//! Which output answers which call, over a whole list of items: the one matching rule that
//! prompt normalization, `inspect` and `export` share.
//!
//! [`crate::call_pairing`] says what each single item is (a call or an output, its kind, its
//! pairing key); this module pairs them up. The rule, for items with the same pairing key:
//! - an output answers the nearest call **before** it that is not answered yet;
//! - of several outputs for one call, the first answers it; the later ones are *orphans*;
//! - an output with no unanswered call before it (it came before its call, or its call is not
//!   in the list) is an orphan;
//! - a call left without an output is *unanswered*.
//!
//! Only items that need a partner ([`crate::call_pairing::CallLink::requires_partner`]) are
//! reported as unanswered or orphan: a call or output without a call id, or a server-side
//! tool search output, pairs with nothing and lacks nothing.
//!
//! The pass is linear ([`CallMatcher`]): it walks the items in order, keeping only the calls
//! still waiting for their output, which are few at any moment (a small map searched
//! linearly). Equivalently: a call is answered by the first output with its key after it and
//! before the next call with its key.

use std::hash::Hash;

use crate::call_pairing::{CallLink, CallSide, OutputChannel, PairKey};
use crate::models::ResponseItem;
use crate::small_map::SmallMap;

/// A call and the output that answers it, by the indices the caller gave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CallPair {
    /// The call.
    pub call: usize,
    /// Its output.
    pub output: usize,
}

/// The result of [`match_calls`]: pairs in call order, then the calls without an output and
/// the outputs without a call, each in the order of their indices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallMatches {
    /// Calls with the output that answers them.
    pub pairs: Vec<CallPair>,
    /// Calls that need an output and have none.
    pub unanswered: Vec<usize>,
    /// Outputs that need a call and answer none (before their call, duplicates, or their
    /// call is missing).
    pub orphans: Vec<usize>,
}

/// Pairs the calls and outputs among `items` (each with an index of the caller's choosing,
/// in list order) by the rule of the module docs.
pub fn match_calls<'a, I>(items: I) -> CallMatches
where
    I: IntoIterator<Item = (usize, &'a ResponseItem)>,
{
    let mut matcher = CallMatcher::new();
    let mut pairs = Vec::new();
    for (index, item) in items {
        if let Pushed::Answered(pair) = matcher.push(index, item) {
            pairs.push(pair);
        }
    }
    pairs.sort_unstable_by_key(|pair| pair.call);
    let Unpaired {
        unanswered,
        orphans,
    } = matcher.finish();
    CallMatches {
        pairs,
        unanswered,
        orphans,
    }
}

/// What a [`CallMatcher`] is left with at the end: the items that found no partner, each
/// list in index order. The pairs are not kept: each was handed back by the push that made
/// it ([`Pushed::Answered`]), so a streaming reader's memory is the calls still waiting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unpaired {
    /// Calls that need an output and have none.
    pub unanswered: Vec<usize>,
    /// Outputs that need a call and answer none.
    pub orphans: Vec<usize>,
}

/// What pushing one item into a [`CallMatcher`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    /// The item is no call or output with a key: it pairs with nothing.
    Nothing,
    /// A call, now waiting for its output.
    Call,
    /// An output that answered this call.
    Answered(CallPair),
    /// An output that answers no call.
    Orphan,
}

/// A [`CallMatcher`] that keeps its own copy of each key, for readers that drop each item
/// once read.
pub type StreamingCallMatcher = CallMatcher<OwnedPairKey>;

/// The pairing key of an item that outlives the item: what a streaming reader, which drops
/// each line once read, keys the calls it is still waiting on by.
pub type OwnedPairKey = (OutputChannel, String);

/// The matching rule of [`match_calls`], one item at a time in list order, keeping only the
/// calls still waiting for an output (one per key: a second call with the same key leaves
/// the first unanswered for good). Streaming readers feed it each response item as they
/// read it (`CallMatcher<OwnedPairKey>` with [`CallMatcher::push_owned`]); [`match_calls`]
/// is this matcher over a list, so both give the same answer.
#[derive(Debug)]
pub struct CallMatcher<K> {
    /// Per key, the latest call not answered yet and whether it needs an output.
    pending: SmallMap<K, (usize, bool)>,
    unpaired: Unpaired,
}

impl<K: Eq + Hash + Clone> Default for CallMatcher<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Eq + Hash + Clone> CallMatcher<K> {
    /// A matcher that has seen nothing.
    pub fn new() -> Self {
        Self {
            pending: SmallMap::new(),
            unpaired: Unpaired::default(),
        }
    }

    /// Takes the item at `index` whose pairing facts are `link`, under `key`.
    fn record(&mut self, index: usize, link: CallLink<'_>, key: K) -> Pushed {
        let requires_partner = link.requires_partner();
        match link.side {
            CallSide::Call => {
                if let Some((earlier, true)) = self.pending.insert(key, (index, requires_partner)) {
                    self.unpaired.unanswered.push(earlier);
                }
                Pushed::Call
            }
            CallSide::Output => match self.pending.remove(&key) {
                Some((call, _)) => Pushed::Answered(CallPair {
                    call,
                    output: index,
                }),
                None => {
                    if requires_partner {
                        self.unpaired.orphans.push(index);
                    }
                    Pushed::Orphan
                }
            },
        }
    }

    /// What found no partner in everything pushed: unanswered calls (those still waiting
    /// included) and orphan outputs, in index order.
    pub fn finish(self) -> Unpaired {
        let mut unpaired = self.unpaired;
        unpaired.unanswered.extend(
            self.pending
                .into_values()
                .filter(|(_, requires_partner)| *requires_partner)
                .map(|(index, _)| index),
        );
        unpaired.unanswered.sort_unstable();
        unpaired.orphans.sort_unstable();
        unpaired
    }

    /// The calls still waiting for an output.
    pub fn pending_calls(&self) -> usize {
        self.pending.len()
    }
}

impl<'a> CallMatcher<PairKey<'a>> {
    /// Takes the item at `index` (indices must grow), keyed by borrowing from it.
    pub fn push(&mut self, index: usize, item: &'a ResponseItem) -> Pushed {
        // No call id: nothing can pair with it, and it expects nothing.
        match item.call_link() {
            Some(link) => match link.pair_key() {
                Some(key) => self.record(index, link, key),
                None => Pushed::Nothing,
            },
            None => Pushed::Nothing,
        }
    }
}

impl CallMatcher<OwnedPairKey> {
    /// Takes the item at `index` (indices must grow), copying its key, so that the item
    /// need not be kept.
    pub fn push_owned(&mut self, index: usize, item: &ResponseItem) -> Pushed {
        match item.call_link() {
            Some(link) => match link.pair_key() {
                Some(key) => self.record(index, link, (key.channel, key.call_id.to_string())),
                None => Pushed::Nothing,
            },
            None => Pushed::Nothing,
        }
    }
}

#[cfg(test)]
#[path = "call_matching_tests.rs"]
mod tests;
