//! Pods: games of more players than a round-robin of every group can take. Every bot plays the
//! same number of games (`games_per_bot`), pairs and seats as even as the design allows.

use super::{Field, Format, Plan, Schedule, Shape};
use crate::schedule::pods::{check as check_pods, schedule};

pub struct Pods;

impl Format for Pods {
    fn name(&self) -> &'static str {
        "pods"
    }

    fn schedule(&self) -> Schedule {
        Schedule::Whole { check, plan }
    }

    fn takes_games_per_pairing(&self) -> Result<(), &'static str> {
        Err("games_per_pairing is not for pods: say how many games each bot plays with \
             games_per_bot")
    }

    fn takes_games_per_bot(&self) -> bool {
        true
    }

    fn games_per_cycle(&self, field: &Field, _: u32, games_per_bot: u32) -> u64 {
        let n = field.bots as u64;
        n.saturating_mul(u64::from(games_per_bot))
            .div_ceil(field.players as u64)
    }

    fn fewer_games(&self, _players: usize) -> &'static str {
        "lower games_per_bot"
    }
}

fn check(shape: &Shape, n: usize, _seeds: usize) -> Result<(), String> {
    check_pods(n, shape.players, shape.games_per_bot)
}

fn plan(shape: &Shape, seed: &[bool]) -> Result<Plan, String> {
    let (planned, balance) = schedule(seed.len(), shape.players, shape.games_per_bot, shape.seed)?;
    Ok((planned, Some(balance)))
}
