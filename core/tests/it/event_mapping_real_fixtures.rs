//! `parse_turn_item` over real Codex session files.
//!
//! Codex writes two records for every real user input: the `response_item` message the model
//! sees and a record for clients: a `user_message` event in legacy files, an `item_completed`
//! carrying a `UserMessage` in paginated ones (0.151 and later). So, per file, the number of
//! response-item messages that `parse_turn_item` maps to `UserMessage` must equal the number
//! of those records ("events" below), and each must follow its own message. Injected context
//! (AGENTS.md, environment, skills...) also travels as user messages but has no event: it
//! must map to `None`. Where a real file breaks the rule, the table below says why.
#![allow(clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::Path;

use codex_core::is_user_turn_boundary;
use codex_core::parse_turn_item;
use codex_protocol::items::{TurnItem, UserMessageItem};
use codex_protocol::models::ResponseItem;
use codex_protocol::user_input::UserInput;
use codex_test_support::{REAL_FIXTURES as FIXTURES, real_jsonl_files};
use serde_json::Value;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Why a known file is allowed to differ from the one-event-per-message rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Deviation {
    /// The rule holds exactly.
    None,
    /// The author replaced every text by `[REDACTED_TEXT len=.. sha=..]`, which erased the
    /// markers of injected context: those messages now read as a person's words. Every real
    /// input still pairs with its event (same length and hash); the extra mappings are the
    /// redacted context messages, and all of them are unpaired.
    RedactedContext,
    /// The author removed lines: the events are there, the messages they follow are not.
    LinesRemoved,
    /// Not a capture: a catalogue of line shapes with values trimmed and lines out of order.
    Catalogue,
    /// The pre-envelope format records no events at all, so there is nothing to pair.
    NoEvents,
}

struct Known {
    file_prefix: &'static str,
    user_message_events: usize,
    user_message_mappings: usize,
    deviation: Deviation,
}

const KNOWN: &[Known] = &[
    Known {
        file_prefix: "AcidicSoil__codex-session-view__",
        user_message_events: 1,
        user_message_mappings: 1,
        deviation: Deviation::None,
    },
    Known {
        // 47 user messages: `<user_instructions>` (legacy AGENTS.md wrapper) and
        // `<environment_context>` are context, 45 are the person's.
        file_prefix: "AcidicSoil__codex-session-viewer__",
        user_message_events: 0,
        user_message_mappings: 45,
        deviation: Deviation::NoEvents,
    },
    Known {
        file_prefix: "bllshttng__footnote__",
        user_message_events: 0,
        user_message_mappings: 0,
        deviation: Deviation::NoEvents,
    },
    Known {
        file_prefix: "codemie-ai__codemie-code__",
        user_message_events: 3,
        user_message_mappings: 0,
        deviation: Deviation::LinesRemoved,
    },
    Known {
        // One user message (text + image); three events and one completed UserMessage item,
        // with trimmed values.
        file_prefix: "jazzyalex__agent-sessions__",
        user_message_events: 4,
        user_message_mappings: 1,
        deviation: Deviation::Catalogue,
    },
    Known {
        // 15 user messages, 2 of them `<environment_context>`.
        file_prefix: "jnarowski__agentcmd__rollout-2025-09-24T19-22-20",
        user_message_events: 13,
        user_message_mappings: 13,
        deviation: Deviation::None,
    },
    Known {
        // The first input carries an inline data-URL image; it stays one UserMessage.
        file_prefix: "jnarowski__agentcmd__rollout-2025-09-24T20-12-23",
        user_message_events: 2,
        user_message_mappings: 2,
        deviation: Deviation::None,
    },
    Known {
        // 46 user messages: at each of the 4 (re)starts Codex injected AGENTS.md and the
        // environment (lines 4-5, 131-132, 219-220, 450-451), redacted; 38 are real inputs.
        file_prefix: "madshn__localpush__rollout-2026-02-23T12-54-34",
        user_message_events: 38,
        user_message_mappings: 46,
        deviation: Deviation::RedactedContext,
    },
    Known {
        // 4 user messages: redacted AGENTS.md and environment (lines 4-5), the real input
        // (line 9, event on line 10) and a 3490-character injection right after it (line 11,
        // no event; by its place, a skill body).
        file_prefix: "madshn__localpush__rollout-2026-02-23T13-19-38",
        user_message_events: 1,
        user_message_mappings: 4,
        deviation: Deviation::RedactedContext,
    },
    Known {
        // Paginated, every text replaced by `[redacted]`: the four user messages are the
        // context bundle of the first turn (line 6) and the three inputs, whose
        // `item_completed` records follow them.
        file_prefix: "vedntzz__The-Session__",
        user_message_events: 3,
        user_message_mappings: 4,
        deviation: Deviation::RedactedContext,
    },
    Known {
        // `codex exec` 0.158, filtered by its author: the two inputs are there, their
        // `item_completed` records are not.
        file_prefix: "woven-reviews__session-log-extractors__",
        user_message_events: 0,
        user_message_mappings: 2,
        deviation: Deviation::LinesRemoved,
    },
    Known {
        file_prefix: "yoavf__ai-sessions__",
        user_message_events: 3,
        user_message_mappings: 3,
        deviation: Deviation::None,
    },
];

