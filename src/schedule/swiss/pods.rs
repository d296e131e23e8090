//! Swiss pairing for games of `k` players (3 to 8): each round, bots of close scores in pods of
//! `k`, no pod played before where possible, few pairs that met before.
//!
//! [`pair_pods`] is a pure function, as [`pair_round`](super::pair_round) is: the same players
//! always give the same pods. Finding the best pods is hard for `k ≥ 3` (no matching does it), so
//! it is greedy, then improved by swaps; the criteria, most important first:
//!
//! 1. **Byes** (`n mod k` of them, so that every pod is full): the bots with the fewest byes so
//!    far, and among them the lowest scores (then the later in the list). As in the two-player
//!    Swiss, nobody has a second bye before everybody has had one.
//! 2. **No repeated pod**: a pod whose bots played a game together, all of them and no others,
//!    is avoided where the greedy or a swap can.
//! 3. **Few repeated pairs**: the pairs of a pod that met before, counted by games together.
//! 4. **Close scores**: the sum over a pod's pairs of their squared score difference.
//!
//! The greedy takes the bots in score order, highest first: each pod starts from the best bot
//! left, and takes, one at a time, the bot that adds least by the criteria above (weighed over
//! every bot left; ties to the higher score). The greedy's last pods take what is left; so then
//! two pods up to [`WINDOW`] boards apart swap bots while a swap lowers their cost, by the same
//! criteria in the same order. Repeats are therefore avoided when a swap between nearby pods
//! can avoid them, not always when some pairing could.
//!
//! **Seats** come from each bot's games per seat: the pod's seating of least total games in the
//! seats taken (exact, `seating::SeatCounts::seat`), ties giving the lower seats to the higher
//! scores.
//!
//! **Output**: pods in board order (the highest score first), each in seat order; the byes in
//! ascending order. Cost: `O(n² k)` for the greedy and a matrix of `n²` meeting counts (2 MB
//! at 1,000 bots).

use std::collections::HashSet;

use super::super::pods::MAX_BOTS;
use super::super::seating::SeatCounts;

/// How far apart, in boards, two pods may be to swap bots.
pub const WINDOW: usize = 3;
/// Passes of swaps over the boards.
const PASSES: usize = 8;

/// One bot's state before a round of pods.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodPlayer {
    /// Points so far (any finite value).
    pub score: f64,
    /// The bots of each game played so far (indices into the same slice, in any order, the bot
    /// itself among them or not). Read as a symmetric relation: two bots met as often as the
    /// longer of their two lists says.
    pub games: Vec<Vec<usize>>,
    /// Byes so far.
    pub byes: u32,
    /// Games played in each seat, seat 0 first (seats past the list's end count 0).
    pub seat_games: Vec<u32>,
}

/// One round's pods.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pods {
    /// Each pod's bots in seat order, the pods in board order.
    pub pods: Vec<Vec<usize>>,
    /// The bots who sit this round out, in ascending order.
    pub byes: Vec<usize>,
}

impl Pods {
    /// How many pods played a game together before (the same bots, no others).
    pub fn repeated_pods(&self, players: &[PodPlayer]) -> usize {
        let past = past_pods(players);
        self.pods
            .iter()
            .filter(|p| past.contains(&sorted(p)))
            .count()
    }

    /// How many pairs within the pods met before (each pair once, however often it met).
    pub fn repeated_pairs(&self, players: &[PodPlayer]) -> usize {
        let met = Met::new(players);
        let pairs = self.pods.iter().flat_map(|p| {
            (0..p.len()).flat_map(move |i| p[i + 1..].iter().map(move |&b| (p[i], b)))
        });
        pairs.filter(|&(a, b)| met.get(a, b) > 0).count()
    }
}

