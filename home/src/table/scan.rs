//! One thread's rows, from one forward pass over each of its files.
//!
//! Every line of a file is read once, through `codex-rollout`'s stream reader, and handed to
//! the answers that already exist: [`UsageScan`] (the `token_usage` rows, exactly what
//! `usage` counts, the copied parent prefix left out), the client view and the app-server's
//! [`ThreadBuilder`] (the `turns` rows, exactly the turns `thread` shows), the items scan
//! (`items.rs`) and the session meta (the `threads` row). Memory is the file's rows and its
//! turns, never the home.

use std::collections::HashMap;
use std::path::Path;

use chrono::DateTime;
use codex_app_server_protocol::v2::{ThreadItem, Turn};
use codex_app_server_protocol::{BuiltThread, ThreadBuilder, TranscriptMode};
use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_rollout::RolloutStream;
use codex_rollout::{ClientView, client_view_items};
use codex_rollout::{ParentPrefixScan, Provenance};

use super::TableError;
use super::fingerprint::FingerprintBuilder;
use super::items::{ItemScan, TextOptions};
use super::manifest::Fingerprint;
use super::rows::{ThreadRow, ThreadRows, TokenRow, TurnRow};
use crate::list::FoundRollout;
use crate::redact::RedactionReport;
use crate::usage::{CountedFrom, SeenResponses, UsageScan};

/// The rows of the thread whose files are `pieces` (oldest first), and each file's
/// fingerprint; `names` is the home's session index (`CodexHome::thread_names`).
pub(crate) fn scan_thread(
    names: &HashMap<String, String>,
    pieces: &[FoundRollout],
    options: TextOptions<'_>,
) -> Result<(ThreadRows, Vec<Fingerprint>, RedactionReport), TableError> {
    let mut rows = ThreadRows::default();
    let mut fingerprints = Vec::with_capacity(pieces.len());
    let mut report = options
        .redactor
        .map(crate::redact::Redactor::report)
        .unwrap_or_default();
    // The thread's id is its first file's (its session meta's; the name's without one), as
    // every command names it; the pieces are the files named alike.
    let first_thread_id = match pieces.first() {
        Some(piece) => codex_rollout::thread_id_of_file(&piece.path)
            .map_err(|source| TableError::Read {
                path: piece.path.clone(),
                source,
            })?
            .map_or_else(|| piece.name.thread_id.to_string(), |id| id.to_string()),
        None => String::new(),
    };
    rows.thread.thread_id = first_thread_id.clone();
    rows.thread.created_at = pieces
        .first()
        .map(|piece| piece.name.created.timestamp_millis());
    let mut name = None;
    // A response is one row, whatever pieces hold it (a copy in both folders).
    let mut seen = SeenResponses::default();
    for (index, piece) in pieces.iter().enumerate() {
        let piece_index = u32::try_from(index).unwrap_or(u32::MAX);
        let scanned = scan_piece(
            &piece.path,
            &first_thread_id,
            piece_index,
            options,
            &mut seen,
        )?;
        if index == 0 {
            if let Some(meta) = &scanned.meta {
                describe_thread(&mut rows.thread, meta);
            }
            rows.thread.project = scanned.project.clone();
            rows.thread.copied_from_id = scanned.copied_from.clone();
        }
        rows.thread.pieces += 1;
        rows.thread.lines += scanned.fingerprint.lines;
        rows.thread.bytes += scanned.fingerprint.bytes;
        rows.thread.updated_at = rows.thread.updated_at.max(scanned.last_time);
        if scanned.name.is_some() {
            name = scanned.name;
        }
        rows.turns.extend(scanned.turns);
        rows.items.extend(scanned.items);
        rows.tokens.extend(scanned.tokens);
        if let Some(damage) = scanned.damage {
            rows.damaged.push((piece.path.clone(), damage));
        }
        merge_report(&mut report, &scanned.report);
        fingerprints.push(scanned.fingerprint);
    }
    rows.thread.name = name.or_else(|| names.get(&first_thread_id).cloned());
    if let Some(redactor) = options.redactor {
        for value in [
            &mut rows.thread.cwd,
            &mut rows.thread.project,
            &mut rows.thread.git_branch,
            &mut rows.thread.git_repository_url,
            &mut rows.thread.name,
            &mut rows.thread.agent_nickname,
        ]
        .into_iter()
        .flatten()
        {
            redactor.mask(value, &mut report);
        }
    }
    Ok((rows, fingerprints, report))
}

