//! What the scripted model will say: a [`Script`] of [`Reply`]s, one per model request.
//!
//! Apart from the server (`scripted_model`) so that the words and the wire stay apart: a
//! reply is output items and a usage, an HTTP error, or a held response; how it is sent is
//! the server's business.

use std::collections::VecDeque;
use std::time::Duration;

use serde_json::{Value, json};

use crate::model_items::{Usage, assistant_message};

/// How long a server serves by default, counted from
/// [`ScriptedModel::start`](crate::ScriptedModel::start).
pub const DEFAULT_MODEL_DEADLINE: Duration = Duration::from_secs(120);

/// What the model will say: a queue of replies for turn requests, a queue for compaction
/// requests, and how long the server serves.
#[derive(Clone, Debug)]
pub struct Script {
    pub(crate) turns: VecDeque<Reply>,
    pub(crate) compactions: VecDeque<Reply>,
    pub(crate) deadline: Duration,
}

impl Script {
    /// An empty script: every request gets the default "ok" message.
    pub fn new() -> Script {
        Script {
            turns: VecDeque::new(),
            compactions: VecDeque::new(),
            deadline: DEFAULT_MODEL_DEADLINE,
        }
    }

    /// Appends a reply to the queue of turn requests (`request_kind` `turn`, or none).
    pub fn reply(mut self, reply: Reply) -> Script {
        self.turns.push_back(reply);
        self
    }

    /// Appends a reply to the queue of compaction requests (`request_kind` `compaction`).
    pub fn compaction(mut self, reply: Reply) -> Script {
        self.compactions.push_back(reply);
        self
    }

    /// How long the server serves from its start (default [`DEFAULT_MODEL_DEADLINE`]).
    pub fn deadline(mut self, deadline: Duration) -> Script {
        self.deadline = deadline;
        self
    }
}

impl Default for Script {
    fn default() -> Script {
        Script::new()
    }
}

/// One answer to one model request.
#[derive(Clone, Debug)]
pub struct Reply {
    pub(crate) kind: ReplyKind,
}

#[derive(Clone, Debug)]
pub(crate) enum ReplyKind {
    Stream {
        items: Vec<Value>,
        usage: Usage,
        held: bool,
    },
    Error {
        status: u16,
        body: Value,
    },
}

impl Reply {
    /// A streamed response of these output items, in order, with [`Usage::default`].
    pub fn items(items: Vec<Value>) -> Reply {
        Reply {
            kind: ReplyKind::Stream {
                items,
                usage: Usage::default(),
                held: false,
            },
        }
    }

    /// A streamed response of one assistant message.
    pub fn message(id: &str, text: &str) -> Reply {
        Reply::items(vec![assistant_message(id, text)])
    }

    /// An HTTP error: `status` with `body` as `application/json`.
    pub fn error(status: u16, body: Value) -> Reply {
        Reply {
            kind: ReplyKind::Error { status, body },
        }
    }

    /// A 429 with the OpenAI-style `rate_limit_exceeded` error body.
    pub fn rate_limited() -> Reply {
        Reply::error(
            429,
            json!({ "error": {
                "message": "Rate limit reached for requests",
                "type": "requests",
                "param": null,
                "code": "rate_limit_exceeded",
            }}),
        )
    }

    /// The same streamed response reporting `usage` (an error reply is left as it is).
    pub fn usage(mut self, usage: Usage) -> Reply {
        if let ReplyKind::Stream { usage: current, .. } = &mut self.kind {
            *current = usage;
        }
        self
    }

    /// The same streamed response, held: it sends its items, then waits for
    /// [`ScriptedModel::release_held`](crate::ScriptedModel::release_held) before
    /// `response.completed` (an error reply is left as it is).
    pub fn held(mut self) -> Reply {
        if let ReplyKind::Stream { held, .. } = &mut self.kind {
            *held = true;
        }
        self
    }
}
