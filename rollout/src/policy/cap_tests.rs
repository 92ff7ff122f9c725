use pretty_assertions::assert_eq;
use proptest::prelude::*;

use super::*;

#[test]
fn short_text_is_not_cut() {
    assert_eq!(cap_middle("abc", 3), None);
    assert_eq!(cap_middle("", 0), None);
}

#[test]
fn long_text_keeps_head_and_tail_around_the_marker() -> Result<(), String> {
    let text = format!("{}{}", "a".repeat(100_000), "z".repeat(100_000));
    let capped = cap_middle(&text, PERSISTED_OUTPUT_LIMIT).ok_or("not cut")?;
    assert!(capped.len() <= PERSISTED_OUTPUT_LIMIT);
    assert!(capped.starts_with("aaaa"));
    assert!(capped.ends_with("zzzz"));
    assert!(capped.contains(PERSISTENCE_TRUNCATION_MARKER));
    let keep = PERSISTED_OUTPUT_LIMIT - PERSISTENCE_TRUNCATION_MARKER.len();
    assert_eq!(capped.len(), keep + PERSISTENCE_TRUNCATION_MARKER.len());
    Ok(())
}

proptest! {
    #[test]
    fn cut_is_valid_utf8_within_the_limit_and_a_head_plus_tail(
        text in "\\PC{0,400}",
        limit in 60usize..300,
    ) {
        match cap_middle(&text, limit) {
            None => prop_assert!(text.len() <= limit),
            Some(capped) => {
                prop_assert!(text.len() > limit);
                prop_assert!(capped.len() <= limit);
                let at = capped.find(PERSISTENCE_TRUNCATION_MARKER);
                prop_assert!(at.is_some());
                let at = at.unwrap_or_default();
                prop_assert!(text.starts_with(&capped[..at]));
                prop_assert!(text.ends_with(&capped[at + PERSISTENCE_TRUNCATION_MARKER.len()..]));
            }
        }
    }
}
