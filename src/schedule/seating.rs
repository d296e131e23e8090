//! Which bot of a game takes which seat, so that every bot sits in every seat about equally
//! often: the N-player formats' seat balance.

/// Games each of `n` bots played in each of `k` seats.
#[derive(Debug, Clone)]
pub(crate) struct SeatCounts {
    k: usize,
    counts: Vec<u32>,
}

impl SeatCounts {
    pub(crate) fn new(n: usize, k: usize) -> SeatCounts {
        SeatCounts {
            k,
            counts: vec![0; n * k],
        }
    }

    /// Games `bot` played in `seat`.
    pub(crate) fn get(&self, bot: usize, seat: usize) -> u32 {
        self.counts[bot * self.k + seat]
    }

    /// One more game, `seats[s]` in seat `s`.
    pub(crate) fn add(&mut self, seats: &[usize]) {
        for (seat, &bot) in seats.iter().enumerate() {
            self.counts[bot * self.k + seat] += 1;
        }
    }

    /// `bot` played `games` in `seat`.
    pub(crate) fn set(&mut self, bot: usize, seat: usize, games: u32) {
        self.counts[bot * self.k + seat] = games;
    }

    #[cfg(test)]
    /// What seating `seats` costs: each bot's games so far in the seat it takes. Summed over a
    /// format's games this is the sum of each bot's squared seat counts (a bot's `c`-th game in
    /// a seat adds `2c + 1` to it), which is least when the counts are level.
    pub(crate) fn cost(&self, seats: &[usize]) -> u64 {
        let per_seat = seats.iter().enumerate();
        per_seat.map(|(s, &b)| u64::from(self.get(b, s))).sum()
    }

    /// The seats of a game between `bots` (at most 8, `k` of them): the seating of least
    /// [`cost`](Self::cost), and among those the one that gives the lower seats to the bots
    /// listed first. Exact, by dynamic programming over the sets of seats taken (256 at most).
    pub(crate) fn seat(&self, bots: &[usize]) -> Vec<usize> {
        let k = bots.len();
        debug_assert_eq!(k, self.k);
        let full = (1usize << k) - 1;
        // best[taken]: the least cost of seating the bots after the first `taken.count_ones()`
        // in the seats not in `taken`.
        let mut best = vec![0u64; full + 1];
        for taken in (0..full).rev() {
            let bot = bots[taken.count_ones() as usize];
            best[taken] = (0..k)
                .filter(|s| taken & (1 << s) == 0)
                .map(|s| u64::from(self.get(bot, s)) + best[taken | (1 << s)])
                .min()
                .expect("a seat is free");
        }
        let mut seats = vec![usize::MAX; k];
        let mut taken = 0;
        for &bot in bots {
            let seat = (0..k)
                .filter(|s| taken & (1 << s) == 0)
                .find(|&s| u64::from(self.get(bot, s)) + best[taken | (1 << s)] == best[taken])
                .expect("the least cost is reached");
            seats[seat] = bot;
            taken |= 1 << seat;
        }
        seats
    }
}

/// Seats exactly level, by colouring the edges of a bipartite graph (the pods format's seats,
/// and the round-robin's partial cycles).
///
/// The games are one side of the graph; the other side splits each bot's games, in schedule
/// order, into runs of `k` (the last run shorter when `k` does not divide `games_per_bot`), a
/// vertex each; an edge joins each game to the run of each of its bots. Every vertex has at most
/// `k` edges, so by König's theorem `k` colours colour them properly (no two edges of one colour
/// at a vertex): a colour is a seat. Each game then has every seat once, and each run of a bot
/// has every seat at most once: every bot sits `games_per_bot / k` times in each seat, within one
/// when `k` does not divide it. Colouring is the textbook augmentation: an edge takes a colour
/// free at both ends, or a colour free at the game after the two colours are swapped along the
/// alternating path from the run (which never reaches the game, the graph being bipartite).
///
/// `games` are unseated (`k` bots each, of `n` bots); each comes back in seat order.
pub(crate) fn seat_level(games: &mut [Vec<usize>], n: usize, k: usize) {
    // Runs: each bot's next run opens after k of its games.
    let mut played = vec![0usize; n];
    let mut first_run = vec![0usize; n];
    let mut runs = 0usize;
    let mut edges = Vec::with_capacity(games.len() * k);
    for (g, game) in games.iter().enumerate() {
        for &b in game.iter() {
            if played[b].is_multiple_of(k) {
                first_run[b] = runs;
                runs += 1;
            }
            played[b] += 1;
            edges.push((g, first_run[b], b));
        }
    }
    let mut graph = Graph {
        k,
        at: vec![NONE; (games.len() + runs) * k],
    };
    // Vertices: the games, then the runs.
    let first = games.len();
    let mut bot_of_run = vec![0usize; runs];
    for &(g, r, b) in &edges {
        bot_of_run[r] = b;
        graph.add(g, first + r);
    }
    for (g, game) in games.iter_mut().enumerate() {
        for (seat, bot) in game.iter_mut().enumerate() {
            let run = graph.at[g * k + seat] as usize - first;
            *bot = bot_of_run[run];
        }
    }
}

