//! `run.json`: what a results folder's games were played with, and a ladder's cycles.
//!
//! A resume compares the spec with it and refuses what would mix two tournaments in one table
//! (another game, other parameters, another seed, other deadlines or limits: `settings`...). A
//! ladder's cycles are recorded as each starts, with its first id, its first round and its bots:
//! the next night's spec may have other bots, so the games on record can no longer be derived
//! from it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::report::{self, GameRow};
use crate::format::Shape;
use crate::schedule::{Balance, Planned};
use crate::spec::Spec;

use super::Shard;
use super::settings::{self, Settings};

pub const FILE: &str = "run.json";

/// A bot as the schedule sees it: its name, and whether it is a gauntlet's reference bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bot {
    pub name: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seed: bool,
    /// Its command, folder, environment, channel and limits (`settings::of_bots`); none for a
    /// ladder's bots, which may change, and in records from before settings were kept.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: Settings,
}

/// One cycle of a ladder: the ids `first_id..first_id + games` and the rounds
/// `first_round..first_round + rounds`, whether or not all its games were played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cycle {
    pub first_id: u64,
    pub games: u64,
    pub first_round: u32,
    pub rounds: u32,
    pub bots: Vec<Bot>,
    /// The games a ladder played before `run.json` existed, taken as one closed cycle: how they
    /// were split into cycles was not recorded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub before_records: bool,
}

impl Cycle {
    /// The spec's schedule, its ids and rounds counted from these.
    pub fn of(spec: &Spec, first_id: u64, first_round: u32) -> Result<Cycle> {
        let bots = bots_of(spec, false);
        let mut cycle = Cycle {
            first_id,
            games: 0,
            first_round,
            rounds: 0,
            bots,
            before_records: false,
        };
        let (planned, _) = cycle.plan(spec)?;
        cycle.games = planned.len() as u64;
        cycle.rounds = planned.iter().map(|p| p.round).max().unwrap_or(0);
        Ok(cycle)
    }

    /// The cycle's schedule, from the spec's format and numbers and the cycle's own bots; with
    /// the balance of a pods schedule.
    pub fn plan(&self, spec: &Spec) -> Result<(Vec<Planned>, Option<Balance>)> {
        let seeds: Vec<bool> = self.bots.iter().map(|b| b.seed).collect();
        // Pods are drawn anew for each of a ladder's nights: the same draw every night would
        // keep apart, for ever, the pairs it keeps apart on the first.
        let shape = Shape {
            seed: crate::seeds::derive_seed(spec.seed, self.first_id),
            ..shape(spec)
        };
        shape
            .plan(&seeds)
            .map_err(|e| Error::Spec(format!("{}: {e}", spec.path.display())))
    }

    /// The games of `planned` (this cycle's plan) as the run plays them: id, round, opening
    /// pair, and the bots' names by seat. Every cycle plays the same openings.
    pub fn games(&self, planned: Vec<Planned>) -> Vec<(u64, u32, u64, Vec<&str>)> {
        planned
            .into_iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    self.first_id + i as u64,
                    self.first_round - 1 + p.round,
                    p.pair,
                    p.seats
                        .iter()
                        .map(|&s| self.bots[s].name.as_str())
                        .collect(),
                )
            })
            .collect()
    }
}

/// The cycle a ladder's run plays: its number (from 1), and whether it is one a run before
/// left unfinished rather than a new night's.
pub struct LadderCycle {
    pub cycle: Cycle,
    pub number: usize,
    pub unfinished: bool,
}

/// What must be the same on every run into one folder.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub game: String,
    pub params: BTreeMap<String, String>,
    pub seed: u64,
    pub format: String,
    /// Round-robin and gauntlet; a swiss's only when it plays mini-matches (more than one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_per_pairing: Option<u32>,
    /// Swiss.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// How many play each game; absent (2) in records of two-player games.
    #[serde(default = "two", skip_serializing_if = "is_two")]
    pub players: usize,
    /// Pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_per_bot: Option<u32>,
    pub ladder: bool,
    /// The bots, in the spec's order (seats come from it). A ladder's last run's, for reading:
    /// each cycle holds its own.
    pub bots: Vec<Bot>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycles: Vec<Cycle>,
    /// Where the games start; none (and absent from folders written before openings existed):
    /// the usual start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<Openings>,
    /// The referee program's command, as the spec gives it, for a game of `referee`: another
    /// program is another game. Kept for the arenas from before `settings` (which hold it, as a
    /// file); read only from their records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<String>,
    /// The tournament's settings that decide how its games may end (`settings::of`); absent
    /// from records written before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Settings>,
    /// The slice of the run's games this folder holds (`--shard K/N`): a merge of shards
    /// (`arena ratings --out`) checks that it has all N, of one run. Absent for a whole run,
    /// and in records from before shards were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

