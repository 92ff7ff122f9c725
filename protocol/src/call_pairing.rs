//! Which items are tool calls, which are tool outputs, and which output answers which call.
//!
//! This is the one place that knows the pairing rules (what a call is, what answers it, by
//! which key); [`crate::call_matching`] applies them to a whole list, for prompt
//! normalization, `inspect` and `export` alike:
//!
//! | call item | answered by | pairing key |
//! |---|---|---|
//! | `function_call` | `function_call_output` | `call_id` |
//! | `local_shell_call` (with a `call_id`) | `function_call_output` | `call_id` |
//! | `custom_tool_call` | `custom_tool_call_output` | `call_id` |
//! | `tool_search_call` (with a `call_id`) | `tool_search_output` | `call_id` |
//!
//! Outputs live in three *channels* ([`OutputChannel`]); a call and an output pair when they
//! are in the same channel with the same call id. A local shell call is answered on the
//! function channel, which is why it shares call ids with function calls.
//!
//! Exceptions, following upstream:
//! - a `function_call_output` without `call_id` is a standalone ("named") output: it answers
//!   nothing and needs no call;
//! - a `tool_search_output` whose `execution` is `"server"` was produced by the provider and
//!   needs no call in history; one without `call_id` needs none either;
//! - a local shell call or tool search call without `call_id` expects no output.

use crate::models::ResponseItem;

/// The kind of tool involved in a call or an output.
///
/// For an output item the kind names the output's own family: `function_call_output` is
/// [`ToolCallKind::Function`] even when it answers a local shell call. [`ToolCallKind::LocalShell`]
/// only appears on calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolCallKind {
    /// A `function_call` (or its `function_call_output`).
    Function,
    /// A `custom_tool_call` (or its `custom_tool_call_output`).
    CustomTool,
    /// A `local_shell_call`; answered by a `function_call_output`.
    LocalShell,
    /// A `tool_search_call` (or its `tool_search_output`).
    ToolSearch,
}

/// Which output family answers calls of a kind. Pairing happens within a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OutputChannel {
    /// `function_call_output`: answers function calls and local shell calls.
    Function,
    /// `custom_tool_call_output`.
    CustomTool,
    /// `tool_search_output`.
    ToolSearch,
}

impl ToolCallKind {
    /// The channel on which a call of this kind is answered (or, for an output's kind, the
    /// channel the output belongs to).
    pub fn output_channel(self) -> OutputChannel {
        match self {
            Self::Function | Self::LocalShell => OutputChannel::Function,
            Self::CustomTool => OutputChannel::CustomTool,
            Self::ToolSearch => OutputChannel::ToolSearch,
        }
    }
}

impl OutputChannel {
    /// The `type` tag of the output items of this channel.
    pub fn output_item_type(self) -> &'static str {
        match self {
            Self::Function => "function_call_output",
            Self::CustomTool => "custom_tool_call_output",
            Self::ToolSearch => "tool_search_output",
        }
    }

    /// The id prefix of output items of this channel (`fco`, `ctco`, `tso`), for ids of
    /// synthesized outputs.
    pub fn output_id_prefix(self) -> &'static str {
        match self {
            Self::Function => "fco",
            Self::CustomTool => "ctco",
            Self::ToolSearch => "tso",
        }
    }
}

/// Whether an item asks for a tool or reports what a tool returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallSide {
    /// The item asks for a tool to run.
    Call,
    /// The item reports what a tool returned.
    Output,
}

/// The pairing facts of one tool call or tool output item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CallLink<'a> {
    /// The kind of tool, or for an output the family of the output item.
    pub kind: ToolCallKind,
    /// Whether the item is the call or its output.
    pub side: CallSide,
    /// The pairing key; `None` for id-less local shell calls, tool searches and standalone
    /// function outputs.
    pub call_id: Option<&'a str>,
    /// A tool search the provider executes itself (`execution == "server"`).
    pub server_side: bool,
}

/// The key under which a call and its output meet: the output channel plus the call id.
/// Index calls and outputs by it to pair them in one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairKey<'a> {
    /// The output family in which the call and its output meet.
    pub channel: OutputChannel,
    /// The call id both items carry.
    pub call_id: &'a str,
}

impl<'a> CallLink<'a> {
    /// True for a call item.
    pub fn is_call(&self) -> bool {
        self.side == CallSide::Call
    }

    /// True for an output item.
    pub fn is_output(&self) -> bool {
        self.side == CallSide::Output
    }