/// The fingerprint of the file at `path` without parsing it: how a file that moved (archived)
/// or was compressed is recognised as one already written.
pub(crate) fn fingerprint_file(path: &Path) -> Result<Fingerprint, TableError> {
    let error = |source| TableError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut stream = RolloutStream::open(path).map_err(error)?;
    let mut print = FingerprintBuilder::new(stream.compression());
    while let Some(line) = stream.next_line_where(|_| false).map_err(error)? {
        print.push(line.offset, line.raw);
    }
    print.finish(path, stream.bytes_read(), stream.lines_read())
}

/// What one file gives.
struct ScannedPiece {
    meta: Option<Box<SessionMetaLine>>,
    copied_from: Option<String>,
    project: Option<String>,
    damage: Option<crate::Damage>,
    name: Option<String>,
    last_time: Option<i64>,
    turns: Vec<TurnRow>,
    items: Vec<super::rows::ItemRow>,
    tokens: Vec<TokenRow>,
    report: RedactionReport,
    fingerprint: Fingerprint,
}

fn scan_piece(
    path: &Path,
    thread_id: &str,
    piece: u32,
    options: TextOptions<'_>,
    seen: &mut SeenResponses,
) -> Result<ScannedPiece, TableError> {
    let error = |source| TableError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut stream = RolloutStream::open(path).map_err(error)?;
    let mut usage = UsageScan::new();
    let mut prefix = ParentPrefixScan::default();
    let mut items = ItemScan::new(thread_id.to_string(), piece, options);
    let mut view = ClientView::streaming();
    let mut builder = ThreadBuilder::in_mode(TranscriptMode::Complete);
    // Every `task_started`: its turn id, its line's time, whether the line was copied.
    let mut started: Vec<(String, Option<i64>, bool)> = Vec::new();
    let mut print = FingerprintBuilder::new(stream.compression());
    let mut meta = None;
    let mut name = None;
    let mut last_time = None;
    let mut damage = None;
    while let Some(line) = stream.next_line().map_err(error)? {
        print.push(line.offset, line.raw);
        if let Some(problem) = &line.problem {
            crate::note_damage(&mut damage, problem);
        }
        if let Some(format) = line.format() {
            view.note_format(format);
        }
        let Some(rollout_line) = line.line() else {
            continue;
        };
        let timestamp = DateTime::parse_from_rfc3339(&rollout_line.timestamp)
            .ok()
            .map(|time| time.timestamp_millis());
        last_time = last_time.max(timestamp);
        let copied = matches!(prefix.push(&rollout_line.item), Provenance::Copied { .. });
        usage.push(line.number, rollout_line);
        items.push(line.number, rollout_line, timestamp, copied);
        match &rollout_line.item {
            RolloutItem::SessionMeta(line_meta) if meta.is_none() => {
                meta = Some(line_meta.clone());
            }
            RolloutItem::EventMsg(EventMsg::TurnStarted(turn)) => {
                started.push((turn.turn_id.clone(), timestamp, copied));
            }
            RolloutItem::EventMsg(EventMsg::ThreadNameUpdated(updated)) if !copied => {
                if let Some(thread_name) = &updated.thread_name {
                    name = Some(thread_name.clone());
                }
            }
            _ => {}
        }
        view.push_at(line.number, timestamp, &rollout_line.item, &mut |item| {
            builder.handle_rollout_item(item);
        });
    }
    let fingerprint = print.finish(path, stream.bytes_read(), stream.lines_read())?;
    let built = match view.finish(&mut |item| builder.handle_rollout_item(item)) {
        Ok(_) => builder.finish(),
        Err(changed) => {
            tracing::debug!(%changed, path = %path.display(), "loading the whole file for its turns");
            let loaded =
                codex_rollout::load_rollout_items(path).map_err(|source| TableError::Load {
                    path: path.to_path_buf(),
                    message: source.to_string(),
                })?;
            let mut builder = ThreadBuilder::in_mode(TranscriptMode::Complete);
            for item in client_view_items(&loaded.contents).iter() {
                builder.handle_rollout_item(item);
            }
            builder.finish()
        }
    };
    let mut usage = usage.finish();
    usage.responses = seen.keep_new(std::mem::take(&mut usage.responses)).0;
    let (items, report) = items.finish();
    Ok(ScannedPiece {
        meta,
        copied_from: usage.copied_from.map(|id| id.to_string()),
        project: usage.project.clone(),
        damage,
        name,
        last_time,
        turns: turn_rows(thread_id, piece, &built, &started),
        items,
        tokens: usage
            .responses
            .iter()
            .map(|response| TokenRow {
                thread_id: thread_id.to_string(),
                piece,
                line: response.line as u64,
                timestamp: response.timestamp.timestamp_millis(),
                model: response.model.as_deref().map(str::to_string),
                input_tokens: response.tokens.input_tokens,
                cached_input_tokens: response.tokens.cached_input_tokens,
                output_tokens: response.tokens.output_tokens,
                reasoning_output_tokens: response.tokens.reasoning_output_tokens,
                total_tokens: response.tokens.total_tokens,
                counted_from: match response.counted_from {
                    CountedFrom::Record => "record",
                    CountedFrom::TotalChange => "total_change",
                }
                .to_string(),
            })
            .collect(),
        report,
        fingerprint,
    })
}

