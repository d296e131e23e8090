//! roshambo over Code Colosseum's line protocol.

use rand_chacha::ChaCha8Rng;

use super::bots;
use super::picture;
use super::rules::{Gesture, points};
use crate::games::picture::Picture;
use crate::games::{Draw, Outbox, Outcome, Params, Side, Step, TwoPlayer};
use crate::failure::Fault;

/// What a seat did in the current round.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Choice {
    Pending,
    Played(Gesture),
    Failed,
}

pub struct Roshambo {
    names: [String; 2],
    rounds: u32,
    pace: f64,
    round: u32,
    choices: [Choice; 2],
    score: [u32; 2],
    history: [Vec<Gesture>; 2],
    over: bool,
}

impl Roshambo {
    pub fn new(params: &Params, names: [String; 2]) -> Self {
        Roshambo {
            names,
            rounds: params.int("rounds") as u32,
            pace: params.float("pace"),
            round: 0,
            choices: [Choice::Pending; 2],
            score: [0; 2],
            history: [Vec::new(), Vec::new()],
            over: false,
        }
    }

    /// Once both seats have played or failed, tell everyone and start the next round.
    fn settle(&mut self, out: &mut Outbox) {
        if self.choices.contains(&Choice::Pending) {
            return;
        }
        let word = |c: Choice| match c {
            Choice::Played(g) => g.as_str(),
            _ => "RETIRE",
        };
        // Each player hears the other's choice, but a failed player is sent nothing.
        for seat in Side::BOTH {
            if self.choices[seat] != Choice::Failed {
                out.to(seat, word(self.choices[seat.other()]));
            }
        }
        out.spectators(word(self.choices[0]));
        out.spectators(word(self.choices[1]));
        match self.choices {
            [Choice::Played(a), Choice::Played(b)] => {
                let p = points(a, b);
                self.score[0] += p[0];
                self.score[1] += p[1];
                self.history[0].push(a);
                self.history[1].push(b);
                self.round += 1;
                self.over = self.round >= self.rounds;
                if !self.over {
                    self.choices = [Choice::Pending; 2];
                    out.pause(self.pace);
                }
            }
            _ => self.over = true,
        }
    }
}

impl TwoPlayer for Roshambo {
    fn start(&mut self, out: &mut Outbox) {
        let rounds = self.rounds.to_string();
        for seat in Side::BOTH {
            out.to(seat, self.names[seat].clone());
            out.to(seat, self.names[seat.other()].clone());
            out.to(seat, rounds.clone());
        }
        out.spectators(self.names[0].clone());
        out.spectators(self.names[1].clone());
        out.spectators(rounds);
    }

    fn awaiting(&self) -> [bool; 2] {
        let pending = |s: Side| !self.over && self.choices[s] == Choice::Pending;
        Side::BOTH.map(pending)
    }

    fn on_line(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let word = line.trim();
        let gesture = Gesture::parse(word).ok_or_else(|| {
            Fault::protocol(format!(
                "sent '{word}' where ROCK, PAPER or SCISSORS was expected"
            ))
        })?;
        self.choices[seat] = Choice::Played(gesture);
        self.settle(out);
        Ok(Step::Done)
    }

    fn on_fault(&mut self, seat: Side, _fault: &Fault, out: &mut Outbox) {
        self.choices[seat] = Choice::Failed;
        self.settle(out);
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let [a, b] = self.score;
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::win(Side::First),
            std::cmp::Ordering::Less => Outcome::win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Drawn(Draw::Rules),
        })
    }

    fn plies(&self) -> u32 {
        self.round
    }

    fn builtin_line(&self, seat: Side, name: &str, rng: &mut ChaCha8Rng) -> String {
        bots::choose(name, &self.history[seat.other()], rng)
            .as_str()
            .to_string()
    }

    fn picture(&self) -> Picture {
        // A round just ended when both seats have played and not yet thrown again: the choices
        // were reset for the next round, or kept after the last one.
        let finished = self.round > 0
            && matches!(
                self.choices,
                [Choice::Pending, Choice::Pending] | [Choice::Played(_), Choice::Played(_)]
            );
        let row = finished.then(|| {
            let throws = Side::BOTH.map(|s| *self.history[s].last().expect("a round was played"));
            picture::row(&self.names, self.round, throws)
        });
        let failed = Side::BOTH
            .into_iter()
            .find(|&s| self.choices[s] == Choice::Failed);
        let status = match (failed, self.outcome()) {
            (Some(seat), _) => format!("{} retired", self.names[seat]),
            (None, Some(Outcome::Won(seat))) => format!("{} wins", self.names[seat]),
            (None, Some(_)) => "a draw".to_string(),
            (None, None) => format!("round {} of {}", self.round + 1, self.rounds),
        };
        let [a, b] = self.score;
        Picture {
            board: picture::table(&self.names, row),
            notes: vec![
                status,
                format!("score: {} {a}, {} {b}", self.names[0], self.names[1]),
            ],
        }
    }
}
