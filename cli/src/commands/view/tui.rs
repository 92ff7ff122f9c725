//! The full-screen terminal UI (ratatui + crossterm): the session list with its search box
//! and filter, and the thread pane ([`super::tui_thread`]).
//!
//! Keys. List: j/k or arrows move, Enter opens, `/` searches the full-text index (Enter on a
//! hit opens its thread at the hit's turn), `F` opens it followed (for a session Codex is
//! writing), `f` filters by date, cwd, model (`model:NAME`) or text, `a` switches to archived
//! sessions, `y` copies the resume command (OSC 52), `q` quits. Thread: j/k move by cell,
//! PgUp/PgDn (and space) by page, g/G top and bottom, Enter folds, `/` finds in the thread and
//! n/N go to the next and previous match, `q` goes back, `?` shows the help. The mouse wheel
//! scrolls.
//!
//! The terminal is restored when the UI ends, however it ends (a guard drops it).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use base64::Engine;
use codex_home::Hit;
use codex_home::SourceFilter;
use codex_rollout::CodexHome;
use crossterm::event::{
    self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line as TuiLine, Span as TuiSpan};
use ratatui::widgets::{Clear, Paragraph};

use super::list::{Row, find_text, resume_command, rows, search};
use super::terminal::{TerminalGuard, io_failure};
use super::tui_style::{HELP, tui_spans};
use super::tui_thread::ThreadPane;
use crate::error::{CommandResult, Failure, Status};
use crate::input::resolve_home;
use crate::output::clip;
use crate::output::sanitize::sanitize_text;
use codex_home::{ThreadFollower, TurnWindow, load_thread_file};

/// What the UI starts with.
#[derive(Debug)]
pub(crate) struct TuiArgs {
    pub target: Option<PathBuf>,
    pub home: Option<PathBuf>,
    /// The sources the session list shows (`--source`).
    pub sources: SourceFilter,
    pub index: Option<PathBuf>,
    pub follow: bool,
    pub poll: Duration,
}

/// Runs the UI until the person quits.
pub(crate) fn run(args: &TuiArgs) -> CommandResult {
    let mut app = App::new(args)?;
    let _guard = TerminalGuard::enter()?;
    let backend = CrosstermBackend::new(std::io::stdout());
    let mut terminal = Terminal::new(backend).map_err(io_failure)?;
    while !app.quit {
        terminal.draw(|frame| app.draw(frame)).map_err(io_failure)?;
        if event::poll(args.poll).map_err(io_failure)? {
            match event::read().map_err(io_failure)? {
                Event::Key(key) if key.kind != KeyEventKind::Release => app.key(key),
                Event::Mouse(mouse) => match mouse.kind {
                    MouseEventKind::ScrollDown => app.wheel(3),
                    MouseEventKind::ScrollUp => app.wheel(-3),
                    _ => {}
                },
                _ => {}
            }
        } else if let Some(pane) = &mut app.thread
            && let Err(error) = pane.poll()
        {
            app.message = Some(error.to_string());
        }
        if let Some(text) = app.copy.take() {
            let encoded = base64::engine::general_purpose::STANDARD.encode(text);
            let mut stdout = std::io::stdout();
            write!(stdout, "\x1b]52;c;{encoded}\x07").map_err(io_failure)?;
            stdout.flush().map_err(io_failure)?;
        }
    }
    Ok(Status::Ok)
}

/// A line being typed at the bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prompt {
    Search,
    Filter,
    Find,
}

#[derive(Default)]
struct App {
    home: Option<CodexHome>,
    /// The sources the session list shows.
    sources: SourceFilter,
    index: Option<PathBuf>,
    poll_follow: bool,
    rows: Vec<Row>,
    archived: bool,
    filter: String,
    hits: Option<Vec<Hit>>,
    selected: usize,
    list_top: usize,
    list_height: usize,
    thread: Option<ThreadPane>,
    /// The thread was named on the command line: leaving it quits.
    direct: bool,
    prompt: Option<(Prompt, String)>,
    help: bool,
    message: Option<String>,
    copy: Option<String>,
    /// The words of the last search, for `n` in a thread opened from a hit.
    query: Option<String>,
    quit: bool,
}

impl App {
    fn new(args: &TuiArgs) -> Result<Self, Failure> {
        let mut app = Self {
            index: args.index.clone(),
            poll_follow: args.follow,
            sources: args.sources.clone(),
            direct: args.target.is_some(),
            ..Self::default()
        };
        match &args.target {
            Some(path) => {
                app.open(path.clone(), None, args.follow)?;
            }
            None => {
                let home = resolve_home(args.home.as_deref())?;
                app.rows = rows(&home, false, &app.sources)?;
                app.home = Some(home);
            }
        }
        Ok(app)
    }

