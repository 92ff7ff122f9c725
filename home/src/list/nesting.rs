//! Sub-agents under their parent: a listing in which each thread a sub-agent ran follows the
//! thread that spawned it.

use std::collections::HashMap;

use super::SessionSummary;

/// `summaries` in their order, except that a thread whose parent is among them follows its
/// parent (after the parent's earlier children), marked `true`; a thread whose parent is
/// not listed keeps its place, unmarked.
pub fn nest_sub_agents(summaries: Vec<SessionSummary>) -> Vec<(SessionSummary, bool)> {
    let ids: HashMap<String, usize> = summaries
        .iter()
        .enumerate()
        .map(|(index, summary)| (summary.thread_id().to_string(), index))
        .collect();
    let parents: Vec<Option<usize>> = summaries
        .iter()
        .enumerate()
        .map(|(index, summary)| {
            let parent = summary.source().1?;
            ids.get(&parent).copied().filter(|parent| *parent != index)
        })
        .collect();
    let mut children: HashMap<usize, Vec<usize>> = HashMap::new();
    for (index, parent) in parents.iter().enumerate() {
        if let Some(parent) = parent {
            children.entry(*parent).or_default().push(index);
        }
    }
    let mut order = Vec::with_capacity(summaries.len());
    let mut placed = vec![false; summaries.len()];
    for (index, parent) in parents.iter().enumerate() {
        if parent.is_none() {
            place(index, &children, &mut placed, &mut order);
        }
    }
    // Threads in a circle of parents (no root among them) keep their order.
    for index in 0..summaries.len() {
        place(index, &children, &mut placed, &mut order);
    }
    let mut slots: Vec<Option<SessionSummary>> = summaries.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|index| Some((slots[index].take()?, parents[index].is_some())))
        .collect()
}

/// Places `index` then its children, depth first, once each.
fn place(
    index: usize,
    children: &HashMap<usize, Vec<usize>>,
    placed: &mut [bool],
    order: &mut Vec<usize>,
) {
    let mut stack = vec![index];
    while let Some(next) = stack.pop() {
        if std::mem::replace(&mut placed[next], true) {
            continue;
        }
        order.push(next);
        if let Some(kids) = children.get(&next) {
            stack.extend(kids.iter().rev());
        }
    }
}
