//! A thread read in two passes, so the whole thread is never held ([`TwoPassThread`]).

use std::path::Path;

use codex_app_server_protocol::transcript::ThreadFacts;
use codex_app_server_protocol::v2::Turn;
use codex_app_server_protocol::{
    BuiltThread, ThreadBuilder, ThreadHistoryBuilder, TranscriptMode, TurnSchedule,
};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};

use super::client_view::{ViewRead, stream_client_view_again};
use super::thread_file::feed_with_base;
use super::{ReadError, SessionInput};

/// A thread read in two passes: the first ([`TwoPassThread::read`]) gives the thread without
/// its items, the facts a transcript shows beside them and when each turn is final; the
/// second ([`TwoPassThread::turns`]) hands on each turn once it is (app-server-protocol's
/// `ThreadBuilder::planner` and `following`). Memory is the turns not yet final, not the
/// thread nor the file.
pub struct TwoPassThread {
    /// The thread without its turns (what the header of a transcript needs).
    pub header: BuiltThread,
    /// How many turns the thread shows.
    pub turns: usize,
    /// What the transcript shows beside the items (tokens, rollbacks, the model).
    pub facts: ThreadFacts,
    /// The first session meta, when the items have one.
    pub meta: Option<SessionMetaLine>,
    schedule: TurnSchedule,
    again: Again,
}

/// How the turn a file leaves open is handed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOpen {
    /// As a thread shows it, interrupted (app-server-protocol's `ThreadBuilder`).
    Interrupted,
    /// As it stands, in progress (a view whose status line says the file left it open).
    InProgress,
}

/// The second pass's builder.
enum Second {
    Thread(Box<ThreadBuilder>),
    History(Box<ThreadHistoryBuilder>),
}

impl Second {
    fn handle(&mut self, item: &RolloutItem) {
        match self {
            Self::Thread(builder) => builder.handle_rollout_item(item),
            Self::History(builder) => builder.handle_rollout_item(item),
        }
    }

    fn take_final_turns(&mut self) -> Vec<Turn> {
        match self {
            Self::Thread(builder) => builder.take_final_turns(),
            Self::History(builder) => builder.take_final_turns(),
        }
    }

    fn finish(self) -> Vec<Turn> {
        match self {
            Self::Thread(builder) => match (*builder).finish() {
                BuiltThread::Thread(thread) => thread.turns,
                BuiltThread::TurnsOnly(turns) => turns,
            },
            Self::History(builder) => (*builder).finish(),
        }
    }
}

impl std::fmt::Debug for TwoPassThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwoPassThread")
            .field("header", &self.header)
            .field("turns", &self.turns)
            .finish_non_exhaustive()
    }
}

/// What the first pass keeps: the thread, the facts, the first session meta.
type First = (ThreadBuilder, ThreadFacts, Option<SessionMetaLine>);

/// How the second pass reads the items again.
enum Again {
    /// The client view of the input, read again.
    Stream(ViewRead),
    /// A file that continues another thread's history: its resolved items, held.
    Items(Vec<RolloutItem>),
}

impl TwoPassThread {
    /// The first pass over `input` (a file's history base resolved through `home`, else
    /// the home the file lies in, else the default one).
    pub fn read(input: &dyn SessionInput, home: Option<&Path>) -> Result<Self, ReadError> {
        let new = || (ThreadBuilder::planner(), ThreadFacts::new(), None);
        let feed = |(builder, facts, meta): &mut First, item: &RolloutItem| {
            builder.handle_rollout_item(item);
            facts.handle(item);
            if let (None, Some(first)) = (&meta, item.session_meta()) {
                *meta = Some(first.clone());
            }
        };
        let mut based = Vec::new();
        let is_based = match input.file() {
            Some(path) => feed_with_base(path, home, |item| based.push(item.clone()))?,
            None => false,
        };
        let ((builder, facts, meta), again) = if is_based {
            let mut first = new();
            based.iter().for_each(|item| feed(&mut first, item));
            (first, Again::Items(based))
        } else {
            let (first, read) = stream_client_view_again(input, new, feed)?;
            (first, Again::Stream(read))
        };
        let (header, schedule) = builder.finish_schedule();
        Ok(Self {
            header,
            turns: schedule.turns(),
            facts,
            meta,
            schedule,
            again,
        })
    }

    /// The thread without its turns (the first pass builds none), taken out.
    pub fn take_header(&mut self) -> BuiltThread {
        std::mem::replace(&mut self.header, BuiltThread::TurnsOnly(Vec::new()))
    }

    /// The thread's turns showing the items of `mode`, the one the file leaves open shown
    /// as `left_open` says, each handed to `visit` in order as soon as it is final; stops at
    /// the first error `visit` returns. `input` is the one the first pass read; `label` names
    /// the pass ([`SessionInput::open`]).
    pub fn turns<E: From<ReadError>>(
        self,
        input: &dyn SessionInput,
        (mode, left_open): (TranscriptMode, LeftOpen),
        label: &str,
        mut visit: impl FnMut(Turn) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut builder = match left_open {
            LeftOpen::Interrupted => {
                Second::Thread(Box::new(ThreadBuilder::following(mode, self.schedule)))
            }
            LeftOpen::InProgress => Second::History(Box::new(
                ThreadHistoryBuilder::in_mode(mode).following(self.schedule),
            )),
        };
        let mut feed = |item: &RolloutItem| {
            builder.handle(item);
            builder
                .take_final_turns()
                .into_iter()
                .try_for_each(&mut visit)
        };
        match &self.again {
            Again::Stream(read) => read.again(input, label, &mut feed)?,
            Again::Items(items) => items.iter().try_for_each(&mut feed)?,
        }
        builder.finish().into_iter().try_for_each(visit)
    }
}
