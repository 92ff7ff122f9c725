use codex_test_support::real_jsonl_files;
use pretty_assertions::assert_eq;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Parent thread (UUID v7 minted 2025-06-02T09:00:00Z) and a child minted ten minutes later.
const PARENT: &str = "01972fde-7e80-7000-8000-000000000001";
const CHILD: &str = "01972fe7-a640-7000-8000-000000000002";

fn line(at: &str, kind: &str, payload: &str) -> String {
    format!(r#"{{"timestamp":"{at}","type":"{kind}","payload":{payload}}}"#)
}

fn meta(id: &str) -> String {
    line(
        "2025-06-02T09:00:00.000Z",
        "session_meta",
        &format!(
            r#"{{"id":"{id}","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}}"#
        ),
    )
}

fn turn(at: &str, turn_id: &str, model: &str) -> String {
    [
        line(
            at,
            "event_msg",
            &format!(r#"{{"type":"task_started","turn_id":"{turn_id}"}}"#),
        ),
        line(
            at,
            "turn_context",
            &format!(r#"{{"cwd":"/w","approval_policy":"never","sandbox_policy":{{"mode":"read-only"}},"model":"{model}","summary":"auto"}}"#),
        ),
    ]
    .join("\n")
}

fn usage_json(input: i64, cached: i64, output: i64, reasoning: i64) -> String {
    format!(
        r#"{{"input_tokens":{input},"cached_input_tokens":{cached},"output_tokens":{output},"reasoning_output_tokens":{reasoning},"total_tokens":{}}}"#,
        input + output
    )
}

fn count(at: &str, total: [i64; 4], last: [i64; 4]) -> String {
    line(
        at,
        "event_msg",
        &format!(
            r#"{{"type":"token_count","info":{{"total_token_usage":{},"last_token_usage":{},"model_context_window":1000}},"rate_limits":null}}"#,
            usage_json(total[0], total[1], total[2], total[3]),
            usage_json(last[0], last[1], last[2], last[3]),
        ),
    )
}

fn record(at: &str, usage: [i64; 4]) -> String {
    line(
        at,
        "token_usage_record",
        &format!(
            r#"{{"usage":{}}}"#,
            usage_json(usage[0], usage[1], usage[2], usage[3])
        ),
    )
}

fn usage_of(lines: &[String]) -> std::io::Result<FileUsage> {
    let text = lines.join("\n") + "\n";
    file_usage(RolloutStream::new(text.as_bytes())?)
}

/// Parent turn id minted 2025-06-02T09:01Z, child turn id 09:11Z (after the child).
const PARENT_TURN: &str = "01972fdf-68e0-7000-8000-00000000000a";
const CHILD_TURN: &str = "01972fe8-90a0-7000-8000-00000000000b";

#[test]
fn repeated_and_null_snapshots_add_nothing() -> TestResult {
    let usage = usage_of(&[
        meta(PARENT),
        turn("2025-06-02T09:01:00.000Z", PARENT_TURN, "gpt-a"),
        count(
            "2025-06-02T09:01:05.000Z",
            [100, 40, 20, 5],
            [100, 40, 20, 5],
        ),
        count(
            "2025-06-02T09:01:06.000Z",
            [100, 40, 20, 5],
            [100, 40, 20, 5],
        ),
        line(
            "2025-06-02T09:01:07.000Z",
            "event_msg",
            r#"{"type":"token_count","info":null,"rate_limits":null}"#,
        ),
        count(
            "2025-06-02T09:02:00.000Z",
            [250, 140, 30, 9],
            [150, 100, 10, 4],
        ),
    ])?;
    let tokens: Vec<Tokens> = usage.responses.iter().map(|r| r.tokens).collect();
    assert_eq!(
        tokens,
        vec![Tokens::new(100, 40, 20, 5), Tokens::new(150, 100, 10, 4)]
    );
    assert_eq!(usage.total(), Tokens::new(250, 140, 30, 9));
    assert_eq!(usage.responses[1].line, 7);
    assert_eq!(usage.responses[1].model.as_deref(), Some("gpt-a"));
    Ok(())
}

#[test]
fn a_child_never_counts_its_copied_prefix() -> TestResult {
    let usage = usage_of(&[
        meta(CHILD),
        meta(PARENT),
        turn("2025-06-02T09:01:00.000Z", PARENT_TURN, "gpt-parent"),
        count(
            "2025-06-02T09:01:05.000Z",
            [100, 40, 20, 5],
            [100, 40, 20, 5],
        ),
        turn("2025-06-02T09:11:00.000Z", CHILD_TURN, "gpt-child"),
        count(
            "2025-06-02T09:11:05.000Z",
            [130, 50, 30, 8],
            [30, 10, 10, 3],
        ),
    ])?;
    assert_eq!(
        usage.thread_id.map(|id| id.to_string()),
        Some(CHILD.to_string())
    );
    assert_eq!(
        usage.copied_from.map(|id| id.to_string()),
        Some(PARENT.to_string())
    );
    assert_eq!(usage.copied_usage_lines, 1);
    assert_eq!(usage.responses.len(), 1);
    assert_eq!(usage.total(), Tokens::new(30, 10, 10, 3));
    assert_eq!(usage.responses[0].model.as_deref(), Some("gpt-child"));
    Ok(())
}

#[test]
fn records_win_over_running_totals() -> TestResult {
    let usage = usage_of(&[
        meta(PARENT),
        turn("2025-06-02T09:01:00.000Z", PARENT_TURN, "gpt-a"),
        record("2025-06-02T09:01:05.000Z", [100, 40, 20, 5]),
        count(
            "2025-06-02T09:01:05.001Z",
            [100, 40, 20, 5],
            [100, 40, 20, 5],
        ),
        line(
            "2025-06-02T09:01:06.000Z",
            "event_msg",
            r#"{"type":"thread_settings_applied","thread_settings":{"model":"gpt-b"}}"#,
        ),
        record("2025-06-02T09:01:09.000Z", [7, 0, 3, 0]),
        count("2025-06-02T09:01:09.001Z", [107, 40, 23, 5], [7, 0, 3, 0]),
    ])?;
    let seen: Vec<(usize, Option<&str>, CountedFrom)> = usage
        .responses
        .iter()
        .map(|r| (r.line, r.model.as_deref(), r.counted_from))
        .collect();
    assert_eq!(
        seen,
        vec![
            (4, Some("gpt-a"), CountedFrom::Record),
            (7, Some("gpt-b"), CountedFrom::Record)
        ]
    );
    assert_eq!(usage.total(), Tokens::new(107, 40, 23, 5));
    Ok(())
}

#[test]
fn a_restarted_total_counts_its_last_response() -> TestResult {
    let usage = usage_of(&[
        meta(PARENT),
        count(
            "2025-06-02T09:01:05.000Z",
            [100, 40, 20, 5],
            [100, 40, 20, 5],
        ),
        count("2025-06-02T09:05:00.000Z", [12, 2, 3, 1], [12, 2, 3, 1]),
        line(
            "not a time",
            "event_msg",
            &format!(
                r#"{{"type":"token_count","info":{{"total_token_usage":{},"last_token_usage":{}}},"rate_limits":null}}"#,
                usage_json(20, 2, 3, 1),
                usage_json(8, 0, 0, 0)
            ),
        ),
    ])?;
    assert_eq!(usage.total(), Tokens::new(112, 42, 23, 6));
    assert_eq!(usage.undated_lines, vec![4]);
    assert_eq!(usage.responses[0].model, None);
    Ok(())
}

#[test]
fn subsets_are_cut_to_their_whole() {
    let tokens = Tokens::new(10, 50, 4, 9);
    assert_eq!(tokens, Tokens::new(10, 10, 4, 4));
    assert_eq!(tokens.total_tokens, 14);
    assert_eq!(tokens.uncached_input_tokens(), 0);
}

/// Every real file reads; the counted responses' sum never exceeds the file's last running
/// total, and a child counts less than
/// its largest total.
#[test]
fn real_files_count_at_most_their_last_total() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    for path in files {
        let usage = file_usage_at(&path)?;
        let items = codex_rollout::load_rollout_items(&path);
        let Ok(loaded) = items else { continue };
        let last_total = loaded
            .contents
            .items()
            .iter()
            .filter_map(|item| match item {
                RolloutItem::EventMsg(EventMsg::TokenCount(count)) => count
                    .info
                    .as_ref()
                    .map(|info| Tokens::from_usage(&info.total_token_usage)),
                _ => None,
            })
            .max_by_key(|tokens| tokens.total_tokens);
        if let Some(last_total) = last_total {
            assert!(
                usage.total().total_tokens <= last_total.total_tokens,
                "{}: counted {:?}, last total {:?}",
                path.display(),
                usage.total(),
                last_total
            );
            if usage.copied_from.is_some() {
                assert!(usage.total().total_tokens < last_total.total_tokens);
            }
        }
    }
    Ok(())
}

/// The usage read with the byte-level line filter equals the usage of every line parsed, on
/// every real file and on a generated parent and child (the filter never drops a line that
/// can change the answer).
#[test]
fn the_line_filter_changes_no_answer() -> TestResult {
    let every_line = |text: &[u8]| -> std::io::Result<FileUsage> {
        let mut stream = RolloutStream::new(text)?;
        let mut scan = UsageScan::new();
        while let Some(line) = stream.next_line()? {
            if let Some(rollout_line) = line.line() {
                scan.push(line.number, rollout_line);
            }
        }
        Ok(scan.finish())
    };
    let child = [
        meta(CHILD),
        meta(PARENT),
        turn("2025-06-02T09:01:00.000Z", PARENT_TURN, "gpt-parent"),
        count(
            "2025-06-02T09:01:05.000Z",
            [100, 40, 20, 5],
            [100, 40, 20, 5],
        ),
        turn("2025-06-02T09:11:00.000Z", CHILD_TURN, "gpt-child"),
        record("2025-06-02T09:11:04.000Z", [30, 10, 10, 3]),
        count(
            "2025-06-02T09:11:05.000Z",
            [130, 50, 30, 8],
            [30, 10, 10, 3],
        ),
    ]
    .join("\n");
    let mut texts: Vec<(String, Vec<u8>)> = vec![("child".to_owned(), child.into_bytes())];
    if let Some(files) = real_jsonl_files()? {
        for path in files {
            texts.push((path.display().to_string(), std::fs::read(&path)?));
        }
    }
    for (name, text) in texts {
        let filtered = file_usage(RolloutStream::new(text.as_slice())?)?;
        assert_eq!(filtered, every_line(&text)?, "{name}");
    }
    Ok(())
}

/// Responses merged per model and local day give every report the responses give, in the
/// zone they were merged in (zones with half-hour offsets included), on every real file and
/// on a generated file whose responses cross midnight and switch model back and forth.
#[test]
fn merging_by_day_changes_no_report() -> TestResult {
    let mut days = vec![meta(PARENT)];
    let mut total = [0i64; 4];
    for hour in 0..60 {
        let at = |minute: u32| {
            format!(
                "2025-06-{:02}T{:02}:{minute:02}:00.000Z",
                2 + hour / 24,
                hour % 24
            )
        };
        let model = ["gpt-a", "gpt-b", "gpt-a"][hour as usize % 3];
        days.push(turn(&at(0), PARENT_TURN, model));
        let last = [100 + hour, 40, 20 + hour % 7, 5];
        for (sum, add) in total.iter_mut().zip(last) {
            *sum += add;
        }
        days.push(count(&at(31), total, last));
    }
    let mut texts: Vec<(String, Vec<u8>)> =
        vec![("days".to_owned(), (days.join("\n") + "\n").into_bytes())];
    if let Some(files) = real_jsonl_files()? {
        for path in files {
            texts.push((path.display().to_string(), std::fs::read(&path)?));
        }
    }
    let zones: [Tz; 4] = [
        Tz::UTC,
        Tz::Asia__Tokyo,
        Tz::America__St_Johns,
        Tz::Asia__Kathmandu,
    ];
    for zone in zones {
        let mut every = Vec::new();
        let mut merged = Vec::new();
        for (name, text) in &texts {
            let all = file_usage(RolloutStream::new(text.as_slice())?)?;
            let by_day = file_usage_by_day(RolloutStream::new(text.as_slice())?, zone)?;
            assert!(by_day.responses.len() <= all.responses.len(), "{name}");
            assert_eq!(by_day.total(), all.total(), "{name}");
            every.push(SessionUsage {
                path: name.clone(),
                usage: all,
            });
            merged.push(SessionUsage {
                path: name.clone(),
                usage: by_day,
            });
        }
        let ranges = [
            DateRange::default(),
            DateRange {
                since: chrono::NaiveDate::from_ymd_opt(2025, 6, 3),
                until: chrono::NaiveDate::from_ymd_opt(2025, 6, 4),
            },
        ];
        for (_, kind) in ReportKind::ALL {
            for range in ranges {
                assert_eq!(
                    build_usage_report(kind, zone, range, &merged),
                    build_usage_report(kind, zone, range, &every),
                    "{kind:?} {range:?} in {zone}"
                );
            }
        }
    }
    let generated = file_usage_by_day(RolloutStream::new(texts[0].1.as_slice())?, Tz::UTC)?;
    // Three days, two models: at most six entries for sixty responses.
    assert!(
        generated.responses.len() <= 6,
        "{}",
        generated.responses.len()
    );
    Ok(())
}

/// Many files read at once are each what reading it alone gives, in the order given; a file
/// that cannot be read is an error naming it, and is not read apart either.
#[test]
fn many_files_read_at_once_are_each_read_alone() -> TestResult {
    let Some(paths) = real_jsonl_files()? else {
        return Ok(());
    };
    let zone: chrono_tz::Tz = "Asia/Seoul".parse()?;
    let mut files: Vec<UsageFile> = paths
        .iter()
        .map(|path| UsageFile {
            name: path.display().to_string(),
            path: Some(path.clone()),
        })
        .collect();
    files.insert(
        1,
        UsageFile {
            name: "gone.jsonl".to_owned(),
            path: Some("/definitely/not/gone.jsonl".into()),
        },
    );
    let told = std::sync::Mutex::new(Vec::new());
    let read = read_usage_files(&files, zone, &|index| {
        told.lock().map(|mut told| told.push(index)).unwrap_or(())
    });
    let mut told = told.into_inner().unwrap_or_default();
    told.sort_unstable();
    assert_eq!(told, (0..files.len()).collect::<Vec<_>>());
    for (file, result) in files.iter().zip(read) {
        let Some(path) = &file.path else { continue };
        match RolloutStream::open(path) {
            Ok(stream) => {
                let session = result.map_err(|message| format!("{}: {message}", file.name))?;
                assert_eq!(session.path, file.name);
                assert_eq!(session.usage, file_usage_by_day(stream, zone)?);
                let apart = file.read_apart().ok_or("read apart")?;
                assert_eq!(apart, file_usage(RolloutStream::open(path)?)?);
            }
            Err(_) => {
                let message = result.err().unwrap_or_default();
                assert!(message.starts_with("cannot read gone.jsonl: "), "{message}");
                assert!(file.read_apart().is_none());
            }
        }
    }
    Ok(())
}
