//! A series' games told, counted and summed up in the order of their numbers, whatever order
//! they finish and reach games.csv in: a duel's with the statistics of two, a match's by places.

use std::collections::BTreeMap;
use std::io::Write;

use super::places::Places;
use super::seats;
use super::summary::{self, SprtState};
use crate::games::Side;
use crate::out::plural;
use crate::referee::GameRecord;
use crate::report::GameRow;
use crate::stats::{Tally, Wdl};

/// What became of a game that is over.
pub enum Outcome {
    /// Its log and its row are on disk: it counts.
    Recorded(Box<GameRecord>, GameRow),
    /// arena could not set it up: it counts for no one.
    Unplayed(String),
    /// Not on record (abandoned by a second interrupt, or arena failed to play or write it):
    /// it counts for no one, and what went wrong is said where it happened.
    Lost,
}

/// How the games are counted: a duel's tally, SPRT and points from the first bot's side, or
/// each bot's places.
pub enum Scoring {
    Duel {
        tally: Tally,
        sprt: Option<SprtState>,
        points: [f64; 2],
    },
    Places(Places),
}

impl Scoring {
    pub fn duel(sprt: Option<SprtState>) -> Scoring {
        Scoring::Duel {
            tally: Tally::default(),
            sprt,
            points: [0.0; 2],
        }
    }

    pub fn places(bots: usize) -> Scoring {
        Scoring::Places(Places::new(bots))
    }
}

/// The games told so far, and those over but waiting for a game before them.
pub struct Told<'a> {
    names: &'a [String],
    /// Results go to stdout as JSON, and the words to stderr.
    json: bool,
    /// The number of the next game to tell (0 is the first).
    next: usize,
    waiting: BTreeMap<usize, Outcome>,
    scoring: Scoring,
    /// The games on record, in the order of their numbers.
    pub rows: Vec<GameRow>,
    /// The games arena could not set up, numbered from 1.
    pub unplayed: Vec<usize>,
}

impl<'a> Told<'a> {
    pub fn new(names: &'a [String], json: bool, scoring: Scoring) -> Told<'a> {
        Told {
            names,
            json,
            next: 0,
            waiting: BTreeMap::new(),
            scoring,
            rows: Vec::new(),
            unplayed: Vec::new(),
        }
    }

    /// Results on stdout; with --json, only the JSON there and the words on stderr.
    pub fn say(&self, text: &str) {
        if self.json {
            crate::out::warn(text);
        } else {
            crate::out::line(text);
        }
    }

    /// Game `i` (0 is the first) is over: tell it, and the games after it that waited for it.
    pub fn add(&mut self, i: usize, outcome: Outcome) {
        self.waiting.insert(i, outcome);
        while let Some(outcome) = self.waiting.remove(&self.next) {
            self.tell(self.next, outcome);
            self.next += 1;
        }
    }

    /// Whether the SPRT has its answer: no game starts after that.
    pub fn decided(&self) -> bool {
        match &self.scoring {
            Scoring::Duel { sprt, .. } => sprt.is_some_and(|s| s.decided.is_some()),
            Scoring::Places(_) => false,
        }
    }

    /// The first game never told and how many later ones wait for it, if any do.
    pub fn untold(&self) -> Option<(usize, usize)> {
        (!self.waiting.is_empty()).then(|| (self.next + 1, self.waiting.len()))
    }

    fn tell(&mut self, i: usize, outcome: Outcome) {
        let (record, row) = match outcome {
            Outcome::Recorded(record, row) => (record, row),
            Outcome::Unplayed(why) => {
                let order = seats(i, self.names.len());
                let who: Vec<&str> = order.iter().map(|&b| self.names[b].as_str()).collect();
                crate::out::warn(&format!(
                    "arena: game {} ({}) was not played: arena could not set it up ({why}); it \
                     counts for no one",
                    i + 1,
                    who.join(" vs ")
                ));
                self.unplayed.push(i + 1);
                self.count_none(i);
                return;
            }
            Outcome::Lost => {
                self.count_none(i);
                return;
            }
        };
        let mut line = record.finished_line(i + 1);
        match &mut self.scoring {
            Scoring::Duel {
                tally,
                sprt,
                points,
            } => {
                // The first bot sits in seat 0 of the games with an even index.
                let first = Side::BOTH[i % 2];
                let scores = [
                    record.verdict.scores[first],
                    record.verdict.scores[first.other()],
                ];
                points[0] += scores[0];
                points[1] += scores[1];
                // A game both bots lost (both failed) is a result for neither.
                let result = (scores[0] + scores[1] == 1.0)
                    .then(|| Wdl::from_score(scores[0]))
                    .flatten();
                tally.record(i as u64, result);
                if let Some(sprt) = sprt {
                    sprt.update(tally, i as u64 + 1);
                    line.push_str(&format!("; {}", sprt.progress()));
                }
            }
            Scoring::Places(places) => places.add(&row, self.names),
        }
        self.say(&line);
        self.rows.push(row);
        if self.json {
            print_json(&record);
        }
    }

    /// A game that counts for no one, in the duel's tally (the pairs are counted by game).
    fn count_none(&mut self, i: usize) {
        if let Scoring::Duel { tally, .. } = &mut self.scoring {
            tally.record(i as u64, None);
        }
    }

    /// The summary of the games told: a duel's counts, statistics and SPRT conclusion (or where
    /// it stands, if `stopped`: the duel was interrupted); a match's places per bot.
    pub fn summarize(&self, stopped: bool) {
        match &self.scoring {
            Scoring::Duel {
                tally,
                sprt,
                points,
            } => {
                let games = &tally.games;
                self.say(&format!(
                    "{} vs {}: {}, {}, {} for {} (score {}-{})",
                    self.names[0],
                    self.names[1],
                    plural(games.wins, "win", "wins"),
                    plural(games.draws, "draw", "draws"),
                    plural(games.losses, "loss", "losses"),
                    self.names[0],
                    points[0],
                    points[1]
                ));
                for line in summary::lines(tally) {
                    self.say(&line);
                }
                let times = crate::report::times::per_bot(self.names, &self.rows);
                for (name, t) in self.names.iter().zip(&times) {
                    if let Some(line) = crate::report::times::answer_line(name, t) {
                        self.say(&line);
                    }
                }
                if let Some(sprt) = sprt {
                    let recorded = stopped.then_some(self.rows.len() as u64);
                    self.say(&sprt.conclusion(self.names, recorded));
                }
                if self.json {
                    print_json(&summary::json(tally, sprt.as_ref(), stopped));
                }
            }
            Scoring::Places(places) => {
                let times = crate::report::times::per_bot(self.names, &self.rows);
                for line in places.lines(self.names, &times) {
                    self.say(&line);
                }
                if self.json {
                    print_json(&places.json(self.names, stopped));
                }
            }
        }
    }
}

/// One JSON object on a line of stdout, at once: one line for any reader, though a detail may
/// quote a bot's JSON string.
fn print_json(value: &impl serde::Serialize) {
    let mut stdout = std::io::stdout().lock();
    let _ = crate::games::line_breaks::write_json(&mut stdout, value);
    let _ = writeln!(stdout);
    let _ = stdout.flush();
}
