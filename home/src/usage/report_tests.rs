use std::sync::Arc;

use chrono::TimeZone;
use proptest::prelude::*;

use super::*;
use crate::usage::{CountedFrom, Tokens};

fn response(at: DateTime<Utc>, model: &str, input: u64, output: u64) -> ResponseUsage {
    ResponseUsage {
        line: 1,
        timestamp: at,
        model: Some(Arc::from(model)),
        tokens: Tokens::new(input, input / 2, output, output / 3),
        counted_from: CountedFrom::TotalChange,
    }
}

fn session(responses: Vec<ResponseUsage>) -> SessionUsage {
    SessionUsage {
        path: "s.jsonl".to_string(),
        usage: FileUsage {
            responses,
            ..FileUsage::default()
        },
    }
}

#[test]
fn days_weeks_and_months_are_local() -> Result<(), Box<dyn std::error::Error>> {
    // 23:30 UTC on Sunday 2026-03-01 is Monday 2026-03-02 in Paris.
    let at = Utc
        .with_ymd_and_hms(2026, 3, 1, 23, 30, 0)
        .single()
        .ok_or("date")?;
    let sessions = [session(vec![response(at, "m", 10, 5)])];
    let keys = |kind, zone| -> Vec<String> {
        build_usage_report(kind, zone, DateRange::default(), &sessions)
            .rows
            .into_iter()
            .map(|row| row.key)
            .collect()
    };
    assert_eq!(keys(ReportKind::Daily, Tz::UTC), ["2026-03-01"]);
    assert_eq!(keys(ReportKind::Daily, Tz::Europe__Paris), ["2026-03-02"]);
    assert_eq!(keys(ReportKind::Weekly, Tz::UTC), ["2026-02-23"]);
    assert_eq!(keys(ReportKind::Weekly, Tz::Europe__Paris), ["2026-03-02"]);
    assert_eq!(keys(ReportKind::Monthly, Tz::UTC), ["2026-03"]);
    assert_eq!(keys(ReportKind::Model, Tz::UTC), ["m"]);
    let since = NaiveDate::from_ymd_opt(2026, 3, 2);
    let range = DateRange {
        since,
        until: since,
    };
    assert!(
        build_usage_report(ReportKind::Daily, Tz::UTC, range, &sessions)
            .rows
            .is_empty()
    );
    assert_eq!(
        build_usage_report(ReportKind::Daily, Tz::Europe__Paris, range, &sessions)
            .rows
            .len(),
        1
    );
    Ok(())
}

const ZONES: [Tz; 4] = [
    Tz::UTC,
    Tz::Pacific__Kiritimati,
    Tz::America__Los_Angeles,
    Tz::Asia__Kathmandu,
];

proptest! {
    /// However a file's responses fall across days (any times, any zone), every report's
    /// rows add up to the same totals: the file's own sum.
    #[test]
    fn splitting_responses_across_days_never_changes_the_sum(
        spans in proptest::collection::vec((0i64..40 * 86_400, 0u64..5_000, 0u64..900, 0usize..3), 0..40),
        zone in 0usize..ZONES.len(),
    ) {
        let start = Utc.with_ymd_and_hms(2026, 1, 28, 0, 0, 0).single().ok_or_else(|| TestCaseError::fail("date"))?;
        let models = ["a", "b", "c"];
        let responses: Vec<ResponseUsage> = spans
            .iter()
            .map(|(offset, input, output, model)| {
                response(start + Duration::seconds(*offset), models[*model], *input, *output)
            })
            .collect();
        let mut expected = Tally::default();
        for response in &responses {
            expected.add(response);
        }
        let sessions = [session(responses)];
        for (_, kind) in ReportKind::ALL {
            let report = build_usage_report(kind, ZONES[zone], DateRange::default(), &sessions);
            let mut summed = Tally::default();
            for row in &report.rows {
                summed.merge(&row.tally);
            }
            prop_assert_eq!(&summed, &expected);
            prop_assert_eq!(&report.totals, &expected);
        }
    }
}
