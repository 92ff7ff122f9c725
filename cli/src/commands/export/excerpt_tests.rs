use super::*;

#[test]
fn short_outputs_are_whole() {
    let shown = excerpt("one\ntwo\n");
    assert_eq!(shown.head, "one\ntwo");
    assert_eq!(shown.cut, None);
    assert_eq!(shown.total_lines, 2);
}

#[test]
fn long_outputs_keep_head_and_tail() {
    let long: String = (0..100).map(|n| format!("line {n}\n")).collect();
    let shown = excerpt(&long);
    assert_eq!(shown.head.lines().count(), HEAD_LINES);
    let cut = shown
        .cut
        .as_ref()
        .map(|cut| (cut.omitted_lines, cut.tail.lines().count()));
    assert_eq!(cut, Some((40, TAIL_LINES)));
    assert!(shown.cut.is_some_and(|cut| cut.tail.ends_with("line 99")));
    assert_eq!(shown.total_lines, 100);
}

/// The excerpt made by splitting the output into lines, which [`excerpt`] must equal.
fn excerpt_by_lines(text: &str) -> Excerpt<'_> {
    let text = text.trim_end_matches(['\n', '\r']);
    let lines: Vec<&str> = text.split('\n').collect();
    let total_lines = if text.is_empty() { 0 } else { lines.len() };
    let total_bytes = text.len();
    if total_lines <= HEAD_LINES + TAIL_LINES && text.len() <= 2 * MAX_SIDE_CHARS {
        return Excerpt {
            head: text.into(),
            cut: None,
            total_lines,
            total_bytes,
        };
    }
    let (head_lines, tail_lines) = if total_lines > HEAD_LINES + TAIL_LINES {
        (HEAD_LINES, TAIL_LINES)
    } else {
        (total_lines.div_ceil(2), total_lines / 2)
    };
    let head: String = lines[..head_lines]
        .join("\n")
        .chars()
        .take(MAX_SIDE_CHARS)
        .collect();
    let tail = lines[total_lines - tail_lines..].join("\n");
    let count = tail.chars().count();
    let tail: String = tail
        .chars()
        .skip(count.saturating_sub(MAX_SIDE_CHARS))
        .collect();
    Excerpt {
        cut: Some(Cut {
            omitted_lines: total_lines - head_lines - tail_lines,
            omitted_bytes: total_bytes.saturating_sub(head.len() + tail.len()),
            tail: tail.into(),
        }),
        head: head.into(),
        total_lines,
        total_bytes,
    }
}

proptest::proptest! {
    #[test]
    fn slicing_cuts_as_splitting_lines_does(
        lines in proptest::collection::vec("[a-z\u{e9}\u{1f600}]{0,300}", 0..120),
        huge in 0usize..3,
        ending in "[\n\r]{0,3}",
    ) {
        let mut text = lines.join("\n");
        if huge > 0 {
            text.push_str(&"\u{e9}x".repeat(huge * 3_000));
        }
        text.push_str(&ending);
        proptest::prop_assert_eq!(excerpt(&text), excerpt_by_lines(&text));
    }
}

#[test]
fn one_huge_line_is_cut_too() {
    let huge = "x".repeat(20_000);
    let shown = excerpt(&huge);
    assert_eq!(shown.head.len(), MAX_SIDE_CHARS);
    assert_eq!(shown.total_bytes, 20_000);
}
