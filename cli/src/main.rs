//! The `codex-thread` binary; everything lives in the library (`codex_thread`).

/// jemalloc, not the system's allocator: the commands that stream a file parse its lines on
/// rayon's pool and drop them on the thread that visits them, and glibc's allocator locks
/// the parsing thread's arena for every such free, so the threads waited on each other's
/// locks (a 1 GiB HTML export: 8.1 s against 6.2 s, `docs/benchmarks.md`, "The
/// allocator"). One arena for all threads, and freed pages given back after a second
/// (`.cargo/config.toml`), keep memory near what glibc took.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(codex_thread::main_exit_code())
}
