//! Tournament formats: what each plays and what a spec may say of it. A format is a file of its
//! own here and a line in [`ALL`], as a game is a folder and a line in `games::ALL`; the spec,
//! the tournament, run.json and the grades ask it, never its name. The algorithms that plan or
//! pair its games are in `schedule`.

mod gauntlet;
mod pods;
mod round_robin;
pub mod swiss;

use crate::schedule::swiss::{PodPlayer, Pods};
use crate::schedule::{Balance, Planned};

/// Every format, by the name a spec gives it (`format = "NAME"`); the first is the default.
pub static ALL: &[&dyn Format] = &[
    &round_robin::RoundRobin,
    &gauntlet::Gauntlet,
    &swiss::Swiss,
    &pods::Pods,
];

/// The format named `name`, as a spec and run.json name it.
pub fn find(name: &str) -> Option<&'static dyn Format> {
    ALL.iter().copied().find(|f| f.name() == name)
}

/// The format a spec that names none plays.
pub fn default() -> &'static dyn Format {
    ALL[0]
}

/// The formats that take a key, as a spec's error names them: `the swiss format`,
/// `format = "pods"`.
pub fn those_taking(takes: impl Fn(&dyn Format) -> bool) -> Vec<&'static str> {
    ALL.iter()
        .filter(|f| takes(**f))
        .map(|f| f.name())
        .collect()
}

/// A schedule planned whole: its games, and for pods the balance achieved.
pub type Plan = (Vec<Planned>, Option<Balance>);

/// How a format's games are found.
pub enum Schedule {
    /// Planned whole before the first game: `check` says what `plan` would refuse, for `n`
    /// bots of which `seeds` are reference bots, without planning.
    Whole {
        check: fn(&Shape, usize, usize) -> Result<(), String>,
        plan: fn(&Shape, &[bool]) -> Result<Plan, String>,
    },
    /// Paired round by round from the results of the rounds before: the pods of `players` (of
    /// two, pairs) and the bots with a bye, from each bot's standing.
    ByRound {
        pair: fn(&[PodPlayer], usize) -> Result<Pods, String>,
    },
}

/// Where in the spec a refusal points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The spec as a whole (the bots together).
    Whole,
    /// The `[[bot]]` entry of this index.
    Bot(usize),
}

/// The field a spec sets: its bots and the numbers a format checks them against.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub bots: usize,
    /// Of them, the reference bots (`seed = true`).
    pub seeds: usize,
    /// Players per game.
    pub players: usize,
}

/// What a format is. The provided methods say what most formats do; each format says where it
/// differs.
pub trait Format: Sync {
    /// Its name in a spec (`format = "NAME"`), in run.json and in messages.
    fn name(&self) -> &'static str;

    /// How its games are found.
    fn schedule(&self) -> Schedule;

    /// `games_per_pairing` when the spec does not say: a rotation of the seats (two games for
    /// two players, seats swapped).
    fn default_games_per_pairing(&self, players: usize) -> u32 {
        players as u32
    }

    /// Why `games_per_pairing = n` cannot be played in games of `players` (its bounds aside):
    /// a group's games rotate its seats, each bot in each seat once.
    fn check_games_per_pairing(&self, n: u32, players: usize) -> Result<(), String> {
        if players > 2 && !n.is_multiple_of(players as u32) {
            return Err(rotation_needed(n, players, ""));
        }
        Ok(())
    }

    /// Whether a spec may say `games_per_pairing`; why not, where it may not.
    fn takes_games_per_pairing(&self) -> Result<(), &'static str> {
        Ok(())
    }

    /// The `games_per_pairing` run.json leaves out as understood (a swiss's single game).
    fn unrecorded_games_per_pairing(&self) -> Option<u32> {
        None
    }

    /// Whether it plays `games_per_bot` games for each bot (and so needs it said).
    fn takes_games_per_bot(&self) -> bool {
        false
    }

    /// Whether it plays the `rounds` a spec says.
    fn takes_rounds(&self) -> bool {
        false
    }

    /// Whether it has reference bots (`seed = true`), whom every other bot plays, and who are
    /// graded against.
    fn takes_reference_bots(&self) -> bool {
        false
    }

    /// Why it cannot be played by `field`, and where in the spec to say so.
    fn check_field(&self, _field: &Field) -> Result<(), (At, String)> {
        Ok(())
    }

    /// How many games one cycle of it plays (a round of a format paired by round), saturating:
    /// a bound only.
    fn games_per_cycle(&self, field: &Field, games_per_pairing: u32, games_per_bot: u32) -> u64;

    /// What to change when a schedule has too many games.
    fn fewer_games(&self, _players: usize) -> &'static str {
        FEWER_PAIRINGS
    }

    /// Whether its games depend on its own results (paired by round): such a run cannot be
    /// split into shards, and a ladder's bots cannot change under it.
    fn by_round(&self) -> bool {
        matches!(self.schedule(), Schedule::ByRound { .. })
    }

    /// `games_per_pairing` as run.json records it.
    fn recorded_games_per_pairing(&self, n: u32) -> Option<u32> {
        let taken = self.takes_games_per_pairing().is_ok();
        (taken && self.unrecorded_games_per_pairing() != Some(n)).then_some(n)
    }
}

