//! Step 2 of the pods format: the meetings levelled by swaps within rounds, once every round is
//! drawn (see the module documentation of `pods`).

use super::pair_cost;
use crate::schedule::meetings::Meetings;

/// Passes over the whole schedule.
const PASSES: usize = 8;

/// The meetings every pair should have: `⌊λ⌋` to `⌈λ⌉`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target {
    low: u16,
    high: u16,
}

impl Target {
    /// What a pair that met `m` times costs here: each meeting outside the target weighs more
    /// than any swap can change the convex cost, so that swaps bring pairs into the target
    /// first, and level them second.
    fn cost(&self, m: u16) -> i64 {
        const OUTSIDE: i64 = 1 << 30;
        let out = i64::from(self.low.saturating_sub(m)) + i64::from(m.saturating_sub(self.high));
        out * out * OUTSIDE + pair_cost(m)
    }

    pub(super) fn new(n: usize, k: usize, games_per_bot: u32) -> Target {
        // λ = g (k - 1) / (n - 1); pods need n ≥ k ≥ 2.
        let num = u64::from(games_per_bot) * (k as u64 - 1);
        let den = n as u64 - 1;
        let clamp = |x: u64| x.min(u64::from(u16::MAX)) as u16;
        Target {
            low: clamp(num / den),
            high: clamp(num.div_ceil(den)),
        }
    }
}

/// Where each bot plays in one round: its pod, or none (a bye).
type Places = Vec<Option<u32>>;

struct Schedule<'a> {
    rounds: &'a mut [Vec<Vec<usize>>],
    meetings: &'a mut Meetings,
    target: Target,
    /// `places[r][bot]`: the pod of `bot` in round `r`.
    places: Vec<Places>,
}

/// Levels the meetings of `rounds`, whose meetings are `meetings`, towards `target` by swaps of
/// bots between pods of one round, each lowering the sum of every pair's cost.
pub(super) fn settle(rounds: &mut [Vec<Vec<usize>>], meetings: &mut Meetings, target: Target) {
    let n = meetings.bots();
    let places = rounds
        .iter()
        .map(|pods| {
            let mut at = vec![None; n];
            for (p, pod) in pods.iter().enumerate() {
                for &b in pod {
                    at[b] = Some(p as u32);
                }
            }
            at
        })
        .collect();
    let mut s = Schedule {
        rounds,
        meetings,
        target,
        places,
    };
    for _ in 0..PASSES {
        let over = s.part_pairs_over(target.high);
        let under = s.join_pairs_under(target.low);
        if !over && !under {
            break;
        }
    }
}

impl Schedule<'_> {
    /// What swapping `a` (in pod `p`) and `b` (in pod `q`) of round `r` changes in the cost.
    fn delta(&self, r: usize, (p, a): (usize, usize), (q, b): (usize, usize)) -> i64 {
        let m = &self.meetings;
        let change = |c: u16, up: bool| {
            let to = if up { c.saturating_add(1) } else { c - 1 };
            self.target.cost(to) - self.target.cost(c)
        };
        let pods = &self.rounds[r];
        let mut d = 0;
        for &x in pods[p].iter().filter(|&&x| x != a) {
            d += change(m.get(a, x), false) + change(m.get(b, x), true);
        }
        for &y in pods[q].iter().filter(|&&y| y != b) {
            d += change(m.get(b, y), false) + change(m.get(a, y), true);
        }
        d
    }

    /// Swaps `a` (in pod `p`) and `b` (in pod `q`) of round `r`.
    fn swap(&mut self, r: usize, (p, a): (usize, usize), (q, b): (usize, usize)) {
        let pods = &mut self.rounds[r];
        for (from, bot, other) in [(p, a, b), (q, b, a)] {
            for &x in pods[from].iter().filter(|&&x| x != bot) {
                self.meetings.sub_pair(bot, x);
                self.meetings.add_pair(other, x);
            }
        }
        let i = pods[p].iter().position(|&x| x == a).expect("a is in pod p");
        let j = pods[q].iter().position(|&x| x == b).expect("b is in pod q");
        pods[p][i] = b;
        pods[q][j] = a;
        self.places[r][a] = Some(q as u32);
        self.places[r][b] = Some(p as u32);
    }

    /// For each bot of a pair that met more than `high` times, in each round where they meet,
    /// the best swap within the round, when it lowers the cost. Whether one was made.
    fn part_pairs_over(&mut self, high: u16) -> bool {
        let mut swapped = false;
        for r in 0..self.rounds.len() {
            for p in 0..self.rounds[r].len() {
                for i in 0..self.rounds[r][p].len() {
                    let a = self.rounds[r][p][i];
                    let pod = &self.rounds[r][p];
                    if pod
                        .iter()
                        .any(|&x| x != a && self.meetings.get(a, x) > high)
                    {
                        swapped |= self.best_swap(r, (p, a));
                    }
                }
            }
        }
        swapped
    }

    /// Makes the swap of `a` (in pod `p` of round `r`) with a bot of another pod of the round
    /// that lowers the cost most, if one does.
    fn best_swap(&mut self, r: usize, (p, a): (usize, usize)) -> bool {
        let mut best = (0, usize::MAX, usize::MAX);
        for (q, pod) in self.rounds[r].iter().enumerate().filter(|&(q, _)| q != p) {
            for &b in pod {
                let d = self.delta(r, (p, a), (q, b));
                if d < best.0 {
                    best = (d, q, b);
                }
            }
        }
        if best.0 < 0 {
            self.swap(r, (p, a), (best.1, best.2));
        }
        best.0 < 0
    }

    /// For each pair that met fewer than `low` times, the first swap that brings it together in
    /// a round where both play apart and lowers the cost. Whether one was made.
    fn join_pairs_under(&mut self, low: u16) -> bool {
        let n = self.meetings.bots();
        let mut swapped = false;
        for a in 0..n {
            for b in a + 1..n {
                if self.meetings.get(a, b) < low {
                    swapped |= self.join(a, b);
                }
            }
        }
        swapped
    }

    /// Brings `a` and `b` together in one round, by a swap that lowers the cost, if one does.
    fn join(&mut self, a: usize, b: usize) -> bool {
        for r in 0..self.rounds.len() {
            let (Some(p), Some(q)) = (self.places[r][a], self.places[r][b]) else {
                continue;
            };
            let (p, q) = (p as usize, q as usize);
            if p == q {
                continue;
            }
            // b takes the place of one of a's pod-mates, or a of one of b's.
            for (mover, from, stay, to) in [(b, q, a, p), (a, p, b, q)] {
                for &x in self.rounds[r][to].iter().filter(|&&x| x != stay) {
                    if self.delta(r, (from, mover), (to, x)) < 0 {
                        self.swap(r, (from, mover), (to, x));
                        return true;
                    }
                }
            }
        }
        false
    }
}
