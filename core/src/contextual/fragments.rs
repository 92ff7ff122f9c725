//! Context fragments for the prompt side: what a fragment is, how it renders, and how
//! adjacent fragments merge into messages.
//!
//! A [`ContextFragment`] is one section of runtime context (AGENTS.md, the environment, a
//! permissions block, a mode switch, ...) together with the prompt slot it belongs to. The
//! slot decides the role; the registered kinds render with the registry's own markers, so a
//! rendered fragment is always recognised as context when it comes back from history.

use codex_protocol::items::HookPromptFragment;
use codex_protocol::models::{ContentItem, ResponseItem};

use super::hook_prompt::render_hook_prompt_fragment;
use super::registry::{
    DeveloperFragmentKind, UserFragmentKind, UserMarkerRule, developer_spec, user_rule,
};
use super::user::is_valid_internal_context_source;

/// The role a fragment is sent with. Only these two carry runtime context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FragmentRole {
    /// Application rules and capabilities.
    Developer,
    /// The person's task context (AGENTS.md, environment, skills, ...).
    User,
}

impl FragmentRole {
    /// The `role` string of the message.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Developer => "developer",
            Self::User => "user",
        }
    }
}

/// Where a fragment is compiled into the initial context (seed 002).
///
/// `DeveloperPolicy` and `DeveloperCapabilities` carry the same authority; the split is only
/// semantic. `SeparateDeveloper` is not a higher level either: it keeps a developer section in
/// its own message for ordering, audit and rollback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PromptSlot {
    /// Rules and constraints, merged into the developer bundle.
    DeveloperPolicy,
    /// What the runtime can do, merged into the developer bundle.
    DeveloperCapabilities,
    /// A developer section that must stay a message of its own.
    SeparateDeveloper,
    /// User-level context, merged into the contextual user message.
    ContextualUser,
}

impl PromptSlot {
    /// The role every fragment of this slot is sent with.
    pub fn role(self) -> FragmentRole {
        match self {
            Self::DeveloperPolicy | Self::DeveloperCapabilities | Self::SeparateDeveloper => {
                FragmentRole::Developer
            }
            Self::ContextualUser => FragmentRole::User,
        }
    }
}

/// Which registered fragment a [`ContextFragment`] is, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FragmentKind {
    /// A registered user-role fragment.
    User(UserFragmentKind),
    /// A registered developer-role fragment.
    Developer(DeveloperFragmentKind),
    /// A hook prompt element.
    HookPrompt,
    /// Free text without registered markers (configured developer instructions, extension
    /// sections, ...).
    Unmarked,
}

/// Why a fragment could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FragmentError {
    /// The internal-context source must match `[a-z][a-z0-9_]*`, or the fragment would not be
    /// recognised (and would show up as a user message).
    #[error("internal context source {0:?} does not match [a-z][a-z0-9_]*")]
    InvalidInternalContextSource(String),
    /// An external-context key must be non-empty and free of `>` and whitespace.
    #[error("external context key {0:?} is empty or contains '>' or whitespace")]
    InvalidExternalContextKey(String),
    /// The kind has no plain start/end markers; use its dedicated constructor.
    #[error("{0:?} has no plain start/end markers; use its dedicated constructor")]
    NotPlainMarked(FragmentKind),
    /// The slot's role differs from the fragment's role.
    #[error("slot {slot:?} sends {slot_role:?} messages, the fragment is {role:?}")]
    RoleMismatch {
        /// The slot asked for.
        slot: PromptSlot,
        /// The role of that slot.
        slot_role: FragmentRole,
        /// The role of the fragment.
        role: FragmentRole,
    },
}

/// One rendered section of runtime context, with its slot and merge rule.
///
/// Build it with a kind-specific constructor (they render registered markers) or
/// [`ContextFragment::text`] for unmarked text; adjust with [`ContextFragment::with_slot`] and
/// [`ContextFragment::separate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextFragment {
    kind: FragmentKind,
    slot: PromptSlot,
    separate: bool,
    text: String,
}

/// Guidance Codex puts in a `<turn_aborted>` fragment when the person interrupted a turn.
pub(crate) const TURN_ABORTED_GUIDANCE: &str = "The user interrupted the previous turn on purpose. Any running unified exec processes may still be running in the background. If any tools/commands were aborted, they may have partially executed.";

/// The sentence that opens a `<model_switch>` fragment.
pub(crate) const MODEL_SWITCH_PREAMBLE: &str = "The user was previously using a different model. Please continue the conversation according to the following instructions:";

