//! The tables' Arrow schemas (version [`SCHEMA_VERSION`], documented in `docs/tables.md`) and
//! rows turned into record batches.
//!
//! Types are the ones every engine reads the same way: UTF-8 strings, signed 32- and 64-bit
//! integers (Spark has no unsigned ones), booleans, timestamps in milliseconds marked UTC, and
//! one list of strings. The day a row falls on is not a column: it is the `day=YYYY-MM-DD`
//! folder (a Hive partition), which DuckDB, Spark and Trino read as a column.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{
    ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray,
    TimestampMillisecondArray,
};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};

use super::rows::{ItemRow, Table, ThreadRow, TokenRow, TurnRow};

/// The version of the tables' schema. It changes when a column is removed, renamed or changes
/// meaning; a run over tables of another version rewrites them all.
pub const SCHEMA_VERSION: u32 = 2;

/// The Parquet key-value metadata key that carries [`SCHEMA_VERSION`] in every file.
pub const SCHEMA_VERSION_KEY: &str = "codex.table.schema_version";

/// The schema of `table`.
pub fn table_schema(table: Table) -> SchemaRef {
    static SCHEMAS: OnceLock<[SchemaRef; 4]> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| Table::ALL.map(build_schema));
    let index = Table::ALL
        .iter()
        .position(|known| *known == table)
        .unwrap_or_default();
    schemas[index].clone()
}

fn build_schema(table: Table) -> SchemaRef {
    let text = |name: &str| Field::new(name, DataType::Utf8, true);
    let required_text = |name: &str| Field::new(name, DataType::Utf8, false);
    let time = |name: &str| {
        Field::new(
            name,
            DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            true,
        )
    };
    let int = |name: &str| Field::new(name, DataType::Int64, true);
    let small = |name: &str| Field::new(name, DataType::Int32, false);
    let flag = |name: &str| Field::new(name, DataType::Boolean, false);
    let fields = match table {
        Table::Threads => vec![
            required_text("thread_id"),
            time("created_at"),
            time("updated_at"),
            small("pieces"),
            int("lines"),
            int("bytes"),
            text("forked_from_id"),
            text("parent_thread_id"),
            text("copied_from_id"),
            text("history_base_thread_id"),
            text("source"),
            text("thread_source"),
            text("originator"),
            text("cli_version"),
            text("model_provider"),
            text("cwd"),
            text("git_branch"),
            text("git_commit"),
            text("git_repository_url"),
            text("project"),
            text("name"),
            text("agent_nickname"),
            text("agent_role"),
        ],
        Table::Turns => vec![
            required_text("thread_id"),
            small("piece"),
            small("seq"),
            required_text("turn_id"),
            text("status"),
            time("started_at"),
            time("completed_at"),
            int("duration_ms"),
            flag("rolled_back"),
            flag("copied"),
            small("compactions"),
            small("items"),
            text("error"),
        ],
        Table::Items => vec![
            required_text("thread_id"),
            small("piece"),
            int("line"),
            time("timestamp"),
            text("turn_id"),
            flag("copied"),
            required_text("item_type"),
            text("role"),
            text("tool_name"),
            text("call_id"),
            text("model"),
            text("command"),
            Field::new("exit_code", DataType::Int32, true),
            int("duration_ms"),
            text("status"),
            Field::new(
                "patch_files",
                DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
                true,
            ),
            int("text_chars"),
            text("text"),
        ],
        Table::TokenUsage => vec![
            required_text("thread_id"),
            small("piece"),
            int("line"),
            time("timestamp"),
            text("model"),
            int("input_tokens"),
            int("cached_input_tokens"),
            int("output_tokens"),
            int("reasoning_output_tokens"),
            int("total_tokens"),
            required_text("counted_from"),
        ],
    };
    let metadata = HashMap::from([(SCHEMA_VERSION_KEY.to_string(), SCHEMA_VERSION.to_string())]);
    Arc::new(Schema::new_with_metadata(fields, metadata))
}

/// Rows of one table for one partition.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RowsOf<'a> {
    Threads(&'a [&'a ThreadRow]),
    Turns(&'a [&'a TurnRow]),
    Items(&'a [&'a ItemRow]),
    Tokens(&'a [&'a TokenRow]),
}

/// The record batch of `rows`, in the schema of their table.
pub(crate) fn record_batch(rows: RowsOf<'_>) -> Result<RecordBatch, ArrowError> {
    let (table, columns) = match rows {
        RowsOf::Threads(rows) => (Table::Threads, thread_columns(rows)),
        RowsOf::Turns(rows) => (Table::Turns, turn_columns(rows)),
        RowsOf::Items(rows) => (Table::Items, item_columns(rows)),
        RowsOf::Tokens(rows) => (Table::TokenUsage, token_columns(rows)),
    };
    RecordBatch::try_new(table_schema(table), columns)
}

fn text<'a, T: 'a>(rows: &[&'a T], get: impl Fn(&'a T) -> Option<&'a str>) -> ArrayRef {
    Arc::new(StringArray::from_iter(rows.iter().map(|row| get(row))))
}

fn required<'a, T: 'a>(rows: &[&'a T], get: impl Fn(&'a T) -> &'a str) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(
        rows.iter().map(|row| get(row)),
    ))
}

