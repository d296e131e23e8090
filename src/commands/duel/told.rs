//! A duel's games told, counted and summed up in the order of their numbers, whatever order
//! they finish and reach games.csv in.

use std::collections::BTreeMap;
use std::io::Write;

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

/// The games told so far, and those over but waiting for a game before them.
pub struct Told<'a> {
    names: &'a [String; 2],
    /// Results go to stdout as JSON, and the words to stderr.
    json: bool,
    /// The number of the next game to tell (0 is the first).
    next: usize,
    waiting: BTreeMap<usize, Outcome>,
    tally: Tally,
    sprt: Option<SprtState>,
    points: [f64; 2],
    /// The games on record, in the order of their numbers.
    pub rows: Vec<GameRow>,
    /// The games arena could not set up, numbered from 1.
    pub unplayed: Vec<usize>,
}

impl<'a> Told<'a> {
    pub fn new(names: &'a [String; 2], json: bool, sprt: Option<SprtState>) -> Told<'a> {
        Told {
            names,
            json,
            next: 0,
            waiting: BTreeMap::new(),
            tally: Tally::default(),
            sprt,
            points: [0.0; 2],
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
        self.sprt.is_some_and(|s| s.decided.is_some())
    }

    /// The first game never told and how many later ones wait for it, if any do.
    pub fn untold(&self) -> Option<(usize, usize)> {
        (!self.waiting.is_empty()).then(|| (self.next + 1, self.waiting.len()))
    }

    fn tell(&mut self, i: usize, outcome: Outcome) {
        let (record, row) = match outcome {
            Outcome::Recorded(record, row) => (record, row),
            Outcome::Unplayed(why) => {
                let order = seats(i);
                crate::out::warn(&format!(
                    "arena: game {} ({} vs {}) was not played: arena could not set it up \
                     ({why}); it counts for no one",
                    i + 1,
                    self.names[order[0]],
                    self.names[order[1]]
                ));
                self.unplayed.push(i + 1);
                self.tally.record(i as u64, None);
                return;
            }
            Outcome::Lost => {
                self.tally.record(i as u64, None);
                return;
            }
        };
        // The first bot sits in seat 0 of the games with an even index.
        let first = Side::BOTH[i % 2];
        let scores = [
            record.verdict.scores[first],
            record.verdict.scores[first.other()],
        ];
        self.points[0] += scores[0];
        self.points[1] += scores[1];
        // A game both bots lost (both failed) is a result for neither.
        let result = (scores[0] + scores[1] == 1.0)
            .then(|| Wdl::from_score(scores[0]))
            .flatten();
        self.tally.record(i as u64, result);
        let mut line = record.finished_line(i + 1);
        if let Some(sprt) = &mut self.sprt {
            sprt.update(&self.tally, i as u64 + 1);
            line.push_str(&format!("; {}", sprt.progress()));
        }
        self.say(&line);
        self.rows.push(row);
        if self.json {
            print_json(&record);
        }
    }

    /// The summary of the games told: the counts, the statistics, the SPRT's conclusion (or
    /// where it stands, if `stopped`: the duel was interrupted).
    pub fn summarize(&self, stopped: bool) {
        let games = &self.tally.games;
        self.say(&format!(
            "{} vs {}: {}, {}, {} for {} (score {}-{})",
            self.names[0],
            self.names[1],
            plural(games.wins, "win", "wins"),
            plural(games.draws, "draw", "draws"),
            plural(games.losses, "loss", "losses"),
            self.names[0],
            self.points[0],
            self.points[1]
        ));
        for line in summary::lines(&self.tally) {
            self.say(&line);
        }
        if let Some(sprt) = &self.sprt {
            let recorded = stopped.then_some(self.rows.len() as u64);
            self.say(&sprt.conclusion(self.names, recorded));
        }
        if self.json {
            print_json(&summary::json(&self.tally, self.sprt.as_ref(), stopped));
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