/// Pair the next round in pods of `k`. See the [module documentation](self).
///
/// Errors only on bad input: `k` out of 2 to 8, fewer bots than `k` or more than 2,000, a
/// score that is not finite, a bot index out of range, or seat counts for more than `k` seats.
pub fn pair_pods(players: &[PodPlayer], k: usize) -> Result<Pods, String> {
    check(players, k)?;
    let byes = byes(players, k);
    let mut order: Vec<usize> = (0..players.len()).filter(|b| !byes.contains(b)).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .total_cmp(&players[a].score)
            .then(a.cmp(&b))
    });
    let model = Model {
        players,
        met: Met::new(players),
        past: past_pods(players),
    };
    let mut pods = model.greedy(order, k);
    model.improve(&mut pods);
    let mut seats = SeatCounts::new(players.len(), k);
    for (b, p) in players.iter().enumerate() {
        for (s, &c) in p.seat_games.iter().enumerate() {
            seats.set(b, s, c);
        }
    }
    for pod in pods.iter_mut() {
        pod.sort_by(|&a, &b| {
            players[b]
                .score
                .total_cmp(&players[a].score)
                .then(a.cmp(&b))
        });
        *pod = seats.seat(pod);
    }
    pods.sort_by_cached_key(|pod| board_key(players, pod));
    Ok(Pods { pods, byes })
}

fn check(players: &[PodPlayer], k: usize) -> Result<(), String> {
    let n = players.len();
    super::super::check_field("a swiss", n, k, MAX_BOTS)?;
    for (i, p) in players.iter().enumerate() {
        if !p.score.is_finite() {
            return Err(format!("player {i}: score is not finite ({})", p.score));
        }
        if let Some(&o) = p.games.iter().flatten().find(|&&o| o >= n) {
            return Err(format!(
                "player {i}: a past game lists bot {o}, out of range (only {n} players)"
            ));
        }
        if p.seat_games.len() > k {
            return Err(format!(
                "player {i}: games counted in {} seats, for games of {k} players",
                p.seat_games.len()
            ));
        }
    }
    Ok(())
}

/// The `n mod k` bots to sit out: fewest byes, then lowest score, then the later in the list.
fn byes(players: &[PodPlayer], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&players[a], &players[b]);
        pa.byes
            .cmp(&pb.byes)
            .then(pa.score.total_cmp(&pb.score))
            .then(b.cmp(&a))
    });
    order.truncate(players.len() % k);
    order.sort_unstable();
    order
}

fn sorted(bots: &[usize]) -> Vec<usize> {
    let mut s = bots.to_vec();
    s.sort_unstable();
    s
}

/// Every past game's set of bots.
fn past_pods(players: &[PodPlayer]) -> HashSet<Vec<usize>> {
    players
        .iter()
        .flat_map(|p| p.games.iter().map(|g| sorted(g)))
        .collect()
}

/// Board order: the pod's scores from the highest, compared highest first, descending; then
/// its seat 0.
fn board_key(players: &[PodPlayer], pod: &[usize]) -> (Vec<std::cmp::Reverse<OrdF64>>, usize) {
    let mut scores: Vec<_> = pod
        .iter()
        .map(|&b| std::cmp::Reverse(OrdF64(players[b].score)))
        .collect();
    scores.sort();
    (scores, pod[0])
}

/// An `f64` ordered by `total_cmp`, for sort keys.
#[derive(PartialEq)]
struct OrdF64(f64);
impl Eq for OrdF64 {}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Games together, as the longer of the two bots' lists says.
struct Met {
    n: usize,
    counts: Vec<u16>,
}

impl Met {
    fn new(players: &[PodPlayer]) -> Met {
        let n = players.len();
        let mut counts = vec![0u16; n * n];
        for (a, p) in players.iter().enumerate() {
            for game in &p.games {
                for &b in game.iter().filter(|&&b| b != a) {
                    let c = &mut counts[a * n + b];
                    *c = c.saturating_add(1);
                }
            }
        }
        Met { n, counts }
    }

    fn get(&self, a: usize, b: usize) -> u16 {
        self.counts[a * self.n + b].max(self.counts[b * self.n + a])
    }
}

/// A pod's cost by the criteria, most important first: repeated pod, meetings, score spread.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct Cost(u32, u64, f64);

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost(self.0 + o.0, self.1 + o.1, self.2 + o.2)
    }
}

