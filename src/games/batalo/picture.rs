//! The Batalo board as the report's viewer draws it: the hexagon in a 13 x 13 grid of hexagonal
//! cells, cell (r, c - 1) holding the point of row r and diagonal number c. Batalo's neighbours
//! (r, c±1), (r-1, c-1), (r-1, c), (r+1, c), (r+1, c+1) are exactly the cells a hex grid slanted
//! by half a cell per row makes touch, so the drawing is the board with no remapping.

use super::rules::{BASE, Board, Move, Point, ROWS, idx, num_of, row_of, row_span};
use crate::games::Side;
use crate::games::picture::{Grid, Piece, Shape, View};

const SIDE: u32 = 13;

/// The grid cell of a point.
fn cell(p: Point) -> u32 {
    (row_of(p) as u32) * SIDE + num_of(p) as u32 - 1
}

/// The legend: O (seat 0) light, X (seat 1) dark; a column is a stone with a tower on it.
fn pieces() -> Vec<Piece> {
    let (light, dark) = (("#f5f0e1", "#222"), ("#2b2b2b", "#eee"));
    vec![
        Piece::new('o', "O stone", light.0, light.1, ""),
        Piece::new('O', "O column", light.0, light.1, "▲"),
        Piece::new('x', "X stone", dark.0, dark.1, ""),
        Piece::new('X', "X column", dark.0, dark.1, "▲"),
    ]
}

impl Board {
    /// The board for the viewer, `last` (the move just played, if any) highlighted.
    pub fn picture(&self, last: Option<&Move>) -> Grid {
        let mut ground = String::new();
        let mut cells = String::new();
        for r in 0..SIDE as usize {
            let (lo, hi) = row_span(r);
            for c in 1..=SIDE as usize {
                if !(lo..=hi).contains(&c) {
                    ground.push(' ');
                    cells.push('.');
                    continue;
                }
                let p = idx(r, c);
                ground.push(if BASE.contains(&p) { '*' } else { '.' });
                cells.push(match self.at(p) {
                    None => '.',
                    Some((Side::First, false)) => 'o',
                    Some((Side::First, true)) => 'O',
                    Some((Side::Second, false)) => 'x',
                    Some((Side::Second, true)) => 'X',
                });
            }
        }
        Grid {
            rows: SIDE,
            cols: SIDE,
            shape: Shape::Hex,
            ground,
            views: vec![View {
                label: "board".into(),
                cells,
            }],
            pieces: pieces(),
            last: last.map_or(Vec::new(), |m| vec![cell(m.from), cell(m.to)]),
            // The diagonal numbers run along two sides of the hexagon, which one label per grid
            // column cannot show; the row letters and the point names in the notes suffice.
            col_labels: Vec::new(),
            row_labels: ROWS.iter().map(|&l| (l as char).to_string()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::batalo::rules::{DIRS, parse_move, points};
    use crate::games::position::Position;

    /// The start, row a first, as the rules place the pieces (rows of 7..13..7 points).
    const START_CELLS: &str = concat!(
        ".............",
        ".............",
        ".............",
        ".............",
        ".............",
        "..oo....xx...",
        "..oOo...xXx..",
        "...oo....xx..",
        ".............",
        ".............",
        ".............",
        ".............",
        ".............",
    );

    const GROUND: &str = concat!(
        ".......      ",
        "........     ",
        ".........    ",
        "..........   ",
        "...........  ",
        "............ ",
        "...*.....*...",
        " ............",
        "  ...........",
        "   ..........",
        "    .........",
        "     ........",
        "      .......",
    );

    /// Where the viewer draws a cell, in half cells: x = c - r/2, doubled.
    fn drawn(p: Point) -> (i32, i32) {
        let (r, c) = (row_of(p) as i32, num_of(p) as i32 - 1);
        (r, 2 * c - r)
    }

    #[test]
    fn the_start_and_its_ground() {
        let g = Board::start().picture(None);
        g.check().unwrap();
        assert_eq!(g.views[0].cells, START_CELLS);
        assert_eq!(g.ground, GROUND);
        assert_eq!(g.ground.chars().filter(|&c| c != ' ').count(), 127);
        assert_eq!(g.row_labels.first().map(String::as_str), Some("a"));
        assert_eq!(g.row_labels.last().map(String::as_str), Some("m"));
        assert!(g.last.is_empty());
    }

    #[test]
    fn neighbours_on_the_board_touch_in_the_drawing() {
        for p in points() {
            let mut touching = 0;
            for d in DIRS {
                let q = p.wrapping_add_signed(d);
                if !points().any(|x| x == q) {
                    continue;
                }
                let ((r0, x0), (r1, x1)) = (drawn(p), drawn(q));
                let touch = match (r1 - r0).abs() {
                    0 => (x1 - x0).abs() == 2,
                    1 => (x1 - x0).abs() == 1,
                    _ => false,
                };
                assert!(touch, "{p} and {q}");
                touching += 1;
            }
            assert!((3..=6).contains(&touching));
        }
    }

    #[test]
    fn a_move_and_a_capture_show_with_the_last_move() {
        let mut b = Board::start();
        let mut last = None;
        for m in ["g4-g6", "g10-g8", "g6-g8"] {
            let mv = parse_move(m).unwrap();
            assert!(b.is_legal(&mv), "{m}");
            b.play_unchecked(&mv);
            last = Some(mv);
        }
        let g = b.picture(last.as_ref());
        g.check().unwrap();
        // O's column took X's column on g8; both bases are empty.
        let row_g = &g.views[0].cells[6 * 13..7 * 13];
        assert_eq!(row_g, "..o.o..Ox.x..");
        assert_eq!(g.last, [6 * 13 + 5, 6 * 13 + 7]);
    }
}
