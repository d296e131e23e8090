//! Gauntlet: every bot plays the reference bots (`seed = true`), not each other; its grades
//! say how each fared against them.

use super::{At, Field, Format, Plan, Schedule, Shape, choose};
use crate::schedule::round_robin::{check_gauntlet, gauntlet, gauntlet_groups};

pub struct Gauntlet;

impl Format for Gauntlet {
    fn name(&self) -> &'static str {
        "gauntlet"
    }

    fn schedule(&self) -> Schedule {
        Schedule::Whole { check, plan }
    }

    fn takes_reference_bots(&self) -> bool {
        true
    }

    fn check_field(&self, field: &Field) -> Result<(), (At, String)> {
        let &Field { bots, seeds, players } = field;
        if seeds == 0 || seeds == bots {
            return Err((
                At::Whole,
                "a gauntlet needs at least one bot with seed = true (the reference bots) and one \
                 without"
                    .into(),
            ));
        }
        if seeds + 1 < players {
            return Err((
                At::Whole,
                format!(
                    "a gauntlet of {players}-player games needs at least {} reference bots \
                     (seed = true) to sit beside each bot, this one has {seeds}",
                    players - 1
                ),
            ));
        }
        Ok(())
    }

    fn games_per_cycle(&self, field: &Field, games_per_pairing: u32, _: u32) -> u64 {
        let (seeds, k) = (field.seeds as u64, field.players as u64);
        let groups = (field.bots as u64 - seeds).saturating_mul(choose(seeds, k - 1));
        groups.saturating_mul(u64::from(games_per_pairing))
    }
}

fn check(shape: &Shape, n: usize, seeds: usize) -> Result<(), String> {
    match shape.players {
        2 => Ok(()),
        k => check_gauntlet(seeds, n - seeds, k),
    }
}

/// Each bot against each reference bot (of two players, as always); of more, against each
/// group of references.
fn plan(shape: &Shape, seed: &[bool]) -> Result<Plan, String> {
    let (seeds, others): (Vec<usize>, Vec<usize>) = (0..seed.len()).partition(|&i| seed[i]);
    let games = shape.games_per_pairing;
    let planned = match shape.players {
        2 => gauntlet(&seeds, &others, games),
        k => gauntlet_groups(&seeds, &others, k, games)?,
    };
    Ok((planned, None))
}
