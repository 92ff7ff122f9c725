use pretty_assertions::assert_eq;

use super::*;

fn emoji_text() -> String {
    format!("{}\nsecond line with text\n", "😀".repeat(10))
}

#[test]
fn serialization_budget_is_six_fifths_rounded_up() {
    assert_eq!(
        TruncationPolicy::Tokens(10_000).with_serialization_budget(),
        TruncationPolicy::Tokens(12_000)
    );
    assert_eq!(
        TruncationPolicy::Tokens(4) * 1.2,
        TruncationPolicy::Tokens(5)
    );
    assert_eq!(
        TruncationPolicy::Bytes(10_000) * 1.2,
        TruncationPolicy::Bytes(12_000)
    );
    assert_eq!(TruncationPolicy::Bytes(0) * 1.2, TruncationPolicy::Bytes(0));
    assert_eq!(
        TruncationPolicy::Bytes(usize::MAX) * 1.2,
        TruncationPolicy::Bytes(usize::MAX)
    );
    for n in 0..=5_000usize {
        let exact = (6 * n).div_ceil(5);
        assert_eq!(
            TruncationPolicy::Tokens(n) * 1.2,
            TruncationPolicy::Tokens(exact)
        );
    }
}

#[test]
fn generic_scaling_rounds_up_and_clamps() {
    assert_eq!(
        TruncationPolicy::Bytes(10) * 0.25,
        TruncationPolicy::Bytes(3)
    );
    assert_eq!(
        TruncationPolicy::Bytes(10) * -1.0,
        TruncationPolicy::Bytes(0)
    );
    assert_eq!(
        TruncationPolicy::Bytes(10) * f64::NAN,
        TruncationPolicy::Bytes(0)
    );
    assert_eq!(
        TruncationPolicy::Bytes(10) * f64::INFINITY,
        TruncationPolicy::Bytes(usize::MAX)
    );
}

#[test]
fn budgets_convert_with_four_bytes_per_token() {
    assert_eq!(TruncationPolicy::Bytes(9).token_budget(), 3);
    assert_eq!(TruncationPolicy::Tokens(3).byte_budget(), 12);
    assert_eq!(
        TruncationPolicy::Tokens(usize::MAX).byte_budget(),
        usize::MAX
    );
    assert_eq!(approx_token_count("abcde"), 2);
    assert_eq!(approx_token_count(""), 0);
}

#[test]
fn policy_wire_shape() -> Result<(), serde_json::Error> {
    let json = serde_json::to_string(&TruncationPolicy::Tokens(10_000))?;
    assert_eq!(json, r#"{"mode":"tokens","limit":10000}"#);
    let back: TruncationPolicy = serde_json::from_str(r#"{"mode":"bytes","limit":7}"#)?;
    assert_eq!(back, TruncationPolicy::Bytes(7));
    Ok(())
}

#[test]
fn token_cut_keeps_whole_characters_at_both_ends() {
    assert_eq!(
        truncate_text(&emoji_text(), TruncationPolicy::Tokens(8)),
        "😀😀😀😀…8 tokens truncated… line with text\n"
    );
}

#[test]
fn byte_cut_counts_removed_characters() {
    assert_eq!(
        truncate_text(&emoji_text(), TruncationPolicy::Bytes(20)),
        "😀😀…21 chars truncated…with text\n"
    );
}

#[test]
fn zero_token_budget_leaves_only_the_marker() {
    assert_eq!(
        truncate_middle_with_token_budget("abcdef", 0),
        ("…2 tokens truncated…".to_string(), Some(2))
    );
    assert_eq!(
        truncate_text("abc", TruncationPolicy::Bytes(0)),
        "…3 chars truncated…"
    );
}

#[test]
fn text_within_budget_is_unchanged() {
    assert_eq!(truncate_text("short", TruncationPolicy::Tokens(2)), "short");
    assert_eq!(truncate_text("short", TruncationPolicy::Bytes(5)), "short");
    assert_eq!(
        truncate_middle_with_token_budget("", 0),
        (String::new(), None)
    );
}

#[test]
fn byte_cut_of_ascii_keeps_head_and_tail_halves() {
    assert_eq!(
        truncate_text(
            "this is an example that should be truncated",
            TruncationPolicy::Bytes(30)
        ),
        "this is an exam…13 chars truncated…ld be truncated"
    );
}

#[test]
fn one_byte_budget_keeps_only_a_tail_character() {
    assert_eq!(
        truncate_text("example output", TruncationPolicy::Bytes(1)),
        "…13 chars truncated…t"
    );
}
