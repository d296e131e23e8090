//! The KROM board as the report's viewer draws it: 16 x 16 squares, row 0 (the north) at the
//! top and x growing to the right, as the protocol's `board[y][x]`, camouflaged spaces marked.
//! Three views, built from the very cell strings each `state` message carries (the
//! spectators', red's, blue's), so the viewer shows exactly what each side was told.

use super::rules::{Action, Board, Effect, Kind, Piece, Played, Pos, SIZE, side_name};
use crate::games::Side;
use crate::games::picture::{Grid, Piece as Drawn, Shape, View};

const COLOURS: [(&str, &str); 2] = [("#c62828", "white"), ("#1565c0", "white")];

/// A piece's key: the kind's capital for red, small for blue, one letter earlier in the
/// alphabet for each hit taken (a factory F, E, D; a wall W, V; a gun G), so damage shows.
fn key(pc: Piece) -> char {
    let full = pc.kind.letter().to_ascii_uppercase() as u8;
    let letter = (full - (pc.kind.hits() - pc.hits)) as char;
    if pc.owner == Side::First {
        letter
    } else {
        letter.to_ascii_lowercase()
    }
}

/// Every piece that can stand on the board, each side and each number of hits left.
fn legend() -> Vec<Drawn> {
    let mut all = Vec::new();
    for (owner, &(fill, ink)) in Side::BOTH.into_iter().zip(&COLOURS) {
        for kind in [Kind::Factory, Kind::Wall, Kind::Gun] {
            for hits in (1..=kind.hits()).rev() {
                let pc = Piece { owner, kind, hits };
                let (name, label) = if kind == Kind::Gun {
                    // A gun has no facing: it is aimed anew at every shot.
                    (format!("{} gun", side_name(owner)), "G".to_string())
                } else {
                    let left = if hits == 1 { "hit" } else { "hits" };
                    let name = format!("{} {}, {hits} {left} left", side_name(owner), kind.name());
                    (
                        name,
                        format!("{}{hits}", kind.letter().to_ascii_uppercase()),
                    )
                };
                all.push(Drawn::new(key(pc), &name, fill, ink, &label));
            }
        }
    }
    all
}

fn cell(p: Pos) -> u32 {
    p.y as u32 * SIZE as u32 + p.x as u32
}

/// The spaces a turn touched: what moved, was made, camouflaged, fired or hit.
fn touched(turn: &[Played]) -> Vec<u32> {
    let mut spaces = Vec::new();
    for p in turn {
        match p.action {
            Action::Move(from, to) => spaces.extend([from, to]),
            Action::Make(at, _) | Action::Camo(at) => spaces.push(at),
            Action::Fire(gun, _) => spaces.push(gun),
            Action::Pass => {}
        }
        if let Effect::Hit { at, .. } = p.effect {
            spaces.push(at);
        }
    }
    let mut cells: Vec<u32> = Vec::new();
    for c in spaces.into_iter().map(cell) {
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    cells
}

impl Board {
    /// The board for the viewer: the referee's view, then red's and blue's; `last_turn` (the
    /// actions of the turn just played) highlighted.
    pub fn picture(&self, last_turn: &[Played]) -> Grid {
        let ground = Pos::all()
            .map(|p| if self.cell(p).camo { '*' } else { '.' })
            .collect();
        let view = |viewer: Option<Side>, label: String| {
            let seen = Board::from_rows(&self.rows(viewer)).expect("a state board reads back");
            let cells = Pos::all()
                .map(|p| seen.cell(p).piece.map_or('.', key))
                .collect();
            View { label, cells }
        };
        let mut views = vec![view(None, "referee".into())];
        views.extend(Side::BOTH.map(|s| view(Some(s), format!("{} sees", side_name(s)))));
        let numbers: Vec<String> = (0..SIZE).map(|i| i.to_string()).collect();
        Grid {
            rows: SIZE as u32,
            cols: SIZE as u32,
            shape: Shape::Square,
            ground,
            views,
            pieces: legend(),
            last: touched(last_turn),
            col_labels: numbers.clone(),
            row_labels: numbers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::krom::rules::{Dir, State};

    /// The start as the rules set it: red's factory on [7, 1] with walls west, east and south
    /// of it, blue's on [8, 14] with walls west, east and north.
    const START: &str = concat!(
        "................",
        "......WFW.......",
        ".......W........",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "........w.......",
        ".......wfw......",
        "................",
    );

    #[test]
    fn the_start_seen_by_all() {
        let g = Board::start().picture(&[]);
        g.check().unwrap();
        let labels: Vec<&str> = g.views.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["referee", "red sees", "blue sees"]);
        for v in &g.views {
            assert_eq!(v.cells, START, "{}", v.label);
        }
        assert_eq!(g.ground, ".".repeat(256));
        assert!(g.last.is_empty());
        assert_eq!(g.col_labels[15], "15");
    }

    #[test]
    fn the_legend_has_a_distinct_key_for_every_piece() {
        let legend = legend();
        assert_eq!(legend.len(), 12);
        let keys: String = legend.iter().map(|p| p.key).collect();
        assert_eq!(keys, "FEDWVGfedwvg");
        assert_eq!(legend[1].name, "red factory, 2 hits left");
        assert_eq!(legend[1].label, "F2");
        assert_eq!(legend[11].name, "blue gun");
        assert_eq!(legend[11].fill, "#1565c0");
    }

    #[test]
    fn a_piece_under_camo_is_hidden_from_the_opponent_only() {
        let mut s = State::new(200, 15);
        let turn = s
            .play_turn(&[
                Action::Camo(Pos::new(7, 3)),
                Action::Make(Pos::new(7, 3), Kind::Gun),
                Action::Fire(Pos::new(7, 3), Dir::South),
            ])
            .unwrap();
        let g = s.board.picture(&turn);
        g.check().unwrap();
        let at = |view: usize, x: usize, y: usize| g.views[view].cells.as_bytes()[y * 16 + x];
        // The gun under camo on [7, 3].
        assert_eq!(at(0, 7, 3), b'G');
        assert_eq!(at(1, 7, 3), b'G');
        assert_eq!(at(2, 7, 3), b'.');
        assert_eq!(g.ground.as_bytes()[3 * 16 + 7], b'*');
        // Its shot hit blue's wall on [7, 14] once, which everyone sees.
        for v in 0..3 {
            assert_eq!(at(v, 7, 14), b'v');
        }
        assert_eq!(g.last, [3 * 16 + 7, 14 * 16 + 7]);
    }
}
