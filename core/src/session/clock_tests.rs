use std::time::{Duration, UNIX_EPOCH};

use pretty_assertions::assert_eq;
use uuid::Uuid;

use super::*;

#[test]
fn a_stepping_clock_moves_forward_by_its_step_at_every_reading() {
    let start = UNIX_EPOCH + Duration::from_secs(1_748_854_800);
    let clock = SteppingClock::new(start, Duration::from_millis(250));
    assert_eq!(clock.now(), start);
    assert_eq!(clock.monotonic(), Duration::from_millis(250));
    assert_eq!(clock.now(), start + Duration::from_millis(500));
    assert_eq!(unix_ms(clock.now()), 1_748_854_800_750);
}

#[test]
fn sequential_ids_count_up_from_their_base() {
    let ids = SequentialIds::new(Uuid::from_u128(0x10));
    assert_eq!(ids.next_uuid(), Uuid::from_u128(0x11));
    assert_eq!(ids.next_uuid(), Uuid::from_u128(0x12));
}

#[test]
fn the_system_sources_give_fresh_values() {
    let clock = SystemClock::new();
    let first = clock.monotonic();
    assert!(clock.monotonic() >= first);
    assert!(unix_ms(clock.now()) > 1_700_000_000_000);
    assert_ne!(RandomIds.next_uuid(), RandomIds.next_uuid());
    assert_eq!(unix_ms(UNIX_EPOCH - Duration::from_secs(1)), 0);
}
