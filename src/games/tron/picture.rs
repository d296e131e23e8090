//! Tron's grid for the report's viewer: 30 columns by 20 rows, y = 0 at the top as on the
//! wire, columns and rows labelled with the coordinates the protocol uses. Each ribbon is in
//! its player's colour; the cycle's head carries the player's index.

use super::rules::{CELLS, Cell, Effect, HEIGHT, Tron, WIDTH, Why};
use crate::games::picture::{self, Picture, Piece};

/// Each seat's colour: (name, fill, ink of the label on it), for up to 8 seats. Okabe and
/// Ito's palette, whose colours stay apart for the common colour blindnesses; the first four
/// (Tron's) are the darkest, which stand out best on the viewer's light cells.
pub const COLOURS: [(&str, &str, &str); 8] = [
    ("blue", "#0072b2", "#fff"),
    ("vermilion", "#d55e00", "#fff"),
    ("green", "#009e73", "#fff"),
    ("purple", "#cc79a7", "#222"),
    ("orange", "#e69f00", "#222"),
    ("sky blue", "#56b4e9", "#222"),
    ("yellow", "#f0e442", "#222"),
    ("black", "#222222", "#fff"),
];

/// The keys of a player's ribbon and of its cycle (its head).
fn keys(player: usize) -> (char, char) {
    let k = b'a' + player as u8;
    (k as char, k.to_ascii_uppercase() as char)
}

/// How the notes and the legend name a player: `alice (seat 0, blue)`.
fn who(names: &[String], player: usize) -> String {
    let colour = COLOURS[player % COLOURS.len()].0;
    match names.get(player) {
        Some(name) => format!("{name} (seat {player}, {colour})"),
        None => format!("seat {player} ({colour})"),
    }
}

impl Tron {
    /// The game for the viewer; `names` in seat order.
    pub fn picture(&self, names: &[String]) -> Picture {
        let mut cells = vec!['.'; CELLS];
        for (i, cell) in cells.iter_mut().enumerate() {
            if let Some(p) = self.owner(Cell::from_index(i)) {
                *cell = keys(p).0;
            }
        }
        for p in 0..self.players() {
            if let Some((_, head)) = self.ends(p) {
                cells[head.index()] = keys(p).1;
            }
        }
        let mut grid = picture::Grid::square(
            HEIGHT as u32,
            WIDTH as u32,
            cells.into_iter().collect(),
            self.legend(names),
        );
        grid.col_labels = (0..WIDTH).map(|x| x.to_string()).collect();
        grid.row_labels = (0..HEIGHT).map(|y| y.to_string()).collect();
        grid.last = self.last_cells();
        Picture {
            board: picture::Board::Grid(grid),
            notes: self.notes(names),
        }
    }

    fn legend(&self, names: &[String]) -> Vec<Piece> {
        (0..self.players())
            .flat_map(|p| {
                let (_, fill, ink) = COLOURS[p % COLOURS.len()];
                let (ribbon, head) = keys(p);
                let name = who(names, p);
                [
                    Piece::new(ribbon, &format!("{name}: ribbon"), fill, ink, ""),
                    Piece::new(head, &format!("{name}: cycle"), fill, ink, &p.to_string()),
                ]
            })
            .collect()
    }

    /// The cells the last move touched: where the cycle was and where it went; for a move
    /// that put it out, the ribbon cell it hit, or where it was when it left the grid.
    fn last_cells(&self) -> Vec<u32> {
        let Some(m) = self.last() else {
            return Vec::new();
        };
        let cells = match m.effect {
            Effect::Moved(to) => vec![m.from, to],
            Effect::HitRibbon { at, .. } => vec![at],
            Effect::LeftGrid => vec![m.from],
        };
        cells.into_iter().map(|c| c.index() as u32).collect()
    }

    fn notes(&self, names: &[String]) -> Vec<String> {
        let mut notes = vec![self.status(names)];
        for p in 0..self.players() {
            let state = match self.gone(p) {
                None => {
                    let cells = (0..CELLS)
                        .filter(|&i| self.owner(Cell::from_index(i)) == Some(p))
                        .count();
                    format!("in, {cells} cells")
                }
                Some(g) => {
                    let why = match g.why {
                        Why::LeftGrid => "left the grid".to_string(),
                        Why::HitRibbon { owner } if owner == p => "hit its own ribbon".into(),
                        Why::HitRibbon { owner } => format!("hit {}'s ribbon", who(names, owner)),
                        Why::Failed => "failed (late, crashed or not a direction)".into(),
                    };
                    format!("out in turn {}: {why}", g.turn)
                }
            };
            notes.push(format!("{}: {state}", who(names, p)));
        }
        notes
    }

