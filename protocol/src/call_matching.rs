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
//! The pass is linear: it walks the items newest first, keeping only the outputs still
//! waiting for their call, which are few at any moment (a small map searched linearly).

use crate::call_pairing::{CallSide, PairKey};
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
    I::IntoIter: DoubleEndedIterator,
{
    let mut matches = CallMatches::default();
    // Outputs seen (walking back) that no earlier call has claimed yet, by key.
    let mut waiting: SmallMap<PairKey<'a>, (usize, bool)> = SmallMap::new();
    for (index, item) in items.into_iter().rev() {
        let Some(link) = item.call_link() else {
            continue;
        };
        let Some(key) = link.pair_key() else {
            // No call id: nothing can pair with it, and it expects nothing.
            continue;
        };
        match link.side {
            CallSide::Output => {
                // An earlier output for the same call displaces this later one.
                if let Some((later, needs_call)) =
                    waiting.insert(key, (index, link.requires_partner()))
                    && needs_call
                {
                    matches.orphans.push(later);
                }
            }
            CallSide::Call => match waiting.remove(&key) {
                Some((output, _)) => matches.pairs.push(CallPair {
                    call: index,
                    output,
                }),
                None if link.requires_partner() => matches.unanswered.push(index),
                None => {}
            },
        }
    }
    matches.orphans.extend(
        waiting
            .into_values()
            .filter(|(_, needs_call)| *needs_call)
            .map(|(index, _)| index),
    );
    matches.pairs.reverse();
    matches.unanswered.reverse();
    matches.orphans.sort_unstable();
    matches
}

#[cfg(test)]
#[path = "call_matching_tests.rs"]
mod tests;
