//! The Royal Game of Ur's board for the report's viewer: the real board of 3 rows by 8 columns.
//!
//! Each track runs along its owner's outer row from the gap to the left edge (cells 1 to 4), the
//! whole middle row left to right (5 to 12), then back along the outer row from the right edge
//! (13, 14) before leaving the board. Side 0's outer row is the top one, seat 1's the bottom.
//! The shared row thus reads left to right, and the rosettes (4, 8, 14) fall on the corners of
//! the wide end, the middle of the shared row, and the narrow end's squares beside the gap.

use super::rules::{Board, END, START, is_rosette};
use crate::games::Side;
use crate::games::picture::{self, Piece};

pub const ROWS: u32 = 3;
pub const COLS: u32 = 8;

/// Each seat's piece key and colour: (key, colour name, fill, ink).
pub const LOOKS: [(char, &str, &str, &str); 2] = [
    ('a', "light", "#f5f0e1", "#222"),
    ('b', "dark", "#2b2b2b", "#eee"),
];

/// The grid cell (row-major) of track cell `cell` of `seat`; `None` off the board (the start
/// and the end).
pub fn square(seat: Side, cell: u8) -> Option<u32> {
    let own = if seat == Side::First { 0 } else { 2 };
    let (row, col) = match cell {
        1..=4 => (own, 4 - cell as u32),
        5..=12 => (1, cell as u32 - 5),
        13 => (own, 7),
        14 => (own, 6),
        _ => return None,
    };
    Some(row * COLS + col)
}

/// A move for the viewer to mark: who moved, and from which track cell to which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastMove {
    pub seat: Side,
    pub from: u8,
    pub to: u8,
}

impl Board {
    /// The tokens on the board (those waiting to enter or borne off are the notes' business).
    pub fn picture(&self, last: Option<LastMove>) -> picture::Grid {
        let n = (ROWS * COLS) as usize;
        let mut ground = vec![' '; n];
        let mut cells = vec!['.'; n];
        for (seat, &(key, ..)) in Side::BOTH.into_iter().zip(&LOOKS) {
            for cell in START + 1..END {
                let i = square(seat, cell).expect("cells 1..=14 are on the board") as usize;
                ground[i] = if is_rosette(cell) { '*' } else { '.' };
            }
            for &cell in &self.pos[seat] {
                if let Some(i) = square(seat, cell) {
                    cells[i as usize] = key;
                }
            }
        }
        let pieces = LOOKS
            .iter()
            .enumerate()
            .map(|(seat, &(key, colour, fill, ink))| {
                Piece::new(key, &format!("seat {seat} ({colour})"), fill, ink, "")
            })
            .collect();
        let mut grid = picture::Grid::square(ROWS, COLS, cells.into_iter().collect(), pieces);
        grid.ground = ground.into_iter().collect();
        if let Some(m) = last {
            grid.last = [m.from, m.to]
                .into_iter()
                .filter_map(|cell| square(m.seat, cell))
                .collect();
        }
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::super::protocol::RoyalUr;
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::{Outbox, Params, Step, TwoPlayer};

    const GROUND: &str = concat!("*...  *.", "...*....", "*...  *.");

    fn game(rolls: &str) -> RoyalUr {
        let params =
            Params::resolve(super::super::INFO.params, [("rolls", rolls)]).expect("params");
        RoyalUr::new(&params, ["alpha".into(), "beta".into()], 7).unwrap()
    }

    #[test]
    fn the_tracks_cover_the_board_once_apart_from_the_shared_row() {
        for seat in Side::BOTH {
            let own: Vec<u32> = (1..=14).filter_map(|c| square(seat, c)).collect();
            assert_eq!(own.len(), 14);
            // Each step goes to a neighbouring square.
            for w in own.windows(2) {
                let (a, b) = (w[0] as i32, w[1] as i32);
                let (dr, dc) = (a / 8 - b / 8, a % 8 - b % 8);
                assert_eq!(dr.abs() + dc.abs(), 1, "seat {seat:?}: {a} to {b}");
            }
        }
        assert_eq!(square(First, 5), square(Second, 5));
        assert_ne!(square(First, 4), square(Second, 4));
        assert_eq!(square(First, 0), None);
        assert_eq!(square(Second, END), None);
    }

    #[test]
    fn the_start_is_an_empty_board_with_its_gaps_and_rosettes() {
        let g = Board::default().picture(None);
        assert_eq!(g.check(), Ok(()));
        assert_eq!((g.rows, g.cols), (3, 8));
        assert_eq!(g.ground, GROUND);
        assert_eq!(g.views[0].cells, ".".repeat(24));
        assert!(g.last.is_empty());
    }

    #[test]
    fn moves_and_captures_show_on_the_board() {
        // alpha: 4 (onto its rosette, again), 2; beta: 4 (again), 2 (capturing on 6); alpha: 1.
        let mut g = game("1111,0011,1111,0011,1000");
        let mut out = Outbox::default();
        g.start(&mut out);
        assert_eq!(g.picture().grid().views[0].cells, ".".repeat(24));
        assert_eq!(
            g.picture().notes[0],
            "alpha (light) to move, rolled 4 (1 1 1 1)"
        );

        assert_eq!(g.on_line(First, "2", &mut out), Ok(Step::Done));
        let p = g.picture();
        let d = p.grid();
        assert_eq!(d.views[0].cells, "a".to_string() + &".".repeat(23));
        assert_eq!(d.last, [0], "entering: only the target is on the board");

        assert_eq!(g.on_line(First, "2", &mut out), Ok(Step::Done));
        let p = g.picture();
        let d = p.grid();
        assert_eq!(
            d.views[0].cells,
            concat!("........", ".a......", "........")
        );
        assert_eq!(d.last, [0, 9]);

        assert_eq!(g.on_line(Second, "0", &mut out), Ok(Step::Done));
        assert_eq!(
            g.picture().grid().views[0].cells,
            concat!("........", ".a......", "b.......")
        );
        assert_eq!(g.on_line(Second, "0", &mut out), Ok(Step::Done));
        let p = g.picture();
        let d = p.grid();
        assert_eq!(
            d.views[0].cells,
            concat!("........", ".b......", "........")
        );
        assert_eq!(d.last, [16, 9]);
        assert_eq!(
            p.notes,
            [
                "alpha (light) to move, rolled 1 (1 0 0 0)",
                "alpha (light): 7 to enter, 0 borne off",
                "beta (dark): 6 to enter, 0 borne off",
            ]
        );
    }
}