/// Whether `a` is lower than `b` by more than rounding.
fn lower(a: Cost, b: Cost) -> bool {
    (a.0, a.1) < (b.0, b.1) || ((a.0, a.1) == (b.0, b.1) && a.2 < b.2 - 1e-9 * b.2.abs().max(1.0))
}

struct Model<'a> {
    players: &'a [PodPlayer],
    met: Met,
    past: HashSet<Vec<usize>>,
}

impl Model<'_> {
    /// What `bot` adds to `pod` (not yet full: no repeated pod counted).
    fn added(&self, bot: usize, pod: &[usize]) -> Cost {
        let s = self.players[bot].score;
        let meet = pod.iter().map(|&b| u64::from(self.met.get(bot, b))).sum();
        let gap = pod
            .iter()
            .map(|&b| (self.players[b].score - s).powi(2))
            .sum();
        Cost(0, meet, gap)
    }

    fn cost(&self, pod: &[usize]) -> Cost {
        let pairs = (1..pod.len()).map(|i| self.added(pod[i], &pod[..i]));
        let sum = pairs.fold(Cost(0, 0, 0.0), |a, b| a + b);
        Cost(u32::from(self.past.contains(&sorted(pod))), 0, 0.0) + sum
    }

    /// Pods from the top of `order` (bots in score order) down.
    fn greedy(&self, order: Vec<usize>, k: usize) -> Vec<Vec<usize>> {
        let mut left = order;
        let mut pods = Vec::with_capacity(left.len() / k);
        while !left.is_empty() {
            let mut pod = vec![left.remove(0)];
            while pod.len() < k {
                let cost = |b: usize| {
                    let mut c = self.added(b, &pod);
                    if pod.len() + 1 == k {
                        let full: Vec<usize> = pod.iter().copied().chain([b]).collect();
                        c.0 = u32::from(self.past.contains(&sorted(&full)));
                    }
                    c
                };
                let mut best = 0;
                let mut best_cost = cost(left[0]);
                for (i, &b) in left.iter().enumerate().skip(1) {
                    let c = cost(b);
                    if lower(c, best_cost) {
                        (best, best_cost) = (i, c);
                    }
                }
                pod.push(left.remove(best));
            }
            pods.push(pod);
        }
        pods
    }

    /// Swaps between pods up to [`WINDOW`] boards apart while one lowers their cost.
    fn improve(&self, pods: &mut [Vec<usize>]) {
        for _ in 0..PASSES {
            let mut improved = false;
            for i in 0..pods.len() {
                for j in i + 1..pods.len().min(i + 1 + WINDOW) {
                    improved |= self.best_swap(pods, i, j);
                }
            }
            if !improved {
                break;
            }
        }
    }

    /// Makes the swap between pods `i` and `j` that lowers their cost most, if one does.
    fn best_swap(&self, pods: &mut [Vec<usize>], i: usize, j: usize) -> bool {
        let mut best = self.cost(&pods[i]) + self.cost(&pods[j]);
        let mut swap = None;
        for x in 0..pods[i].len() {
            for y in 0..pods[j].len() {
                let (mut p, mut q) = (pods[i].clone(), pods[j].clone());
                std::mem::swap(&mut p[x], &mut q[y]);
                let c = self.cost(&p) + self.cost(&q);
                if lower(c, best) {
                    (best, swap) = (c, Some((x, y)));
                }
            }
        }
        if let Some((x, y)) = swap {
            let b = pods[j][y];
            pods[j][y] = pods[i][x];
            pods[i][x] = b;
        }
        swap.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// splitmix64, as the two-player tests use.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        }
    }

    fn fresh(n: usize) -> Vec<PodPlayer> {
        vec![PodPlayer::default(); n]
    }

    /// Every bot once, in a full pod or among the `n mod k` byes.
    fn check_complete(players: &[PodPlayer], p: &Pods, k: usize) {
        let mut seen = vec![0; players.len()];
        for pod in &p.pods {
            assert_eq!(pod.len(), k, "{p:?}");
            pod.iter().for_each(|&b| seen[b] += 1);
        }
        p.byes.iter().for_each(|&b| seen[b] += 1);
        assert!(seen.iter().all(|&c| c == 1), "not everyone once: {p:?}");
        assert_eq!(p.byes.len(), players.len() % k);
    }

    /// A round played: places drawn from `rng`, `k - 1 - place` points each (a bye scores as a
    /// win), games and seats recorded.
    fn play(players: &mut [PodPlayer], p: &Pods, k: usize, rng: &mut Rng) {
        for pod in &p.pods {
            let mut places: Vec<usize> = (0..k).collect();
            for i in (1..k).rev() {
                places.swap(i, rng.below(i as u64 + 1) as usize);
            }
            for (seat, &b) in pod.iter().enumerate() {
                let pl = &mut players[b];
                pl.score += (k - 1 - places[seat]) as f64;
                pl.games.push(pod.clone());
                pl.seat_games.resize(k, 0);
                pl.seat_games[seat] += 1;
            }
        }
        for &b in &p.byes {
            players[b].score += (k - 1) as f64;
            players[b].byes += 1;
        }
    }

    /// Swiss tournaments of k = 3 to 5 and 4 to 40 bots, results drawn from fixed seeds: every
    /// round complete, byes going round, no pod repeated and few pairs, seats within one.
    #[test]
    fn simulated_swisses_avoid_repeats_and_balance_byes_and_seats() {
        let mut repeated_pairs = 0;
        let mut pairs = 0;
        for k in 3..=5 {
            for n in (k..=40).step_by(3) {
                for seed in [1, 7] {
                    let mut rng = Rng(seed * 1000 + n as u64);
                    let mut players = fresh(n);
                    let rounds = 2 * k;
                    for round in 0..rounds {
                        let p = pair_pods(&players, k).unwrap();
                        check_complete(&players, &p, k);
                        // Byes: nobody a second before everybody a first.
                        let byes: Vec<u32> = players.iter().map(|q| q.byes).collect();
                        let least = *byes.iter().min().unwrap();
                        for &b in &p.byes {
                            assert!(
                                byes[b] == least
                                    || byes.iter().filter(|&&x| x == least).count() < p.byes.len(),
                                "k={k} n={n} round {round}: bye to {b} {byes:?}"
                            );
                        }
                        if n >= 2 * k {
                            assert_eq!(p.repeated_pods(&players), 0, "k={k} n={n} round {round}");
                        }
                        repeated_pairs += p.repeated_pairs(&players);
                        pairs += p.pods.len() * k * (k - 1) / 2;
                        play(&mut players, &p, k, &mut rng);
                    }
                    for (b, q) in players.iter().enumerate() {
                        let lo = q.seat_games.iter().min().unwrap();
                        let hi = q.seat_games.iter().max().unwrap();
                        assert!(hi - lo <= 2, "k={k} n={n} bot {b}: {:?}", q.seat_games);
                    }
                }
            }
        }
        println!("{repeated_pairs} of {pairs} pairs repeated");
    }

    #[test]
    fn byes_go_to_the_fewest_byes_then_the_lowest_scores() {
        let mut players = fresh(7);
        for (p, s) in players.iter_mut().zip([5.0, 1.0, 3.0, 0.0, 4.0, 1.0, 2.0]) {
            p.score = s;
        }
        // Three byes: scores 0, then 1 and 1.
        assert_eq!(pair_pods(&players, 4).unwrap().byes, [1, 3, 5]);
        // Bot 3 had one: the next lowest without one, 6 (score 2), takes its place.
        players[3].byes = 1;
        assert_eq!(pair_pods(&players, 4).unwrap().byes, [1, 5, 6]);
        // Equal byes and scores: the later in the list.
        let players = fresh(5);
        assert_eq!(pair_pods(&players, 4).unwrap().byes, [4]);
    }

    #[test]
    fn pods_keep_to_score_groups_and_avoid_a_repeated_pod() {
        // Scores 3, 3, 3, 3, 1, 1, 1, 1 in a shuffled order: the two groups make the pods,
        // the higher one on board 1.
        let mut players = fresh(8);
        for (p, s) in players
            .iter_mut()
            .zip([1.0, 3.0, 1.0, 3.0, 3.0, 1.0, 3.0, 1.0])
        {
            p.score = s;
        }
        let p = pair_pods(&players, 4).unwrap();
        assert_eq!(sorted(&p.pods[0]), [1, 3, 4, 6]);
        assert_eq!(sorted(&p.pods[1]), [0, 2, 5, 7]);
        // Once both pods have played, they are not played again, and the fewest pairs meet
        // again: two of each group in each pod (two repeated pairs a pod, against three for
        // three and one, which would keep the scores closer).
        for pod in &p.pods {
            for &b in pod {
                players[b].games.push(pod.clone());
            }
        }
        let q = pair_pods(&players, 4).unwrap();
        assert_eq!(q.repeated_pods(&players), 0, "{q:?}");
        assert_eq!(q.repeated_pairs(&players), 4, "{q:?}");
        for pod in &q.pods {
            let high = pod.iter().filter(|&&b| players[b].score == 3.0).count();
            assert_eq!(high, 2, "{q:?}");
        }
        // A field of k bots has one pod only: played again, and counted.
        let mut players = fresh(3);
        for p in players.iter_mut() {
            p.games.push(vec![0, 1, 2]);
        }
        let p = pair_pods(&players, 3).unwrap();
        assert_eq!(
            (p.repeated_pods(&players), p.repeated_pairs(&players)),
            (1, 3)
        );
    }

    #[test]
    fn seats_go_where_each_bot_sat_least_the_higher_score_first() {
        let mut players = fresh(3);
        players[0].score = 2.0;
        players[1].score = 1.0;
        assert_eq!(pair_pods(&players, 3).unwrap().pods, [[0, 1, 2]]);
        // Bot 0 has sat in seat 0 twice, bot 1 in seat 1: they move.
        players[0].seat_games = vec![2, 0, 0];
        players[1].seat_games = vec![0, 2];
        let pod = &pair_pods(&players, 3).unwrap().pods[0];
        assert_ne!(pod[0], 0, "{pod:?}");
        assert_ne!(pod[1], 1, "{pod:?}");
        assert_eq!(
            pod,
            &[1, 0, 2],
            "the higher score takes the lower seat on a tie"
        );
    }

    #[test]
    fn bad_input_is_refused_in_words() {
        let err = |players: &[PodPlayer], k| pair_pods(players, k).unwrap_err();
        assert_eq!(
            err(&fresh(3), 4),
            "a swiss of games of 4 players needs at least 4 bots; this one has 3"
        );
        assert_eq!(err(&fresh(9), 9), "games of 9 players: a game seats 2 to 8");
        let mut players = fresh(4);
        players[2].score = f64::INFINITY;
        assert_eq!(err(&players, 3), "player 2: score is not finite (inf)");
        let mut players = fresh(4);
        players[1].games.push(vec![1, 4, 0]);
        assert_eq!(
            err(&players, 3),
            "player 1: a past game lists bot 4, out of range (only 4 players)"
        );
        let mut players = fresh(4);
        players[0].seat_games = vec![1; 5];
        assert_eq!(
            err(&players, 4),
            "player 0: games counted in 5 seats, for games of 4 players"
        );
        assert_eq!(
            err(&fresh(2_001), 4),
            "a swiss takes at most 2000 bots; this one has 2001"
        );
    }

    #[test]
    fn the_same_players_give_the_same_pods() {
        let mut rng = Rng(3);
        let mut players = fresh(23);
        for _ in 0..4 {
            let p = pair_pods(&players, 4).unwrap();
            assert_eq!(p, pair_pods(&players, 4).unwrap());
            play(&mut players, &p, 4, &mut rng);
        }
    }
}
