use pretty_assertions::assert_eq;

use codex_app_server_protocol::transcript::{Cell, CellBody, Transcript};

use super::*;
use crate::load_thread_file;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The binary's bundled sample session.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cli/sample/session.jsonl");

/// The sample's session meta, then its first turn `turns` times over (`turn-N`, the question
/// numbered N); its path, size and meta.
fn session(
    dir: &Path,
    turns: usize,
) -> Result<(PathBuf, u64, SessionMetaLine), Box<dyn std::error::Error>> {
    let sample = std::fs::read_to_string(SAMPLE)?;
    let lines: Vec<&str> = sample.lines().collect();
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
    let meta = read_head_summary(&path)?.session_meta.ok_or("no meta")?;
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
    let mut window = TurnWindow::with_bounds(&path, size, meta, 3, usize::MAX)?;
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
    let mut window = TurnWindow::with_bounds(&path, size, meta, 3, 2)?;
    let held = |window: &TurnWindow| -> Result<(Vec<Cell>, usize), Box<dyn std::error::Error>> {
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

#[test]
fn only_a_large_plain_file_that_records_its_turns_opens_at_its_end() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (path, size, _) = session(dir.path(), PAGE_TURNS + 5)?;
    // Smaller than the bound: read whole.
    assert!(TurnWindow::at_end_from(&path, size + 1)?.is_none());
    let window = TurnWindow::at_end_from(&path, size)?.ok_or("not opened at its end")?;
    assert!(window.start() > 0);
    assert_eq!(window.bytes_after(), 0);
    assert_eq!(window.loaded().turns.len(), PAGE_TURNS);
    // Its last page is the whole file: read whole.
    let short_dir = dir.path().join("short");
    std::fs::create_dir(&short_dir)?;
    let (short, _, _) = session(&short_dir, PAGE_TURNS - 1)?;
    assert!(TurnWindow::at_end_from(&short, 0)?.is_none());
    // A compressed copy: read whole.
    let zst = dir.path().join("session.jsonl.zst");
    std::fs::write(&zst, zstd::encode_all(std::fs::read(&path)?.as_slice(), 3)?)?;
    assert!(TurnWindow::at_end_from(&zst, 0)?.is_none());
    Ok(())
}