/// A bipartite graph with its edges coloured: `at[v * k + c]` is the vertex joined to `v` by its
/// edge of colour `c`.
const NONE: u32 = u32::MAX;

struct Graph {
    k: usize,
    at: Vec<u32>,
}

impl Graph {
    fn free(&self, v: usize) -> usize {
        (0..self.k)
            .find(|&c| self.at[v * self.k + c] == NONE)
            .expect("a vertex has at most k edges")
    }

    /// Colours the edge between game `g` and run `r`.
    fn add(&mut self, g: usize, r: usize) {
        let a = self.free(g);
        if self.at[r * self.k + a] != NONE {
            let b = self.free(r);
            self.swap_path(r, a, b);
        }
        self.at[g * self.k + a] = r as u32;
        self.at[r * self.k + a] = g as u32;
    }

    /// Swaps colours `a` and `b` along the path from `v` whose first edge has colour `a` (and
    /// at which `b` is free).
    fn swap_path(&mut self, v: usize, a: usize, b: usize) {
        let mut path = vec![v];
        let (mut here, mut colour) = (v, a);
        while self.at[here * self.k + colour] != NONE {
            here = self.at[here * self.k + colour] as usize;
            path.push(here);
            colour = if colour == a { b } else { a };
        }
        // Uncolour the path's edges, then colour them again with the colours swapped.
        let mut colour = a;
        for w in path.windows(2) {
            self.at[w[0] * self.k + colour] = NONE;
            self.at[w[1] * self.k + colour] = NONE;
            colour = if colour == a { b } else { a };
        }
        let mut colour = b;
        for w in path.windows(2) {
            self.at[w[0] * self.k + colour] = w[1] as u32;
            self.at[w[1] * self.k + colour] = w[0] as u32;
            colour = if colour == a { b } else { a };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seating of `bots`, for the brute force.
    fn permutations(bots: &[usize]) -> Vec<Vec<usize>> {
        if bots.len() <= 1 {
            return vec![bots.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..bots.len() {
            let mut rest = bots.to_vec();
            let first = rest.remove(i);
            for mut p in permutations(&rest) {
                p.insert(0, first);
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn the_seating_is_the_cheapest_and_breaks_ties_towards_the_bots_listed_first() {
        // Counts drawn from a fixed generator, checked against every seating.
        let mut x: u64 = 12345;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for k in 2..=6 {
            for _ in 0..40 {
                let mut counts = SeatCounts::new(10, k);
                for c in counts.counts.iter_mut() {
                    *c = next(4) as u32;
                }
                let mut bots: Vec<usize> = (0..10).collect();
                for i in (1..10).rev() {
                    bots.swap(i, next(i as u64 + 1) as usize);
                }
                let bots = &bots[..k];
                let got = counts.seat(bots);
                let all = permutations(bots);
                let least = all.iter().map(|p| counts.cost(p)).min().unwrap();
                assert_eq!(counts.cost(&got), least, "{bots:?}: {got:?}");
                // Among the cheapest, the lowest seat for the first bot, then the second...
                let rank = |p: &Vec<usize>| -> Vec<usize> {
                    bots.iter()
                        .map(|b| p.iter().position(|x| x == b).unwrap())
                        .collect()
                };
                let want = all
                    .iter()
                    .filter(|p| counts.cost(p) == least)
                    .min_by_key(|p| rank(p))
                    .unwrap();
                assert_eq!(&got, want);
            }
        }
    }

    #[test]
    fn fresh_bots_keep_their_order_and_a_bot_is_moved_off_its_usual_seat() {
        let mut counts = SeatCounts::new(4, 3);
        assert_eq!(counts.seat(&[2, 0, 3]), [2, 0, 3]);
        counts.add(&[2, 0, 3]);
        counts.add(&[2, 3, 0]);
        // Bot 2 sat twice in seat 0, bot 0 in seats 1 and 2, bot 3 in seats 2 and 1.
        let seats = counts.seat(&[2, 0, 3]);
        // No seating is free (bots 0 and 3 sat in seats 1 and 2 both): one repeat, not bot 2's.
        assert_ne!(seats[0], 2, "{seats:?}");
        assert_eq!(counts.cost(&seats), 1, "{seats:?}");
    }
}
