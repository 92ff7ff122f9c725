#![allow(clippy::print_stderr, clippy::unwrap_used)]
use codex_protocol::rollout::*;
use serde_json::Value;
#[test]
#[ignore]
fn scratch_timing() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/fixtures/real");
    let mut lines = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "jsonl") {
            let b = std::fs::read(&p).unwrap();
            lines.extend(split_lines(&b).map(|(_, l)| l.to_vec()));
        }
    }
    let rounds = 20;
    let t = |name: &str, f: &dyn Fn(&[u8]) -> usize| {
        let s = std::time::Instant::now();
        let mut k = 0;
        for _ in 0..rounds { for l in &lines { k += f(l); } }
        eprintln!("{name:<30} {:?} {k}", s.elapsed());
    };
    t("value", &|l| serde_json::from_slice::<Value>(l).is_ok() as usize);
    t("parse", &|l| parse_rollout_line(l).is_ok() as usize);
    t("parse+drop-only-kept", &|l| parse_rollout_line(l).map(|p| p.is_original_kept() as usize).unwrap_or(0));
    t("serialize typed", &|l| { let p = parse_rollout_line(l); p.ok().and_then(|p| p.line().map(|x| serde_json::to_string(x).unwrap().len())).unwrap_or(0) });
    t("rawvalue scan", &|l| { let s = std::str::from_utf8(l).unwrap(); serde_json::from_str::<std::collections::BTreeMap<String, Box<serde_json::value::RawValue>>>(s.trim_end_matches('\r')).is_ok() as usize });
    t("typed via Value", &|l| { let v: Value = serde_json::from_slice(l).unwrap(); serde_json::from_value::<RolloutLine>(v).is_ok() as usize });
}
