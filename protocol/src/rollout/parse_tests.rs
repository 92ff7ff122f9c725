#![allow(clippy::unwrap_used, clippy::print_stderr)]
use super::*;

#[test]
#[ignore]
fn zz_scratch_timing() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/fixtures/real");
    let mut lines: Vec<String> = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "jsonl") && !p.to_string_lossy().contains("viewer__example") {
            let b = std::fs::read_to_string(&p).unwrap();
            lines.extend(b.lines().map(str::to_string));
        }
    }
    let rounds = 20;
    let t = |name: &str, f: &dyn Fn(&str) -> usize| {
        let mut best = std::time::Duration::MAX;
        for _ in 0..3 {
            let s = std::time::Instant::now();
            let mut k = 0;
            for _ in 0..rounds { for l in &lines { k += f(l); } }
            best = best.min(s.elapsed());
            std::hint::black_box(k);
        }
        eprintln!("{name:<30} {best:?}");
    };
    t("value", &|l| serde_json::from_str::<serde_json::Value>(l).is_ok() as usize);
    t("scan (single pass)", &|l| ScannedLine::scan(l).is_ok() as usize);
    t("scan+envelope", &|l| ScannedLine::scan(l).ok().and_then(|s| decode_envelope(s).ok()).is_some() as usize);
    t("scan+envelope+compare", &|l| ScannedLine::scan(l).ok().and_then(|s| decode_envelope(s).ok()).map(|x| writes_exactly(&x, l)).is_some() as usize);
    t("value", &|l| serde_json::from_str::<serde_json::Value>(l).is_ok() as usize);
    t("parse", &|l| parse_rollout_line(l.as_bytes()).is_ok() as usize);
    let parsed: Vec<RolloutLine> = lines.iter().filter_map(|l| parse_rollout_line(l.as_bytes()).ok().and_then(|p| p.into_line())).collect();
    let s = std::time::Instant::now();
    for _ in 0..rounds { for (p, l) in parsed.iter().zip(&lines) { std::hint::black_box(writes_exactly(p, l)); } }
    eprintln!("{:<30} {:?}", "compare writer", s.elapsed());
    let s = std::time::Instant::now();
    for _ in 0..rounds { for (p, l) in parsed.iter().zip(&lines) { std::hint::black_box(serde_json::to_string(p).unwrap() == *l); } }
    eprintln!("{:<30} {:?}", "to_string ==", s.elapsed());
    let payloads: Vec<(String, String)> = lines.iter().filter_map(|l| { let v: serde_json::Value = serde_json::from_str(l).ok()?; Some((v.get("type")?.as_str()?.to_string(), serde_json::to_string(v.get("payload")?).ok()?)) }).collect();
    for kind in ["response_item", "event_msg", "turn_context"] {
        let ps: Vec<&String> = payloads.iter().filter(|(k, _)| k == kind).map(|(_, p)| p).collect();
        let s = std::time::Instant::now();
        for _ in 0..rounds { for p in &ps { std::hint::black_box(serde_json::from_str::<serde_json::Value>(p).is_ok()); } }
        eprintln!("{:<30} {:?}", format!("{kind} as Value"), s.elapsed());
        let s = std::time::Instant::now();
        for _ in 0..rounds { for p in &ps { std::hint::black_box(KnownTag::from_tag(kind).unwrap().decode(&mut serde_json::Deserializer::from_str(p)).is_ok()); } }
        eprintln!("{:<30} {:?}", format!("{kind} typed"), s.elapsed());
    }
    t("raw scan btreemap", &|l| serde_json::from_str::<std::collections::BTreeMap<&str, &serde_json::value::RawValue>>(l).is_ok() as usize);
}
