//! The judge: a game plus the failures seen so far, deciding the result. Shared by the live
//! referee and by `arena replay`, so a replayed log is judged by exactly the same code.

use crate::games::{Game, Outbox, Places, Ranking, Seat, Seats, Step, line_breaks};
use crate::failure::{Cause, Fault, Reason};

/// The result of a finished game, as the record and `--json` give it. With two players it is
/// written as it always was (`scores`, `winner`, and the failure that ended the game); with more,
/// `places` and every failed seat (`out`) are added.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// Each seat's place, 1 the best, ties sharing (`1 2 2 4`).
    #[serde(skip_serializing_if = "two_places")]
    pub places: Places,
    /// Each seat's points: (N - place) / (N - 1), ties sharing; 0 for everyone when every seat
    /// failed (with two players: 1-0, ½-½, 0-1, or 0-0 when both lost).
    pub scores: Vec<f64>,
    /// The seat alone in first place, unless every seat failed.
    pub winner: Option<Seat>,
    pub reason: Reason,
    pub plies: u32,
    /// Why the game ended when a seat failed, in words; `None` for a game played out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The seat whose failure ended the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faulted: Option<Seat>,
    /// What that seat did, as facts; with the move it failed at when it was waited for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_move: Option<u32>,
    /// With more than two players, every seat that failed, in the order they did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<SeatFault>,
}

fn two_places(places: &Places) -> bool {
    places.len() == 2
}

/// One seat's failure, in a game of more than two players.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SeatFault {
    pub seat: Seat,
    pub reason: Reason,
    pub detail: String,
    pub cause: Cause,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_move: Option<u32>,
}

pub struct Judge {
    game: Box<dyn Game>,
    faults: Vec<Option<Fault>>,
    /// The seats that failed, in order, each with the game's plies then: players out at the same
    /// point of the game share a place (`verdict`).
    failed: Vec<(Seat, u32)>,
    /// The referee program's failure, which ends the game for no one's fault.
    referee_fault: Option<Fault>,
}

impl Judge {
    /// The judge of `game`, played by `players`.
    pub fn new(game: Box<dyn Game>, players: usize) -> Self {
        Judge {
            game,
            faults: vec![None; players],
            failed: Vec::new(),
            referee_fault: None,
        }
    }

    pub fn players(&self) -> usize {
        self.faults.len()
    }

    /// The seat numbered `i`, if the game has it: numbers come from logs.
    pub fn seat(&self, i: usize) -> Option<Seat> {
        Seat::new(i).filter(|_| i < self.players())
    }

