# Recipes for the commands the design articles quote (`just test -p codex-core <name>`).
# `just` itself: `cargo install just`. Everything here is plain cargo underneath.

# Runs `cargo test` with the given arguments: `just test -p codex-core filters_non_api_messages`.
test *args:
    cargo test {{args}}

# Everything CI runs (README's test command).
ci:
    cargo xtask ci
