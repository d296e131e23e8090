//! royalur over Code Colosseum's line protocol.

use rand::{Rng, SeedableRng, seq::IndexedRandom};
use rand_chacha::ChaCha8Rng;

use super::picture::{LOOKS, LastMove};
use super::rules::{Board, END, Roll, START, TOKENS};
use crate::games::picture::{Board as Drawing, Picture};
use crate::games::{Draw, Outbox, Outcome, Params, Side, Step, TwoPlayer};
use crate::failure::Fault;

pub struct RoyalUr {
    board: Board,
    dice: ChaCha8Rng,
    /// Rolls given by the `rolls` parameter, used before the seeded dice.
    scripted: std::vec::IntoIter<Roll>,
    pace: f64,
    max_moves: u32,
    to_move: Side,
    roll: Roll,
    /// Waiting for `to_move` to pick a token.
    waiting: bool,
    moves: u32,
    outcome: Option<Outcome>,
    names: [String; 2],
    /// The last move and the seat that failed, if one did, for the viewer.
    last: Option<LastMove>,
    retired: Option<Side>,
}

/// Parse the `rolls` parameter: rolls such as `0011` separated by commas or spaces.
pub fn parse_rolls(text: &str) -> Result<Vec<Roll>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            Roll::parse(s).ok_or_else(|| {
                format!("parameter 'rolls': '{s}' is not a roll of four 0/1 digits such as 0110")
            })
        })
        .collect()
}

impl RoyalUr {
    pub fn new(params: &Params, names: [String; 2], seed: u64) -> Result<Self, String> {
        Ok(RoyalUr {
            board: Board::default(),
            dice: ChaCha8Rng::seed_from_u64(seed),
            scripted: parse_rolls(params.text("rolls"))?.into_iter(),
            pace: params.float("pace"),
            max_moves: params.int("max_moves") as u32,
            to_move: Side::First,
            roll: Roll([false; 4]),
            waiting: false,
            moves: 0,
            outcome: None,
            names,
            last: None,
            retired: None,
        })
    }

    fn next_roll(&mut self) -> Roll {
        match self.scripted.next() {
            Some(r) => r,
            None => Roll::from_bits(self.dice.next_u32() as u8 & 0xF),
        }
    }

    /// Roll for the player to move, passing the turn for as long as it has no legal move.
    fn roll_until_move(&mut self, out: &mut Outbox) {
        loop {
            self.roll = self.next_roll();
            out.everyone(&self.roll.line());
            if !self
                .board
                .legal_tokens(self.to_move, self.roll.distance())
                .is_empty()
            {
                self.waiting = true;
                return;
            }
            out.pause(self.pace);
            self.to_move = self.to_move.other();
        }
    }
}

impl TwoPlayer for RoyalUr {
    fn start(&mut self, out: &mut Outbox) {
        for name in &self.names {
            out.to(Side::First, name.clone());
            out.to(Side::Second, name.clone());
            out.spectators(name.clone());
        }
        // Players also learn their seat; spectators do not.
        out.to(Side::First, "0");
        out.to(Side::Second, "1");
        self.roll_until_move(out);
    }

    fn awaiting(&self) -> [bool; 2] {
        let mut a = [false; 2];
        a[self.to_move] = self.waiting && self.outcome.is_none();
        a
    }

    fn on_line(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let text = line.trim();
        let token: usize = match text.parse() {
            Ok(t) if t < TOKENS => t,
            _ => {
                return Err(Fault::protocol(format!(
                    "sent '{text}' where a token number 0..6 was expected"
                )));
            }
        };
        let n = self.roll.distance();
        let from = self.board.pos[seat][token];
        let effect = self.board.play(seat, token, n).map_err(|why| {
            Fault::illegal(format!(
                "token {token} cannot move {n} (from cell {}): {}",
                self.board.pos[seat][token],
                why.explain()
            ))
        })?;
        self.moves += 1;
        self.waiting = false;
        self.last = Some(LastMove {
            seat,
            from,
            to: effect.to,
        });
        out.to(seat.other(), text);
        out.spectators(text);
        if let Some(winner) = self.board.winner() {
            self.outcome = Some(Outcome::win(winner));
            return Ok(Step::Done);
        }
        if self.moves >= self.max_moves {
            self.outcome = Some(Outcome::Drawn(Draw::Limit));
            return Ok(Step::Done);
        }
        if !effect.again {
            self.to_move = seat.other();
        }
        out.pause(self.pace);
        self.roll_until_move(out);
        Ok(Step::Done)
    }