impl PartialEq for dyn Format {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl std::fmt::Debug for dyn Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A format is read from a spec by its name, with serde's words for one it does not know, as
/// for any enum (`spec::words` rewords them).
impl<'de> serde::Deserialize<'de> for &'static dyn Format {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Named;
        impl<'de> serde::de::Visitor<'de> for Named {
            type Value = &'static dyn Format;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a format's name")
            }
            fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
                use serde::de::VariantAccess;
                let (name, variant): (String, _) = data.variant()?;
                variant.unit_variant()?;
                find(&name).ok_or_else(|| serde::de::Error::unknown_variant(&name, names()))
            }
        }
        d.deserialize_enum("Format", names(), Named)
    }
}

/// Every format's name, in [`ALL`]'s order.
fn names() -> &'static [&'static str] {
    static NAMES: std::sync::LazyLock<Vec<&'static str>> =
        std::sync::LazyLock::new(|| ALL.iter().map(|f| f.name()).collect());
    &NAMES
}

/// What to change when a schedule of pairings has too many games.
const FEWER_PAIRINGS: &str = "lower games_per_pairing or split the bots into groups";

/// The refusal of `games_per_pairing = n` that does not rotate a group's seats whole; `or`
/// says what else the format takes.
fn rotation_needed(n: u32, players: usize, or: &str) -> String {
    format!(
        "games_per_pairing = {n}: with {players} players a group's games rotate its seats every \
         {players} games (each bot in each seat once); use a multiple of {players}{or}"
    )
}

/// The groups of `k` among `n`, saturating (a bound only).
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k.min(n - k)).fold(1u64, |c, i| c.saturating_mul(n - i) / (i + 1))
}

/// A whole schedule as a spec sets it: its format, players per game, and its numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub format: &'static dyn Format,
    /// Players per game.
    pub players: usize,
    /// Round-robin and gauntlet: the games of each pairing or group.
    pub games_per_pairing: u32,
    /// Pods: the games of each bot.
    pub games_per_bot: u32,
    /// Pods: the draw's seed.
    pub seed: u64,
}

impl Shape {
    /// What [`Shape::plan`] would refuse for `n` bots of which `seeds` are reference bots,
    /// without planning anything. A format paired by round refuses nothing here.
    pub fn check(&self, n: usize, seeds: usize) -> Result<(), String> {
        match self.format.schedule() {
            Schedule::Whole { check, .. } => check(self, n, seeds),
            Schedule::ByRound { .. } => Ok(()),
        }
    }

    /// The games of the bots `seed` says are reference bots or not, and for pods the balance
    /// achieved.
    pub fn plan(&self, seed: &[bool]) -> Result<Plan, String> {
        match self.format.schedule() {
            Schedule::Whole { plan, .. } => plan(self, seed),
            Schedule::ByRound { .. } => Err(format!(
                "a {} is paired round by round, not planned whole",
                self.format.name()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_found_by_its_own_name_and_names_are_distinct() {
        for f in ALL {
            assert_eq!(find(f.name()).map(|g| g.name()), Some(f.name()));
        }
        let mut names = names().to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
        assert_eq!(default().name(), "round-robin");
        assert!(find("knockout").is_none());
    }

    #[test]
    fn groups_are_counted_and_saturate() {
        assert_eq!(choose(5, 2), 10);
        assert_eq!(choose(8, 4), 70);
        assert_eq!(choose(3, 4), 0);
        // Far past any bound, never wrapped round to a small number.
        assert!(choose(100_000, 8) > 1 << 60);
    }

    #[test]
    fn formats_record_what_they_take() {
        let gpp = |name: &str, n: u32| find(name).unwrap().recorded_games_per_pairing(n);
        assert_eq!(gpp("round-robin", 2), Some(2));
        assert_eq!(gpp("gauntlet", 1), Some(1));
        assert_eq!(gpp("swiss", 1), None);
        assert_eq!(gpp("swiss", 4), Some(4));
        assert_eq!(gpp("pods", 3), None);
        let by_round: Vec<&str> = those_taking(|f| f.by_round());
        assert_eq!(by_round, ["swiss"]);
        assert_eq!(those_taking(|f| f.takes_games_per_bot()), ["pods"]);
        assert_eq!(those_taking(|f| f.takes_reference_bots()), ["gauntlet"]);
    }
}
