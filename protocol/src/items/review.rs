//! Code-review mode: entering it, leaving it, and what the review found.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// The thread started reviewing `target`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct EnteredReviewModeItem {
    /// The item id.
    pub id: String,
    /// What is reviewed.
    pub target: ReviewTarget,
    /// How the client should describe the review to the person.
    pub user_facing_hint: String,
}

/// The thread finished a review. `review_output` is `null` when the review was interrupted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExitedReviewModeItem {
    /// The item id.
    pub id: String,
    /// The review's findings; `null` when the review was interrupted.
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
    BaseBranch {
        /// The branch to compare against.
        branch: String,
    },
    /// One commit.
    Commit {
        /// The commit's hash.
        sha: String,
        /// The commit's title, when known.
        title: Option<String>,
    },
    /// Free-form instructions.
    Custom {
        /// What to review, in the person's words.
        instructions: String,
    },
}

/// A finished review: findings and an overall verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewOutputEvent {
    /// The problems found.
    pub findings: Vec<ReviewFinding>,
    /// The overall verdict, as the reviewer wrote it.
    pub overall_correctness: String,
    /// Why the reviewer reached that verdict.
    pub overall_explanation: String,
    /// The reviewer's confidence in the verdict, as written.
    pub overall_confidence_score: f32,
}

/// One problem the review found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewFinding {
    /// A short title of the problem.
    pub title: String,
    /// The explanation of the problem.
    pub body: String,
    /// The reviewer's confidence in the finding, as written.
    pub confidence_score: f32,
    /// How urgent the finding is, as written.
    pub priority: i32,
    /// Where the problem is.
    pub code_location: ReviewCodeLocation,
}

/// Where a finding is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewCodeLocation {
    /// The file's absolute path.
    #[ts(type = "string")]
    pub absolute_file_path: PathBuf,
    /// The lines concerned.
    pub line_range: ReviewLineRange,
}

/// An inclusive line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReviewLineRange {
    /// First line.
    pub start: u32,
    /// Last line, included.
    pub end: u32,
}
