use std::io::{self, Read};

use proptest::prelude::*;

use super::Window;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The next line of `window`, its error without the count.
fn next<R: Read>(window: &mut Window<R>) -> io::Result<Option<(Vec<u8>, bool)>> {
    let line = window.next_line().map_err(|cut| cut.error)?;
    Ok(line.map(|(bytes, terminated)| (bytes.to_vec(), terminated)))
}

/// Every line of `window`, with whether it ended with `\n`.
fn lines_of<R: Read>(window: &mut Window<R>) -> io::Result<Vec<(Vec<u8>, bool)>> {
    let mut lines = Vec::new();
    while let Some(line) = next(window)? {
        lines.push(line);
    }
    Ok(lines)
}

/// The lines `split` would give, as the window must hand them out.
fn expected(input: &[u8]) -> Vec<(Vec<u8>, bool)> {
    let mut lines: Vec<(Vec<u8>, bool)> = input
        .split(|byte| *byte == b'\n')
        .map(|line| (line.to_vec(), true))
        .collect();
    // The piece after the last `\n` is a line only when it holds something.
    if let Some((last, terminated)) = lines.last_mut() {
        if last.is_empty() {
            lines.pop();
        } else {
            *terminated = false;
        }
    }
    lines
}

/// A reader that hands out at most `step` bytes per read, as a pipe or a decoder may.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        let (head, tail) = self.bytes.split_at(n);
        buf.get_mut(..n).unwrap_or_default().copy_from_slice(head);
        self.bytes = tail;
        Ok(n)
    }
}

#[test]
fn lines_longer_than_the_buffer_grow_it_and_keep_every_byte() -> TestResult {
    let long = vec![b'x'; 1000];
    let mut input = long.clone();
    input.extend_from_slice(b"\nshort\n\nlast");
    let mut window = Window::new(input.as_slice(), 7, None);
    let lines = lines_of(&mut window)?;
    assert_eq!(
        lines,
        vec![
            (long, true),
            (b"short".to_vec(), true),
            (Vec::new(), true),
            (b"last".to_vec(), false),
        ]
    );
    Ok(())
}

#[test]
fn a_read_error_comes_with_the_bytes_of_the_line_it_cut() -> TestResult {
    struct Breaks(Vec<u8>);
    impl Read for Breaks {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("broken"));
            }
            let n = buf.len().min(self.0.len());
            let taken: Vec<u8> = self.0.drain(..n).collect();
            buf.get_mut(..n).unwrap_or_default().copy_from_slice(&taken);
            Ok(n)
        }
    }
    let mut window = Window::new(Breaks(b"whole\npart".to_vec()), 64, Some(10));
    assert_eq!(next(&mut window)?, Some((b"whole".to_vec(), true)));
    let Err(cut) = window.next_line() else {
        return Err("the read error was not reported".into());
    };
    assert_eq!((cut.error.to_string().as_str(), cut.read), ("broken", 4));
    Ok(())
}

#[test]
fn read_into_takes_the_unread_bytes_first() -> TestResult {
    let mut window = Window::new(&b"one\ntwo\nthree\n"[..], 6, Some(14));
    assert_eq!(next(&mut window)?, Some((b"one".to_vec(), true)));
    let mut out = Vec::new();
    let read = window.read_into(&mut out, 100)?;
    assert_eq!((read, out.as_slice()), (10, &b"two\nthree\n"[..]));
    Ok(())
}

proptest! {
    #[test]
    fn lines_are_the_input_cut_at_each_newline(
        input in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'a'), any::<u8>()], 0..400),
        capacity in 1usize..40,
        step in 1usize..50,
        size in proptest::option::of(0u64..500),
    ) {
        // A wrong size (a file that grew or shrank since) changes nothing but speed.
        let mut window = Window::new(Trickle { bytes: &input, step }, capacity, size);
        let lines = lines_of(&mut window);
        prop_assert!(lines.is_ok());
        prop_assert_eq!(lines.unwrap_or_default(), expected(&input));
    }
}
