//! Finding the cell of one item again from what a search index keeps of it: the tool call
//! id (a command, patch or tool cell carries its call's id) or, for messages and reasoning,
//! the text. So a hit opens its thread at the item, not only at its turn.

use super::cell::{Cell, CellBody};

/// Characters of the indexed text compared with a cell's text: enough to tell two messages
/// of one turn apart, short enough that a cell rendering the text a little differently (a
/// trailing newline, a text cut in the index) still matches.
const TEXT_PREFIX_CHARS: usize = 120;

/// The position in `cells` of the cell showing the item a search hit points at, looking from
/// `from` (the first cell of the hit's turn) on: the cell whose item is the call `call_id`
/// when one is given and shown, else the first cell of the turn whose text holds the start
/// of `text` (whitespace compared loosely). `None` when no cell matches; the caller keeps the
/// turn's first cell.
pub fn anchored_cell<'a>(
    cells: impl IntoIterator<Item = &'a Cell>,
    from: usize,
    call_id: Option<&str>,
    text: &str,
) -> Option<usize> {
    let cells: Vec<&Cell> = cells.into_iter().collect();
    if let Some(call_id) = call_id
        && let Some(index) = cells.iter().position(|cell| cell.item_id == call_id)
    {
        return Some(index);
    }
    let needle: String = squeeze(text).chars().take(TEXT_PREFIX_CHARS).collect();
    if needle.is_empty() {
        return None;
    }
    for (index, cell) in cells.iter().enumerate().skip(from) {
        if squeeze(&cell_text(cell)).contains(&needle) {
            return Some(index);
        }
        if matches!(cell.body, CellBody::TurnEnd { .. }) {
            break;
        }
    }
    None
}

/// The words of `text` joined by single spaces.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text a cell shows of its item, unstyled.
fn cell_text(cell: &Cell) -> String {
    match &cell.body {
        CellBody::User { text, .. } => text.clone(),
        CellBody::Agent { markdown } => markdown.clone(),
        CellBody::Reasoning { paragraphs } => paragraphs.join("\n"),
        CellBody::Plan { text } | CellBody::Marker { text } => text.clone(),
        CellBody::Command {
            command, output, ..
        } => format!("{command}\n{output}"),
        CellBody::FileChange { files, .. } => files
            .iter()
            .map(|file| file.path.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        CellBody::Tool { title, detail, .. } => format!("{title}\n{detail}"),
        CellBody::TurnEnd { .. } => String::new(),
    }
}

#[cfg(test)]
#[path = "anchor_tests.rs"]
mod tests;