fn time<T>(rows: &[&T], get: impl Fn(&T) -> Option<i64>) -> ArrayRef {
    Arc::new(
        TimestampMillisecondArray::from_iter(rows.iter().map(|row| get(row))).with_timezone("UTC"),
    )
}

fn int<T>(rows: &[&T], get: impl Fn(&T) -> Option<i64>) -> ArrayRef {
    Arc::new(Int64Array::from_iter(rows.iter().map(|row| get(row))))
}

fn count<T>(rows: &[&T], get: impl Fn(&T) -> u64) -> ArrayRef {
    int(rows, |row| {
        Some(i64::try_from(get(row)).unwrap_or(i64::MAX))
    })
}

fn small<T>(rows: &[&T], get: impl Fn(&T) -> u32) -> ArrayRef {
    Arc::new(Int32Array::from_iter_values(
        rows.iter()
            .map(|row| i32::try_from(get(row)).unwrap_or(i32::MAX)),
    ))
}

fn flag<T>(rows: &[&T], get: impl Fn(&T) -> bool) -> ArrayRef {
    Arc::new(BooleanArray::from_iter(
        rows.iter().map(|row| Some(get(row))),
    ))
}

fn thread_columns(rows: &[&ThreadRow]) -> Vec<ArrayRef> {
    vec![
        required(rows, |row| &row.thread_id),
        time(rows, |row| row.created_at),
        time(rows, |row| row.updated_at),
        small(rows, |row| row.pieces),
        count(rows, |row| row.lines),
        count(rows, |row| row.bytes),
        text(rows, |row| row.forked_from_id.as_deref()),
        text(rows, |row| row.parent_thread_id.as_deref()),
        text(rows, |row| row.copied_from_id.as_deref()),
        text(rows, |row| row.history_base_thread_id.as_deref()),
        text(rows, |row| row.source.as_deref()),
        text(rows, |row| row.thread_source.as_deref()),
        text(rows, |row| row.originator.as_deref()),
        text(rows, |row| row.cli_version.as_deref()),
        text(rows, |row| row.model_provider.as_deref()),
        text(rows, |row| row.cwd.as_deref()),
        text(rows, |row| row.git_branch.as_deref()),
        text(rows, |row| row.git_commit.as_deref()),
        text(rows, |row| row.git_repository_url.as_deref()),
        text(rows, |row| row.project.as_deref()),
        text(rows, |row| row.name.as_deref()),
        text(rows, |row| row.agent_nickname.as_deref()),
        text(rows, |row| row.agent_role.as_deref()),
    ]
}

fn turn_columns(rows: &[&TurnRow]) -> Vec<ArrayRef> {
    vec![
        required(rows, |row| &row.thread_id),
        small(rows, |row| row.piece),
        small(rows, |row| row.seq),
        required(rows, |row| &row.turn_id),
        text(rows, |row| row.status.as_deref()),
        time(rows, |row| row.started_at),
        time(rows, |row| row.completed_at),
        int(rows, |row| row.duration_ms),
        flag(rows, |row| row.rolled_back),
        flag(rows, |row| row.copied),
        small(rows, |row| row.compactions),
        small(rows, |row| row.items),
        text(rows, |row| row.error.as_deref()),
    ]
}

fn item_columns(rows: &[&ItemRow]) -> Vec<ArrayRef> {
    let mut files = ListBuilder::new(StringBuilder::new());
    for row in rows {
        if row.patch_files.is_empty() {
            files.append_null();
        } else {
            for file in &row.patch_files {
                files.values().append_value(file);
            }
            files.append(true);
        }
    }
    vec![
        required(rows, |row| &row.thread_id),
        small(rows, |row| row.piece),
        count(rows, |row| row.line),
        time(rows, |row| row.timestamp),
        text(rows, |row| row.turn_id.as_deref()),
        flag(rows, |row| row.copied),
        required(rows, |row| &row.item_type),
        text(rows, |row| row.role.as_deref()),
        text(rows, |row| row.tool_name.as_deref()),
        text(rows, |row| row.call_id.as_deref()),
        text(rows, |row| row.model.as_deref()),
        text(rows, |row| row.command.as_deref()),
        Arc::new(Int32Array::from_iter(rows.iter().map(|row| row.exit_code))),
        int(rows, |row| row.duration_ms),
        text(rows, |row| row.status.as_deref()),
        Arc::new(files.finish()),
        count(rows, |row| row.text_chars),
        text(rows, |row| row.text.as_deref()),
    ]
}

fn token_columns(rows: &[&TokenRow]) -> Vec<ArrayRef> {
    vec![
        required(rows, |row| &row.thread_id),
        small(rows, |row| row.piece),
        count(rows, |row| row.line),
        time(rows, |row| Some(row.timestamp)),
        text(rows, |row| row.model.as_deref()),
        count(rows, |row| row.input_tokens),
        count(rows, |row| row.cached_input_tokens),
        count(rows, |row| row.output_tokens),
        count(rows, |row| row.reasoning_output_tokens),
        count(rows, |row| row.total_tokens),
        required(rows, |row| &row.counted_from),
    ]
}
