//! A tournament paired round by round (a swiss): each round paired by its format from the
//! results of the rounds before, then played.

use std::collections::BTreeMap;
use std::path::Path;

use super::play::{Outcome, play_all};
use super::{Job, Progress, Results};
use crate::engine::stop::Stop;
use crate::engine::threads::GameThreads;
use crate::error::Result;
use crate::report::GameRow;
use crate::schedule::swiss::{PodPlayer, Pods};
use crate::schedule::{Planned, rotation, seats_of_game, swiss_pair};
use crate::spec::Spec;

/// Pair each round from the results of the rounds before with `pair`, play it, go on.
pub(super) async fn by_round(
    (spec, dir, threads): (&Spec, &Path, &GameThreads),
    pair: fn(&[PodPlayer], usize) -> std::result::Result<Pods, String>,
    results: &mut Results,
    index: &BTreeMap<&str, usize>,
    check: &dyn Fn(&Job) -> Result<bool>,
    stop: &mut Stop,
) -> Result<Outcome> {
    let n = spec.bots.len();
    let mut outcome = Outcome::default();
    let mut next_id = 1u64;
    let games = spec.games_per_pairing;
    // The whole run on one bar: every round has the same number of games.
    let total = (spec.rounds as usize * (n / spec.players) * games as usize)
        .saturating_sub(results.rows.len()) as u64;
    let mut progress = Progress::new(total, 0);
    for round in 1..=spec.rounds {
        if *stop.borrow() > 0 {
            break;
        }
        let standings = standings(spec, &results.rows, index, round);
        let Pods { pods, byes } = match pair(&standings, spec.players) {
            Ok(p) => p,
            Err(why) => {
                let format = spec.format.name();
                eprintln!("arena: {format} stops before round {round}: {why}");
                break;
            }
        };
        let mut todo = Vec::new();
        // A pod's games follow each other by id, seats rotating from the pod's.
        for pod in pods {
            for k in 0..games {
                let seats = match &pod[..] {
                    &[a, b] => seats_of_game(u64::from(k), [a, b]).to_vec(),
                    _ => rotation(u64::from(k), pod.len())
                        .into_iter()
                        .map(|i| pod[i])
                        .collect(),
                };
                let job = Job {
                    id: next_id,
                    planned: Planned {
                        round,
                        seats,
                        pair: swiss_pair(round, games, spec.players, k),
                    },
                };
                next_id += 1;
                if !check(&job)? {
                    todo.push(job);
                }
            }
        }
        for bye in byes {
            crate::out::line(&format!("Round {round}: {} has a bye", spec.bots[bye].name));
        }
        outcome.add(play_all(spec, dir, threads, todo, results, &mut progress, stop).await?);
        if outcome.halted.is_some() {
            break;
        }
        // The next round is paired from this one's results: all of them.
        if !outcome.unplayed.is_empty() {
            crate::out::warn(&format!(
                "arena: {} stops after round {round}: the next round is paired from this \
                 one's results, and some of its games could not be played",
                spec.format.name()
            ));
            break;
        }
    }
    progress.finish();
    Ok(outcome)
}

/// Each bot's standing before round `round`, from the rows of the rounds before: its points,
/// its games' bots, its games in each seat and its byes. A mini-match's games count one by one:
/// its points are the pairing's result, and with seats rotating over whole rotations the seats
/// stay level. A bye scores as a pairing won (each of its games); who had one is known from the
/// rounds each bot sat out.
fn standings(
    spec: &Spec,
    rows: &[GameRow],
    index: &BTreeMap<&str, usize>,
    round: u32,
) -> Vec<PodPlayer> {
    let (n, k) = (spec.bots.len(), spec.players);
    let mut players = vec![
        PodPlayer {
            seat_games: vec![0; k],
            ..PodPlayer::default()
        };
        n
    ];
    for row in rows.iter().filter(|r| r.round < round) {
        let bots: Vec<usize> = row.names().iter().map(|b| index[b.as_str()]).collect();
        for ((seat, &b), score) in bots.iter().enumerate().zip(row.scores()) {
            players[b].score += score;
            players[b].seat_games[seat] += 1;
            players[b].games.push(bots.clone());
        }
    }
    for r in 1..round {
        for (i, p) in players.iter_mut().enumerate() {
            let played = rows
                .iter()
                .any(|row| row.round == r && row.names().iter().any(|b| index[b.as_str()] == i));
            if !played {
                p.byes += 1;
                p.score += f64::from(spec.games_per_pairing);
            }
        }
    }
    players
}
