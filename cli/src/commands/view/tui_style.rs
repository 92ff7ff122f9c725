//! How the terminal UI draws: the style of each tone, the help text.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span as TuiSpan;

use super::line::{Line, Tone};

/// The help screen (`?`).
pub(crate) const HELP: &[&str] = &[
    "codex-thread view: keys",
    "",
    "session list",
    "  j/k ↓/↑      move            Enter   open thread",
    "  F            follow thread (a session Codex is writing)",
    "  /            search all      f       filter (date, cwd, model, text)",
    "  a            archived/live   y       copy resume command",
    "  q            quit",
    "",
    "thread",
    "  j/k ↓/↑      next/prev cell  PgDn/PgUp space  page",
    "  g/G          top/bottom      Enter   fold/unfold cell",
    "  /            find in thread  n/N     next/prev match",
    "  q Esc        back            wheel   scroll",
    "",
    "any key closes this help",
];

/// The spans of one line, styled.
pub(crate) fn tui_spans(line: &Line) -> Vec<TuiSpan<'static>> {
    line.iter()
        .map(|span| TuiSpan::styled(span.text.clone(), style_of(span.tone)))
        .collect()
}

/// The style of a tone.
pub(crate) fn style_of(tone: Tone) -> Style {
    let style = Style::default();
    match tone {
        Tone::Plain => style,
        Tone::Dim => style.fg(Color::DarkGray),
        Tone::User => style.fg(Color::Cyan).add_modifier(Modifier::BOLD),
        Tone::Heading => style.fg(Color::Magenta).add_modifier(Modifier::BOLD),
        Tone::Strong => style.add_modifier(Modifier::BOLD),
        Tone::Emphasis => style.add_modifier(Modifier::ITALIC),
        Tone::Code => style.fg(Color::Yellow),
        Tone::Command => style.fg(Color::White).add_modifier(Modifier::BOLD),
        Tone::Added => style.fg(Color::Green),
        Tone::Removed => style.fg(Color::Red),
        Tone::Hunk => style.fg(Color::Blue),
        Tone::Good => style.fg(Color::Green),
        Tone::Bad => style.fg(Color::Red),
        Tone::Marker => style.fg(Color::Blue),
        Tone::Live => style.fg(Color::Yellow).add_modifier(Modifier::SLOW_BLINK),
    }
}
