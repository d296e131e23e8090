//! A match's results as they come in, game by game: the games, and the pairs they form.

use super::{Pentanomial, Summary, Trinomial, Wdl};

/// The results of a match whose games come in pairs, games `2k` and `2k + 1` (counted from 0)
/// starting from the same position with the seats swapped, as a duel plays them. Results are
/// recorded in the order of the games, from the first bot's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: Trinomial,
    /// Complete pairs only: a pair with a game that counts for no one is left out whole.
    pub pairs: Pentanomial,
    /// The first game of the pair being filled, and its result.
    first: Option<(u64, Option<Wdl>)>,
}

impl Tally {
    /// Game `index` ended with `result` for the first bot; `None` when it counts for no one
    /// (arena could not play it, or both bots failed).
    pub fn record(&mut self, index: u64, result: Option<Wdl>) {
        if let Some(r) = result {
            self.games.record(r);
        }
        if index.is_multiple_of(2) {
            self.first = Some((index, result));
        } else if let Some((first, Some(a))) = self.first.take()
            && first + 1 == index
            && let Some(b) = result
        {
            self.pairs.record(a, b);
        }
    }

    /// The summary of every game, its estimates from the pairs when there are any.
    pub fn summary(&self) -> Summary {
        let paired = self.pairs.pairs() > 0;
        Summary::new(&self.games, paired.then_some(&self.pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Wdl::*;

    #[test]
    fn games_pair_up_two_by_two_and_a_missing_game_drops_its_pair() {
        let mut t = Tally::default();
        for (i, r) in [
            Some(Win),
            Some(Loss),
            Some(Win),
            Some(Draw),
            None,
            Some(Win),
            Some(Loss),
        ]
        .into_iter()
        .enumerate()
        {
            t.record(i as u64, r);
        }
        assert_eq!(t.games, Trinomial::new(3, 1, 2));
        // (W, L) scores 1, (W, D) 1.5; (none, W) is no pair; the last game waits for its pair.
        assert_eq!(t.pairs, Pentanomial::new(0, 0, 1, 1, 0));
        assert_eq!(t.summary().pairs, Some(t.pairs));
        assert_eq!(Tally::default().summary().pairs, None);
    }
}
