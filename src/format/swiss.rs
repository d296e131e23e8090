//! Swiss: each round pairs bots of close scores who have not met, from the results of the
//! rounds before; `rounds` rounds of one game per pairing, or of a mini-match.

use super::{At, Field, Format, Schedule, rotation_needed};
use crate::schedule::swiss::{PodPlayer, Pods, SwissPlayer, pair_pods, pair_round};

/// The most bots a swiss takes: each round's matching weighs every pair of bots.
pub const MOST_BOTS: usize = 2_000;

pub struct Swiss;

impl Format for Swiss {
    fn name(&self) -> &'static str {
        "swiss"
    }

    fn schedule(&self) -> Schedule {
        Schedule::ByRound { pair }
    }

    /// One game per pairing unless a mini-match is asked for.
    fn default_games_per_pairing(&self, _players: usize) -> u32 {
        1
    }

    fn check_games_per_pairing(&self, n: u32, players: usize) -> Result<(), String> {
        if n == 1 {
            return Ok(());
        }
        if players > 2 && !n.is_multiple_of(players as u32) {
            return Err(rotation_needed(n, players, ", or 1"));
        }
        if players == 2 && n % 2 == 1 {
            return Err(format!(
                "games_per_pairing = {n}: a swiss plays 1 game per pairing or an even number (a \
                 mini-match, seats alternating); with an odd number one bot of each pairing \
                 would have the first seat once more"
            ));
        }
        Ok(())
    }

    fn unrecorded_games_per_pairing(&self) -> Option<u32> {
        Some(1)
    }

    fn takes_rounds(&self) -> bool {
        true
    }

    fn check_field(&self, field: &Field) -> Result<(), (At, String)> {
        if field.bots > MOST_BOTS {
            return Err((
                At::Bot(MOST_BOTS),
                format!(
                    "a swiss takes at most {MOST_BOTS} bots, this one has {}: pairing a round \
                     weighs every pair of bots (play a gauntlet or round-robin of groups \
                     instead)",
                    field.bots
                ),
            ));
        }
        Ok(())
    }

    /// A round's games.
    fn games_per_cycle(&self, field: &Field, games_per_pairing: u32, _: u32) -> u64 {
        let pods = (field.bots / field.players) as u64;
        pods.saturating_mul(u64::from(games_per_pairing))
    }
}

/// Pairs by weighted matching for two players; pods of close scores for more.
fn pair(players: &[PodPlayer], k: usize) -> Result<Pods, String> {
    if k > 2 {
        return pair_pods(players, k);
    }
    let players: Vec<SwissPlayer> = players
        .iter()
        .enumerate()
        .map(|(i, p)| SwissPlayer {
            score: p.score,
            opponents: p
                .games
                .iter()
                .flatten()
                .copied()
                .filter(|&o| o != i)
                .collect(),
            had_bye: p.byes > 0,
            seat0_games: p.seat_games[0],
            seat1_games: p.seat_games[1],
        })
        .collect();
    let pairing = pair_round(&players)?;
    Ok(Pods {
        pods: pairing.games.into_iter().map(|(a, b)| vec![a, b]).collect(),
        byes: pairing.bye.into_iter().collect(),
    })
}
