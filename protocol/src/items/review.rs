//! Code-review mode: entering it, leaving it, and what the review found.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// The thread started reviewing `target`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct EnteredReviewModeItem {
    pub id: String,
    pub target: ReviewTarget,
    /// How the client should describe the review to the person.
    pub user_facing_hint: String,
}

/// The thread finished a review. `review_output` is `null` when the review was interrupted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExitedReviewModeItem {
    pub id: String,
    pub review_output: Option<ReviewOutputEvent>,
}

/// What to review, tagged by `type` (camelCase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(tag = "type", rename_all = "camelCase")]
pub enum ReviewTarget {
    /// Staged, unstaged and untracked changes of the working tree.
    UncommittedChanges,
    /// The changes of the current branch against `branch`.
    BaseBranch { branch: String },
    /// One commit.
    Commit { sha: String, title: Option<String> },
    /// Free-form instructions.
    Custom { instructions: String },
}

/// A finished review: findings and an overall verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewOutputEvent {
    pub findings: Vec<ReviewFinding>,
    pub overall_correctness: String,
    pub overall_explanation: String,
    pub overall_confidence_score: f32,
}

/// One problem the review found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewFinding {
    pub title: String,
    pub body: String,
    pub confidence_score: f32,
    pub priority: i32,
    pub code_location: ReviewCodeLocation,
}

/// Where a finding is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewCodeLocation {
    #[ts(type = "string")]
    pub absolute_file_path: PathBuf,
    pub line_range: ReviewLineRange,
}

/// An inclusive line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewLineRange {
    pub start: u32,
    pub end: u32,
}