/// The turns the builder kept, then the turns a rollback removed (started in the file, kept
/// by no one).
fn turn_rows(
    thread_id: &str,
    piece: u32,
    built: &BuiltThread,
    started: &[(String, Option<i64>, bool)],
) -> Vec<TurnRow> {
    let started_line = |id: &str| started.iter().find(|(turn, _, _)| turn == id);
    let kept = built.turns();
    let mut rows: Vec<TurnRow> = kept
        .iter()
        .map(|turn| TurnRow {
            thread_id: thread_id.to_string(),
            piece,
            turn_id: turn.id.clone(),
            status: serde_json::to_value(turn.status)
                .ok()
                .and_then(|value| value.as_str().map(str::to_string)),
            // The builder's time (seconds), else the time of the turn's `task_started` line.
            started_at: turn
                .started_at
                .map(|seconds| seconds.saturating_mul(1000))
                .or_else(|| started_line(&turn.id).and_then(|(_, at, _)| *at)),
            copied: started_line(&turn.id).is_some_and(|(_, _, copied)| *copied),
            completed_at: turn
                .completed_at
                .map(|seconds| seconds.saturating_mul(1000)),
            duration_ms: turn.duration_ms,
            compactions: count_items(turn, |item| {
                matches!(item, ThreadItem::ContextCompaction { .. })
            }),
            items: count_items(turn, |_| true),
            error: turn.error.as_ref().map(|error| error.message.clone()),
            ..TurnRow::default()
        })
        .collect();
    for (turn_id, timestamp, copied) in started {
        if turn_id.is_empty() || kept.iter().any(|turn| &turn.id == turn_id) {
            continue;
        }
        if rows.iter().any(|row| &row.turn_id == turn_id) {
            continue;
        }
        rows.push(TurnRow {
            thread_id: thread_id.to_string(),
            piece,
            turn_id: turn_id.clone(),
            started_at: *timestamp,
            rolled_back: true,
            copied: *copied,
            ..TurnRow::default()
        });
    }
    for (seq, row) in rows.iter_mut().enumerate() {
        row.seq = u32::try_from(seq).unwrap_or(u32::MAX);
    }
    rows
}

fn count_items(turn: &Turn, wanted: impl Fn(&ThreadItem) -> bool) -> u32 {
    let count = turn.items.iter().filter(|item| wanted(&item.item)).count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

fn describe_thread(row: &mut ThreadRow, line: &SessionMetaLine) {
    let meta = &line.meta;
    if let Ok(created) = DateTime::parse_from_rfc3339(&meta.timestamp) {
        row.created_at = Some(created.timestamp_millis());
    }
    let text = |value: &str| (!value.is_empty()).then(|| value.to_string());
    row.forked_from_id = meta.forked_from_id.map(|id| id.to_string());
    row.parent_thread_id = meta.parent_thread_id.map(|id| id.to_string());
    row.history_base_thread_id = meta
        .history_base
        .as_ref()
        .map(|base| base.thread_id.to_string());
    row.source = serde_json::to_value(&meta.source)
        .ok()
        .map(|value| match value {
            serde_json::Value::String(text) => text,
            other => other.to_string(),
        });
    row.thread_source = meta.thread_source.clone();
    row.originator = text(&meta.originator);
    row.cli_version = text(&meta.cli_version);
    row.model_provider = meta.model_provider.clone();
    row.cwd = text(&meta.cwd.display().to_string());
    row.agent_nickname = meta.agent_nickname.clone();
    row.agent_role = meta.agent_role.clone();
    if let Some(git) = &line.git {
        row.git_branch = git.branch.clone();
        row.git_commit = git.commit_hash.clone();
        row.git_repository_url = git.repository_url.clone();
    }
}

fn merge_report(into: &mut RedactionReport, from: &RedactionReport) {
    for (kind, count) in &from.counts {
        match into.counts.iter_mut().find(|(known, _)| known == kind) {
            Some((_, total)) => *total += count,
            None => into.counts.push((kind.clone(), *count)),
        }
    }
}
