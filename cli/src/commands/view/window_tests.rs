use pretty_assertions::assert_eq;

use codex_app_server_protocol::transcript::{Cell, CellBody, Transcript};

use super::*;
use codex_home::load_thread_file;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The sample's session meta, then its first turn `turns` times over (`turn-N`, the question
/// numbered N); its path, size and meta.
fn session(
    dir: &Path,
    turns: usize,
) -> Result<(PathBuf, u64, SessionMetaLine), Box<dyn std::error::Error>> {
    let lines: Vec<&str> = crate::sample::SAMPLE_JSONL.lines().collect();
    let (meta, block) = (lines[0], &lines[1..22]);
    let mut out = format!("{meta}\n");
    for turn in 1..=turns {
        for line in block {
            out.push_str(&line.replace("turn-1", &format!("turn-{turn}")).replace(
                "What does this project",
                &format!("Question {turn}: what does this project"),
            ));
            out.push('\n');
        }
    }
    let path = dir.join("rollout-2025-06-02T09-00-00-0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55.jsonl");
    std::fs::write(&path, &out)?;
    let meta = codex_home::read_head_summary(&path)?
        .session_meta
        .ok_or("no meta")?;
    Ok((path, out.len() as u64, meta))
}

fn cells_of(loaded: &LoadedThread) -> Vec<Cell> {
    let transcript = Transcript::replay(&loaded.turns, &loaded.facts);
    transcript.history().to_vec()
}

/// The cells that show items (a turn's separator carries tokens counted from the turn
/// before, which a window starting at that turn does not hold).
fn item_cells(cells: &[Cell]) -> Vec<Cell> {
    cells
        .iter()
        .filter(|cell| !matches!(cell.body, CellBody::TurnEnd { .. }))
        .cloned()
        .collect()
}

#[test]
fn paging_back_to_the_start_gives_the_whole_files_cells() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (path, size, meta) = session(dir.path(), 12)?;
    let whole = cells_of(&load_thread_file(&path, None)?);
    let mut window = Window::with_bounds(&path, size, meta, 3, usize::MAX)?;
    assert!(window.start() > 0);
    assert_eq!(window.bytes_after(), 0);
    let mut pages = 1;
    while window.page_back()? {
        pages += 1;
    }
    // Four pages of three turns, then the lines before the first turn (the meta).
    assert_eq!(pages, 5);
    assert_eq!(window.start(), 0);
    assert_eq!(cells_of(&window.loaded()), whole);
    Ok(())
}

#[test]
fn a_bounded_window_holds_a_run_of_the_whole_files_cells() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (path, size, meta) = session(dir.path(), 12)?;
    let whole = item_cells(&cells_of(&load_thread_file(&path, None)?));
    let mut window = Window::with_bounds(&path, size, meta, 3, 2)?;
    let held = |window: &Window| -> Result<(Vec<Cell>, usize), Box<dyn std::error::Error>> {
        let cells = item_cells(&cells_of(&window.loaded()));
        let first = cells.first().ok_or("no cells")?;
        let at = whole
            .iter()
            .position(|cell| cell == first)
            .ok_or("the first cell is not in the whole file")?;
        Ok((cells, at))
    };
    let mut seen_starts = Vec::new();
    while window.page_back()? {
        // Never more than two pages (six turns) held.
        let loaded = window.loaded();
        assert!(loaded.turns.len() <= 6, "{} turns held", loaded.turns.len());
        let (cells, at) = held(&window)?;
        assert_eq!(cells, whole[at..at + cells.len()]);
        seen_starts.push(at);
    }
    assert_eq!(seen_starts.last(), Some(&0));
    assert!(window.bytes_after() > 0);
    // Forwards again to the end, a page at a time.
    while window.page_forward()? {
        let (cells, at) = held(&window)?;
        assert_eq!(cells, whole[at..at + cells.len()]);
    }
    assert_eq!(window.bytes_after(), 0);
    assert_eq!(
        held(&window)?.0,
        whole[whole.len() - held(&window)?.0.len()..]
    );
    // The ends at once.
    window.hold_start()?;
    assert_eq!(window.start(), 0);
    let (cells, at) = held(&window)?;
    assert_eq!((at, cells.as_slice()), (0, &whole[..cells.len()]));
    window.hold_end()?;
    assert_eq!(window.bytes_after(), 0);
    Ok(())
}