impl ContextFragment {
    fn new(kind: FragmentKind, slot: PromptSlot, text: String) -> Self {
        Self {
            kind,
            slot,
            separate: slot == PromptSlot::SeparateDeveloper,
            text,
        }
    }

    /// Unmarked text in `slot` (for example configured developer instructions). It is not
    /// recognised as context later: rollback keeps such developer text.
    pub fn text(slot: PromptSlot, text: impl Into<String>) -> Self {
        Self::new(FragmentKind::Unmarked, slot, text.into())
    }

    /// A registered user fragment with plain start/end markers, rendered `start + body + end`
    /// (the body carries its own newlines).
    pub fn user_marked(kind: UserFragmentKind, body: &str) -> Result<Self, FragmentError> {
        match user_rule(kind) {
            Some(
                UserMarkerRule::Marked { start, end } | UserMarkerRule::MarkedExact { start, end },
            ) => Ok(Self::user(kind, format!("{start}{body}{end}"))),
            _ => Err(FragmentError::NotPlainMarked(FragmentKind::User(kind))),
        }
    }

    /// A registered developer fragment, rendered `prefix + body + end` (no end for unmarked
    /// prefixes such as `Approved command prefix saved:`). Slot: developer policy.
    pub fn developer_marked(kind: DeveloperFragmentKind, body: &str) -> Self {
        let (prefix, end) =
            developer_spec(kind).map_or(("", ""), |spec| (spec.prefix, spec.end.unwrap_or("")));
        Self::new(
            FragmentKind::Developer(kind),
            PromptSlot::DeveloperPolicy,
            format!("{prefix}{body}{end}"),
        )
    }

    fn user(kind: UserFragmentKind, text: String) -> Self {
        Self::new(FragmentKind::User(kind), PromptSlot::ContextualUser, text)
    }

    /// AGENTS.md instructions, with the legacy ` for {dir}` header when a directory is given.
    pub fn agents_md(directory: Option<&str>, instructions: &str) -> Self {
        let header = match directory {
            Some(dir) => format!("# AGENTS.md instructions for {dir}"),
            None => "# AGENTS.md instructions".to_string(),
        };
        Self::user(
            UserFragmentKind::AgentsMd,
            format!("{header}\n\n<INSTRUCTIONS>\n{instructions}\n</INSTRUCTIONS>"),
        )
    }

    /// The environment block; `body` is the inner XML, including its leading newline.
    pub fn environment_context(body: &str) -> Self {
        Self::user(
            UserFragmentKind::EnvironmentContext,
            format!("<environment_context>{body}</environment_context>"),
        )
    }

    /// A skill's full text.
    pub fn skill(name: &str, path: &str, contents: &str) -> Self {
        Self::user(
            UserFragmentKind::Skill,
            format!("<skill>\n<name>{name}</name>\n<path>{path}</path>\n{contents}\n</skill>"),
        )
    }

    /// The echo of a command the person ran in the shell, with its result.
    pub fn user_shell_command(
        command: &str,
        exit_code: i32,
        duration_secs: f64,
        output: &str,
    ) -> Self {
        Self::user(
            UserFragmentKind::UserShellCommand,
            format!(
                "<user_shell_command>\n<command>\n{command}\n</command>\n<result>\nExit code: {exit_code}\nDuration: {duration_secs:.4} seconds\nOutput:\n{output}\n</result>\n</user_shell_command>"
            ),
        )
    }

    /// The note that the previous turn was interrupted on purpose.
    pub fn turn_aborted() -> Self {
        Self::user(
            UserFragmentKind::TurnAborted,
            format!("<turn_aborted>\n{TURN_ABORTED_GUIDANCE}\n</turn_aborted>"),
        )
    }

    /// A sub-agent status notification; `json` is the notification object.
    pub fn subagent_notification(json: &str) -> Self {
        Self::user(
            UserFragmentKind::SubagentNotification,
            format!("<subagent_notification>\n{json}\n</subagent_notification>"),
        )
    }

    /// Internal model context from `source` (which must match `[a-z][a-z0-9_]*`).
    pub fn internal_context(source: &str, body: &str) -> Result<Self, FragmentError> {
        if !is_valid_internal_context_source(source) {
            return Err(FragmentError::InvalidInternalContextSource(
                source.to_string(),
            ));
        }
        Ok(Self::user(
            UserFragmentKind::InternalContext,
            format!(
                "<codex_internal_context source=\"{source}\">\n{body}\n</codex_internal_context>"
            ),
        ))
    }

