//! Removing the oldest history items without breaking tool call/output pairs.
//!
//! When a compaction request overflows the context window, the oldest items go first (the
//! newest ones matter most, and keeping the tail keeps the provider's prompt cache useful).
//! Removing a call must take its output along, and removing an output its call; otherwise the
//! next projection would have to patch an artificial hole.

use std::collections::HashMap;

use codex_protocol::call_pairing::CallSide;
use codex_protocol::call_pairing::PairKey;
use codex_protocol::models::ResponseItem;

/// Removes `items[0]` and the first item that pairs with it; returns how many items went
/// (0, 1 or 2).
///
/// Linear in the history length (the vector shifts); use [`trim_oldest`] to remove many.
pub(crate) fn remove_first_with_partner(items: &mut Vec<ResponseItem>) -> usize {
    if items.is_empty() {
        return 0;
    }
    let removed = items.remove(0);
    let partner = partner_key(&removed).and_then(|(side, key)| {
        items.iter().position(|item| {
            item.call_link()
                .is_some_and(|link| link.side == side && link.pair_key() == Some(key))
        })
    });
    match partner {
        Some(index) => {
            items.remove(index);
            2
        }
        None => 1,
    }
}

/// Removes the `count` oldest items, each with its partner, in one pass; returns how many
/// items went.
///
/// Same result as calling [`remove_first_with_partner`] `count` times (a partner removed
/// early is not counted as one of the `count`), at the cost of one pass: each step's partner
/// is found through a per-key chain of positions instead of a scan, and the vector is
/// compacted once at the end instead of shifted at every step.
pub(crate) fn trim_oldest(items: &mut Vec<ResponseItem>, count: usize) -> usize {
    let removed = plan_trim(items, count);
    apply_removal(items, &removed)
}

/// Like [`trim_oldest`] for items other snapshots share: clones only the survivors.
pub(crate) fn trim_oldest_shared(items: &[ResponseItem], count: usize) -> Vec<ResponseItem> {
    let removed = plan_trim(items, count);
    items
        .iter()
        .zip(removed)
        .filter(|(_, gone)| !gone)
        .map(|(item, _)| item.clone())
        .collect()
}

/// Marks the items that `count` head removals take away.
fn plan_trim(items: &[ResponseItem], count: usize) -> Vec<bool> {
    let len = items.len();
    let mut removed = vec![false; len];
    if count == 0 || len == 0 {
        return removed;
    }
    if count >= len {
        // Every step removes at least the head, so everything goes.
        removed.fill(true);
        return removed;
    }
    // Built only if some partner is not found close by (see `find_partner`).
    let mut chains: Option<PartnerChains<'_>> = None;
    let mut head = 0;
    let mut steps = 0;
    while steps < count && head < len {
        if removed[head] {
            head += 1;
            continue;
        }
        removed[head] = true;
        steps += 1;
        if let Some((side, key)) = partner_key(&items[head])
            && let Some(partner) = find_partner(items, head, side, key, &removed, &mut chains)
        {
            removed[partner] = true;
        }
        head += 1;
    }
    removed
}

/// How far past the head a partner is looked for by plain scanning. A call's output nearly
/// always follows within a few items, so most trims never hash a call id.
const NEARBY_PARTNER_WINDOW: usize = 32;

/// The first item after `head`, not yet removed, with `side` and `key`.
///
/// Scans the next few items first; past that window, falls back to per-key chains of
/// positions (built once for the whole trim), so the worst case stays linear.
fn find_partner<'a>(
    items: &'a [ResponseItem],
    head: usize,
    side: CallSide,
    key: PairKey<'a>,
    removed: &[bool],
    chains: &mut Option<PartnerChains<'a>>,
) -> Option<usize> {
    if chains.is_none() {
        let window_end = items.len().min(head + 1 + NEARBY_PARTNER_WINDOW);
        let nearby = (head + 1..window_end).find(|&index| {
            !removed[index]
                && items[index]
                    .call_link()
                    .is_some_and(|link| link.side == side && link.pair_key() == Some(key))
        });
        if nearby.is_some() || window_end == items.len() {
            return nearby;
        }
    }
    chains
        .get_or_insert_with(|| PartnerChains::build(items))
        .take_first_unremoved(side, key, removed)
}

/// Compacts `items`, keeping those not marked; returns how many were removed.
fn apply_removal(items: &mut Vec<ResponseItem>, removed: &[bool]) -> usize {
    let before = items.len();
    let mut index = 0;
    items.retain(|_| {
        let keep = !removed.get(index).copied().unwrap_or(false);
        index += 1;
        keep
    });
    before - items.len()
}

/// The side and key of the item that pairs with `item`, if `item` is a call or output with a
/// call id.
///
/// An output that needs no call (a server-side tool search output) takes nothing with it:
/// when it answered a call, that call came before it and is already gone, and a later call
/// with the same id belongs to a later exchange.
fn partner_key(item: &ResponseItem) -> Option<(CallSide, PairKey<'_>)> {
    let link = item.call_link()?;
    if link.is_output() && !link.requires_partner() {
        return None;
    }
    let key = link.pair_key()?;
    let other_side = match link.side {
        CallSide::Call => CallSide::Output,
        CallSide::Output => CallSide::Call,
    };
    Some((other_side, key))
}

/// For each (side, key), the positions of the items with that side and key, oldest first, as
/// a linked list threaded through one array: `first` holds the head of each list, `next[i]`
/// the position after `i`. No per-key allocation; consumed front to back.
struct PartnerChains<'a> {
    first: HashMap<(CallSide, PairKey<'a>), usize>,
    next: Vec<Option<usize>>,
}

impl<'a> PartnerChains<'a> {
    fn build(items: &'a [ResponseItem]) -> Self {
        let mut first = HashMap::new();
        let mut next = vec![None; items.len()];
        for (index, item) in items.iter().enumerate().rev() {
            let Some(link) = item.call_link() else {
                continue;
            };
            let Some(key) = link.pair_key() else {
                continue;
            };
            next[index] = first.insert((link.side, key), index);
        }
        Self { first, next }
    }

    /// The oldest position in the (side, key) list not yet removed; unlinks it and every
    /// removed position before it, so each position is visited once over the whole trim.
    fn take_first_unremoved(
        &mut self,
        side: CallSide,
        key: PairKey<'a>,
        removed: &[bool],
    ) -> Option<usize> {
        let slot = self.first.get_mut(&(side, key))?;
        let mut cursor = Some(*slot);
        while let Some(index) = cursor {
            if removed[index] {
                cursor = self.next[index];
            } else {
                break;
            }
        }
        let Some(found) = cursor else {
            self.first.remove(&(side, key));
            return None;
        };
        match self.next[found] {
            Some(after) => *slot = after,
            None => {
                self.first.remove(&(side, key));
            }
        }
        Some(found)
    }
}

#[cfg(test)]
#[path = "trim_tests.rs"]
mod tests;
