//! What a client asks before it shows a thread, answered as a read-only archive: `initialize`,
//! `account/read` (no account, none needed), `model/list` (the home's configured model),
//! `configRequirements/read` (none), `config/read` (the model and provider), `skills/list`
//! (none), and `thread/resume` as a pure read: the thread, the settings it would continue
//! with, and where its turns and items are paged back from.

use codex_app_server_protocol::v2::{
    ConfigReadResponse, ConfigRequirementsReadResponse, GetAccountResponse, InitializeResponse,
    Model, ModelListResponse, ReasoningEffortOption, SkillsListResponse, ThreadHistoryMode,
    ThreadResumeParams, ThreadResumeResponse,
};
use serde_json::{Value, json};

use super::window::{Kind, PageCursor};
use super::{ServeError, ServedHome};

/// The Codex release whose app-server protocol this server answers, claimed in its user
/// agent: the Codex TUI warns of a server older than itself.
pub const SERVED_CODEX_VERSION: &str = "0.169.0";

/// The reasoning effort a model gets when none is chosen.
const DEFAULT_EFFORT: &str = "medium";

impl ServedHome {
    /// `initialize`: who answers, and for which home.
    pub fn initialize(&self) -> InitializeResponse {
        InitializeResponse {
            user_agent: format!(
                "codex_thread_serve/{SERVED_CODEX_VERSION} (codex-thread {})",
                env!("CARGO_PKG_VERSION")
            ),
            codex_home: std::path::absolute(&self.home.root)
                .unwrap_or_else(|_| self.home.root.clone())
                .display()
                .to_string(),
            platform_family: std::env::consts::FAMILY.to_owned(),
            platform_os: std::env::consts::OS.to_owned(),
        }
    }

    /// `account/read`: none, and none is needed to read.
    pub fn account(&self) -> GetAccountResponse {
        GetAccountResponse {
            account: None,
            requires_openai_auth: false,
        }
    }

    /// `model/list`: the model the home's configuration names (a client refuses to start
    /// without one to show).
    pub fn models(&self) -> ModelListResponse {
        let model = self.model();
        ModelListResponse {
            data: vec![Model {
                id: model.clone(),
                display_name: model.clone(),
                model,
                description: "the model the served home's configuration names".to_owned(),
                hidden: false,
                is_default: true,
                supported_reasoning_efforts: vec![ReasoningEffortOption {
                    reasoning_effort: DEFAULT_EFFORT.to_owned(),
                    description: DEFAULT_EFFORT.to_owned(),
                }],
                default_reasoning_effort: DEFAULT_EFFORT.to_owned(),
            }],
            next_cursor: None,
        }
    }

    /// `configRequirements/read`: none.
    pub fn config_requirements(&self) -> ConfigRequirementsReadResponse {
        ConfigRequirementsReadResponse::default()
    }

    /// `config/read`: the model and provider a new thread would get.
    pub fn config(&self) -> ConfigReadResponse {
        let mut config = serde_json::Map::new();
        config.insert("model".to_owned(), Value::from(self.model()));
        config.insert(
            "model_provider".to_owned(),
            Value::from(self.home.default_model_provider()),
        );
        ConfigReadResponse {
            config,
            origins: serde_json::Map::new(),
        }
    }

    /// `skills/list`: none (a server of saved sessions runs no agent).
    pub fn skills(&self) -> SkillsListResponse {
        SkillsListResponse::default()
    }

    /// `thread/resume` as a pure read: the thread (with its turns unless excluded), the
    /// settings it would continue with (its model, read-only, never asking), and for a
    /// paginated thread the cursors that page its turns and items back from the end.
    pub fn thread_resume(
        &self,
        params: &ThreadResumeParams,
    ) -> Result<ThreadResumeResponse, ServeError> {
        let read = codex_app_server_protocol::v2::ThreadReadParams {
            thread_id: params.thread_id.clone(),
            include_turns: !params.exclude_turns.unwrap_or(false),
        };
        let thread = self.thread_read(&read)?.thread;
        let paginated = thread.history_mode == ThreadHistoryMode::Paginated;
        let from_end = |kind| paginated.then(|| PageCursor::at_end(kind).to_string());
        Ok(ThreadResumeResponse {
            model: thread.model.clone().unwrap_or_else(|| self.model()),
            model_provider: thread.model_provider.clone(),
            reasoning_effort: thread.reasoning_effort.clone(),
            cwd: thread.cwd.clone(),
            approval_policy: json!("never"),
            approvals_reviewer: "user".to_owned(),
            sandbox: json!({"type": "readOnly"}),
            turns_backwards_cursor: from_end(Kind::Turns),
            items_backwards_cursor: from_end(Kind::Items),
            thread,
        })
    }

    /// The model the home's configuration names, else the name a client shows for none.
    fn model(&self) -> String {
        self.home
            .configured_model()
            .unwrap_or_else(|| "unknown".to_owned())
    }
}