/// What one file contains, as the two consumers see it.
#[derive(Debug, Default)]
struct Tally {
    response_items: usize,
    undecodable_messages: Vec<usize>,
    user_message_events: usize,
    user_message_mappings: usize,
    boundaries: usize,
    turn_items: BTreeMap<&'static str, usize>,
    paired: usize,
    /// Events whose text differs from the message they follow.
    mismatched_pairs: Vec<usize>,
    unpaired_events: Vec<usize>,
    unpaired_mappings: Vec<usize>,
    unpaired_redacted_mappings: Vec<usize>,
}

/// The response item a line holds: enveloped `response_item` lines, or the bare items of the
/// pre-envelope format.
fn response_item_payload(line: &Value) -> Option<&Value> {
    match line.get("payload") {
        Some(payload) => (line.get("type")?.as_str()? == "response_item").then_some(payload),
        None if line.get("record_type").is_none() => line.get("type").map(|_| line),
        None => None,
    }
}

/// The text of a client's record of a user input: a `user_message` event, or an
/// `item_completed` whose item is a `UserMessage` (its first text part).
fn user_message_event(line: &Value) -> Option<&str> {
    let payload = line.get("payload")?;
    if line.get("type")?.as_str()? != "event_msg" {
        return None;
    }
    match payload.get("type")?.as_str()? {
        "user_message" => Some(
            payload
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default(),
        ),
        "item_completed" if payload["item"]["type"] == "UserMessage" => Some(
            payload["item"]["content"]
                .as_array()
                .and_then(|parts| parts.iter().find_map(|part| part["text"].as_str()))
                .unwrap_or_default(),
        ),
        _ => None,
    }
}

fn first_text(message: &UserMessageItem) -> &str {
    message
        .content
        .iter()
        .find_map(|input| match input {
            UserInput::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .unwrap_or_default()
}

/// `len=.. sha=..` of a redacted text, which the author kept equal between a message and
/// its event.
fn redaction_fingerprint(text: &str) -> Option<&str> {
    // A bare placeholder carries no fingerprint: every redacted text looks the same.
    if text == "[redacted]" {
        return Some("");
    }
    let rest = text.strip_prefix("[REDACTED_")?;
    let start = rest.find("len=")?;
    rest.get(start..)?.strip_suffix(']')
}

fn event_matches(event: &str, message: &UserMessageItem) -> bool {
    match (
        redaction_fingerprint(event),
        redaction_fingerprint(first_text(message)),
    ) {
        (Some(event), Some(text)) => event == text,
        (None, None) => event == message.message(),
        _ => false,
    }
}

fn tally(path: &Path) -> Result<Tally, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path)?;
    let mut tally = Tally::default();
    let mut pending: Option<(usize, UserMessageItem)> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_number = index + 1;
        let Ok(line) = serde_json::from_str::<Value>(raw) else {
            continue;
        };
        if let Some(event) = user_message_event(&line) {
            tally.user_message_events += 1;
            match pending.take() {
                Some((_, message)) => {
                    tally.paired += 1;
                    if !event_matches(event, &message) {
                        tally.mismatched_pairs.push(line_number);
                    }
                }
                None => tally.unpaired_events.push(line_number),
            }
            continue;
        }
        let Some(payload) = response_item_payload(&line) else {
            continue;
        };
        let Ok(item) = serde_json::from_value::<ResponseItem>(payload.clone()) else {
            if payload.get("type").and_then(Value::as_str) == Some("message") {
                tally.undecodable_messages.push(line_number);
            }
            continue;
        };
        tally.response_items += 1;
        if is_user_turn_boundary(&item) {
            tally.boundaries += 1;
        }
        let Some(turn_item) = parse_turn_item(&item) else {
            continue;
        };
        *tally.turn_items.entry(turn_item.type_name()).or_default() += 1;
        if let TurnItem::UserMessage(message) = turn_item {
            tally.user_message_mappings += 1;
            if let Some((previous_line, previous)) = pending.replace((line_number, message)) {
                record_unpaired(&mut tally, previous_line, &previous);
            }
        }
    }
    if let Some((line_number, message)) = pending {
        record_unpaired(&mut tally, line_number, &message);
    }
    Ok(tally)
}

