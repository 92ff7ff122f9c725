//! A usage report as JSON (`{"daily": [...], "totals": {...}}`) or as a table that fits 80
//! columns.
//!
//! Each row (and the total) has a line per model under it. Numbers are written in full with
//! thousands separators; when the widest row would not fit 80 columns they are shortened
//! (`12.3M`), and a long key is cut with `…`.

use codex_home::{Tally, Tokens};
use serde_json::{Map, Value, json};

use codex_home::{Pricing, TallyCost};
use codex_home::{ReportKind, UsageReport, UsageRow};

/// The widest table printed.
pub(crate) const MAX_WIDTH: usize = 80;

/// The longest key column.
const MAX_KEY: usize = 24;

/// The report as JSON (serde_json's map sorts the keys).
pub(crate) fn to_json(
    kind: ReportKind,
    report: &UsageReport,
    pricing: &Pricing,
    zone: &str,
) -> Value {
    let rows: Vec<Value> = report
        .rows
        .iter()
        .map(|row| {
            let mut object = tally_json(&row.tally, pricing);
            let key = match kind {
                ReportKind::Daily => "date",
                ReportKind::Weekly => "week",
                ReportKind::Monthly => "month",
                ReportKind::Model => "model",
                ReportKind::Project => "project",
                ReportKind::Session => {
                    object["path"] = json!(row.path);
                    "thread_id"
                }
            };
            object[key] = json!(row.key);
            object["last_activity"] =
                json!(codex_rollout::format_line_timestamp(row.last_activity));
            object
        })
        .collect();
    let snapshot = pricing.snapshot.as_ref();
    let mut document = json!({
        "timezone": zone,
        "unpriced_models": unpriced(report, pricing),
        "pricing": {
            "snapshot_date": snapshot.map(|snapshot| &snapshot.date),
            "litellm_version": snapshot.map(|snapshot| &snapshot.litellm_version),
        },
        "repeated_responses": report.repeated_responses,
    });
    document["totals"] = tally_json(&report.totals, pricing);
    document[kind.json_key()] = Value::Array(rows);
    document
}

/// The models of `report` that have no price.
pub(crate) fn unpriced(report: &UsageReport, pricing: &Pricing) -> Vec<String> {
    report
        .totals
        .models
        .keys()
        .filter(|model| !pricing.prices(model))
        .cloned()
        .collect()
}

fn counts_json(tokens: &Tokens, cost: TallyCost) -> Value {
    json!({
        "input_tokens": tokens.input_tokens,
        "cached_input_tokens": tokens.cached_input_tokens,
        "output_tokens": tokens.output_tokens,
        "reasoning_output_tokens": tokens.reasoning_output_tokens,
        "total_tokens": tokens.total_tokens,
        "cost_usd": cost.usd,
        "cost_complete": cost.complete(),
        "unpriced_tokens": cost.unpriced_tokens,
    })
}

/// A tally's counts and cost, with those of each model under `models`.
fn tally_json(tally: &Tally, pricing: &Pricing) -> Value {
    let mut object = counts_json(&tally.tokens, pricing.tally_cost(tally));
    let models: Map<String, Value> = tally
        .models
        .iter()
        .map(|(model, tokens)| {
            let counts = counts_json(tokens, pricing.model_cost(model, tokens));
            (model.clone(), counts)
        })
        .collect();
    object["models"] = Value::Object(models);
    object
}

/// One printed line: key and cells.
struct Line {
    key: String,
    cells: [String; 6],
}

const HEADERS: [&str; 6] = ["Input", "Cached", "Output", "Reasoning", "Total", "Cost"];

