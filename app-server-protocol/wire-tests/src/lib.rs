//! The wire-shape snapshots of `codex-app-server-protocol`: one insta snapshot per
//! notification, request, envelope and `ThreadItem` kind, under `tests/`.
//!
//! They live in this never-published crate rather than in `codex-app-server-protocol`'s own
//! `tests/` so that insta, and the diff library it brings (`similar`), are nobody's
//! dependency of that crate, not even a dev-dependency: `cargo tree -p
//! codex-app-server-protocol` (every edge kind) holds no diff library, and `cargo xtask
//! package` checks it. The library is empty on purpose; the crate is its tests.
