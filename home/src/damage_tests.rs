use codex_rollout::RolloutStream;
use pretty_assertions::assert_eq;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const GOOD: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"event_msg","payload":{"type":"user_message","message":"hi","kind":"plain"}}"#;

/// The damage a stream of `bytes` reports, every line parsed.
fn damage_of(bytes: &[u8]) -> Result<Option<Damage>, std::io::Error> {
    let mut stream = RolloutStream::new(bytes)?;
    let mut damage = None;
    while let Some(line) = stream.next_line()? {
        if let Some(problem) = &line.problem {
            note_damage(&mut damage, problem);
        }
    }
    Ok(damage)
}

#[test]
fn torn_nul_padded_and_truncated_compressed_files_are_damaged_blank_lines_are_not() -> TestResult {
    let whole = format!("{GOOD}\n\n{GOOD}\n");
    assert_eq!(damage_of(whole.as_bytes())?, None);

    let torn = format!("{GOOD}\n{}", &GOOD[..40]);
    let damage = damage_of(torn.as_bytes())?.ok_or("torn")?;
    assert_eq!(
        (damage.line, damage.kind, damage.lines),
        (2, ProblemKind::Truncated, 1)
    );

    let mut padded = format!("{GOOD}\n").into_bytes();
    padded.extend([0u8; 64]);
    padded.push(b'\n');
    let damage = damage_of(&padded)?.ok_or("padded")?;
    assert_eq!(damage.line, 2);
    assert!(may_be_damaged(&[0u8; 64]));

    let plain = format!("{GOOD}\n").repeat(200);
    let compressed = zstd::encode_all(plain.as_bytes(), 3)?;
    let cut = &compressed[..compressed.len() / 2];
    let damage = damage_of(cut)?.ok_or("truncated zst")?;
    assert_eq!(damage.kind, ProblemKind::Damaged);
    Ok(())
}

#[test]
fn only_lines_that_are_not_whole_objects_may_be_damaged() {
    assert!(!may_be_damaged(GOOD.as_bytes()));
    assert!(!may_be_damaged(format!("{GOOD}\r").as_bytes()));
    assert!(may_be_damaged(&GOOD.as_bytes()[..40]));
    assert!(may_be_damaged(b""));
}
