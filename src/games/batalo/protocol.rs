//! What batalo adds to arena's line protocol (`games::line_protocol`): moves read and written
//! as `from-to`, and what the viewer says beside the board.

use super::rules::{Board, Move, points};
use crate::games::line_protocol::LineRules;
use crate::games::position::Position;
use crate::games::{Params, Side, picture};

/// Moves the built-in `search` looks ahead.
pub const SEARCH_DEPTH: u32 = 3;

impl LineRules for Board {
    const SEARCH_DEPTH: u32 = SEARCH_DEPTH;
    const SIDES: [&'static str; 2] = ["O", "X"];

    fn new_match(params: &Params, opening: Option<Board>) -> Result<Board, String> {
        let start = opening.unwrap_or_else(Board::start);
        Ok(start.with_max_plies(params.int("max_moves") as u32))
    }

    fn parse_move(text: &str) -> Result<Move, String> {
        super::rules::parse_move(text)
    }

    fn why_illegal(&self, mv: &Move) -> Option<String> {
        Board::why_illegal(self, mv)
    }

    fn picture(&self, last: Option<&Move>, sides: &[String; 2]) -> (picture::Board, Vec<String>) {
        let mut notes = vec![format!("move {} of {}", self.plies(), self.max_plies())];
        for (seat, side) in Side::BOTH.into_iter().zip(sides) {
            let column = points().any(|p| self.at(p) == Some((seat, true)));
            let stones = self.count(seat) - column as usize;
            let column = if column { "column" } else { "no column" };
            let plural = if stones == 1 { "" } else { "s" };
            notes.push(format!("{side}: {column}, {stones} stone{plural}"));
        }
        (picture::Board::Grid(Board::picture(self, last)), notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Draw, Game, Msg, Outbox, Outcome, Ranking, Seat, Seating, Seats, Side, Step};
    use crate::failure::{Fault, FaultKind};

    fn game(max_moves: &str) -> Box<dyn Game> {
        let info = &super::super::INFO;
        let params = Params::resolve(info.params, [("max_moves", max_moves)]).expect("params");
        let seating = Seating {
            names: vec!["A".into(), "B".into()],
            seed: 0,
            timeout: 1.0,
            opening: None,
        };
        info.new_game(&params, &seating).expect("a game")
    }

    /// The lines for one seat (`Some`) or the spectators (`None`).
    fn lines_to(msgs: &[Msg], seat: Option<Seat>) -> Vec<String> {
        msgs.iter()
            .filter_map(|m| match (m, seat) {
                (Msg::To(s, l), Some(want)) if *s == want => Some(l.clone()),
                (Msg::Spectators(l), None) => Some(l.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_search_bot_is_described_with_its_depth() {
        let (name, help) = super::super::INFO.builtins[1];
        assert_eq!(name, "search");
        assert!(
            help.contains(&format!("{SEARCH_DEPTH} moves deep")),
            "{help}"
        );
    }

    #[test]
    fn names_seats_and_relayed_moves() {
        let mut g = game("200");
        let mut out = Outbox::default();
        g.start(&mut out);
        let msgs = out.take();
        assert_eq!(lines_to(&msgs, Some(Seat::FIRST)), ["A", "B", "0"]);
        assert_eq!(lines_to(&msgs, Some(Seat::SECOND)), ["A", "B", "1"]);
        assert_eq!(lines_to(&msgs, None), ["A", "B"]);
        assert_eq!(g.awaiting(), Seats::from([true, false]));
        assert_eq!(
            g.on_line(Seat::FIRST, " G4 - g6 ", &mut out),
            Ok(Step::Done)
        );
        let msgs = out.take();
        assert_eq!(
            msgs,
            [
                Msg::To(Seat::SECOND, "g4-g6".into()),
                Msg::Spectators("g4-g6".into())
            ],
            "normalised, and no echo to the mover"
        );
        assert_eq!(g.awaiting(), Seats::from([false, true]));
        assert_eq!(g.plies(), 1);
    }

    #[test]
    fn the_picture_follows_the_moves() {
        let mut g = game("200");
        let mut out = Outbox::default();
        g.start(&mut out);
        let p = g.picture();
        let (start, notes) = (p.grid(), &p.notes);
        assert!(start.last.is_empty());
        assert_eq!(notes[0], "O (A) to move");
        assert_eq!(notes[2], "O (A): column, 6 stones");
        g.on_line(Seat::FIRST, "f3-e2", &mut out).unwrap();
        g.on_line(Seat::SECOND, "g10-g8", &mut out).unwrap();
        let q = g.picture();
        let (after, notes) = (q.grid(), &q.notes);
        let changed: Vec<usize> = (0..169)
            .filter(|&i| start.views[0].cells.as_bytes()[i] != after.views[0].cells.as_bytes()[i])
            .collect();
        // e2, f3 (O's step); g8 and g10 (X's column, hopping over its stone on g9).
        assert_eq!(changed, [4 * 13 + 1, 5 * 13 + 2, 6 * 13 + 7, 6 * 13 + 9]);
        assert_eq!(&after.views[0].cells[4 * 13..4 * 13 + 2], ".o");
        assert_eq!(&after.views[0].cells[6 * 13 + 7..6 * 13 + 10], "Xx.");
        assert_eq!(after.last, [6 * 13 + 9, 6 * 13 + 7]);
        assert_eq!(notes[0], "O (A) to move");
        assert_eq!(notes[1], "move 2 of 200");
    }

    #[test]
    fn bad_lines_are_protocol_or_illegal_faults() {
        let mut g = game("200");
        let mut out = Outbox::default();
        g.start(&mut out);
        out.take();
        for line in ["", "g4", "g4 g6", "hello-world", "a9-a1", "g4-g6-g8"] {
            let e = g.on_line(Seat::FIRST, line, &mut out).unwrap_err();
            assert_eq!(e.kind, FaultKind::Protocol, "{line:?}");
        }
        let e = g.on_line(Seat::FIRST, "g4-g9", &mut out).unwrap_err();
        assert_eq!(
            e,
            Fault::illegal("g4-g9: the column's path is blocked at g5")
        );
        let e = g.on_line(Seat::FIRST, "g10-g8", &mut out).unwrap_err();
        assert_eq!(e.kind, FaultKind::Illegal);
        g.on_fault(Seat::FIRST, &e, &mut out);
        assert_eq!(
            out.take(),
            [
                Msg::To(Seat::SECOND, "RETIRE".into()),
                Msg::Spectators("RETIRE".into())
            ]
        );
        assert_eq!(g.awaiting(), Seats::from([false, false]));
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn a_win_ends_the_game_silently_and_the_limit_draws() {
        let mut g = game("200");
        let mut out = Outbox::default();
        g.start(&mut out);
        for (seat, m) in [
            (Seat::FIRST, "g4-g6"),
            (Seat::SECOND, "g10-g8"),
            (Seat::FIRST, "g6-g8"),
            (Seat::SECOND, "h11-i11"),
            (Seat::FIRST, "g8-g9"),
            (Seat::SECOND, "h10-i10"),
            (Seat::FIRST, "g9-g10"),
        ] {
            assert_eq!(g.on_line(seat, m, &mut out), Ok(Step::Done), "{m}");
        }
        assert_eq!(g.awaiting(), Seats::from([false, false]));
        assert_eq!(g.outcome(), Some(Ranking::from(Outcome::win(Side::First))));
        assert_eq!(lines_to(&out.take(), None).last().unwrap(), "g9-g10");
        let mut g = game("2");
        g.on_line(Seat::FIRST, "f3-e2", &mut out).unwrap();
        g.on_line(Seat::SECOND, "f9-e8", &mut out).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Ranking::from(Outcome::Drawn(Draw::Limit)))
        );
        assert_eq!(g.awaiting(), Seats::from([false, false]));
    }
}
