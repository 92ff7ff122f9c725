//! The `codex-thread` binary; everything lives in the library (`codex_thread`).

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(codex_thread::main_exit_code())
}
