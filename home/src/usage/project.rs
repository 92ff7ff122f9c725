//! The project a session belongs to, for `usage --by project` and the tables' `project`
//! column: its git repository when the session meta records one, else its working directory.
//!
//! A session meta's `git` holds the commit, the branch and the remote's URL, never the
//! repository's root folder. The remote names the repository wherever it is checked out (two
//! clones, a worktree, a subfolder), so it is the project when recorded, written without what
//! only says how it is reached: `git@github.com:o/r.git`, `https://github.com/o/r`,
//! `ssh://git@github.com:22/o/r.git` are all `github.com/o/r`. A session outside a repository,
//! or in one without a remote, is its `cwd` as written. A sub-agent child's own meta records
//! no git: when the parent's meta copied after it records a remote, the child is in that
//! project (usage's scan decides it, [`super::UsageScan`]).

use codex_protocol::rollout::SessionMetaLine;

/// The project of the session `meta` starts.
pub(crate) fn session_project(meta: &SessionMetaLine) -> String {
    meta.git
        .as_ref()
        .and_then(|git| git.repository_url.as_deref())
        .map(repository_name)
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| meta.meta.cwd.display().to_string())
}

/// Whether `meta` records a git remote.
pub(crate) fn has_remote(meta: &SessionMetaLine) -> bool {
    meta.git
        .as_ref()
        .and_then(|git| git.repository_url.as_deref())
        .is_some_and(|url| !url.trim().is_empty())
}

/// A remote URL without scheme, user, port, `.git` and trailing slashes.
fn repository_name(url: &str) -> String {
    let url = url.trim();
    let (rest, with_scheme) = match url.split_once("://") {
        Some((_, rest)) => (rest, true),
        None => (url, false),
    };
    let first_slash = rest.find('/').unwrap_or(rest.len());
    let rest = match rest[..first_slash].rfind('@') {
        Some(at) => &rest[at + 1..],
        None => rest,
    };
    let first_slash = rest.find('/').unwrap_or(rest.len());
    let (host, path) = rest.split_at(first_slash);
    let (host, path) = match host.split_once(':') {
        // `host:port` after a scheme; `host:path` in the scp-like form.
        Some((name, _port)) if with_scheme => (name, path),
        Some((name, _)) => (name, &rest[name.len() + 1..]),
        None => (host, path),
    };
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    format!("{host}/{path}")
}

#[cfg(test)]
#[path = "project_tests.rs"]
mod tests;