    fn on_fault(&mut self, seat: Side, _fault: &Fault, out: &mut Outbox) {
        self.waiting = false;
        self.retired = Some(seat);
        out.to(seat.other(), "RETIRE");
        out.spectators("RETIRE");
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn plies(&self) -> u32 {
        self.moves
    }

    fn builtin_line(&self, seat: Side, name: &str, rng: &mut ChaCha8Rng) -> String {
        let n = self.roll.distance();
        let legal = self.board.legal_tokens(seat, n);
        let token = match name {
            // Capture if possible, else land on a rosette, else advance the leading token.
            "greedy" => {
                let score = |&t: &usize| {
                    let mut b = self.board.clone();
                    let e = b.play(seat, t, n).expect("legal");
                    (e.captured, e.again, self.board.pos[seat][t])
                };
                legal.iter().copied().max_by_key(|t| score(t))
            }
            _ => legal.choose(rng).copied(),
        };
        token.map(|t| t.to_string()).unwrap_or_default()
    }

    fn picture(&self) -> Picture {
        let player = |seat: Side| format!("{} ({})", self.names[seat], LOOKS[seat].1);
        let status = match &self.outcome {
            Some(Outcome::Won(seat)) => format!("{} wins", player(*seat)),
            Some(o) => format!("a draw ({})", o.reason().as_str()),
            None => match self.retired {
                Some(seat) => format!("{} retired", player(seat)),
                None if !self.waiting => "the game starts".to_string(),
                None => format!(
                    "{} to move, rolled {} ({})",
                    player(self.to_move),
                    self.roll.distance(),
                    self.roll.line()
                ),
            },
        };
        let mut notes = vec![status];
        for seat in Side::BOTH {
            let count = |cell: u8| self.board.pos[seat].iter().filter(|&&p| p == cell).count();
            notes.push(format!(
                "{}: {} to enter, {} borne off",
                player(seat),
                count(START),
                count(END)
            ));
        }
        let mut grid = self.board.picture(self.last);
        for (piece, name) in grid.pieces.iter_mut().zip(&self.names) {
            piece.name = format!("{name}'s token");
        }
        Picture {
            board: Drawing::Grid(grid),
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Msg;
    use crate::games::Side::{First, Second};

    fn game(rolls: &str) -> RoyalUr {
        let params =
            Params::resolve(super::super::INFO.params, [("rolls", rolls)]).expect("params");
        RoyalUr::new(&params, ["A".into(), "B".into()], 7).unwrap()
    }

    fn lines_to(out: &mut Outbox, seat: Option<Side>) -> Vec<String> {
        out.take()
            .into_iter()
            .filter_map(|m| match (m, seat) {
                (Msg::To(s, l), Some(want)) if s == want.into() => Some(l),
                (Msg::Spectators(l), None) => Some(l),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_zero_roll_skips_silently_to_the_other_player() {
        let mut g = game("0000,0100");
        let mut out = Outbox::default();
        g.start(&mut out);
        assert_eq!(g.awaiting(), [false, true], "seat 0 rolled 0, seat 1 moves");
        assert_eq!(lines_to(&mut out, None), ["A", "B", "0 0 0 0", "0 1 0 0"]);
    }

    #[test]
    fn rosette_gives_the_mover_another_roll_and_bad_tokens_fail() {
        let mut g = game("1111,0011,1000");
        let mut out = Outbox::default();
        g.start(&mut out);
        out.take();
        assert_eq!(g.on_line(First, "2", &mut out), Ok(Step::Done));
        assert_eq!(g.awaiting(), [true, false], "landed on 4: seat 0 again");
        assert_eq!(lines_to(&mut out, Some(Second)), ["2", "0 0 1 1"]);
        // Token 2 is on 4; 4 + 2 = 6 is fine, but token 9 does not exist.
        let e = g.on_line(First, "9", &mut out).unwrap_err();
        assert_eq!(e.kind, crate::failure::FaultKind::Protocol);
        g.on_line(First, "2", &mut out).unwrap();
        assert_eq!(g.awaiting(), [false, true]);
        out.take();
        // Side 1 rolled 1: token 0 to cell 1 is legal, so a garbage line is the failure.
        g.on_fault(Second, &Fault::protocol("x"), &mut out);
        assert_eq!(lines_to(&mut out, Some(First)), ["RETIRE"]);
        assert_eq!(g.awaiting(), [false, false]);
    }
}
