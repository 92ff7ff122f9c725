use super::*;

/// The indices of the page `cursor`, `limit` and the direction give over `total` entries,
/// with its cursors.
fn page(
    total: usize,
    cursor: Option<&str>,
    limit: u32,
    direction: SortDirection,
) -> (Vec<usize>, Option<String>, Option<String>) {
    let Ok(spec) = PageSpec::of(Kind::Turns, cursor, Some(limit), direction) else {
        return (Vec::new(), Some("refused".to_owned()), None);
    };
    let mut window = Window::new(spec);
    (0..total).for_each(|index| window.offer(index, index));
    let page = window.finish(total, true);
    (page.entries, page.next_cursor, page.backwards_cursor)
}

/// [`page`] from only the last `tail` of `total` entries, as a thread read from its end gives.
fn page_of_tail(
    (total, tail): (usize, usize),
    cursor: Option<&str>,
    limit: u32,
    direction: SortDirection,
) -> (Vec<usize>, Option<String>, Option<String>) {
    let Ok(spec) = PageSpec::of(Kind::Turns, cursor, Some(limit), direction) else {
        return (Vec::new(), Some("refused".to_owned()), None);
    };
    let first = total - tail;
    let mut window = Window::new(spec);
    (first..total).for_each(|entry| window.offer(entry - first, entry));
    let page = window.finish(tail, tail == total);
    (page.entries, page.next_cursor, page.backwards_cursor)
}

fn text(value: &str) -> Option<String> {
    Some(value.to_owned())
}

#[test]
fn newest_first_pages_walk_back_to_the_first_entry() {
    use SortDirection::Desc;
    let first = page(5, None, 2, Desc);
    assert_eq!(
        first,
        (vec![4, 3], text("turns:end-1"), text("turns:end:incl"))
    );
    let second = page(5, first.1.as_deref(), 2, Desc);
    assert_eq!(
        second,
        (vec![2, 1], text("turns:end-3"), text("turns:end-2:incl"))
    );
    let last = page(5, second.1.as_deref(), 2, Desc);
    assert_eq!(last, (vec![0], None, text("turns:end-4:incl")));
}

#[test]
fn oldest_first_pages_walk_on_to_the_last_entry() {
    use SortDirection::Asc;
    let first = page(3, None, 2, Asc);
    assert_eq!(first, (vec![0, 1], text("turns:1"), text("turns:0:incl")));
    assert_eq!(
        page(3, first.1.as_deref(), 2, Asc),
        (vec![2], None, text("turns:2:incl"))
    );
}

#[test]
fn a_backwards_cursor_holds_its_entry_again_the_other_way() {
    let newest = page(5, None, 2, SortDirection::Desc);
    assert_eq!(
        page(5, newest.2.as_deref(), 3, SortDirection::Asc).0,
        vec![4]
    );
    let second = page(5, newest.1.as_deref(), 2, SortDirection::Desc);
    assert_eq!(
        page(5, second.2.as_deref(), 3, SortDirection::Asc).0,
        vec![2, 3, 4]
    );
    let oldest = page(5, None, 2, SortDirection::Asc);
    assert_eq!(
        page(5, oldest.2.as_deref(), 3, SortDirection::Desc).0,
        vec![0]
    );
}

#[test]
fn a_cursor_at_the_end_pages_from_the_last_entry() {
    assert_eq!(
        page(4, Some("turns:end:incl"), 3, SortDirection::Desc).0,
        vec![3, 2, 1]
    );
    assert_eq!(
        page(4, Some("turns:end"), 3, SortDirection::Desc).0,
        vec![2, 1, 0]
    );
    assert_eq!(
        page(4, Some("turns:end:incl"), 3, SortDirection::Asc).0,
        vec![3]
    );
    assert_eq!(
        page(4, Some("turns:end"), 3, SortDirection::Asc).0,
        Vec::<usize>::new()
    );
    assert_eq!(
        page(0, Some("turns:end:incl"), 3, SortDirection::Desc).0,
        Vec::<usize>::new()
    );
}

#[test]
fn pages_counted_from_the_end_need_only_the_last_entries() {
    use SortDirection::{Asc, Desc};
    for cursor in [None, Some("turns:end-4"), Some("turns:end-6:incl")] {
        for direction in [Desc, Asc] {
            let spec = PageSpec::of(Kind::Turns, cursor, Some(3), direction);
            assert!(spec.is_ok(), "{cursor:?} refused");
            let Ok(spec) = spec else { return };
            if direction == Asc && cursor.is_none() {
                assert_eq!(spec.last_entries_needed(), None);
                continue;
            }
            let tail = spec.last_entries_needed().unwrap_or(0);
            assert_eq!(
                page_of_tail((40, tail), cursor, 3, direction),
                page(40, cursor, 3, direction),
                "{cursor:?} {direction:?}"
            );
        }
    }
    // A short thread read whole from its end: the last page says nothing lies before it.
    assert_eq!(
        page_of_tail((2, 2), None, 3, Desc),
        (vec![1, 0], None, text("turns:end:incl"))
    );
}

#[test]
fn a_cursor_of_another_kind_or_shape_is_refused() {
    for text in [
        "items:3",
        "turns:x",
        "turns:3:more",
        "turns",
        "turns:3:incl:x",
        "turns:end-x",
    ] {
        assert!(
            PageCursor::parse(Kind::Turns, text).is_none(),
            "{text} was taken"
        );
    }
    let at_end = PageCursor::at_end(Kind::Items).to_string();
    assert_eq!(
        PageCursor::parse(Kind::Items, &at_end),
        Some(PageCursor::at_end(Kind::Items))
    );
}
