//! How often each pair of bots has played in the same game: what the N-player formats balance.

/// Games played together, for every pair of `n` bots: a full matrix, so that the formats'
/// inner loops (thousands of candidate pods a round) look a count up without hashing. At the
/// formats' bound of 2,000 bots it takes 8 MB.
#[derive(Debug, Clone)]
pub(crate) struct Meetings {
    n: usize,
    counts: Vec<u16>,
}

impl Meetings {
    pub(crate) fn new(n: usize) -> Meetings {
        Meetings {
            n,
            counts: vec![0; n * n],
        }
    }

    /// How many bots.
    pub(crate) fn bots(&self) -> usize {
        self.n
    }

    /// Games `a` and `b` played together (saturating at 65,535, far beyond any bound).
    pub(crate) fn get(&self, a: usize, b: usize) -> u16 {
        self.counts[a * self.n + b]
    }

    /// One more game between `a` and `b`.
    pub(crate) fn add_pair(&mut self, a: usize, b: usize) {
        for (x, y) in [(a, b), (b, a)] {
            let c = &mut self.counts[x * self.n + y];
            *c = c.saturating_add(1);
        }
    }

    /// One game fewer between `a` and `b`, who had played one.
    pub(crate) fn sub_pair(&mut self, a: usize, b: usize) {
        for (x, y) in [(a, b), (b, a)] {
            let c = &mut self.counts[x * self.n + y];
            *c = c.saturating_sub(1);
        }
    }

    /// One more game between all of `bots`.
    pub(crate) fn add_game(&mut self, bots: &[usize]) {
        for (i, &a) in bots.iter().enumerate() {
            for &b in &bots[i + 1..] {
                self.add_pair(a, b);
            }
        }
    }

    /// The sum of `cost` over every pair of bots' meetings.
    pub(crate) fn total(&self, cost: impl Fn(u16) -> i64) -> i64 {
        (0..self.n)
            .flat_map(|a| (a + 1..self.n).map(move |b| (a, b)))
            .map(|(a, b)| cost(self.get(a, b)))
            .sum()
    }

    /// The fewest and the most games any two of the `n` bots played together (`(0, 0)` under
    /// two bots).
    pub(crate) fn range(&self) -> (u16, u16) {
        let mut range: Option<(u16, u16)> = None;
        for a in 0..self.n {
            for b in a + 1..self.n {
                let c = self.get(a, b);
                range = Some(range.map_or((c, c), |(lo, hi)| (lo.min(c), hi.max(c))));
            }
        }
        range.unwrap_or((0, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_count_for_every_pair_of_their_bots_both_ways() {
        let mut m = Meetings::new(5);
        m.add_game(&[0, 2, 4]);
        m.add_game(&[4, 2]);
        assert_eq!((m.get(2, 4), m.get(4, 2)), (2, 2));
        assert_eq!((m.get(0, 2), m.get(2, 0), m.get(0, 4)), (1, 1, 1));
        assert_eq!((m.get(1, 3), m.get(0, 1)), (0, 0));
        assert_eq!(m.range(), (0, 2));
        m.sub_pair(4, 2);
        assert_eq!((m.get(2, 4), m.get(4, 2)), (1, 1));
        assert_eq!(Meetings::new(1).range(), (0, 0));
    }
}