    /// Additional context from an external source, `<external_{key}>{value}</external_{key}>`.
    pub fn external_context(key: &str, value: &str) -> Result<Self, FragmentError> {
        if key.is_empty() || key.contains(|c: char| c == '>' || c.is_whitespace()) {
            return Err(FragmentError::InvalidExternalContextKey(key.to_string()));
        }
        Ok(Self::user(
            UserFragmentKind::ExternalContext,
            format!("<external_{key}>{value}</external_{key}>"),
        ))
    }

    /// The model-switch instructions. Initial-context compilation puts this first in the
    /// developer bundle (see [`ContextFragment::is_model_switch`]).
    pub fn model_switch(instructions: &str) -> Self {
        Self::developer_marked(
            DeveloperFragmentKind::ModelSwitch,
            &format!("\n{MODEL_SWITCH_PREAMBLE}\n\n{instructions}\n"),
        )
    }

    /// A hook prompt element. It always travels in a message of its own.
    pub fn hook_prompt(fragment: &HookPromptFragment) -> Self {
        let mut this = Self::new(
            FragmentKind::HookPrompt,
            PromptSlot::ContextualUser,
            render_hook_prompt_fragment(fragment),
        );
        this.separate = true;
        this
    }

    /// Moves the fragment to another slot of the same role (for example developer policy to
    /// capabilities). Moving to `SeparateDeveloper` also makes it separate.
    pub fn with_slot(mut self, slot: PromptSlot) -> Result<Self, FragmentError> {
        if slot.role() != self.role() {
            return Err(FragmentError::RoleMismatch {
                slot,
                slot_role: slot.role(),
                role: self.role(),
            });
        }
        self.slot = slot;
        self.separate |= slot == PromptSlot::SeparateDeveloper;
        Ok(self)
    }

    /// Requires the fragment to be a message of its own (a rollback or audit boundary).
    pub fn separate(mut self) -> Self {
        self.separate = true;
        self
    }

    /// The role the fragment is sent with (decided by its slot).
    pub fn role(&self) -> FragmentRole {
        self.slot.role()
    }

    /// The slot.
    pub fn slot(&self) -> PromptSlot {
        self.slot
    }

    /// Which registered fragment this is.
    pub fn kind(&self) -> FragmentKind {
        self.kind
    }

    /// True for the `<model_switch>` fragment, which goes first in the developer bundle.
    pub fn is_model_switch(&self) -> bool {
        self.kind == FragmentKind::Developer(DeveloperFragmentKind::ModelSwitch)
    }

    /// Whether the fragment refuses to share a message with its neighbours.
    pub fn requires_separate_message(&self) -> bool {
        self.separate
    }

    /// The rendered text: one `input_text` of the message.
    pub fn render(&self) -> &str {
        &self.text
    }

    /// The fragment alone as a message of its role (`id` unset).
    pub fn into_message(self) -> ResponseItem {
        ResponseItem::message(
            self.role().as_str(),
            vec![ContentItem::input_text(self.text)],
        )
    }
}

/// A message of `role` with one `input_text` per non-empty section, or `None` when there is
/// no section. Sections stay separate parts (not one joined string) so their boundaries
/// survive.
pub fn build_text_message<I, S>(role: FragmentRole, sections: I) -> Option<ResponseItem>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let content: Vec<ContentItem> = sections
        .into_iter()
        .map(Into::into)
        .filter(|section: &String| !section.is_empty())
        .map(ContentItem::input_text)
        .collect();
    (!content.is_empty()).then(|| ResponseItem::message(role.as_str(), content))
}

/// Groups fragments into messages, keeping their order.
///
/// A fragment joins the previous message only when both have the same role and neither
/// requires a separate message; otherwise it starts a new one. Fragments are never bucketed
/// by role across the list: that would reorder them.
pub fn merge_context_fragments(fragments: &[ContextFragment]) -> Vec<ResponseItem> {
    let mut groups: Vec<(FragmentRole, bool, Vec<ContentItem>)> = Vec::new();
    for fragment in fragments {
        let mergeable = !fragment.requires_separate_message();
        let section = ContentItem::input_text(fragment.render());
        match groups.last_mut() {
            Some((role, previous_mergeable, sections))
                if *role == fragment.role() && *previous_mergeable && mergeable =>
            {
                sections.push(section);
            }
            _ => groups.push((fragment.role(), mergeable, vec![section])),
        }
    }
    groups
        .into_iter()
        .map(|(role, _, sections)| ResponseItem::message(role.as_str(), sections))
        .collect()
}
