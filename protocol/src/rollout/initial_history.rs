//! [`InitialHistory`]: what a session starts from (nothing, a resumed file, or a fork).
//!
//! Core receives this when a thread is created and rebuilds model history from it. The
//! accessors answer the questions resume and fork ask of the recorded items (base
//! instructions, cwd, lineage) in one place, always from the first `session_meta` item, as
//! upstream does.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::item::RolloutItem;
use super::session_meta::{BaseInstructions, SessionMetaLine};
use crate::event::EventMsg;
use crate::thread_id::ThreadId;

/// The starting point of a session. An in-memory type: it never appears in files.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub enum InitialHistory {
    /// A brand-new thread: the initial context is built on the first turn.
    #[default]
    New,
    /// A thread whose history was explicitly cleared: starts empty like `New`, but keeps its
    /// identity.
    Cleared,
    /// A thread resumed from its rollout file.
    Resumed(ResumedHistory),
    /// A new thread forked from the items of another.
    Forked(Vec<RolloutItem>),
}

/// The recorded items of a resumed thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ResumedHistory {
    /// The id of the thread being resumed.
    pub conversation_id: ThreadId,
    /// Every item read from its rollout, in file order.
    pub history: Vec<RolloutItem>,
    /// The file the items came from, when they came from a file.
    #[ts(type = "string | null")]
    pub rollout_path: Option<PathBuf>,
}

impl InitialHistory {
    /// The recorded items (empty for `New` and `Cleared`).
    pub fn rollout_items(&self) -> &[RolloutItem] {
        match self {
            InitialHistory::New | InitialHistory::Cleared => &[],
            InitialHistory::Resumed(resumed) => &resumed.history,
            InitialHistory::Forked(items) => items,
        }
    }

    /// A copy of the recorded items (upstream's accessor name).
    pub fn get_rollout_items(&self) -> Vec<RolloutItem> {
        self.rollout_items().to_vec()
    }

    /// The first `session_meta` item, which the other accessors read.
    pub fn first_session_meta(&self) -> Option<&SessionMetaLine> {
        self.rollout_items().iter().find_map(|item| match item {
            RolloutItem::SessionMeta(meta) => Some(meta.as_ref()),
            _ => None,
        })
    }

    /// The thread this history descends from: for a resumed thread, the fork parent
    /// recorded in its meta; for a fork, the id of the thread whose items were copied.
    pub fn forked_from_id(&self) -> Option<ThreadId> {
        let meta = &self.first_session_meta()?.meta;
        match self {
            InitialHistory::Resumed(_) => meta.forked_from_id,
            InitialHistory::Forked(_) => Some(meta.id),
            InitialHistory::New | InitialHistory::Cleared => None,
        }
    }

    /// The working directory the session was started in.
    pub fn session_cwd(&self) -> Option<&Path> {
        self.first_session_meta()
            .map(|meta| meta.meta.cwd.as_path())
    }

    /// The base instructions stored with the session, if any.
    pub fn get_base_instructions(&self) -> Option<&BaseInstructions> {
        self.first_session_meta()?.meta.base_instructions.as_ref()
    }

    /// The client-supplied tools of the session as they stand (as written): the newest
    /// `dynamic_tools_updated` line's, else those the first session meta stored.
    pub fn get_dynamic_tools(&self) -> Option<&Value> {
        let updated = self
            .rollout_items()
            .iter()
            .rev()
            .find_map(|item| match item {
                RolloutItem::DynamicToolsUpdated(updated) => Some(&updated.tools),
                _ => None,
            });
        updated.or_else(|| self.first_session_meta()?.meta.dynamic_tools.as_ref())
    }

    /// The persisted events, in order; `None` for `New` and `Cleared`.
    pub fn get_event_msgs(&self) -> Option<Vec<EventMsg>> {
        match self {
            InitialHistory::New | InitialHistory::Cleared => None,
            InitialHistory::Resumed(_) | InitialHistory::Forked(_) => Some(
                self.rollout_items()
                    .iter()
                    .filter_map(|item| match item {
                        RolloutItem::EventMsg(event) => Some(event.clone()),
                        _ => None,
                    })
                    .collect(),
            ),
        }
    }
}

#[cfg(test)]
#[path = "initial_history_tests.rs"]
mod tests;