fn record_unpaired(tally: &mut Tally, line_number: usize, message: &UserMessageItem) {
    if redaction_fingerprint(first_text(message)).is_some() {
        tally.unpaired_redacted_mappings.push(line_number);
    } else {
        tally.unpaired_mappings.push(line_number);
    }
}

#[test]
fn user_message_events_match_user_message_mappings_per_file() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    assert!(!files.is_empty(), "no .jsonl files in {FIXTURES}");
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let tally = tally(path)?;
        eprintln!(
            "{name}: items={} user_message events={} UserMessage mappings={} paired={} \
             boundaries={} unpaired events={:?} unpaired mappings={:?} redacted unpaired={:?} \
             turn items={:?}",
            tally.response_items,
            tally.user_message_events,
            tally.user_message_mappings,
            tally.paired,
            tally.boundaries,
            tally.unpaired_events,
            tally.unpaired_mappings,
            tally.unpaired_redacted_mappings,
            tally.turn_items,
        );
        assert!(
            tally.undecodable_messages.is_empty(),
            "{name}: message lines that do not decode: {:?}",
            tally.undecodable_messages
        );
        let known = KNOWN
            .iter()
            .find(|known| name.starts_with(known.file_prefix));
        let deviation = known.map_or(Deviation::None, |known| known.deviation);
        if let Some(known) = known {
            assert_eq!(
                (tally.user_message_events, tally.user_message_mappings),
                (known.user_message_events, known.user_message_mappings),
                "{name}: (user_message events, UserMessage mappings)"
            );
        }
        match deviation {
            Deviation::None | Deviation::RedactedContext => {
                // Every event follows its own message, with the same text.
                assert!(
                    tally.unpaired_events.is_empty(),
                    "{name}: events without a message"
                );
                assert!(
                    tally.mismatched_pairs.is_empty(),
                    "{name}: {:?}",
                    tally.mismatched_pairs
                );
                assert!(
                    tally.unpaired_mappings.is_empty(),
                    "{name}: UserMessage mappings without an event (context shown as a user \
                     message?): lines {:?}",
                    tally.unpaired_mappings
                );
                if deviation == Deviation::None {
                    assert_eq!(
                        tally.user_message_events, tally.user_message_mappings,
                        "{name}"
                    );
                } else {
                    // The only extra mappings are redacted context.
                    assert_eq!(
                        tally.user_message_mappings,
                        tally.user_message_events + tally.unpaired_redacted_mappings.len(),
                        "{name}"
                    );
                }
            }
            Deviation::LinesRemoved | Deviation::Catalogue | Deviation::NoEvents => {}
        }
    }
    Ok(())
}

#[test]
fn every_real_response_item_projects_without_panicking() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    for path in &files {
        let text = std::fs::read_to_string(path)?;
        for raw in text.lines() {
            let Ok(line) = serde_json::from_str::<Value>(raw) else {
                continue;
            };
            // Compacted lines carry a replacement history: project those items too.
            let replacement = line
                .get("payload")
                .and_then(|payload| payload.get("replacement_history"))
                .and_then(Value::as_array);
            let payloads = response_item_payload(&line)
                .into_iter()
                .chain(replacement.into_iter().flatten());
            for payload in payloads {
                if let Ok(item) = serde_json::from_value::<ResponseItem>(payload.clone()) {
                    let turn_item = parse_turn_item(&item);
                    // A visible user message always starts a user turn.
                    if matches!(turn_item, Some(TurnItem::UserMessage(_))) {
                        assert!(is_user_turn_boundary(&item));
                    }
                }
            }
        }
    }
    Ok(())
}