    fn open(&mut self, path: PathBuf, turn: Option<u32>, follow: bool) -> Result<(), Failure> {
        let home = self.home.as_ref().map(|home| home.root.clone());
        let (loaded, follower) = if follow {
            let mut follower = ThreadFollower::new(path.clone());
            let loaded = follower.poll()?.unwrap_or_default();
            (loaded, Some(follower))
        } else if turn.is_none()
            && let Some(window) = TurnWindow::at_end(&path)?
        {
            self.thread = Some(ThreadPane::paged(&path, window));
            return Ok(());
        } else {
            (load_thread_file(&path, home.as_deref())?, None)
        };
        let mut pane = ThreadPane::new(&path, &loaded, follower);
        if let Some(turn) = turn {
            // The hit's item, read again from its line; the turn alone when the file changed.
            let anchor = self
                .hits
                .as_ref()
                .and_then(|hits| hits.get(self.selected))
                .and_then(|hit| match hit.anchor() {
                    Ok(anchor) => anchor,
                    Err(error) => {
                        tracing::debug!(%error, "reading the hit's line");
                        None
                    }
                });
            pane.show_turn(turn, anchor);
            // `n` then goes to the words searched for.
            pane.find = self.query.clone();
        }
        self.thread = Some(pane);
        Ok(())
    }

    fn visible_rows(&self) -> Vec<&Row> {
        self.rows
            .iter()
            .filter(|row| row.matches(&self.filter))
            .collect()
    }

    fn list_len(&self) -> usize {
        match &self.hits {
            Some(hits) => hits.len(),
            None => self.visible_rows().len(),
        }
    }

    /// The thread id and file of the selected list entry.
    fn selected_entry(&self) -> Option<(String, PathBuf, Option<u32>)> {
        match &self.hits {
            Some(hits) => hits
                .get(self.selected)
                .map(|hit| (hit.thread_id.clone(), hit.path.clone(), Some(hit.turn))),
            None => self.visible_rows().get(self.selected).map(|row| {
                let session = &row.session;
                (session.thread_id.clone(), session.path.clone().into(), None)
            }),
        }
    }

    fn wheel(&mut self, delta: isize) {
        if let Some(pane) = &mut self.thread {
            if let Some(result) = pane.page_for_wheel(delta) {
                if let Err(error) = result {
                    self.message = Some(error.to_string());
                }
                return;
            }
            pane.scroll(delta);
        } else {
            self.move_selection(delta);
        }
    }

    fn move_selection(&mut self, delta: isize) {
        let len = self.list_len();
        if len == 0 {
            return;
        }
        self.selected = self.selected.saturating_add_signed(delta).min(len - 1);
    }

    fn key(&mut self, key: KeyEvent) {
        self.message = None;
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if let Some((kind, text)) = &mut self.prompt {
            match key.code {
                KeyCode::Esc => self.prompt = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(ch) => text.push(ch),
                KeyCode::Enter => {
                    let (kind, text) = (*kind, text.clone());
                    self.prompt = None;
                    self.submit(kind, text);
                }
                _ => {}
            }
            if let Some((Prompt::Filter, text)) = &self.prompt {
                self.filter = text.clone();
                self.selected = 0;
            }
            return;
        }
        if key.code == KeyCode::Char('?') {
            self.help = true;
            return;
        }
        if self.thread.is_some() {
            self.thread_key(key);
        } else {
            self.list_key(key);
        }
    }

    fn submit(&mut self, kind: Prompt, text: String) {
        match kind {
            Prompt::Search => {
                if text.trim().is_empty() {
                    self.hits = None;
                    return;
                }
                let Some(home) = &self.home else { return };
                match search(home, self.index.as_deref(), &text) {
                    Ok(hits) => {
                        self.message = Some(format!("{} hit(s) for {text}", hits.len()));
                        self.query = Some(find_text(&text));
                        self.hits = Some(hits);
                        self.selected = 0;
                        self.list_top = 0;
                    }
                    Err(error) => self.message = Some(error.to_string()),
                }
            }
            Prompt::Filter => self.filter = text,
            Prompt::Find => {
                if let Some(pane) = &mut self.thread {
                    pane.find = Some(text.clone());
                    if !pane.find_next(true) {
                        self.message = Some(format!("not found: {text}"));
                    }
                }
            }
        }
    }

