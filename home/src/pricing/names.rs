//! The names a model is priced under: the name a session file writes, then the names it is
//! an alias of, in the order they are tried.
//!
//! Codex and the providers write one model under several names: `openai/gpt-5.4` and
//! `azure/gpt-5.4` (a provider prefix), `gpt-5.1-codex-2025-11-13` (a dated snapshot), and
//! `gpt-5-1-codex` (the version written with a dash). A table may price any of these forms, so
//! each is tried in turn: the name as written, without the provider prefix (only the part
//! after the last `/`), without a `-YYYY-MM-DD` or `-YYYYMMDD` suffix, then each undated one
//! with a dash between two digits read as a dot. A name is never matched to a merely similar one.

/// The names `model` is tried under, first the name itself, without repeats.
pub(crate) fn candidates(model: &str) -> Vec<String> {
    let mut names: Vec<String> = vec![model.to_string()];
    let bare = model.rsplit('/').next().unwrap_or(model);
    let undated = [model, bare].map(without_date);
    let more = std::iter::once(bare).chain(undated.into_iter().flatten());
    push_new(&mut names, more.map(str::to_string));
    let dotted: Vec<String> = names
        .iter()
        .filter(|name| without_date(name).is_none())
        .map(|name| dotted_version(name))
        .collect();
    push_new(&mut names, dotted);
    names
}

fn push_new(names: &mut Vec<String>, more: impl IntoIterator<Item = String>) {
    for name in more {
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
}

/// `name` without a trailing `-YYYY-MM-DD` or `-YYYYMMDD`.
fn without_date(name: &str) -> Option<&str> {
    let is_digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    let parts: Vec<&str> = name.rsplitn(4, '-').collect();
    if let [day, month, year, rest] = parts.as_slice()
        && year.len() == 4
        && month.len() == 2
        && day.len() == 2
        && [day, month, year].iter().all(|part| is_digits(part))
    {
        return Some(rest);
    }
    let (rest, date) = name.rsplit_once('-')?;
    (date.len() == 8 && is_digits(date)).then_some(rest)
}

/// `name` with every `-` between two digits written `.` (`gpt-5-1-codex` is `gpt-5.1-codex`).
fn dotted_version(name: &str) -> String {
    let bytes = name.as_bytes();
    name.char_indices()
        .map(|(index, character)| {
            let between_digits = character == '-'
                && index > 0
                && bytes.get(index - 1).is_some_and(u8::is_ascii_digit)
                && bytes.get(index + 1).is_some_and(u8::is_ascii_digit);
            if between_digits { '.' } else { character }
        })
        .collect()
}

#[cfg(test)]
#[path = "names_tests.rs"]
mod tests;
