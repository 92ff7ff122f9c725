//! The registry of contextual fragment markers: DATA, kept in one place.
//!
//! Codex puts runtime context (AGENTS.md, the environment, skills, shell command echoes,
//! aborted-turn notes, permissions, mode switches, ...) into ordinary `user` and `developer`
//! messages. Whether such text is "context" or something a person typed is decided only by
//! the markers listed here. Matching lives in [`super::user`] and [`super::developer`];
//! rendering in [`super::fragments`] reads the same table, so whatever we render is, by
//! construction, recognised again on the way back.
//!
//! A look-alike tag a person types (say `<project_context>...</project_context>`) is not in
//! the table and therefore stays a visible user message.

/// A user-role fragment kind Codex injects and hides from the person's transcript.
///
/// Why an enum and not bare strings: prompt-side constructors and tests refer to a kind by
/// name, and the registry maps every kind to exactly one matching rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UserFragmentKind {
    /// AGENTS.md instructions (`# AGENTS.md instructions[ for <dir>]` ... `</INSTRUCTIONS>`).
    AgentsMd,
    /// The pre-AGENTS.md wrapper older Codex versions wrote (`<user_instructions>`); it is
    /// still found in old session files, so it stays hidden when they are read back.
    LegacyUserInstructions,
    /// `<environment_context>` ... `</environment_context>`.
    EnvironmentContext,
    /// `<external_{key}>` ... `</external_{key}>` additional context (case-sensitive).
    ExternalContext,
    /// `<skill>` ... `</skill>` full skill text.
    Skill,
    /// `<user_shell_command>` ... `</user_shell_command>` echo of a command the user ran.
    UserShellCommand,
    /// `<turn_aborted>` ... `</turn_aborted>` note that the previous turn was interrupted.
    TurnAborted,
    /// `<subagent_notification>` ... `</subagent_notification>`.
    SubagentNotification,
    /// `<codex_internal_context source="...">` ... `</codex_internal_context>`.
    InternalContext,
    /// `<goal_context>` ... `</goal_context>`, the older spelling of internal context.
    LegacyGoalContext,
    /// `<recommended_plugins>` ... `</recommended_plugins>`.
    RecommendedPlugins,
    /// A warning Codex no longer writes; only recognised so old files stay hidden.
    LegacyUnifiedExecWarning,
    /// A warning Codex no longer writes; only recognised so old files stay hidden.
    LegacyApplyPatchWarning,
    /// A warning Codex no longer writes; only recognised so old files stay hidden.
    LegacyModelMismatchWarning,
}

/// How one registered user-role fragment is recognised in a single `input_text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UserMarkerRule {
    /// The trimmed text starts with `start` and ends with `end`, ASCII case-insensitively.
    /// Both markers are required: an opening tag alone does not make text contextual.
    Marked {
        /// Opening marker.
        start: &'static str,
        /// Closing marker.
        end: &'static str,
    },
    /// As [`UserMarkerRule::Marked`] but case-sensitive.
    MarkedExact {
        /// Opening marker.
        start: &'static str,
        /// Closing marker.
        end: &'static str,
    },
    /// `<codex_internal_context source="{source}">` ... `</codex_internal_context>`, exact
    /// case, `source` matching `[a-z][a-z0-9_]*`.
    InternalContext,
    /// `<external_{key}>` ... `</external_{key}>`, exact case, non-empty key.
    ExternalContext,
    /// The trimmed text starts with this phrase (exact case).
    Prefix(&'static str),
}

/// One row of the user-role registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UserFragmentSpec {
    /// Which fragment this row recognises.
    pub kind: UserFragmentKind,
    /// The recognition rule.
    pub rule: UserMarkerRule,
}

/// Opening tag of internal model context; the source attribute follows it.
pub(crate) const INTERNAL_CONTEXT_OPEN_PREFIX: &str = "<codex_internal_context";
/// Closing tag of internal model context.
pub(crate) const INTERNAL_CONTEXT_CLOSE: &str = "</codex_internal_context>";
/// Opening-tag prefix of external additional context.
pub(crate) const EXTERNAL_CONTEXT_OPEN_PREFIX: &str = "<external_";

