use pretty_assertions::assert_eq;

use super::*;

#[test]
fn only_a_replaced_file_has_sizes() {
    let target = PathBuf::from("a.jsonl.zst");
    let compressed = CompressOutcome::Compressed {
        target: target.clone(),
        plain_bytes: 100,
        compressed_bytes: 10,
    };
    let finished = CompressOutcome::Finished {
        target: target.clone(),
        plain_bytes: 50,
        compressed_bytes: 5,
    };
    assert_eq!(compressed.sizes(), Some((100, 10)));
    assert_eq!(finished.sizes(), Some((50, 5)));
    for other in [
        CompressOutcome::WouldCompress {
            target,
            plain_bytes: 100,
        },
        CompressOutcome::Skipped {
            reason: SkipReason::Empty,
        },
        CompressOutcome::Failed { error: "no".into() },
    ] {
        assert_eq!(other.sizes(), None, "{other:?}");
    }
}
