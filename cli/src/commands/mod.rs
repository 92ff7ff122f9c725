//! One module per subcommand; [`run`] dispatches.

pub(crate) mod compress;
pub(crate) mod du;
pub(crate) mod export;
pub(crate) mod fork;
pub(crate) mod history;
pub(crate) mod import;
pub(crate) mod inspect;
pub(crate) mod list;
pub(crate) mod mcp;
pub(crate) mod notifications;
pub(crate) mod prompt;
pub(crate) mod prune;
pub(crate) mod repair;
pub(crate) mod rescue;
pub(crate) mod search;
pub(crate) mod secrets;
pub(crate) mod serve;
pub(crate) mod table;
pub(crate) mod thread;
pub(crate) mod usage;
pub(crate) mod validate;
pub(crate) mod view;

use std::path::PathBuf;

use crate::cli::Command;
use crate::error::CommandResult;
use crate::input::Source;
use crate::inputs::expand_sources_reporting_each;
use crate::output::Output;

/// The one session a command reads: a file, or standard input or the sample spooled into a
/// temporary file, so that every command reads a file (from its end, or more than once).
fn session_file(
    arg: Option<&std::path::Path>,
    home: Option<&std::path::Path>,
) -> Result<Source, crate::error::Failure> {
    Source::from_arg(arg, home)?.spool()
}

/// `--home` of a one-session command (where parents of a fork by reference and thread names
/// are looked up), refused by the one home rule when it is no Codex home, even if the session
/// never needs it: every command that takes `--home` treats a bad one alike.
fn checked_home(home: Option<PathBuf>) -> Result<Option<PathBuf>, crate::error::Failure> {
    if let Some(home) = &home {
        crate::input::resolve_home(Some(home))?;
    }
    Ok(home)
}

/// Runs `command` (default: `inspect` of the bundled sample), writing to `out`.
pub(crate) fn run(command: Option<Command>, out: &mut Output) -> CommandResult {
    let command = command.unwrap_or(Command::Inspect {
        files: Vec::new(),
        home: None,
    });
    match command {
        Command::Inspect { files, home } => inspect::run(
            &expand_sources_reporting_each(&files, home.as_deref())?,
            out,
        ),
        Command::Validate { files, home } => validate::run(
            &expand_sources_reporting_each(&files, home.as_deref())?,
            out,
        ),
        Command::History { file, home } => {
            let home = checked_home(home)?;
            history::run(&session_file(file.as_deref(), home.as_deref())?, home, out)
        }
        Command::Prompt {
            file,
            lite,
            modalities,
            home,
        } => {
            let home = checked_home(home)?;
            prompt::run(
                &session_file(file.as_deref(), home.as_deref())?,
                lite,
                &modalities,
                home,
                out,
            )
        }
        Command::Thread {
            file,
            last,
            home,
            complete,
        } => {
            let home = checked_home(home)?;
            let source = session_file(file.as_deref(), home.as_deref())?;
            thread::run(&source, last, home, complete, out)
        }
        Command::Notifications { file } => {
            notifications::run(&session_file(file.as_deref(), None)?, out)
        }
        Command::Export {
            file,
            format,
            output,
            redact,
            redact_patterns,
            home,
        } => {
            let home = checked_home(home)?;
            let source = session_file(file.as_deref(), home.as_deref())?;
            let options = export::ExportOptions {
                format,
                output,
                redact,
                patterns: redact_patterns,
                home,
            };
            export::run(&source, &options, out)
        }
        Command::Fork {
            file,
            drop_turns,
            output,
            by_reference,
            home,
        } => {
            let source = session_file(file.as_deref(), home.as_deref())?;
            let mode = by_reference.then_some(fork::ByReferenceOptions { home });
            fork::run(&source, drop_turns, &output, mode, out)
        }
        Command::List(args) => list::run(args, out),
        Command::Usage(args) => usage::run(&args, out),
        Command::Search(args) => search::run(args, out),
        Command::Secrets(args) => secrets::run(&args, out),
        Command::Du(args) => du::run(&args, out),
        Command::Compress(args) => compress::run(&args, out),
        Command::View(args) => view::run(&args, out),
        Command::Table(args) => table::run(&args, out),
        Command::Prune(args) => prune::run(&args, out),
        Command::Import(args) => import::run(&args, out),
        Command::Repair(args) => repair::run(&args, out),
        Command::Rescue(args) => rescue::run(&args, out),
        Command::Serve(args) => serve::run(&args, out),
        Command::Mcp(args) => mcp::run(&args, out),
    }
}

/// Runs `codex-thread ARGS` in this process; what it printed, or its error's message.
pub(crate) fn run_in_process(args: &[String]) -> Result<String, String> {
    let argv = std::iter::once("codex-thread".to_owned()).chain(args.iter().cloned());
    let matches = crate::cli::command()
        .try_get_matches_from(argv)
        .map_err(|error| error.to_string())?;
    let cli = <crate::cli::Cli as clap::FromArgMatches>::from_arg_matches(&matches)
        .map_err(|error| error.to_string())?;
    let printed = Printed::default();
    let mut out = Output::to_writer(cli.json, Box::new(printed.clone()));
    let ran = run(cli.command, &mut out).and_then(|status| {
        out.finish()?;
        Ok(status)
    });
    let text = printed.text();
    match ran {
        Ok(_) => Ok(text),
        Err(failure) => Err(failure.to_string()),
    }
}

/// What a command printed, shared with the writer it printed through.
#[derive(Debug, Clone, Default)]
struct Printed(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Printed {
    fn text(&self) -> String {
        let bytes = self.0.lock().map(|bytes| bytes.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl std::io::Write for Printed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("the output was poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
