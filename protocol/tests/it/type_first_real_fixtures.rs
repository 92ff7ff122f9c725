//! The type-first payload decoder agrees with serde's derived path on every line of every real
//! Codex session file: line by line (the parser against its derived reference), and payload by
//! payload (`response_item` and `event_msg` payloads, the direct decoder alone against the
//! derive). Where the direct decoder does not decode, the derive must give the `Other`
//! fallback of an unknown tag, or fail too, with an error of the same kind.

#![allow(clippy::print_stderr)]

use std::collections::BTreeMap;
use std::error::Error;

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{
    parse_rollout_line_typed, parse_rollout_line_typed_derived, split_lines,
};
use codex_protocol::type_first::{TypeFirst, decode_direct};
use codex_test_support::{jsonl_files_in, real_fixtures_dir};
use serde_json::value::RawValue;

type TestResult = Result<(), Box<dyn Error>>;

/// The envelope of a line, its payload kept as text.
#[derive(serde::Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type")]
    tag: Option<String>,
    #[serde(borrow)]
    payload: Option<&'a RawValue>,
}

/// What comparing one payload found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Agreement {
    /// The direct decoder gave the derive's value.
    Equal,
    /// The tag is unknown: the derive gives `Other`, the direct decoder refuses.
    Fallback,
    /// Both refused, with errors of the same category.
    BothFail,
}

fn compare<T: TypeFirst + PartialEq + std::fmt::Debug>(
    text: &str,
    other: &T,
    at: &str,
) -> Result<Agreement, String> {
    let direct = decode_direct::<T>(text);
    let derived = serde_json::from_str::<T>(text);
    match (direct, derived) {
        (Ok(direct), Ok(derived)) if direct == derived => Ok(Agreement::Equal),
        (Err(_), Ok(derived)) if &derived == other => Ok(Agreement::Fallback),
        (Err(direct), Err(derived)) if direct.classify() == derived.classify() => {
            Ok(Agreement::BothFail)
        }
        (direct, derived) => Err(format!("{at}: direct {direct:?}, derived {derived:?}")),
    }
}

#[test]
fn the_type_first_decoder_agrees_with_the_derive_on_every_real_line() -> TestResult {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(());
    };
    let mut counts: BTreeMap<(&str, Agreement), usize> = BTreeMap::new();
    let mut lines = 0usize;
    for path in jsonl_files_in(&dir)? {
        let bytes = std::fs::read(&path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (number, line) in split_lines(&bytes) {
            lines += 1;
            let at = format!("{name}:{number}");
            assert_eq!(
                parse_rollout_line_typed(line),
                parse_rollout_line_typed_derived(line),
                "{at}"
            );
            let Ok(envelope) = serde_json::from_slice::<Envelope<'_>>(line) else {
                continue;
            };
            let (Some(tag), Some(payload)) = (envelope.tag, envelope.payload) else {
                continue;
            };
            let agreement = match tag.as_str() {
                "response_item" => compare(payload.get(), &ResponseItem::Other, &at)?,
                "event_msg" => compare(payload.get(), &EventMsg::Other, &at)?,
                _ => continue,
            };
            *counts
                .entry((
                    if tag == "event_msg" {
                        "event_msg"
                    } else {
                        "response_item"
                    },
                    agreement,
                ))
                .or_default() += 1;
        }
    }
    eprintln!("{lines} lines; payloads by kind and agreement: {counts:?}");
    let equal = |kind| counts.get(&(kind, Agreement::Equal)).copied().unwrap_or(0);
    assert!(equal("response_item") > 1000, "{counts:?}");
    assert!(equal("event_msg") > 1000, "{counts:?}");
    Ok(())
}
