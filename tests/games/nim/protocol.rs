//! What nim adds to arena's line protocol: moves as `HEAP-COUNT`, and the heaps drawn as rows
//! of stones.

use super::rules::{Heaps, MAX_STONES, Take, parse_take};
use crate::games::Params;
use crate::games::line_protocol::LineRules;
use crate::games::picture::{self, Grid, Piece};

impl LineRules for Heaps {
    const SEARCH_DEPTH: u32 = 4;
    const SIDES: [&'static str; 2] = ["first", "second"];

    fn new_match(params: &Params, opening: Option<Heaps>) -> Result<Heaps, String> {
        if let Some(opening) = opening {
            return Ok(opening);
        }
        let text = params.text("heaps");
        Heaps::parse_heaps(text)
            .and_then(Heaps::new)
            .map_err(|why| format!("heaps: {why}"))
    }

    fn parse_move(text: &str) -> Result<Take, String> {
        parse_take(text)
    }

    fn why_illegal(&self, take: &Take) -> Option<String> {
        Heaps::why_illegal(self, take)
    }

    fn picture(&self, last: Option<&Take>, _sides: &[String; 2]) -> (picture::Board, Vec<String>) {
        let rows = self.heaps().len() as u32;
        let cols = self.heaps().iter().max().copied().unwrap_or(1).max(1) as u32;
        let cells: String = self
            .heaps()
            .iter()
            .flat_map(|&h| (0..cols).map(move |c| if c < h as u32 { 'o' } else { '.' }))
            .collect();
        let mut grid = Grid::square(
            rows,
            cols,
            cells,
            vec![Piece::new('o', "stone", "#bbb", "#222", "")],
        );
        // The stones just taken sat to the right of what is left of their heap (those beyond
        // the widest heap left are off the grid).
        if let Some(take) = last {
            let left = self.heaps()[take.heap as usize] as u32;
            let row = take.heap as u32 * cols;
            grid.last = (left..(left + take.count as u32).min(cols))
                .map(|c| row + c)
                .collect();
        }
        grid.row_labels = (1..=rows).map(|r| format!("heap {r}")).collect();
        let stones: u32 = self.heaps().iter().map(|&h| h as u32).sum();
        let notes = vec![format!(
            "{stones} stone{} left (at most {MAX_STONES} a heap)",
            if stones == 1 { "" } else { "s" }
        )];
        (picture::Board::Grid(grid), notes)
    }
}