/// The report as a table (each line at most [`MAX_WIDTH`] columns), with notes under it.
pub(crate) fn to_table(
    kind: ReportKind,
    report: &UsageReport,
    pricing: &Pricing,
    zone: &str,
) -> String {
    let key_header = match kind {
        ReportKind::Daily => "Date",
        ReportKind::Weekly => "Week of",
        ReportKind::Monthly => "Month",
        ReportKind::Session => "Session",
        ReportKind::Model => "Model",
        ReportKind::Project => "Project",
    };
    let mut text = String::new();
    for short in [false, true] {
        if report.rows.is_empty() {
            break;
        }
        let lines = table_lines(kind, report, pricing, short);
        let key_width = lines
            .iter()
            .map(|line| line.key.chars().count())
            .chain([key_header.len()])
            .max()
            .unwrap_or(0);
        let mut widths = HEADERS.map(str::len);
        for line in &lines {
            for (width, cell) in widths.iter_mut().zip(&line.cells) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let width = key_width + widths.iter().map(|width| width + 1).sum::<usize>();
        if width > MAX_WIDTH && !short {
            continue;
        }
        let render = |text: &mut String, key: &str, cells: [&str; 6]| {
            let mut line = format!("{key:<key_width$}");
            for (cell, width) in cells.iter().zip(widths) {
                line.push_str(&format!(" {cell:>width$}"));
            }
            text.push_str(line.trim_end());
            text.push('\n');
        };
        render(&mut text, key_header, HEADERS);
        let rule = "-".repeat(width.min(MAX_WIDTH));
        for line in &lines {
            if line.key == "Total" {
                text.push_str(&rule);
                text.push('\n');
            }
            render(
                &mut text,
                &line.key,
                line.cells.each_ref().map(String::as_str),
            );
        }
        break;
    }
    if report.rows.is_empty() {
        text.push_str("no token usage found\n");
    }
    text.push_str(&format!(
        "Times in {zone}. Input includes cached input, output includes reasoning.\n"
    ));
    if let Some(snapshot) = &pricing.snapshot {
        text.push_str(&format!(
            "Prices: LiteLLM {} snapshot of {}.\n",
            snapshot.litellm_version, snapshot.date
        ));
    }
    if report.repeated_responses > 0 {
        text.push_str(&format!(
            "{} response(s) held by more than one file of their thread counted once.\n",
            thousands(report.repeated_responses as u64)
        ));
    }
    let unpriced = unpriced(report, pricing);
    if !unpriced.is_empty() {
        let left_out = pricing.tally_cost(&report.totals).unpriced_tokens;
        text.push_str(&format!(
            "* No price for: {} ({} tokens left out of the cost; ≥ marks a partial cost).\n",
            unpriced.join(", "),
            thousands(left_out)
        ));
    }
    text
}

fn table_lines(
    kind: ReportKind,
    report: &UsageReport,
    pricing: &Pricing,
    short: bool,
) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut push = |key: String, tally: &Tally, with_models: bool| {
        lines.push(Line {
            key: crate::output::clip(&key, MAX_KEY),
            cells: cells(&tally.tokens, pricing.tally_cost(tally), short),
        });
        if with_models {
            for (model, tokens) in &tally.models {
                lines.push(Line {
                    key: format!("  {}", crate::output::clip(model, MAX_KEY - 2)),
                    cells: cells(tokens, pricing.model_cost(model, tokens), short),
                });
            }
        }
    };
    for row in &report.rows {
        push(row_key(kind, row), &row.tally, kind != ReportKind::Model);
    }
    if !report.rows.is_empty() {
        push("Total".to_string(), &report.totals, false);
    }
    lines
}

fn row_key(kind: ReportKind, row: &UsageRow) -> String {
    match kind {
        // A thread id is 36 characters: its first 13 (the creation time of a v7 id) and
        // last 4 tell sessions apart in a table; JSON has the whole id and the path.
        ReportKind::Session if row.key.len() > 18 && row.key.is_ascii() => {
            format!("{}…{}", &row.key[..13], &row.key[row.key.len() - 4..])
        }
        // A project's end (the repository, the last folders) tells projects apart.
        ReportKind::Project if row.key.chars().count() > MAX_KEY => {
            let tail: String = {
                let chars: Vec<char> = row.key.chars().collect();
                chars[chars.len() - (MAX_KEY - 1)..].iter().collect()
            };
            format!("…{tail}")
        }
        _ => row.key.clone(),
    }
}

fn cells(tokens: &Tokens, cost: TallyCost, short: bool) -> [String; 6] {
    let number = |value: u64| {
        if short {
            abbreviate(value)
        } else {
            thousands(value)
        }
    };
    [
        number(tokens.input_tokens),
        number(tokens.cached_input_tokens),
        number(tokens.output_tokens),
        number(tokens.reasoning_output_tokens),
        number(tokens.total_tokens),
        cost_cell(cost),
    ]
}

/// A cost as printed: `$0.43`, `≥$0.43*` when tokens of an unpriced model are left out,
/// `-` when nothing is priced.
fn cost_cell(cost: TallyCost) -> String {
    match cost.usd {
        None => "-".to_string(),
        Some(usd) if cost.complete() => format!("${usd:.2}"),
        Some(usd) => format!("≥${usd:.2}*"),
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `1234567` as `1.2M`.
pub(crate) fn abbreviate(value: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1_000_000_000_000, "T"),
        (1_000_000_000, "B"),
        (1_000_000, "M"),
        (1_000, "k"),
    ];
    for (size, unit) in UNITS {
        if value >= size {
            return format!("{:.1}{unit}", value as f64 / size as f64);
        }
    }
    value.to_string()
}
