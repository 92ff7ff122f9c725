//! Where in its thread a hit lies, beyond its turn: the item the hit's line holds, said in
//! words a transcript can find again ([`HitAnchor`]). The index keeps the line (1-based) of
//! every text; the line is read again from the file (plain or compressed) when a hit is
//! opened, so the index stays as small as it is.

use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::RolloutStream;

use super::Hit;
use super::extract::texts_of;

/// What identifies the item of a hit in the thread a client shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitAnchor {
    /// The tool call the hit's line belongs to (a call or its output): the id a client's
    /// command, patch or tool item carries.
    pub call_id: Option<String>,
    /// The text indexed from the line (a message as the person or agent said it, a reasoning
    /// summary, a call, an output), the same text the hit's snippet was cut from.
    pub text: String,
}

impl Hit {
    /// The item at the hit's line: `Ok(None)` when the file no longer has that line, or the
    /// line is not an item the index reads (the file changed since it was indexed).
    pub fn anchor(&self) -> std::io::Result<Option<HitAnchor>> {
        let target = usize::try_from(self.line).unwrap_or(usize::MAX);
        let mut stream = RolloutStream::open(&self.path)?;
        loop {
            let wanted = stream.lines_read() + 1 == target;
            let Some(line) = stream.next_line_where(|_| wanted)? else {
                return Ok(None);
            };
            if line.number < target {
                continue;
            }
            let Some(RolloutItem::ResponseItem(item)) = line.into_line().map(|line| line.item)
            else {
                return Ok(None);
            };
            return Ok(anchor_of(&item, self));
        }
    }
}

fn anchor_of(item: &ResponseItem, hit: &Hit) -> Option<HitAnchor> {
    let call_id = match item {
        ResponseItem::FunctionCall { call_id, .. }
        | ResponseItem::CustomToolCall { call_id, .. }
        | ResponseItem::CustomToolCallOutput { call_id, .. } => Some(call_id.clone()),
        ResponseItem::FunctionCallOutput { call_id, .. }
        | ResponseItem::LocalShellCall { call_id, .. }
        | ResponseItem::ToolSearchCall { call_id, .. } => call_id.clone(),
        _ => None,
    };
    let texts = texts_of(item);
    let text = texts
        .iter()
        .find(|text| text.kind == hit.kind && text.role == hit.role)
        .or(texts.first())?;
    Some(HitAnchor {
        call_id,
        text: text.text.clone(),
    })
}

#[cfg(test)]
#[path = "anchor_tests.rs"]
mod tests;
