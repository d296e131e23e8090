//! Tron over CodinGame's protocol: the player to move reads `N P` and a line per player, and
//! answers a direction; the spectators follow one line per event (`description.md`).

use rand_chacha::ChaCha8Rng;

use super::bots;
use super::rules::{Tron, parse_answer, spectator_failed};
use crate::games::picture::Picture;
use crate::games::{Game, Outbox, Places, Ranking, Seat, Seating, Seats, Step};
use crate::failure::{Fault, Reason};

pub struct TronGame {
    tron: Tron,
    names: Vec<String>,
}

impl TronGame {
    pub fn new(seating: &Seating) -> Result<TronGame, String> {
        Ok(TronGame {
            tron: Tron::new(seating.names.len(), seating.seed)?,
            names: seating.names.clone(),
        })
    }

    /// The next player's input, or the end for the spectators.
    fn next(&self, out: &mut Outbox) {
        match self.tron.to_move() {
            Some(p) => {
                let seat = Seat::new(p).expect("at most four players");
                for line in self.tron.turn_input(p) {
                    out.to(seat, line);
                }
            }
            None => out.spectators(self.tron.spectator_end()),
        }
    }
}

impl Game for TronGame {
    fn start(&mut self, out: &mut Outbox) {
        for line in self.tron.spectator_start() {
            out.spectators(line);
        }
        self.next(out);
    }

    fn awaiting(&self) -> Seats {
        self.tron
            .to_move()
            .and_then(Seat::new)
            .map_or(Seats::NONE, Seats::only)
    }

    fn on_line(&mut self, _: Seat, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let dir = parse_answer(line).map_err(Fault::protocol)?;
        if let Some(played) = self.tron.play(dir) {
            out.spectators(played.spectator_line());
        }
        self.next(out);
        Ok(Step::Done)
    }

    /// The player is out, its ribbon gone; the game goes on for the others, as on CodinGame.
    fn on_fault(&mut self, seat: Seat, _: &Fault, out: &mut Outbox) {
        let was_to_move = self.tron.to_move() == Some(seat.index());
        if self.tron.eliminate(seat.index()) {
            out.spectators(spectator_failed(seat.index()));
            // The next player's prompt is new only if the move passed on (or the game ended).
            if was_to_move || self.tron.is_over() {
                self.next(out);
            }
        }
    }

    fn outcome(&self) -> Option<Ranking> {
        if !self.tron.is_over() {
            return None;
        }
        let places: Vec<u8> = self.tron.places().iter().map(|&p| p as u8).collect();
        let all_tied = places.iter().all(|&p| p == 1);
        Some(Ranking {
            places: Places::try_from(places).expect("the rules rank as competitions do"),
            reason: if all_tied {
                Reason::Draw
            } else {
                Reason::Normal
            },
        })
    }

    fn plies(&self) -> u32 {
        self.tron.moves()
    }

    fn builtin_line(&self, _: Seat, name: &str, rng: &mut ChaCha8Rng) -> String {
        bots::choose(name, &self.tron, rng).word().to_string()
    }

    fn picture(&self) -> Picture {
        self.tron.picture(&self.names)
    }
}