    /// The channel the item pairs on.
    pub fn channel(&self) -> OutputChannel {
        self.kind.output_channel()
    }

    /// The key to pair on, or `None` when the item has no call id (it can pair with nothing).
    pub fn pair_key(&self) -> Option<PairKey<'a>> {
        self.call_id.map(|call_id| PairKey {
            channel: self.channel(),
            call_id,
        })
    }

    /// True when `self` is an output that answers `call`: same channel, same call id.
    pub fn answers(&self, call: &CallLink<'_>) -> bool {
        self.is_output()
            && call.is_call()
            && self.channel() == call.channel()
            && self.call_id.is_some()
            && self.call_id == call.call_id
    }

    /// True when a history without a partner for this item is incomplete:
    /// - a call with a call id needs an output (a tool search call is checked whatever its
    ///   `execution`, as upstream does);
    /// - an output with a call id needs its call, unless it is a server-side tool search.
    pub fn requires_partner(&self) -> bool {
        match self.side {
            CallSide::Call => self.call_id.is_some(),
            CallSide::Output => self.call_id.is_some() && !self.server_side,
        }
    }
}

impl ResponseItem {
    /// The pairing facts of a tool call or tool output; `None` for every other item.
    pub fn call_link(&self) -> Option<CallLink<'_>> {
        fn link(
            kind: ToolCallKind,
            side: CallSide,
            call_id: Option<&str>,
            server_side: bool,
        ) -> Option<CallLink<'_>> {
            Some(CallLink {
                kind,
                side,
                call_id,
                server_side,
            })
        }
        match self {
            Self::FunctionCall { call_id, .. } => link(
                ToolCallKind::Function,
                CallSide::Call,
                Some(call_id.as_str()),
                false,
            ),
            Self::LocalShellCall { call_id, .. } => link(
                ToolCallKind::LocalShell,
                CallSide::Call,
                call_id.as_deref(),
                false,
            ),
            Self::CustomToolCall { call_id, .. } => link(
                ToolCallKind::CustomTool,
                CallSide::Call,
                Some(call_id.as_str()),
                false,
            ),
            Self::ToolSearchCall {
                call_id, execution, ..
            } => link(
                ToolCallKind::ToolSearch,
                CallSide::Call,
                call_id.as_deref(),
                is_server_execution(execution),
            ),
            Self::FunctionCallOutput { call_id, .. } => link(
                ToolCallKind::Function,
                CallSide::Output,
                call_id.as_deref(),
                false,
            ),
            Self::CustomToolCallOutput { call_id, .. } => link(
                ToolCallKind::CustomTool,
                CallSide::Output,
                Some(call_id.as_str()),
                false,
            ),
            Self::ToolSearchOutput {
                call_id, execution, ..
            } => link(
                ToolCallKind::ToolSearch,
                CallSide::Output,
                call_id.as_deref(),
                is_server_execution(execution),
            ),
            Self::AdditionalTools { .. }
            | Self::Message { .. }
            | Self::AgentMessage { .. }
            | Self::Reasoning { .. }
            | Self::WebSearchCall { .. }
            | Self::ImageGenerationCall { .. }
            | Self::Compaction { .. }
            | Self::ConfigurationUpdate { .. }
            | Self::CompactionTrigger {}
            | Self::ContextCompaction { .. }
            | Self::Other => None,
        }
    }

    /// True for `function_call`, `local_shell_call`, `custom_tool_call`, `tool_search_call`.
    pub fn is_tool_call(&self) -> bool {
        self.call_link().is_some_and(|link| link.is_call())
    }

    /// True for `function_call_output`, `custom_tool_call_output`, `tool_search_output`.
    pub fn is_tool_output(&self) -> bool {
        self.call_link().is_some_and(|link| link.is_output())
    }

    /// The call id of a tool call or output, when it has one.
    pub fn call_id(&self) -> Option<&str> {
        self.call_link().and_then(|link| link.call_id)
    }

    /// The key this item pairs on, when it is a call or output with a call id.
    pub fn pair_key(&self) -> Option<PairKey<'_>> {
        self.call_link().and_then(|link| link.pair_key())
    }
}

/// `execution` value of a tool search the provider runs itself.
pub const SERVER_EXECUTION: &str = "server";

fn is_server_execution(execution: &str) -> bool {
    execution == SERVER_EXECUTION
}

#[cfg(test)]
#[path = "call_pairing_tests.rs"]
mod tests;
