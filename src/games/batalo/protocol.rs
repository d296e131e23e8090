//! batalo over a line protocol in royalur's style: the names, the seat, then the moves as
//! `from-to`, relayed to the opponent and the spectators; `RETIRE` when a player fails.

use rand_chacha::ChaCha8Rng;

use super::rules::{Board, Move, SIDE_LETTER, parse_move, points};
use crate::games::picture::{self, Picture};
use crate::games::position::{Position, builtin_move};
use crate::games::{Fault, Game, Outbox, Outcome, Params, Seat, Step};

/// Moves the built-in `search` looks ahead.
pub const SEARCH_DEPTH: u32 = 3;

pub struct Batalo {
    pos: Board,
    names: [String; 2],
    pace: f64,
    /// A player failed: the game waits for no one any more.
    failed: bool,
    /// The move just played, for the viewer to highlight.
    last: Option<Move>,
}

impl Batalo {
    pub fn new(params: &Params, names: [String; 2]) -> Self {
        Batalo {
            pos: Board::start().with_max_plies(params.int("max_moves") as u32),
            names,
            pace: params.float("pace"),
            failed: false,
            last: None,
        }
    }
}

impl Game for Batalo {
    fn start(&mut self, out: &mut Outbox) {
        for name in &self.names {
            out.everyone(name);
        }
        // Players also learn their seat; spectators do not.
        out.to(Seat::First, "0");
        out.to(Seat::Second, "1");
    }

    fn awaiting(&self) -> [bool; 2] {
        let mut a = [false; 2];
        if !self.failed && self.pos.outcome().is_none() {
            a[self.pos.to_move()] = true;
        }
        a
    }

    fn on_line(&mut self, seat: Seat, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let text = line.trim();
        let mv =
            parse_move(text).map_err(|why| Fault::protocol(format!("sent '{text}': {why}")))?;
        if let Some(why) = self.pos.why_illegal(&mv) {
            return Err(Fault::illegal(why));
        }
        self.pos
            .play(&mv)
            .map_err(|_| Fault::illegal(format!("sent '{text}', not a legal move here")))?;
        self.last = Some(mv);
        let moved = mv.text();
        out.to(seat.other(), moved.clone());
        out.spectators(moved);
        if self.pos.outcome().is_none() {
            out.pause(self.pace);
        }
        Ok(Step::Done)
    }

    fn on_fault(&mut self, seat: Seat, _fault: &Fault, out: &mut Outbox) {
        self.failed = true;
        out.to(seat.other(), "RETIRE");
        out.spectators("RETIRE");
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.failed {
            return None;
        }
        self.pos.outcome()
    }

    fn plies(&self) -> u32 {
        self.pos.plies()
    }

    fn builtin_line(&self, _seat: Seat, name: &str, rng: &mut ChaCha8Rng) -> String {
        let mv = builtin_move(&self.pos, name, SEARCH_DEPTH, rng);
        self.pos.move_text(&mv)
    }

    fn picture(&self) -> Picture {
        let side = |seat: Seat| format!("{} ({})", SIDE_LETTER[seat], self.names[seat]);
        let mut notes = vec![match self.pos.outcome() {
            _ if self.failed => "game over: a player failed".to_string(),
            None => format!("{} to move", side(self.pos.to_move())),
            Some(Outcome::Won(seat)) => format!("{} wins", side(seat)),
            Some(o) => format!("drawn ({})", o.reason().as_str()),
        }];
        notes.push(format!(
            "move {} of {}",
            self.pos.plies(),
            self.pos.max_plies()
        ));
        for seat in Seat::BOTH {
            let column = points().any(|p| self.pos.at(p) == Some((seat, true)));
            let stones = self.pos.count(seat) - column as usize;
            let column = if column { "column" } else { "no column" };
            let plural = if stones == 1 { "" } else { "s" };
            notes.push(format!("{}: {column}, {stones} stone{plural}", side(seat)));
        }
        Picture {
            board: picture::Board::Grid(self.pos.picture(self.last.as_ref())),
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Seat::{First, Second};
    use crate::games::{Draw, FaultKind, Msg};

    fn game(max_moves: &str) -> Batalo {
        let params =
            Params::resolve(super::super::INFO.params, [("max_moves", max_moves)]).expect("params");
        Batalo::new(&params, ["A".into(), "B".into()])
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
        assert_eq!(lines_to(&msgs, Some(First)), ["A", "B", "0"]);
        assert_eq!(lines_to(&msgs, Some(Second)), ["A", "B", "1"]);
        assert_eq!(lines_to(&msgs, None), ["A", "B"]);
        assert_eq!(g.awaiting(), [true, false]);
        assert_eq!(g.on_line(First, " G4 - g6 ", &mut out), Ok(Step::Done));
        let msgs = out.take();
        assert_eq!(
            msgs,
            [
                Msg::To(Second, "g4-g6".into()),
                Msg::Spectators("g4-g6".into())
            ],
            "normalised, and no echo to the mover"
        );
        assert_eq!(g.awaiting(), [false, true]);
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
        g.on_line(First, "f3-e2", &mut out).unwrap();
        g.on_line(Second, "g10-g8", &mut out).unwrap();
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
            let e = g.on_line(First, line, &mut out).unwrap_err();
            assert_eq!(e.kind, FaultKind::Protocol, "{line:?}");
        }
        let e = g.on_line(First, "g4-g9", &mut out).unwrap_err();
        assert_eq!(
            e,
            Fault::illegal("g4-g9: the column's path is blocked at g5")
        );
        let e = g.on_line(First, "g10-g8", &mut out).unwrap_err();
        assert_eq!(e.kind, FaultKind::Illegal);
        g.on_fault(First, &e, &mut out);
        assert_eq!(
            out.take(),
            [
                Msg::To(Second, "RETIRE".into()),
                Msg::Spectators("RETIRE".into())
            ]
        );
        assert_eq!(g.awaiting(), [false, false]);
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn a_win_ends_the_game_silently_and_the_limit_draws() {
        let mut g = game("200");
        let mut out = Outbox::default();
        g.start(&mut out);
        for (seat, m) in [
            (First, "g4-g6"),
            (Second, "g10-g8"),
            (First, "g6-g8"),
            (Second, "h11-i11"),
            (First, "g8-g9"),
            (Second, "h10-i10"),
            (First, "g9-g10"),
        ] {
            assert_eq!(g.on_line(seat, m, &mut out), Ok(Step::Done), "{m}");
        }
        assert_eq!(g.awaiting(), [false, false]);
        assert_eq!(g.outcome(), Some(Outcome::win(First)));
        assert_eq!(lines_to(&out.take(), None).last().unwrap(), "g9-g10");
        let mut g = game("2");
        g.on_line(First, "f3-e2", &mut out).unwrap();
        g.on_line(Second, "f9-e8", &mut out).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Drawn(Draw::Limit)));
        assert_eq!(g.awaiting(), [false, false]);
    }
}