fn two() -> usize {
    2
}

fn is_two(n: &usize) -> bool {
    *n == 2
}

/// The openings a folder's games were played with. The file's positions themselves, not its
/// name: a file edited between two runs would start the games of one tournament from other
/// positions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Openings {
    /// As the file lists them; empty without a file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
    pub order: String,
    #[serde(default)]
    pub random_plies: u32,
}

impl Openings {
    fn of(spec: &Spec) -> Option<Openings> {
        spec.openings.as_ref().map(|o| Openings {
            positions: o.listed.clone(),
            order: o.order.as_str().to_string(),
            random_plies: o.random_plies,
        })
    }
}

/// The schedule a spec asks for (a format paired by round plans nothing from it).
pub fn shape(spec: &Spec) -> Shape {
    Shape {
        format: spec.format,
        players: spec.players,
        games_per_pairing: spec.games_per_pairing,
        games_per_bot: spec.games_per_bot,
        seed: spec.seed,
    }
}

/// Whether the spec's bots may differ from the record's: a ladder's may (a format paired by
/// round is played once, its pairings built on its own bots).
fn bots_may_change(spec: &Spec) -> bool {
    spec.ladder && !spec.format.by_round()
}

/// The spec's bots, with their own settings if `settings`.
fn bots_of(spec: &Spec, settings: bool) -> Vec<Bot> {
    let own = match settings {
        true => settings::of_bots(spec),
        false => vec![Settings::new(); spec.bots.len()],
    };
    spec.bots
        .iter()
        .zip(own)
        .map(|(b, settings)| Bot {
            name: b.name.clone(),
            seed: b.seed,
            settings,
        })
        .collect()
}

impl Record {
    pub fn of(spec: &Spec) -> Record {
        let format = spec.format;
        Record {
            game: spec.game.name.to_string(),
            params: spec.params.pairs().into_iter().collect(),
            seed: spec.seed,
            format: format.name().to_string(),
            games_per_pairing: format.recorded_games_per_pairing(spec.games_per_pairing),
            rounds: format.takes_rounds().then_some(spec.rounds),
            players: spec.players,
            games_per_bot: format.takes_games_per_bot().then_some(spec.games_per_bot),
            ladder: spec.ladder,
            bots: bots_of(spec, !bots_may_change(spec)),
            cycles: Vec::new(),
            openings: Openings::of(spec),
            referee: spec.referee.as_ref().map(|r| r.bot.label.clone()),
            settings: Some(settings::of(spec)),
            shard: None,
        }
    }