    fn list_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Esc if self.hits.is_some() => self.hits = None,
            KeyCode::Esc => self.quit = true,
            KeyCode::Char('j') | KeyCode::Down => self.move_selection(1),
            KeyCode::Char('k') | KeyCode::Up => self.move_selection(-1),
            KeyCode::PageDown => self.move_selection(self.list_height.max(1) as isize),
            KeyCode::PageUp => self.move_selection(-(self.list_height.max(1) as isize)),
            KeyCode::Char('g') | KeyCode::Home => self.selected = 0,
            KeyCode::Char('G') | KeyCode::End => self.selected = self.list_len().saturating_sub(1),
            KeyCode::Char('/') => self.prompt = Some((Prompt::Search, String::new())),
            KeyCode::Char('f') => self.prompt = Some((Prompt::Filter, self.filter.clone())),
            KeyCode::Char('a') => {
                self.archived = !self.archived;
                self.hits = None;
                if let Some(home) = &self.home {
                    match rows(home, self.archived, &self.sources) {
                        Ok(rows) => self.rows = rows,
                        Err(error) => self.message = Some(error.to_string()),
                    }
                }
                self.selected = 0;
            }
            KeyCode::Char('y') => {
                if let Some((id, _, _)) = self.selected_entry() {
                    self.copy_resume(&id);
                }
            }
            KeyCode::Enter | KeyCode::Char('F') => {
                let follow = self.poll_follow || key.code == KeyCode::Char('F');
                if let Some((_, path, turn)) = self.selected_entry()
                    && let Err(error) = self.open(path, turn, follow)
                {
                    self.message = Some(error.to_string());
                }
            }
            _ => {}
        }
    }

    fn thread_key(&mut self, key: KeyEvent) {
        let Some(pane) = &mut self.thread else { return };
        let page = pane.height.max(2) as isize - 1;
        let paging = pane.page_for_key(key.code);
        if let Some(result) = paging {
            if let Err(error) = result {
                self.message = Some(error.to_string());
            }
            return;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => {
                if self.direct {
                    self.quit = true;
                } else {
                    self.thread = None;
                }
            }
            KeyCode::Char('j') | KeyCode::Down => pane.step(1),
            KeyCode::Char('k') | KeyCode::Up => pane.step(-1),
            KeyCode::PageDown | KeyCode::Char(' ') => pane.scroll(page),
            KeyCode::PageUp => pane.scroll(-page),
            KeyCode::Char('g') | KeyCode::Home => pane.top_of_thread(),
            KeyCode::Char('G') | KeyCode::End => pane.bottom(),
            KeyCode::Enter => pane.toggle_fold(),
            KeyCode::Char('/') => self.prompt = Some((Prompt::Find, String::new())),
            KeyCode::Char('n') | KeyCode::Char('N') => {
                let forward = key.code == KeyCode::Char('n');
                if !pane.find_next(forward) {
                    self.message = Some("no match".to_owned());
                }
            }
            KeyCode::Char('y') => {
                if let Some(id) = pane.thread_id.clone() {
                    self.copy_resume(&id);
                }
            }
            _ => {}
        }
    }

    /// Copies the command that resumes thread `id` (OSC 52) and says so.
    fn copy_resume(&mut self, id: &str) {
        let command = resume_command(id);
        self.message = Some(format!("copied: {command}"));
        self.copy = Some(command);
    }

    fn draw(&mut self, frame: &mut ratatui::Frame<'_>) {
        let area = frame.area();
        if area.height < 3 {
            return;
        }
        let [body, bar, bottom] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let (bar_text, hint) = if self.thread.is_some() {
            self.draw_thread(frame, body)
        } else {
            self.draw_list(frame, body)
        };
        frame.render_widget(
            Paragraph::new(TuiLine::from(bar_text))
                .style(Style::default().bg(Color::DarkGray).fg(Color::White)),
            bar,
        );
        let bottom_text = match (&self.prompt, &self.message) {
            (Some((kind, text)), _) => {
                let label = match kind {
                    Prompt::Search => "search: ",
                    Prompt::Filter => "filter: ",
                    Prompt::Find => "find: ",
                };
                format!("{label}{}▏", sanitize_text(text))
            }
            (None, Some(message)) => sanitize_text(message).into_owned(),
            (None, None) => hint,
        };
        frame.render_widget(Paragraph::new(bottom_text), bottom);
        if self.help {
            let width = 72.min(area.width);
            let height = (HELP.len() as u16 + 2).min(area.height);
            let popup = Rect {
                x: area.x + (area.width - width) / 2,
                y: area.y + (area.height - height) / 2,
                width,
                height,
            };
            frame.render_widget(Clear, popup);
            let lines: Vec<TuiLine<'_>> = HELP.iter().map(|line| TuiLine::from(*line)).collect();
            frame.render_widget(
                Paragraph::new(lines).block(ratatui::widgets::Block::bordered().title(" help ")),
                popup,
            );
        }
    }

    fn draw_list(&mut self, frame: &mut ratatui::Frame<'_>, area: Rect) -> (String, String) {
        let height = usize::from(area.height.saturating_sub(1));
        self.list_height = height;
        if self.selected < self.list_top {
            self.list_top = self.selected;
        } else if self.selected >= self.list_top + height {
            self.list_top = self.selected + 1 - height;
        }
        let title = match &self.hits {
            Some(hits) => format!(" search: {} hit(s) (Esc back to the list)", hits.len()),
            None => format!(
                " {} {} session(s){}",
                self.visible_rows().len(),
                if self.archived { "archived" } else { "live" },
                if self.filter.is_empty() {
                    String::new()
                } else {
                    format!(", filter {:?}", self.filter)
                }
            ),
        };
        let width = usize::from(area.width);
        let texts: Vec<String> = match &self.hits {
            Some(hits) => hits
                .iter()
                .map(|hit| {
                    format!(
                        "{}  turn {:>3}  {:<9} {}",
                        hit.thread_id.get(..8).unwrap_or(&hit.thread_id),
                        hit.turn,
                        format!("{:?}", hit.role).to_lowercase(),
                        hit.snippet.replace('\n', " ")
                    )
                })
                .collect(),
            None => self
                .visible_rows()
                .iter()
                .map(|row| {
                    let session = &row.session;
                    let name = match &session.name {
                        None => String::new(),
                        Some(name) => format!("\"{}\"  ", clip(name, 30)),
                    };
                    format!(
                        "{}{}  {}  {:<28}  {:<18}  {name}{}",
                        if row.nested { "↳ " } else { "" },
                        row.created,
                        session.thread_id.get(..8).unwrap_or(&session.thread_id),
                        clip(&session.cwd, 28),
                        clip(session.model.as_deref().unwrap_or_default(), 18),
                        session.preview.replace('\n', " ")
                    )
                })
                .collect(),
        };
        let mut lines = vec![TuiLine::from(TuiSpan::styled(
            clip(&title, width),
            Style::default().add_modifier(Modifier::BOLD),
        ))];
        for (index, text) in texts.iter().enumerate().skip(self.list_top).take(height) {
            let shown = clip(&sanitize_text(text), width.saturating_sub(2));
            let style = if index == self.selected {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            let marker = if index == self.selected { "> " } else { "  " };
            lines.push(TuiLine::from(TuiSpan::styled(
                format!("{marker}{shown}"),
                style,
            )));
        }
        if texts.is_empty() {
            lines.push(TuiLine::from("  (nothing here)"));
        }
        frame.render_widget(Paragraph::new(lines), area);
        let bar = match self.selected_entry() {
            Some((id, _, _)) => format!(" resume: {}", resume_command(&id)),
            None => String::new(),
        };
        (
            bar,
            "Enter open · F follow · / search · f filter · a archived · y copy · ? help · q quit"
                .to_owned(),
        )
    }

    fn draw_thread(&mut self, frame: &mut ratatui::Frame<'_>, area: Rect) -> (String, String) {
        let Some(pane) = &mut self.thread else {
            return (String::new(), String::new());
        };
        let header: Vec<String> = pane.header.clone();
        let header_height = header.len().min(usize::from(area.height) / 3);
        let body_height = usize::from(area.height) - header_height;
        pane.height = body_height;
        let width = usize::from(area.width);
        // Rows first: building them may move the selection (a search hit, a page read).
        pane.rows(width);
        let selected = pane.selected;
        let top = pane.top;
        let rows = pane.rows(width);
        let top = top.min(rows.len().saturating_sub(1));
        let mut lines: Vec<TuiLine<'_>> = header
            .iter()
            .take(header_height)
            .map(|text| {
                TuiLine::from(TuiSpan::styled(
                    clip(&sanitize_text(text), width),
                    Style::default().add_modifier(Modifier::BOLD),
                ))
            })
            .collect();
        for row in rows.iter().skip(top).take(body_height) {
            let gutter = if row.cell == Some(selected) {
                "▌ "
            } else {
                "  "
            };
            let mut spans = vec![TuiSpan::styled(gutter, Style::default().fg(Color::Cyan))];
            spans.extend(tui_spans(&row.spans));
            lines.push(TuiLine::from(spans));
        }
        frame.render_widget(Paragraph::new(lines), area);
        let follow = if pane.following() {
            "following · "
        } else {
            ""
        };
        (
            format!(" {follow}{}", pane.status()),
            "j/k cell · PgUp/PgDn · g/G · Enter fold · / find · n/N · y copy · ? help · q back"
                .to_owned(),
        )
    }
}
