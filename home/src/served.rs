//! A home answered as Codex's app-server answers it, read-only ([`ServedHome`]): the
//! app-server protocol's read methods (`thread/list`, `thread/read`, `thread/turns/list`,
//! `thread/items/list`, `thread/resume` as a pure read, `thread/loaded/list`) and what a
//! client asks before it shows a thread (`account/read`, `model/list`,
//! `configRequirements/read`, `config/read`, `skills/list`), each answered in
//! codex-app-server-protocol's wire types from the home's session files, in the transcript's
//! Codex mode (exactly what Codex's `thread/read` shows). A method that would change anything
//! is refused ([`ServeError::ReadOnly`]); one this server does not know is unknown.
//!
//! [`ServedHome::answer`] takes one request and gives its result or error, and a
//! [`ServedConnection`] is one client's: it answers the same and, as Codex's server does,
//! follows the threads the client resumed, handing on their notifications as Codex writes
//! them. With the `serve` feature, [`serve_home`] puts them on the wire in the address forms
//! of `codex app-server --listen` (standard input and output, WebSocket, a unix socket).

mod bootstrap;
mod list_params;
mod live;
mod pages;
mod threads;
#[cfg(feature = "serve")]
mod transport;
mod window;

use codex_app_server_protocol::{
    ClientRequest, INTERNAL_ERROR_CODE, INVALID_PARAMS_ERROR_CODE, INVALID_REQUEST_ERROR_CODE,
    JSONRPCRequest, METHOD_NOT_FOUND_ERROR_CODE, MessageConversionError,
};
use codex_rollout::CodexHome;
use serde::Serialize;
use serde_json::Value;

use crate::ReadError;

pub use bootstrap::SERVED_CODEX_VERSION;
pub use list_params::ListParamsError;
pub use live::{FOLLOW_EVERY, ServedConnection};
#[cfg(feature = "serve")]
pub use transport::{Listen, ListenError, ServeNote, serve_home};

/// A home served read-only through the app-server protocol.
#[derive(Debug, Clone)]
pub struct ServedHome {
    home: CodexHome,
}

/// Why a request got no result.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The method would change the home or run the agent.
    #[error("{method}: this server is a read-only archive of saved sessions")]
    ReadOnly {
        /// The method.
        method: String,
    },
    /// The method is not one this server answers.
    #[error("method not found: {method}")]
    UnknownMethod {
        /// The method.
        method: String,
    },
    /// The params do not have the method's shape.
    #[error("invalid params for {method}: {message}")]
    BadParams {
        /// The method.
        method: String,
        /// What is wrong.
        message: String,
    },
    /// No session file of the home holds the thread (Codex's words for a thread it cannot
    /// read).
    #[error("thread not loaded: {thread_id}")]
    UnknownThread {
        /// The thread asked for.
        thread_id: String,
    },
    /// A cursor this server did not give, or gave for another listing.
    #[error("invalid cursor: {cursor}")]
    BadCursor {
        /// The cursor.
        cursor: String,
    },
    /// `thread/list` params Codex refuses too.
    #[error(transparent)]
    ListParams(#[from] ListParamsError),
    /// The thread's file could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The home could not be listed.
    #[error("cannot list the home: {0}")]
    Home(#[from] codex_rollout::RolloutError),
}

impl ServeError {
    /// The JSON-RPC error code the error is answered with: `-32600` for what Codex refuses
    /// as an invalid request (a write, an unknown thread, a bad cursor; the code the TUI
    /// shows and stays usable after), `-32601` for an unknown method, `-32602` for params of
    /// another shape, `-32603` for a home or file that cannot be read.
    pub fn code(&self) -> i64 {
        match self {
            Self::ReadOnly { .. } | Self::UnknownThread { .. } | Self::BadCursor { .. } => {
                INVALID_REQUEST_ERROR_CODE
            }
            Self::UnknownMethod { .. } => METHOD_NOT_FOUND_ERROR_CODE,
            Self::BadParams { .. } => INVALID_PARAMS_ERROR_CODE,
            Self::ListParams(error) => error.code(),
            Self::Read(_) | Self::Home(_) => INTERNAL_ERROR_CODE,
        }
    }
}

/// The methods that would change a thread, the home or its configuration, or run the agent:
/// refused, never unknown, so a client says why.
const WRITING_METHODS: &[&str] = &[
    "thread/start",
    "thread/fork",
    "thread/archive",
    "thread/unarchive",
    "thread/delete",
    "thread/rollback",
    "thread/name/set",
    "thread/metadata/update",
    "thread/compact/start",
    "thread/inject_items",
    "thread/shellCommand",
    "thread/goal/set",
    "thread/goal/clear",
    "thread/readState/update",
    "turn/start",
    "turn/steer",
    "turn/interrupt",
    "review/start",
    "command/exec",
    "config/value/write",
    "config/batchWrite",
];

impl ServedHome {
    /// Serves `home`.
    pub fn new(home: CodexHome) -> Self {
        Self { home }
    }

    /// The home served.
    pub fn home(&self) -> &CodexHome {
        &self.home
    }

    /// The result of `request`, or why there is none.
    pub fn answer(&self, request: &JSONRPCRequest) -> Result<Value, ServeError> {
        let method = request.method.as_str();
        if WRITING_METHODS.contains(&method) {
            return Err(ServeError::ReadOnly {
                method: method.to_owned(),
            });
        }
        let typed = match ClientRequest::try_from(request.clone()) {
            Ok(typed) => typed,
            Err(MessageConversionError::Shape { source, .. })
                if ClientRequest::METHODS.contains(&method) =>
            {
                return Err(ServeError::BadParams {
                    method: method.to_owned(),
                    message: source.to_string(),
                });
            }
            Err(_) => {
                return Err(ServeError::UnknownMethod {
                    method: method.to_owned(),
                });
            }
        };
        match typed {
            ClientRequest::Initialize { .. } => result(self.initialize()),
            ClientRequest::ThreadList { params, .. } => result(self.thread_list(&params)?),
            ClientRequest::ThreadLoadedList { .. } => result(self.thread_loaded_list()),
            ClientRequest::ThreadUnsubscribe { params, .. } => {
                result(self.thread_unsubscribe(&params)?)
            }
            ClientRequest::ThreadRead { params, .. } => result(self.thread_read(&params)?),
            ClientRequest::ThreadResume { params, .. } => result(self.thread_resume(&params)?),
            ClientRequest::ThreadTurnsList { params, .. } => {
                result(self.thread_turns_list(&params)?)
            }
            ClientRequest::ThreadItemsList { params, .. } => {
                result(self.thread_items_list(&params)?)
            }
            ClientRequest::GetAccount { .. } => result(self.account()),
            ClientRequest::ModelList { .. } => result(self.models()),
            ClientRequest::ConfigRequirementsRead { .. } => result(self.config_requirements()),
            ClientRequest::ConfigRead { .. } => result(self.config()),
            ClientRequest::SkillsList { .. } => result(self.skills()),
            ClientRequest::ThreadStart { .. }
            | ClientRequest::ThreadRollback { .. }
            | ClientRequest::TurnStart { .. }
            | ClientRequest::TurnInterrupt { .. } => Err(ServeError::ReadOnly {
                method: method.to_owned(),
            }),
        }
    }
}

/// A response as its JSON result.
fn result(response: impl Serialize) -> Result<Value, ServeError> {
    Ok(serde_json::to_value(response).unwrap_or(Value::Null))
}
