use std::io::Write;

use super::*;
use crate::FileInput;

const META: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"test","cli_version":"0.1.0"}}"#;
const STARTED: &str = r#"{"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"turn-1"}}"#;
const MESSAGE: &str = r#"{"timestamp":"2025-06-02T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files."}]}}"#;
const RECORD: &str = r#"{"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"List the files."}}"#;
const ANSWER: &str = r#"{"timestamp":"2025-06-02T09:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}"#;

fn methods(messages: &[ServerMessage]) -> Vec<String> {
    messages
        .iter()
        .map(|message| {
            let value = serde_json::to_value(message).unwrap_or_default();
            let item = value["params"]["item"]["type"].as_str().unwrap_or_default();
            format!("{} {item}", value["method"].as_str().unwrap_or_default())
                .trim()
                .to_owned()
        })
        .collect()
}

fn append(file: &mut std::fs::File, lines: &[&str]) -> std::io::Result<()> {
    for line in lines {
        writeln!(file, "{line}")?;
    }
    file.flush()
}

#[test]
fn a_person_s_message_is_held_until_its_record_says_it_starts_a_turn()
-> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout.jsonl");
    let mut file = std::fs::File::create(&path)?;
    append(&mut file, &[META])?;
    let mut replayed = Vec::new();
    let mut replay = replay_notifications(&FileInput(path), |message| {
        replayed.push(message);
        Ok::<_, ReadError>(())
    })?;
    assert_eq!(methods(&replayed), ["thread/started"]);
    assert!(replay.follows());
    // A torn line is not read; the message item waits for the next line.
    append(&mut file, &[STARTED, MESSAGE])?;
    write!(file, "{{\"timestamp\":")?;
    file.flush()?;
    assert_eq!(methods(&replay.follow()?), ["turn/started"]);
    assert!(replay.follow()?.is_empty(), "held while the file is still");
    // The record completes the torn line's place: the message is a person's, then the answer.
    let rest = RECORD.strip_prefix("{\"timestamp\":").unwrap_or(RECORD);
    append(&mut file, &[rest, ANSWER])?;
    assert_eq!(
        methods(&replay.follow()?),
        [
            "item/started userMessage",
            "item/completed userMessage",
            "item/started agentMessage",
            "item/completed agentMessage",
        ]
    );
    Ok(())
}

#[test]
fn a_message_without_a_record_is_replayed_once_the_file_is_still()
-> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout.jsonl");
    let mut file = std::fs::File::create(&path)?;
    append(&mut file, &[META, STARTED])?;
    let mut replay = replay_notifications(&FileInput(path), |_| Ok::<_, ReadError>(()))?;
    append(&mut file, &[ANSWER])?;
    assert_eq!(
        methods(&replay.follow()?),
        ["item/started agentMessage", "item/completed agentMessage"]
    );
    append(&mut file, &[MESSAGE])?;
    for _ in 0..HOLD_POLLS {
        assert!(
            replay.follow()?.is_empty(),
            "held while the file may say more"
        );
    }
    assert_eq!(
        methods(&replay.follow()?),
        ["item/started userMessage", "item/completed userMessage"],
        "a message inside a turn of a file without records starts a turn"
    );
    Ok(())
}

#[test]
fn a_file_that_shrank_is_an_error() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout.jsonl");
    let mut file = std::fs::File::create(&path)?;
    append(&mut file, &[META, STARTED, MESSAGE, RECORD])?;
    let mut replay = replay_notifications(&FileInput(path.clone()), |_| Ok::<_, ReadError>(()))?;
    std::fs::write(&path, format!("{META}\n"))?;
    assert!(matches!(replay.follow(), Err(ReadError::Changed { .. })));
    Ok(())
}
