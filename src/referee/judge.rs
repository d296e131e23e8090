//! The judge: a game plus the failures seen so far, deciding the result. Shared by the live
//! referee and by `arena replay`, so a replayed log is judged by exactly the same code.

use crate::games::{Cause, Fault, Game, Outbox, Reason, Seat, Step, line_breaks};

/// The result of a finished game, as the record and `--json` give it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Verdict {
    pub scores: [f64; 2],
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
}

pub struct Judge {
    game: Box<dyn Game>,
    faults: [Option<Fault>; 2],
    first_fault: Option<Seat>,
    /// The referee program's failure, which ends the game for no one's fault.
    referee_fault: Option<Fault>,
}

impl Judge {
    pub fn new(game: Box<dyn Game>) -> Self {
        Judge {
            game,
            faults: [None, None],
            first_fault: None,
            referee_fault: None,
        }
    }

    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }

    pub fn start(&mut self, out: &mut Outbox) {
        self.game.start(out);
    }

    /// Seats to read from now: those the game waits for, less any that failed.
    pub fn awaiting(&self) -> [bool; 2] {
        if self.referee_fault.is_some() {
            return [false; 2];
        }
        let a = self.game.awaiting();
        [
            a[0] && self.faults[0].is_none(),
            a[1] && self.faults[1].is_none(),
        ]
    }

    pub fn is_over(&self) -> bool {
        self.awaiting() == [false, false]
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
            && self.first_fault.is_none()
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
        self.first_fault.get_or_insert(seat);
    }

    /// Say a seat's failure again in other words, as a fact of another kind: the game has
    /// already been told of it, and the seats' order of failing stands.
    pub fn restate(&mut self, seat: Seat, fault: Fault) {
        if let Some(f) = self.faults[seat].as_mut() {
            *f = fault;
        }
    }

    /// The result: a failure decides the game against the failed seat (both failing: both lose);
    /// otherwise the game's own outcome.
    pub fn verdict(&self) -> Verdict {
        let plies = self.game.plies();
        // A player's failure came first (the referee is not heard after one): it decides.
        if let (Some(fault), None) = (&self.referee_fault, self.first_fault) {
            return Verdict {
                scores: [0.0; 2],
                winner: None,
                reason: Reason::Referee,
                plies,
                detail: Some(format!("the referee {}", fault.detail)),
                faulted: None,
                cause: Some(fault.cause),
                at_move: None,
            };
        }
        if let Some(first) = self.first_fault {
            let fault = self.faults[first].as_ref().expect("recorded");
            let both = self.faults[first.other()].is_some();
            let mut scores = [0.0; 2];
            if !both {
                scores[first.other()] = 1.0;
            }
            return Verdict {
                scores,
                winner: (!both).then_some(first.other()),
                reason: fault.kind.into(),
                plies,
                detail: Some(fault.detail.clone()),
                faulted: Some(first),
                cause: Some(fault.cause),
                at_move: fault.at_move,
            };
        }
        match self.game.outcome() {
            Some(o) => Verdict {
                winner: o.winner(),
                scores: o.scores(),
                reason: o.reason(),
                plies,
                detail: None,
                faulted: None,
                cause: None,
                at_move: None,
            },
            // A game that stops waiting must have an outcome; if a game forgets, say so rather
            // than invent a winner.
            None => Verdict {
                scores: [0.5, 0.5],
                winner: None,
                reason: Reason::Draw,
                plies,
                detail: Some("the game ended without an outcome (a bug in arena)".into()),
                faulted: None,
                cause: None,
                at_move: None,
            },
        }
    }
}
