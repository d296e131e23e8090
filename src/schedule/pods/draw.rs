//! Step 1 of the pods format: the rounds drawn one after the other (see the module
//! documentation of `pods`).

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::{CANDIDATES, meet_cost};
use crate::schedule::meetings::Meetings;

/// Passes of swaps per round: each pass offers every costly pod's bots a swap.
const PASSES: usize = 4;

/// Every round's pods (bots unseated), and the meetings they make.
pub(super) fn rounds(
    n: usize,
    k: usize,
    games_per_bot: u32,
    rng: &mut ChaCha8Rng,
) -> (Vec<Vec<Vec<usize>>>, Meetings) {
    let mut draw = Draw {
        k,
        meetings: Meetings::new(n),
    };
    let mut left = vec![games_per_bot; n];
    let mut rounds = Vec::new();
    loop {
        let (players, mut bench) = next_players(&left, n - n % k, rng);
        if players.is_empty() {
            break;
        }
        let pods = draw.pods(players, &mut bench, &left, rng);
        for pod in &pods {
            draw.meetings.add_game(pod);
            for &b in pod {
                left[b] -= 1;
            }
        }
        rounds.push(pods);
    }
    (rounds, draw.meetings)
}

/// The bots of the next round: up to `room` of those with games left, the most left first,
/// ties drawn at random; and the bench: those left out who have as many games left as the last
/// one in, and could take its place.
fn next_players(left: &[u32], room: usize, rng: &mut ChaCha8Rng) -> (Vec<usize>, Vec<usize>) {
    let mut keyed: Vec<(u32, u64, usize)> = (0..left.len())
        .filter(|&b| left[b] > 0)
        .map(|b| (left[b], rng.random::<u64>(), b))
        .collect();
    keyed.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let rest = keyed.split_off(room.min(keyed.len()));
    let last = keyed.last().map_or(0, |x| x.0);
    let bench = rest.iter().filter(|x| x.0 == last).map(|x| x.2).collect();
    (keyed.into_iter().map(|(_, _, b)| b).collect(), bench)
}

struct Draw {
    k: usize,
    meetings: Meetings,
}

impl Draw {
    /// What `bot` adds by joining `pod`'s bots but the one at `skip` (`usize::MAX`: all).
    fn cost_with(&self, bot: usize, pod: &[usize], skip: usize) -> i64 {
        let others = pod.iter().enumerate().filter(|&(i, _)| i != skip);
        others
            .map(|(_, &b)| meet_cost(self.meetings.get(bot, b)))
            .sum()
    }

    /// Whether a pod adds more than first meetings.
    fn costly(&self, pod: &[usize]) -> bool {
        (0..pod.len()).any(|i| pod[..i].iter().any(|&b| self.meetings.get(pod[i], b) > 0))
    }

    /// A round's pods: greedy, then improved by swaps (with the bench too).
    fn pods(
        &self,
        mut players: Vec<usize>,
        bench: &mut [usize],
        left: &[u32],
        rng: &mut ChaCha8Rng,
    ) -> Vec<Vec<usize>> {
        players.shuffle(rng);
        let mut pods = Vec::with_capacity(players.len() / self.k);
        while let Some(first) = players.pop() {
            let mut pod = Vec::with_capacity(self.k);
            pod.push(first);
            while pod.len() < self.k {
                let weighed = players.len().min(CANDIDATES);
                let at = (0..weighed)
                    .min_by_key(|&i| self.cost_with(players[i], &pod, usize::MAX))
                    .expect("the round's bots fill whole pods");
                pod.push(players.swap_remove(at));
            }
            pods.push(pod);
        }
        self.improve(&mut pods, bench, left);
        pods
    }

    /// Swaps while one lowers the round's cost.
    fn improve(&self, pods: &mut [Vec<usize>], bench: &mut [usize], left: &[u32]) {
        for _ in 0..PASSES {
            let mut improved = false;
            for i in 0..pods.len() {
                if !self.costly(&pods[i]) {
                    continue;
                }
                for x in 0..self.k {
                    improved |= self.swap(pods, bench, left, i, x);
                }
            }
            if !improved {
                break;
            }
        }
    }

    /// Makes the swap of `pods[i][x]` that lowers the cost most, with a bot of another pod or
    /// of the bench with as many games left, if one does.
    fn swap(
        &self,
        pods: &mut [Vec<usize>],
        bench: &mut [usize],
        left: &[u32],
        i: usize,
        x: usize,
    ) -> bool {
        let a = pods[i][x];
        let here = self.cost_with(a, &pods[i], x);
        // (gain, pod or None for the bench, place)
        let mut best: (i64, Option<usize>, usize) = (0, None, usize::MAX);
        for (j, pod) in pods.iter().enumerate().filter(|&(j, _)| j != i) {
            for (y, &b) in pod.iter().enumerate() {
                let before = here + self.cost_with(b, pod, y);
                let after = self.cost_with(b, &pods[i], x) + self.cost_with(a, pod, y);
                if before - after > best.0 {
                    best = (before - after, Some(j), y);
                }
            }
        }
        for (y, &b) in bench
            .iter()
            .enumerate()
            .filter(|&(_, &b)| left[b] == left[a])
        {
            let gain = here - self.cost_with(b, &pods[i], x);
            if gain > best.0 {
                best = (gain, None, y);
            }
        }
        match best {
            (0, _, _) => false,
            (_, Some(j), y) => {
                pods[i][x] = pods[j][y];
                pods[j][y] = a;
                true
            }
            (_, None, y) => {
                pods[i][x] = bench[y];
                bench[y] = a;
                true
            }
        }
    }
}
