use pretty_assertions::assert_eq;

use super::*;
use crate::v2::TurnStatus;

fn cell(item_id: &str, body: CellBody) -> Cell {
    Cell {
        item_id: item_id.to_string(),
        turn_id: "turn-1".to_string(),
        body,
        live: false,
    }
}

fn agent(id: &str, markdown: &str) -> Cell {
    cell(
        id,
        CellBody::Agent {
            markdown: markdown.to_string(),
        },
    )
}

#[test]
fn a_hit_finds_its_call_or_its_text_within_its_turn() {
    let cells = [
        cell(
            "item-1",
            CellBody::User {
                text: "where is the zebra?".to_string(),
                attachments: Vec::new(),
            },
        ),
        agent("item-2", "Looking."),
        cell(
            "call_1",
            CellBody::Command {
                command: "ls".to_string(),
                cwd: "/w".to_string(),
                status: "completed",
                exit_code: Some(0),
                duration_ms: None,
                output: "zebra.txt".to_string(),
            },
        ),
        agent("item-3", "The zebra is\nin `zebra.txt`."),
        cell(
            "turn-1",
            CellBody::TurnEnd {
                status: TurnStatus::Completed,
                duration_ms: None,
                tokens: None,
                error: None,
            },
        ),
        agent("item-5", "Another zebra."),
    ];
    // A call's id names its cell wherever it is.
    assert_eq!(
        anchored_cell(&cells, 0, Some("call_1"), "zebra.txt"),
        Some(2)
    );
    // A message by its text, whitespace compared loosely, from the turn's first cell.
    assert_eq!(
        anchored_cell(&cells, 0, None, "The zebra is in `zebra.txt`."),
        Some(3)
    );
    // An unknown call falls back to the text.
    assert_eq!(
        anchored_cell(&cells, 0, Some("call_9"), "Looking."),
        Some(1)
    );
    // Not past the turn's end; found from the next turn's first cell.
    assert_eq!(anchored_cell(&cells, 0, None, "Another zebra."), None);
    assert_eq!(anchored_cell(&cells, 5, None, "Another zebra."), Some(5));
    assert_eq!(anchored_cell(&cells, 0, None, "  "), None);
}
