//! Round-robin: every pairing (every group of the game's players) plays `games_per_pairing`
//! games, seats rotating.

use super::{FEWER_PAIRINGS, Field, Format, Plan, Schedule, Shape, choose};
use crate::schedule::round_robin::{check_groups, groups, round_robin};

pub struct RoundRobin;

impl Format for RoundRobin {
    fn name(&self) -> &'static str {
        "round-robin"
    }

    fn schedule(&self) -> Schedule {
        Schedule::Whole { check, plan }
    }

    fn games_per_cycle(&self, field: &Field, games_per_pairing: u32, _: u32) -> u64 {
        let groups = choose(field.bots as u64, field.players as u64);
        groups.saturating_mul(u64::from(games_per_pairing))
    }

    fn fewer_games(&self, players: usize) -> &'static str {
        match players {
            2 => FEWER_PAIRINGS,
            _ => {
                "play format = \"pods\" (every bot the same number of games, pairs and seats balanced)"
            }
        }
    }
}

fn check(shape: &Shape, n: usize, _seeds: usize) -> Result<(), String> {
    match shape.players {
        2 => Ok(()),
        k => check_groups(n, k),
    }
}

/// Two-player round-robins are planned as they always were; groups of more, each group once.
fn plan(shape: &Shape, seed: &[bool]) -> Result<Plan, String> {
    let (n, games) = (seed.len(), shape.games_per_pairing);
    let planned = match shape.players {
        2 => round_robin(n, games),
        k => groups(n, k, games)?,
    };
    Ok((planned, None))
}
