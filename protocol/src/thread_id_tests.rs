//! Unit tests of `ThreadId`: UUID parsing, display and serde.

use super::*;

#[test]
fn new_thread_ids_are_uuid_v7_and_distinct() {
    let first = ThreadId::new();
    let second = ThreadId::new();
    assert_eq!(first.as_uuid().get_version_num(), 7);
    assert_ne!(first, second);
}

#[test]
fn thread_id_serializes_as_hyphenated_string() -> Result<(), Box<dyn std::error::Error>> {
    let id = ThreadId::from_string("019A93B9-F380-7600-98FF-940E6B99603C")?;
    let json = serde_json::to_string(&id)?;
    assert_eq!(json, "\"019a93b9-f380-7600-98ff-940e6b99603c\"");
    let back: ThreadId = serde_json::from_str(&json)?;
    assert_eq!(back, id);
    assert_eq!(String::from(id), "019a93b9-f380-7600-98ff-940e6b99603c");
    Ok(())
}

#[test]
fn thread_id_rejects_non_uuid_strings() {
    let err = serde_json::from_str::<ThreadId>("\"not-a-uuid\"");
    assert!(err.is_err());
    let err = ThreadId::try_from("[trimmed]");
    assert!(matches!(err, Err(ThreadIdParseError { ref input, .. }) if input == "[trimmed]"));
    assert!(serde_json::from_str::<ThreadId>("42").is_err());
}

#[test]
fn thread_id_accepts_older_v4_ids() -> Result<(), Box<dyn std::error::Error>> {
    let id: ThreadId = "c0ffee00-1234-4abc-8def-0123456789ab".parse()?;
    assert_eq!(id.as_uuid().get_version_num(), 4);
    Ok(())
}
