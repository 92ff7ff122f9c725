use codex_rollout::RolloutStream;
use codex_test_support::real_fixtures_dir;
use pretty_assertions::assert_eq;

use super::*;
use crate::usage::file_usage;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The real 0.72 file with 560 `token_count` lines and no `token_usage_record`.
const REAL: &str = "dreyer-thomas__TravelBlogs__rollout-2025-12-20T18-34-53-019b3cd4-2000-7553-b475-7027684d1f18.jsonl";

fn usage_of(text: &str) -> std::io::Result<FileUsage> {
    file_usage(RolloutStream::new(text.as_bytes())?)
}

/// The real file's lines, or `None` when the fixtures are not there.
fn real_lines() -> std::io::Result<Option<Vec<String>>> {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(dir.join(REAL))?;
    Ok(Some(text.lines().map(str::to_string).collect()))
}

/// The file cut in two at the first user message after its half: a base, and a
/// continuation piece that starts with the base's meta and goes on with the rest (the shape
/// a 0.159+ continuation file has: it starts at a turn).
fn base_and_piece(lines: &[String]) -> (String, String) {
    let half = (lines.len() / 2..lines.len())
        .find(|&index| lines[index].contains(r#""type":"user_message""#))
        .unwrap_or(lines.len() / 2);
    let base = lines[..half].join("\n") + "\n";
    let piece = std::iter::once(&lines[0])
        .chain(&lines[half..])
        .cloned()
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    (base, piece)
}

fn session(path: &str, usage: FileUsage) -> SessionUsage {
    SessionUsage {
        path: path.to_string(),
        usage,
    }
}

#[test]
fn a_piece_without_its_base_is_charged_its_own_responses() -> TestResult {
    let Some(lines) = real_lines()? else {
        return Ok(());
    };
    let whole = usage_of(&(lines.join("\n") + "\n"))?.total();
    let (base, piece) = base_and_piece(&lines);
    let base = usage_of(&base)?.total();
    let piece = usage_of(&piece)?.total();
    assert!(base.total_tokens > 0 && piece.total_tokens > 0);
    let mut both = base;
    both.add(&piece);
    assert_eq!(both, whole);
    Ok(())
}

#[test]
fn copies_and_pieces_of_one_thread_count_each_response_once() -> TestResult {
    let Some(lines) = real_lines()? else {
        return Ok(());
    };
    let text = lines.join("\n") + "\n";
    let whole = usage_of(&text)?;
    let (base, piece) = base_and_piece(&lines);
    let files = [text.clone(), text, base, piece];
    let mut sessions = Vec::new();
    for (index, file) in files.iter().enumerate() {
        let by_day =
            crate::usage::file_usage_by_day(RolloutStream::new(file.as_bytes())?, chrono_tz::UTC)?;
        sessions.push(session(&index.to_string(), by_day));
    }
    let left_out = count_each_response_once(&mut sessions, chrono_tz::UTC, |session| {
        let index: usize = session.path.parse().ok()?;
        usage_of(files.get(index)?).ok()
    });
    assert_eq!(left_out, 2 * whole.responses.len());
    let mut counted = Tokens::default();
    for session in &sessions {
        counted.add(&session.usage.total());
    }
    assert_eq!(counted, whole.total());
    let repeated: Vec<usize> = sessions
        .iter()
        .map(|session| session.usage.repeated_responses)
        .collect();
    assert_eq!(repeated[0], 0);
    assert_eq!(repeated[1], whole.responses.len());
    Ok(())
}

#[test]
fn a_file_that_cannot_be_read_again_keeps_its_count() -> TestResult {
    let Some(lines) = real_lines()? else {
        return Ok(());
    };
    let text = lines.join("\n") + "\n";
    let whole = usage_of(&text)?;
    let mut sessions = vec![session("a", whole.clone()), session("b", whole.clone())];
    let left_out = count_each_response_once(&mut sessions, chrono_tz::UTC, |session| {
        (session.path == "b").then(|| whole.clone())
    });
    assert_eq!(left_out, whole.responses.len());
    assert_eq!(sessions[0].usage.total(), whole.total());
    assert!(sessions[1].usage.total().is_zero());
    Ok(())
}