    /// The record of the results folder `dir`, as it is, if it has one: for a merge of its
    /// games with other folders'.
    pub fn read(dir: &Path) -> Result<Option<Record>> {
        let path = dir.join(FILE);
        match crate::files::read_folder_file(&path, crate::files::MOST_RECORD) {
            Ok(bytes) => serde_json::from_slice::<Record>(&bytes)
                .map(Some)
                .map_err(|e| Error::Corrupt(format!("{}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io(format!("reading {}", path.display()))(e)),
        }
    }

    /// How the run of `other` differs from this one's, as (key, here, there): what must be the
    /// same for their games to be one tournament's (as a resume checks), the shard aside.
    pub fn differs(&self, other: &Record) -> Vec<(String, String, String)> {
        let by_round = crate::format::find(&self.format).is_some_and(|f| f.by_round());
        self.changes(other, self.ladder && !by_round)
    }

    /// The folder's record, checked against the spec; a folder without one (new, or played
    /// before records were kept) gets it now, before any game is played into it.
    /// `shard`: the slice this run plays, recorded; a folder of another slice is refused.
    pub fn open(
        dir: &Path,
        spec: &Spec,
        rows: &[GameRow],
        shard: Option<Shard>,
    ) -> Result<Record> {
        let path = dir.join(FILE);
        let mine = Record {
            shard,
            ..Record::of(spec)
        };
        let mut record = match crate::files::read_folder_file(&path, crate::files::MOST_RECORD) {
            Ok(bytes) => serde_json::from_slice::<Record>(&bytes)
                .map_err(|e| e.to_string())
                .and_then(|r| r.check().map(|_| r))
                .map_err(|e| Error::Corrupt(format!("{}: {e}", path.display())))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Record::first(dir, spec, rows, mine);
            }
            Err(e) => return Err(Error::io(format!("reading {}", path.display()))(e)),
        };
        if record.game == spec.game.name {
            for (name, before) in crate::games::params::before_values(spec.game.params) {
                record
                    .params
                    .entry(name.to_string())
                    .or_insert_with(|| before.to_string());
            }
        }
        // A record from before settings were kept is checked against what it and its last game
        // tell of them (that game was played with the last run's), and keeps this spec's.
        let unkept = record.settings.is_none();
        let mut now = mine.clone();
        if unkept {
            let known = told_by_games(dir, spec, record.referee.as_deref(), rows);
            now.settings = now.settings.map(|s| settings::known(&s, &known));
            now.bots.iter_mut().for_each(|b| b.settings.clear());
            record.settings = Some(known);
        }
        refuse(dir, record.changes(&now, bots_may_change(spec)))?;
        // A record from before shards were recorded takes this run's.
        if let Some(was) = record.shard.filter(|&was| Some(was) != shard) {
            let now = shard.map_or("the whole run".into(), |s| format!("--shard {s}"));
            return Err(Error::Conflict(format!(
                "{} holds shard {was} of its run; this run is {now}: use another --out",
                dir.display()
            )));
        }
        if unkept || record.bots != mine.bots || record.shard != shard {
            record.bots = mine.bots;
            record.settings = mine.settings;
            record.shard = shard;
            record.save(dir)?;
        }
        Ok(record)
    }

    /// The record of a folder that has none: new, or played before records were kept, whose
    /// games are checked as far as they tell.
    fn first(dir: &Path, spec: &Spec, rows: &[GameRow], mine: Record) -> Result<Record> {
        if let Some(changed) = unrecorded_change(dir, spec, rows) {
            return Err(Error::Conflict(format!(
                "{} was played with {changed}: use another --out or remove the folder",
                dir.display()
            )));
        }
        let known = told_by_games(dir, spec, None, rows);
        let now = mine.settings.as_ref().map(|s| settings::known(s, &known));
        refuse(dir, settings::changes(&known, &now.unwrap_or_default()))?;
        let mut record = mine;
        if bots_may_change(spec) && !rows.is_empty() {
            record.cycles.push(Cycle {
                first_id: 1,
                games: rows.iter().map(|r| r.id).max().unwrap_or(0),
                first_round: 1,
                rounds: rows.iter().map(|r| r.round).max().unwrap_or(0),
                bots: Vec::new(),
                before_records: true,
            });
        }
        record.save(dir)?;
        Ok(record)
    }

    /// Cycles that arena could have written: each after the one before, with its own bots.
    fn check(&self) -> std::result::Result<(), String> {
        let (mut next_id, mut next_round) = (1u64, 1u32);
        for (i, c) in self.cycles.iter().enumerate() {
            let bad = |what: &str| Err(format!("cycle {}: {what}", i + 1));
            if c.first_id < next_id || c.first_round < next_round {
                return bad("its ids or rounds do not follow the cycle before");
            }
            let names: BTreeSet<&str> = c.bots.iter().map(|b| b.name.as_str()).collect();
            if !c.before_records && (names.len() < 2 || names.len() != c.bots.len()) {
                return bad("it needs two bots or more, each named once");
            }
            let (Some(id), Some(round)) = (
                c.first_id.checked_add(c.games),
                c.first_round.checked_add(c.rounds),
            ) else {
                return bad("its ids or rounds are out of range");
            };
            (next_id, next_round) = (id, round);
        }
        Ok(())
    }

    /// What differs from `now`, as (key, recorded, now); the bots only when they may not change.
    fn changes(&self, now: &Record, bots_may_change: bool) -> Vec<(String, String, String)> {
        let mut out = Vec::new();
        let mut differ = |key: &str, was: String, now: String| {
            if was != now {
                out.push((key.to_string(), was, now));
            }
        };
        let number = |n: Option<u32>| n.map_or("none".into(), |n| n.to_string());
        let bots = |b: &[Bot]| {
            let all: Vec<String> = b
                .iter()
                .map(|b| match b.seed {
                    true => format!("{} (seed)", b.name),
                    false => b.name.clone(),
                })
                .collect();
            format!("[{}]", all.join(", "))
        };
        differ("game", self.game.clone(), now.game.clone());
        // Another game's parameters differ as a matter of course: the game says it all.
        let keys: BTreeSet<&String> = self.params.keys().chain(now.params.keys()).collect();
        for key in keys.into_iter().filter(|_| self.game == now.game) {
            let value = |p: &BTreeMap<String, String>| p.get(key).cloned().unwrap_or("none".into());
            differ(
                &format!("[params] {key}"),
                value(&self.params),
                value(&now.params),
            );
        }
        differ("seed", self.seed.to_string(), now.seed.to_string());
        differ("format", self.format.clone(), now.format.clone());
        // A swiss's games_per_pairing is recorded only for mini-matches.
        let games = |r: &Record| {
            let understood = crate::format::find(&r.format)
                .and_then(|f| f.unrecorded_games_per_pairing());
            number(r.games_per_pairing.or(understood))
        };
        differ("games_per_pairing", games(self), games(now));
        differ("rounds", number(self.rounds), number(now.rounds));
        differ("players", self.players.to_string(), now.players.to_string());
        differ(
            "games_per_bot",
            number(self.games_per_bot),
            number(now.games_per_bot),
        );
        differ("ladder", self.ladder.to_string(), now.ladder.to_string());
        let (was, is) = (self.openings.as_ref(), now.openings.as_ref());
        // The order of a file's positions; without a file on both sides, the file says it all.
        if let (Some(w), Some(i)) = (was, is)
            && !w.positions.is_empty()
            && !i.positions.is_empty()
        {
            differ("openings_order", w.order.clone(), i.order.clone());
        }
        differ(
            "random_plies",
            was.map_or(0, |o| o.random_plies).to_string(),
            is.map_or(0, |o| o.random_plies).to_string(),
        );
        let (was, is) = (
            was.map_or(&[][..], |o| &o.positions[..]),
            is.map_or(&[][..], |o| &o.positions[..]),
        );
        if let Some((was, is)) = positions_changed(was, is) {
            differ("openings", was, is);
        }
        // A ladder's bots keep no settings: whether it is one says it all.
        let same_bots = bots(&self.bots) == bots(&now.bots) && self.ladder == now.ladder;
        if !bots_may_change {
            differ("bots", bots(&self.bots), bots(&now.bots));
        }
        // Another game's deadlines and referee differ as a matter of course, as other bots'
        // settings do: the game, or the bots, say it all.
        if self.game == now.game {
            if let (Some(was), Some(is)) = (&self.settings, &now.settings) {
                out.extend(settings::changes(was, is));
            }
            for (was, is) in self.bots.iter().zip(&now.bots).filter(|_| same_bots) {
                out.extend(
                    settings::changes(&was.settings, &is.settings)
                        .into_iter()
                        .map(|(key, w, n)| (format!("bot '{}' {key}", was.name), w, n)),
                );
            }
        }
        out
    }

    pub fn save(&self, dir: &Path) -> Result<()> {
        let mut text = serde_json::to_vec_pretty(self).expect("a record serialises");
        text.push(b'\n');
        report::write_atomic(&dir.join(FILE), &text)
    }

    /// The ladder cycle this run plays: the last one while some of its missing games can be
    /// played by the spec's bots (a run stopped in its middle), else a new one of the spec's
    /// bots, recorded before any of its games is played.
    pub fn ladder_cycle(
        &mut self,
        dir: &Path,
        spec: &Spec,
        rows: &[GameRow],
    ) -> Result<LadderCycle> {
        let present: BTreeSet<&str> = spec.bots.iter().map(|b| b.name.as_str()).collect();
        let on_record: BTreeSet<u64> = rows.iter().map(|r| r.id).collect();
        if let Some(last) = self.cycles.last().filter(|c| !c.before_records) {
            let (planned, _) = last.plan(spec)?;
            let unfinished = last.games(planned).iter().any(|(id, _, _, names)| {
                !on_record.contains(id) && names.iter().all(|n| present.contains(n))
            });
            if unfinished {
                return Ok(LadderCycle {
                    cycle: last.clone(),
                    number: self.cycles.len(),
                    unfinished: true,
                });
            }
        }
        let (first_id, first_round) = self
            .cycles
            .last()
            .map_or((1, 1), |c| (c.first_id + c.games, c.first_round + c.rounds));
        let cycle = Cycle::of(spec, first_id, first_round)?;
        self.cycles.push(cycle.clone());
        self.save(dir)?;
        Ok(LadderCycle {
            cycle,
            number: self.cycles.len(),
            unfinished: false,
        })
    }
}

/// How two lists of opening positions differ, for people: their sizes, or the first position
/// that is not the same.
fn positions_changed(was: &[String], is: &[String]) -> Option<(String, String)> {
    let count = |p: &[String]| match p.len() {
        0 => "no file".to_string(),
        1 => "1 position".to_string(),
        n => format!("{n} positions"),
    };
    if was.len() != is.len() {
        return Some((count(was), count(is)));
    }
    let i = was.iter().zip(is).position(|(a, b)| a != b)?;
    Some((
        format!("\"{}\" as position {}", was[i], i + 1),
        format!("\"{}\"", is[i]),
    ))
}

/// The settings a folder without them tells: its referee's command as recorded (`referee`), and
/// what its last game (the last run's) was played with.
fn told_by_games(dir: &Path, spec: &Spec, referee: Option<&str>, rows: &[GameRow]) -> Settings {
    let last = rows.last().and_then(|row| log_header(dir, row));
    settings::told(spec, referee, last.as_ref())
}

/// Refused: a run into `dir` that would change these (name, recorded, now), saying so.
fn refuse(dir: &Path, changed: Vec<(String, String, String)>) -> Result<()> {
    if changed.is_empty() {
        return Ok(());
    }
    let was: Vec<String> = changed
        .iter()
        .map(|(k, w, _)| format!("{k} = {w}"))
        .collect();
    let now: Vec<String> = match &changed[..] {
        [(_, _, now)] => vec![now.clone()],
        _ => changed
            .iter()
            .map(|(k, _, n)| format!("{k} = {n}"))
            .collect(),
    };
    Err(Error::Conflict(format!(
        "{} was played with {}; this spec says {}: use another --out or remove the folder",
        dir.display(),
        was.join(", "),
        now.join(", ")
    )))
}

/// What the games of a folder from before `run.json` say of themselves that this spec changes:
/// each game's seed derives from the spec's seed and its id, and the first game's log names the
/// game and its parameters (when it is there to read).
fn unrecorded_change(dir: &Path, spec: &Spec, rows: &[GameRow]) -> Option<String> {
    let first = rows.first()?;
    if let Some(header) = log_header(dir, first) {
        if header.game != spec.game.name {
            return Some(format!(
                "game = {}; this spec says {}",
                header.game, spec.game.name
            ));
        }
        let params = |p: &crate::games::Params| {
            let all: Vec<String> = p
                .pairs()
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            all.join(", ")
        };
        if header.params.clone().recorded(spec.game.params) != spec.params {
            return Some(format!(
                "[params] {}; this spec says {}",
                params(&header.params),
                params(&spec.params)
            ));
        }
    }
    // A referee program's games take their pair's seed (`seeds::pair_seed`), and were never
    // played into a folder without a record.
    let other = rows
        .iter()
        .filter(|_| spec.referee.is_none())
        .filter(|r| r.seed != crate::seeds::derive_seed(spec.seed, r.id))
        .min_by_key(|r| r.id)?;
    Some(format!(
        "another seed than this spec's seed = {} (game {}'s is not derived from it)",
        spec.seed, other.id
    ))
}

/// The header of a game's log in `dir`, if it can be read (`log::read_header`: a regular file
/// of the folder's own `logs`, neither a link nor a FIFO that would hold the run).
fn log_header(dir: &Path, row: &GameRow) -> Option<crate::referee::log::Header> {
    let name = Path::new(&row.log).file_name()?;
    crate::referee::log::read_header(&dir.join("logs").join(name)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bots(names: &[&str]) -> Vec<Bot> {
        names
            .iter()
            .map(|n| Bot {
                name: n.to_string(),
                seed: false,
                settings: Settings::new(),
            })
            .collect()
    }

    fn ladder(cycles: Vec<Cycle>) -> Record {
        Record {
            game: "roshambo".into(),
            params: BTreeMap::new(),
            seed: 1,
            format: "round-robin".into(),
            games_per_pairing: Some(2),
            rounds: None,
            players: 2,
            games_per_bot: None,
            ladder: true,
            bots: bots(&["a", "b"]),
            cycles,
            openings: None,
            referee: None,
            settings: None,
            shard: None,
        }
    }

    fn cycle(first_id: u64, first_round: u32, names: &[&str]) -> Cycle {
        Cycle {
            first_id,
            games: 2,
            first_round,
            rounds: 2,
            bots: bots(names),
            before_records: false,
        }
    }

    #[test]
    fn edited_cycles_are_refused_when_read() {
        let good = ladder(vec![cycle(1, 1, &["a", "b"]), cycle(3, 3, &["a", "c"])]);
        assert_eq!(good.check(), Ok(()));
        let cases = [
            (vec![cycle(1, 0, &["a", "b"])], "cycle 1: its ids or rounds"),
            (vec![cycle(0, 1, &["a", "b"])], "cycle 1: its ids or rounds"),
            (
                vec![cycle(1, 1, &["a", "b"]), cycle(2, 3, &["a", "b"])],
                "cycle 2: its ids or rounds do not follow",
            ),
            (vec![cycle(1, 1, &["a"])], "cycle 1: it needs two bots"),
            (vec![cycle(1, 1, &["a", "a"])], "cycle 1: it needs two bots"),
            (
                vec![Cycle {
                    rounds: u32::MAX,
                    ..cycle(1, 1, &["a", "b"])
                }],
                "cycle 1: its ids or rounds are out of range",
            ),
        ];
        for (cycles, expected) in cases {
            let e = ladder(cycles).check().unwrap_err();
            assert!(e.starts_with(expected), "{e}");
        }
    }

    /// A swiss's record from before mini-matches and openings: it has neither field, and means
    /// one game per pairing from the usual start.
    #[test]
    fn records_from_before_openings_and_mini_matches_read_as_their_defaults() {
        let old: Record = serde_json::from_str(
            r#"{"game": "nim", "params": {}, "seed": 1, "format": "swiss", "rounds": 3,
                "ladder": false, "bots": [{"name": "a"}, {"name": "b"}]}"#,
        )
        .unwrap();
        assert!(old.openings.is_none());
        let same = old.clone();
        assert_eq!(old.changes(&same, false), []);
        let now = Record {
            games_per_pairing: Some(2),
            openings: Some(Openings {
                positions: vec!["1,2 0".into()],
                order: "sequential".into(),
                random_plies: 0,
            }),
            ..old.clone()
        };
        let changed: Vec<String> = old
            .changes(&now, false)
            .into_iter()
            .map(|(k, was, is)| format!("{k}: {was} -> {is}"))
            .collect();
        assert_eq!(
            changed,
            [
                "games_per_pairing: 1 -> 2",
                "openings: no file -> 1 position",
            ]
        );
    }

    #[test]
    fn a_cycle_numbers_its_games_and_rounds_from_its_start() {
        let c = Cycle {
            games: 6,
            rounds: 6,
            ..cycle(13, 7, &["a", "b", "c"])
        };
        let shape = Shape {
            format: crate::format::default(),
            players: 2,
            games_per_pairing: 2,
            games_per_bot: 0,
            seed: 1,
        };
        let (planned, _) = shape.plan(&[false; 3]).unwrap();
        let games = c.games(planned);
        assert_eq!(games.len(), 6);
        assert_eq!(games.first().map(|g| (g.0, g.1)), Some((13, 7)));
        assert_eq!(games.last().map(|g| (g.0, g.1)), Some((18, 12)));
    }
}
