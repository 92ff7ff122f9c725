//! Turn lists kept in a few bytes a turn, for indexes that grow with the file: positions
//! stored as LEB128 varints of their distance from the position before them (the
//! `integer-encoding` crate), so a turn of a 10 GiB file costs about five bytes instead of
//! the three words of its positions. Written once in order, read back in order.
//!
//! Distances are taken with wrapping arithmetic and zigzag-coded, so positions round-trip
//! exactly in any order, up to 2^61 (a turn's first varint keeps two bits for which of its
//! records follow; positions are numbers of a file's lines or items, far below that); the
//! usual ones (a turn a few hundred lines after the last, its records a line or two after its
//! start) take one or two bytes each.

use integer_encoding::VarInt;

use super::UserTurn;

/// The turns of one counting rule, in the order they were pushed.
#[derive(Debug, Clone, Default)]
pub(crate) struct PackedTurns {
    bytes: Vec<u8>,
    last_start: usize,
}

/// A turn's entry: its start's distance from the previous turn's start, shifted left by two to
/// hold whether a message and an event follow, then the distance of each from the start.
const HAS_MESSAGE: u64 = 0b01;
const HAS_EVENT: u64 = 0b10;

impl PackedTurns {
    /// Appends `turn` (its `rolled_back` mark is not kept: the segments decide it at the end).
    pub(crate) fn push(&mut self, turn: &UserTurn) {
        let mut head = zigzag(turn.start.wrapping_sub(self.last_start)) << 2;
        if turn.message.is_some() {
            head |= HAS_MESSAGE;
        }
        if turn.event.is_some() {
            head |= HAS_EVENT;
        }
        push_varint(&mut self.bytes, head);
        for position in [turn.message, turn.event].into_iter().flatten() {
            push_varint(&mut self.bytes, zigzag(position.wrapping_sub(turn.start)));
        }
        self.last_start = turn.start;
    }

    /// The turns in the order they were pushed, none marked rolled back.
    pub(crate) fn iter(&self) -> PackedTurnsIter<'_> {
        PackedTurnsIter {
            bytes: &self.bytes,
            read: 0,
            last_start: 0,
        }
    }
}

/// What [`PackedTurns::iter`] returns.
#[derive(Debug, Clone, Default)]
pub(crate) struct PackedTurnsIter<'a> {
    bytes: &'a [u8],
    /// Where the next unread varint starts in `bytes`.
    read: usize,
    last_start: usize,
}

impl PackedTurnsIter<'_> {
    fn read(&mut self) -> Option<u64> {
        next_varint(self.bytes, &mut self.read)
    }
}

impl Iterator for PackedTurnsIter<'_> {
    type Item = UserTurn;

    fn next(&mut self) -> Option<UserTurn> {
        let head = self.read()?;
        let start = self.last_start.wrapping_add(unzigzag(head >> 2));
        self.last_start = start;
        let mut field = |present: bool| -> Option<usize> {
            present.then(|| {
                self.read()
                    .map(|distance| start.wrapping_add(unzigzag(distance)))
            })?
        };
        let message = field(head & HAS_MESSAGE != 0);
        let event = field(head & HAS_EVENT != 0);
        Some(UserTurn {
            event,
            message,
            start,
            rolled_back: false,
        })
    }
}

/// Ascending positions, each asked about once in order ([`PackedPositions::take`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct PackedPositions {
    bytes: Vec<u8>,
    /// Where the next unread distance starts in `bytes`.
    read: usize,
    /// The last position read; `None` once every one was.
    current: Option<usize>,
}

impl PackedPositions {
    /// `positions` sorted, each kept once.
    pub(crate) fn of(mut positions: Vec<usize>) -> Self {
        positions.sort_unstable();
        positions.dedup();
        let mut bytes = Vec::new();
        let mut last = 0usize;
        for position in positions {
            push_varint(&mut bytes, (position - last) as u64);
            last = position;
        }
        bytes.shrink_to_fit();
        let mut packed = Self {
            bytes,
            ..Self::default()
        };
        packed.advance();
        packed
    }

    /// Whether `position` is one of them; the positions before it are passed for good.
    pub(crate) fn take(&mut self, position: usize) -> bool {
        while self.current.is_some_and(|current| current < position) {
            self.advance();
        }
        self.current == Some(position)
    }

    /// Reads the next position: the first counts from 0, each later one from the one before.
    fn advance(&mut self) {
        let base = self.current.unwrap_or(0);
        self.current = next_varint(&self.bytes, &mut self.read)
            .map(|distance| base.wrapping_add(distance as usize));
    }
}

/// Appends `value` to `bytes` as a LEB128 varint.
fn push_varint(bytes: &mut Vec<u8>, value: u64) {
    let mut buffer = [0u8; 10];
    let written = value.encode_var(&mut buffer);
    bytes.extend_from_slice(&buffer[..written]);
}

/// The varint at `*read` in `bytes`, moving `*read` past it; `None` at the end.
fn next_varint(bytes: &[u8], read: &mut usize) -> Option<u64> {
    let (value, length) = u64::decode_var(bytes.get(*read..)?)?;
    *read += length;
    Some(value)
}

fn zigzag(distance: usize) -> u64 {
    let signed = distance as i64;
    ((signed << 1) ^ (signed >> 63)) as u64
}

fn unzigzag(coded: u64) -> usize {
    ((coded >> 1) as i64 ^ -((coded & 1) as i64)) as usize
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn turn() -> impl Strategy<Value = UserTurn> {
        (
            proptest::option::of(0usize..1 << 61),
            proptest::option::of(0usize..1 << 61),
            0usize..1 << 61,
        )
            .prop_map(|(event, message, start)| UserTurn {
                event,
                message,
                start,
                rolled_back: false,
            })
    }

    proptest! {
        #[test]
        fn turns_round_trip(turns in proptest::collection::vec(turn(), 0..64)) {
            let mut packed = PackedTurns::default();
            for turn in &turns {
                packed.push(turn);
            }
            prop_assert_eq!(packed.iter().collect::<Vec<_>>(), turns);
        }

        #[test]
        fn positions_answer_as_the_sorted_list(
            positions in proptest::collection::vec(0usize..512, 0..64),
            asked in proptest::collection::vec(0usize..600, 0..64),
        ) {
            let mut asked = asked;
            asked.sort_unstable();
            let mut packed = PackedPositions::of(positions.clone());
            let mut sorted = positions;
            sorted.sort_unstable();
            for position in asked {
                prop_assert_eq!(packed.take(position), sorted.binary_search(&position).is_ok());
            }
        }
    }

    #[test]
    fn a_usual_turn_takes_a_few_bytes() {
        let mut packed = PackedTurns::default();
        for turn in 0..1000usize {
            let start = 10_000 + turn * 300;
            packed.push(&UserTurn {
                event: Some(start + 3),
                message: Some(start + 2),
                start,
                rolled_back: false,
            });
        }
        // The first turn's start is 10,000 positions from 0, each later one 300 from the last.
        assert!(
            packed.bytes.len() <= 4 * 1000 + 1,
            "{} bytes",
            packed.bytes.len()
        );
    }
}