    /// Whose move it is, or who won.
    fn status(&self, names: &[String]) -> String {
        if let Some(p) = self.to_move() {
            return format!("turn {}: {} to move", self.turn(), who(names, p));
        }
        let places = self.places();
        let first: Vec<String> = (0..self.players())
            .filter(|&p| places[p] == 1)
            .map(|p| who(names, p))
            .collect();
        match first.as_slice() {
            [one] => format!("{one} wins"),
            _ => format!("tie for first: {}", first.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Dir::*;
    use super::*;

    fn names() -> Vec<String> {
        ["alice", "bob", "carol"].map(String::from).to_vec()
    }

    fn at(x: u8, y: u8) -> Cell {
        Cell::new(x, y).unwrap()
    }

    #[test]
    fn the_start_shows_each_cycle_on_its_cell() {
        let game = Tron::from_starts(&[at(0, 0), at(29, 19), at(5, 1)]).unwrap();
        let p = game.picture(&names());
        let g = p.grid();
        assert_eq!((g.rows, g.cols), (20, 30));
        let cells: Vec<char> = g.views[0].cells.chars().collect();
        assert_eq!(cells[0], 'A');
        assert_eq!(cells[CELLS - 1], 'B');
        assert_eq!(cells[30 + 5], 'C');
        assert_eq!(cells.iter().filter(|&&c| c != '.').count(), 3);
        assert_eq!(g.col_labels.len(), 30);
        assert_eq!(g.row_labels[19], "19");
        assert!(g.last.is_empty());
        assert_eq!(g.pieces.len(), 6);
        assert_eq!(g.pieces[3].name, "bob (seat 1, vermilion): cycle");
        assert_eq!(g.pieces[3].label, "1");
        assert_eq!(
            p.notes,
            [
                "turn 1: alice (seat 0, blue) to move",
                "alice (seat 0, blue): in, 1 cells",
                "bob (seat 1, vermilion): in, 1 cells",
                "carol (seat 2, green): in, 1 cells",
            ]
        );
    }

    #[test]
    fn ribbons_heads_the_last_move_and_who_is_out_show() {
        let mut game = Tron::from_starts(&[at(0, 0), at(29, 19), at(5, 1)]).unwrap();
        game.play(Right);
        let p = game.picture(&names());
        let g = p.grid();
        assert_eq!(&g.views[0].cells[..2], "aA");
        assert_eq!(g.last, [0, 1]);
        assert_eq!(p.notes[0], "turn 1: bob (seat 1, vermilion) to move");
        // alice heads right then down; carol goes up to row 0 and left into alice's ribbon.
        let moves = [
            Up, Up, Right, Left, Left, Down, Left, Left, Down, Left, Left,
        ];
        for dir in moves {
            game.play(dir);
        }
        let p = game.picture(&names());
        let cells = &p.grid().views[0].cells;
        assert!(!cells.contains(['c', 'C']), "{cells}");
        assert_eq!(&cells[..3], "aaa");
        assert_eq!(cells.as_bytes()[2 * 30 + 2], b'A');
        assert_eq!(p.grid().last, [2], "the cell carol hit");
        assert_eq!(
            p.notes[1..],
            [
                "alice (seat 0, blue): in, 5 cells",
                "bob (seat 1, vermilion): in, 5 cells",
                "carol (seat 2, green): out in turn 4: hit alice (seat 0, blue)'s ribbon",
            ]
        );
        game.eliminate(1);
        let p = game.picture(&names());
        assert_eq!(p.notes[0], "alice (seat 0, blue) wins");
        assert_eq!(
            p.notes[2],
            "bob (seat 1, vermilion): out in turn 5: failed (late, crashed or not a direction)"
        );
        assert!(p.grid().last.is_empty());
    }

    #[test]
    fn a_cycle_that_leaves_the_grid_is_marked_where_it_was() {
        let mut game = Tron::from_starts(&[at(3, 0), at(9, 9)]).unwrap();
        game.play(Up);
        let p = game.picture(&names()[..2]);
        assert_eq!(p.grid().last, [3]);
        assert_eq!(p.notes[0], "bob (seat 1, vermilion) wins");
        assert_eq!(
            p.notes[1],
            "alice (seat 0, blue): out in turn 1: left the grid"
        );
    }

    #[test]
    fn a_tie_for_first_is_named_and_eight_seats_have_colours_apart() {
        let mut game = Tron::from_starts(&[at(0, 0), at(9, 9)]).unwrap();
        game.eliminate(0);
        game.eliminate(1);
        assert_eq!(
            game.picture(&[]).notes[0],
            "tie for first: seat 0 (blue), seat 1 (vermilion)"
        );
        let fills: std::collections::HashSet<_> = COLOURS.iter().map(|c| c.1).collect();
        let names: std::collections::HashSet<_> = COLOURS.iter().map(|c| c.0).collect();
        assert_eq!((fills.len(), names.len()), (8, 8));
        assert_eq!(keys(7), ('h', 'H'));
    }
}