    fn first_fault(&self) -> Option<Seat> {
        self.failed.first().map(|&(s, _)| s)
    }

    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }

    pub fn start(&mut self, out: &mut Outbox) {
        self.game.start(out);
    }

    /// Seats to read from now: those the game waits for, less any that failed.
    pub fn awaiting(&self) -> Seats {
        if self.referee_fault.is_some() {
            return Seats::NONE;
        }
        let failed: Seats = self.failed.iter().map(|&(s, _)| s).collect();
        self.game.awaiting().without(failed)
    }

    pub fn is_over(&self) -> bool {
        self.awaiting().is_empty()
    }

    pub fn has_failed(&self, seat: Seat) -> bool {
        self.faults[seat].is_some()
    }

    pub fn fault_of(&self, seat: Seat) -> Option<&Fault> {
        self.faults[seat].as_ref()
    }

    /// Whether the game waits for its referee program's next line.
    pub fn wants_referee(&mut self) -> bool {
        self.referee_fault.is_none()
            && self.failed.is_empty()
            && self.game.program().is_some_and(|p| p.wants_referee())
    }

    /// The lines to write to the referee program before it is heard next.
    pub fn take_for_referee(&mut self) -> Vec<String> {
        self.game
            .program()
            .map(|p| p.take_for_referee())
            .unwrap_or_default()
    }

    /// Give a line of the referee program's to the game; a line that breaks the protocol
    /// becomes the referee's failure, returned to be logged. A line holding a line break is one:
    /// a player reading it could take it for two (`games::line_breaks`).
    pub fn referee_line(&mut self, line: &str, out: &mut Outbox) -> Result<(), Fault> {
        let Some(program) = self.game.program() else {
            return Ok(());
        };
        let heard = line_breaks::check(line, "wrote").and_then(|()| {
            program
                .on_referee_line(line, out)
                .map_err(|why| Fault::protocol(format!("broke the protocol: {why}")))
        });
        heard.inspect_err(|f| self.referee_failed(f.clone()))
    }

    /// Record the referee program's failure (once): the game is over, and counts for no one.
    pub fn referee_failed(&mut self, fault: Fault) {
        self.referee_fault.get_or_insert(fault);
    }

    pub fn referee_fault(&self) -> Option<&Fault> {
        self.referee_fault.as_ref()
    }

    /// Give a line to the game; a refused line becomes the seat's fault. A line holding a line
    /// break is refused before the game sees it, whatever the game: it could be two lines to
    /// whoever the game passes it on to (`games::line_breaks`).
    pub fn line(&mut self, seat: Seat, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let r = line_breaks::check(line, "sent").and_then(|()| self.game.on_line(seat, line, out));
        if let Err(f) = &r {
            self.fault(seat, f.clone(), out);
        }
        r
    }

    /// Record a seat's failure (once) and let the game tell the others.
    pub fn fault(&mut self, seat: Seat, fault: Fault, out: &mut Outbox) {
        if self.faults[seat].is_some() {
            return;
        }
        self.game.on_fault(seat, &fault, out);
        self.faults[seat] = Some(fault);
        self.failed.push((seat, self.game.plies()));
    }

    /// Say a seat's failure again in other words, as a fact of another kind: the game has
    /// already been told of it, and the seats' order of failing stands.
    pub fn restate(&mut self, seat: Seat, fault: Fault) {
        if let Some(f) = self.faults[seat].as_mut() {
            *f = fault;
        }
    }

    /// The result. With two players, a failure decides the game against the failed seat (both
    /// failing: both lose), as it always has; with more, a seat that failed is out and ranks
    /// below every seat still in, above every seat already out (`places`). A referee program's
    /// failure counts for no one.
    pub fn verdict(&self) -> Verdict {
        let n = self.players();
        let plies = self.game.plies();
        if let (Some(fault), None) = (&self.referee_fault, self.first_fault()) {
            return Verdict {
                detail: Some(format!("the referee {}", fault.detail)),
                cause: Some(fault.cause),
                ..Verdict::plain(Places::tied(n), vec![0.0; n], Reason::Referee, plies)
            };
        }
        let all_failed = self.failed.len() == n;
        let (places, reason) = match (self.game.outcome(), self.first_fault()) {
            // A game that goes on without its failed seats ranks them itself (Tron).
            (Some(ranking), _) if n > 2 && !all_failed => (ranking.places, ranking.reason),
            (_, Some(first)) => {
                let kind = self.faults[first].as_ref().expect("recorded").kind;
                (self.places_after_failures(), kind.into())
            }
            (Some(Ranking { places, reason }), None) => (places, reason),
            // A game that stops waiting must have an outcome; if a game forgets, say so rather
            // than invent a winner.
            (None, None) => {
                return Verdict {
                    detail: Some("the game ended without an outcome (a bug in arena)".into()),
                    ..Verdict::plain(Places::tied(n), vec![0.5; n], Reason::Draw, plies)
                };
            }
        };
        let scores = if all_failed {
            vec![0.0; n]
        } else {
            places.points()
        };
        let mut v = Verdict::plain(places, scores, reason, plies);
        v.winner = v.winner.filter(|_| !all_failed);
        if reason.is_fault() {
            let first = self.first_fault().expect("a fault's reason");
            let fault = self.faults[first].as_ref().expect("recorded");
            v.detail = Some(fault.detail.clone());
            v.faulted = Some(first);
            v.cause = Some(fault.cause);
            v.at_move = fault.at_move;
        }
        if n > 2 {
            v.out = self
                .failed
                .iter()
                .map(|&(s, _)| self.seat_fault(s))
                .collect();
        }
        v
    }

    /// Places when failures ended the game: the seats still in share the first, and those out
    /// follow, the last to fail first; seats that failed at the same point of the game (the
    /// same number of plies) share a place.
    fn places_after_failures(&self) -> Places {
        let n = self.players();
        let last = self.failed.len() as u32;
        let keys: Vec<u32> = Seat::all(n)
            .map(
                |seat| match self.failed.iter().position(|&(s, _)| s == seat) {
                    None => 0,
                    Some(i) => {
                        let at = self.failed[i].1;
                        // The first failure at that point of the game stands for all made there.
                        let first = self.failed.iter().position(|&(_, p)| p == at).unwrap_or(i);
                        last - first as u32
                    }
                },
            )
            .collect();
        Places::by_key(&keys)
    }

    fn seat_fault(&self, seat: Seat) -> SeatFault {
        let f = self.faults[seat]
            .as_ref()
            .expect("a failed seat has its fault");
        SeatFault {
            seat,
            reason: f.kind.into(),
            detail: f.detail.clone(),
            cause: f.cause,
            at_move: f.at_move,
        }
    }
}

impl Verdict {
    /// How `seat` failed, if it did: the failure that ended the game, or one the game went on
    /// after.
    pub fn fault_of(&self, seat: Seat) -> Option<SeatFault> {
        if self.faulted == Some(seat) {
            return Some(SeatFault {
                seat,
                reason: self.reason,
                detail: self.detail.clone().unwrap_or_default(),
                cause: self.cause.unwrap_or_default(),
                at_move: self.at_move,
            });
        }
        self.out.iter().find(|o| o.seat == seat).cloned()
    }

    fn plain(places: Places, scores: Vec<f64>, reason: Reason, plies: u32) -> Verdict {
        Verdict {
            winner: places.winner(),
            places,
            scores,
            reason,
            plies,
            detail: None,
            faulted: None,
            cause: None,
            at_move: None,
            out: Vec::new(),
        }
    }
}