/// Every user-role fragment Codex hides. Order does not matter for matching.
pub(crate) static USER_FRAGMENTS: &[UserFragmentSpec] = &[
    UserFragmentSpec {
        kind: UserFragmentKind::AgentsMd,
        rule: UserMarkerRule::Marked {
            start: "# AGENTS.md instructions",
            end: "</INSTRUCTIONS>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::LegacyUserInstructions,
        rule: UserMarkerRule::Marked {
            start: "<user_instructions>",
            end: "</user_instructions>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::EnvironmentContext,
        rule: UserMarkerRule::Marked {
            start: "<environment_context>",
            end: "</environment_context>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::ExternalContext,
        rule: UserMarkerRule::ExternalContext,
    },
    UserFragmentSpec {
        kind: UserFragmentKind::Skill,
        rule: UserMarkerRule::Marked {
            start: "<skill>",
            end: "</skill>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::UserShellCommand,
        rule: UserMarkerRule::Marked {
            start: "<user_shell_command>",
            end: "</user_shell_command>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::TurnAborted,
        rule: UserMarkerRule::Marked {
            start: "<turn_aborted>",
            end: "</turn_aborted>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::SubagentNotification,
        rule: UserMarkerRule::Marked {
            start: "<subagent_notification>",
            end: "</subagent_notification>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::InternalContext,
        rule: UserMarkerRule::InternalContext,
    },
    UserFragmentSpec {
        kind: UserFragmentKind::LegacyGoalContext,
        rule: UserMarkerRule::MarkedExact {
            start: "<goal_context>",
            end: "</goal_context>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::RecommendedPlugins,
        rule: UserMarkerRule::Marked {
            start: "<recommended_plugins>",
            end: "</recommended_plugins>",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::LegacyUnifiedExecWarning,
        rule: UserMarkerRule::Prefix(
            "Warning: The maximum number of unified exec processes you can keep open is",
        ),
    },
    UserFragmentSpec {
        kind: UserFragmentKind::LegacyApplyPatchWarning,
        rule: UserMarkerRule::MarkedExact {
            start: "Warning: apply_patch was requested via ",
            end: "Use the apply_patch tool instead of exec_command.",
        },
    },
    UserFragmentSpec {
        kind: UserFragmentKind::LegacyModelMismatchWarning,
        rule: UserMarkerRule::Prefix(
            "Warning: Your account was flagged for potentially high-risk cyber activity",
        ),
    },
];

/// A developer-role fragment kind whose prefix marks a developer message as runtime context.
///
/// Rollback trims these from the end of history together with the user turn they preceded;
/// developer text without a registered prefix is treated as a policy the session keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeveloperFragmentKind {
    /// `<permissions instructions>` (with a space).
    Permissions,
    /// `Approved command prefix saved:` (unmarked text).
    ApprovedCommandPrefix,
    /// `<model_switch>`.
    ModelSwitch,
    /// `<managed_developer_instructions>`.
    ManagedDeveloperInstructions,
    /// `<apps_instructions>`.
    AppsInstructions,
    /// `<collaboration_mode>`.
    CollaborationMode,
    /// `<multi_agent_role>`.
    MultiAgentRole,
    /// `<multi_agent_mode>`.
    MultiAgentMode,
    /// `<environments_instructions>`.
    EnvironmentsInstructions,
    /// `<git_attribution>`.
    GitAttribution,
    /// `<plugins_instructions>`.
    PluginsInstructions,
    /// `<realtime_conversation>`.
    RealtimeConversation,
    /// `<skills_instructions>`.
    SkillsInstructions,
    /// `<tools>`.
    Tools,
    /// `<personality_spec>`.
    PersonalitySpec,
    /// `<token_budget>`, no longer written.
    LegacyTokenBudget,
    /// `<context_window>`.
    ContextWindow,
    /// `<context_window_guidance>`.
    ContextWindowGuidance,
    /// `<rollout_budget>`.
    RolloutBudget,
}

/// One row of the developer-role registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeveloperPrefixSpec {
    /// Which fragment this row recognises.
    pub kind: DeveloperFragmentKind,
    /// The trimmed text must start with this, ASCII case-insensitively. No end check.
    pub prefix: &'static str,
    /// The closing marker used when rendering, if the fragment is tag-shaped.
    pub end: Option<&'static str>,
}

const fn tagged(
    kind: DeveloperFragmentKind,
    prefix: &'static str,
    end: &'static str,
) -> DeveloperPrefixSpec {
    DeveloperPrefixSpec {
        kind,
        prefix,
        end: Some(end),
    }
}

/// Every developer-role prefix that marks runtime context. Order does not matter.
pub(crate) static DEVELOPER_PREFIXES: &[DeveloperPrefixSpec] = &[
    tagged(
        DeveloperFragmentKind::Permissions,
        "<permissions instructions>",
        "</permissions instructions>",
    ),
    DeveloperPrefixSpec {
        kind: DeveloperFragmentKind::ApprovedCommandPrefix,
        prefix: "Approved command prefix saved:",
        end: None,
    },
    tagged(
        DeveloperFragmentKind::ModelSwitch,
        "<model_switch>",
        "</model_switch>",
    ),
    tagged(
        DeveloperFragmentKind::ManagedDeveloperInstructions,
        "<managed_developer_instructions>",
        "</managed_developer_instructions>",
    ),
    tagged(
        DeveloperFragmentKind::AppsInstructions,
        "<apps_instructions>",
        "</apps_instructions>",
    ),
    tagged(
        DeveloperFragmentKind::CollaborationMode,
        "<collaboration_mode>",
        "</collaboration_mode>",
    ),
    tagged(
        DeveloperFragmentKind::MultiAgentRole,
        "<multi_agent_role>",
        "</multi_agent_role>",
    ),
    tagged(
        DeveloperFragmentKind::MultiAgentMode,
        "<multi_agent_mode>",
        "</multi_agent_mode>",
    ),
    tagged(
        DeveloperFragmentKind::EnvironmentsInstructions,
        "<environments_instructions>",
        "</environments_instructions>",
    ),
    tagged(
        DeveloperFragmentKind::GitAttribution,
        "<git_attribution>",
        "</git_attribution>",
    ),
    tagged(
        DeveloperFragmentKind::PluginsInstructions,
        "<plugins_instructions>",
        "</plugins_instructions>",
    ),
    tagged(
        DeveloperFragmentKind::RealtimeConversation,
        "<realtime_conversation>",
        "</realtime_conversation>",
    ),
    tagged(
        DeveloperFragmentKind::SkillsInstructions,
        "<skills_instructions>",
        "</skills_instructions>",
    ),
    tagged(DeveloperFragmentKind::Tools, "<tools>", "</tools>"),
    tagged(
        DeveloperFragmentKind::PersonalitySpec,
        "<personality_spec>",
        "</personality_spec>",
    ),
    tagged(
        DeveloperFragmentKind::LegacyTokenBudget,
        "<token_budget>",
        "</token_budget>",
    ),
    tagged(
        DeveloperFragmentKind::ContextWindow,
        "<context_window>",
        "</context_window>",
    ),
    tagged(
        DeveloperFragmentKind::ContextWindowGuidance,
        "<context_window_guidance>",
        "</context_window_guidance>",
    ),
    tagged(
        DeveloperFragmentKind::RolloutBudget,
        "<rollout_budget>",
        "</rollout_budget>",
    ),
];

/// The registry rule of a user-role kind, for rendering.
///
/// Every kind has exactly one row (a unit test checks it); `None` only if the table and the
/// enum ever drift apart.
pub(crate) fn user_rule(kind: UserFragmentKind) -> Option<UserMarkerRule> {
    USER_FRAGMENTS
        .iter()
        .find(|spec| spec.kind == kind)
        .map(|spec| spec.rule)
}

/// The registry row of a developer-role kind, for rendering (see [`user_rule`]).
pub(crate) fn developer_spec(kind: DeveloperFragmentKind) -> Option<DeveloperPrefixSpec> {
    DEVELOPER_PREFIXES
        .iter()
        .find(|spec| spec.kind == kind)
        .copied()
}
