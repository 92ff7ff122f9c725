use super::*;

#[test]
fn sizes_are_short_and_binary() {
    assert_eq!(human_bytes(0), "0 B");
    assert_eq!(human_bytes(1023), "1023 B");
    assert_eq!(human_bytes(1024), "1.00 KiB");
    assert_eq!(human_bytes(1536 * 1024), "1.50 MiB");
    assert_eq!(human_bytes(47 * 1024 * 1024 * 1024), "47.0 GiB");
    assert_eq!(human_bytes(165 * 1024 * 1024 * 1024 * 1024), "165 TiB");
    assert_eq!(percent(1, 3), "33.3%");
    assert_eq!(percent(1, 0), "-");
}
