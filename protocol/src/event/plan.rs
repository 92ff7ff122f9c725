//! `plan_update`: the agent's to-do list for the turn (the `update_plan` tool's arguments).

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// The whole plan after an update.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct UpdatePlanArgs {
    /// Why the plan changed, if the agent said.
    #[serde(default)]
    pub explanation: Option<String>,
    /// The steps, in order.
    pub plan: Vec<PlanItemArg>,
}

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PlanItemArg {
    /// What the step does, as the agent wrote it.
    pub step: String,
    /// Where the step stands.
    pub status: StepStatus,
}

/// Where a plan step stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum StepStatus {
    /// `pending`: not started.
    Pending,
    /// `in_progress`: being worked on.
    InProgress,
    /// `completed`: done.
    Completed,
}
