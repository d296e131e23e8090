//! dama over Code Colosseum's text protocol: Italian messages, the board drawn after every move,
//! and another try (up to `retries`) after an invalid move, within the same deadline.

use rand_chacha::ChaCha8Rng;

use super::picture::COLOURS;
use super::rules::{Board, Move, parse_move};
use crate::games::picture::{Board as Drawing, Picture};
use crate::games::position::{Position, builtin_move};
use crate::games::{Fault, FaultKind, Game, Outbox, Outcome, Params, Seat, Step, other};

const PROMPT: [&str; 2] = [
    "Inserisci la pedina che vuoi muovere e poi le mosse che vuoi fare",
    "Es > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...",
];
const INVALID: &str = "Mossa non valida riprova!";
const GAME_OVER: &str = "Game Over ;)";

/// Seat 0 has the white pieces and moves first.
fn side(seat: Seat) -> (&'static str, &'static str) {
    match seat {
        0 => ("bianco", "bianchi"),
        _ => ("nero", "neri"),
    }
}

pub struct Dama {
    pos: Board,
    names: [String; 2],
    retries: u32,
    pace: f64,
    /// Invalid moves the player to move may still make this turn.
    tries_left: u32,
    over: bool,
    /// The last refused attempt, to say what it was when the tries run out.
    last_refusal: Option<Fault>,
    /// The move that led to the current position, for the viewer.
    last: Option<Move>,
}

impl Dama {
    pub fn new(params: &Params, names: [String; 2]) -> Self {
        let retries = params.int("retries") as u32;
        Dama {
            pos: Board::start().with_max_plies(params.int("max_moves") as u32),
            names,
            retries,
            pace: params.float("pace"),
            tries_left: retries,
            over: false,
            last_refusal: None,
            last: None,
        }
    }

    fn board(&self, out: &mut Outbox) {
        for line in self.pos.board_lines() {
            out.everyone(&line);
        }
    }

    /// Announce the turn; the mover is asked for its move, the others get a blank line in its
    /// place (as the seed's example streams show).
    fn turn(&mut self, out: &mut Outbox) {
        let mover = self.pos.to_move();
        out.everyone(&format!("Turno {}!", side(mover).0));
        out.to(mover, "E' il tuo turno.");
        out.to(mover, "");
        out.to(mover, PROMPT[0]);
        out.to(mover, PROMPT[1]);
        out.to(other(mover), "");
        out.spectators("");
        self.tries_left = self.retries;
    }

    fn end(&mut self, out: &mut Outbox, winner: Option<Seat>) {
        self.over = true;
        match winner {
            Some(w) => out.everyone(&format!("I {} vincono la partita!", side(w).1)),
            None => out.everyone("La partita è patta."),
        }
        out.everyone(GAME_OVER);
    }
}

impl Game for Dama {
    fn start(&mut self, out: &mut Outbox) {
        out.everyone(&self.names[0]);
        out.everyone(&self.names[1]);
        out.everyone("Avvio la partita di dama...");
        out.everyone("");
        self.board(out);
        out.everyone("");
        out.to(0, "Sei i Bianchi");
        out.to(1, "Sei i Neri");
        self.turn(out);
    }

    fn awaiting(&self) -> [bool; 2] {
        let mut a = [false; 2];
        if !self.over {
            a[self.pos.to_move()] = true;
        }
        a
    }

    fn on_line(&mut self, seat: Seat, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let line = line.trim();
        let refusal = match parse_move(line) {
            Err(why) => Fault::protocol(format!("sent '{line}': {why}")),
            Ok(mv) => {
                if self.pos.is_legal(&mv) {
                    self.pos.play(&mv);
                    self.last = Some(mv);
                    out.everyone("");
                    self.board(out);
                    out.everyone("");
                    match self.pos.outcome() {
                        Some(o) => {
                            let winner = match o.scores {
                                [a, b] if a > b => Some(0),
                                [a, b] if b > a => Some(1),
                                _ => None,
                            };
                            if let Some(w) = winner {
                                let loser = other(w);
                                out.to(
                                    loser,
                                    if self.pos.grid().count()[loser] == [0, 0] {
                                        "Non hai più pedine disponibili."
                                    } else {
                                        "Non hai più mosse disponibili."
                                    },
                                );
                            }
                            self.end(out, winner);
                        }
                        None => {
                            out.pause(self.pace);
                            self.turn(out);
                        }
                    }
                    return Ok(Step::Done);
                }
                Fault::illegal(format!("sent '{line}', which is not a legal move here"))
            }
        };
        if self.tries_left == 0 {
            let _ = seat;
            return Err(match self.last_refusal.take() {
                // Say what the last try was, and that earlier ones failed too.
                Some(_) if self.retries > 0 => Fault::new(
                    refusal.kind,
                    format!("{} (after {} invalid tries)", refusal.detail, self.retries),
                ),
                _ => refusal,
            });
        }
        self.tries_left -= 1;
        self.last_refusal = Some(refusal);
        out.to(seat, INVALID);
        out.to(seat, "");
        out.to(seat, PROMPT[0]);
        out.to(seat, PROMPT[1]);
        Ok(Step::Retry)
    }

    fn on_fault(&mut self, seat: Seat, fault: &Fault, out: &mut Outbox) {
        if fault.kind == FaultKind::Timeout {
            out.to(
                seat,
                "Tempo scaduto, hai esaurito il tempo per fare una mossa!",
            );
        }
        out.everyone(&format!("I {} hanno abbandonato la partita.", side(seat).1));
        self.end(out, Some(other(seat)));
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn plies(&self) -> u32 {
        self.pos.plies()
    }

    fn builtin_line(&self, _seat: Seat, name: &str, rng: &mut ChaCha8Rng) -> String {
        let mv = builtin_move(&self.pos, name, 5, rng);
        self.pos.move_text(&mv)
    }

    fn picture(&self) -> Picture {
        let colour = |seat: Seat| COLOURS[seat].0;
        let player = |seat: Seat| format!("{} ({})", self.names[seat], colour(seat));
        let mover = self.pos.to_move();
        let status = match self.pos.outcome() {
            Some(o) if o.scores[0] > o.scores[1] => format!("{} wins", player(0)),
            Some(o) if o.scores[1] > o.scores[0] => format!("{} wins", player(1)),
            Some(o) => format!("a draw ({})", o.reason.as_str()),
            // Only the player to move can fail, so it is the one who left.
            None if self.over => format!("{} retired", player(mover)),
            None => format!("{} to move", player(mover)),
        };
        let count = self.pos.grid().count();
        let mut notes = vec![status, format!("moves played: {}", self.pos.plies())];
        for (seat, [men, kings]) in count.into_iter().enumerate() {
            notes.push(format!("{}: {men} men, {kings} kings", colour(seat)));
        }
        Picture {
            board: Drawing::Grid(self.pos.picture(self.last.as_ref())),
            notes,
        }
    }
}
