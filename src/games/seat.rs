//! Seats and places: who sits where at a game of N players, and where each finished.
//!
//! A game of N players (2 to [`MAX_SEATS`]) has seats 0..N-1, a [`Seat`] each; what the game
//! waits for is a set of them ([`Seats`]); its result ranks them ([`Places`]). A two-player
//! game's rules name their two seats as [`Side`]s instead, with `other()` and exhaustive
//! matches: a third side cannot be written. Outside the program (logs, `--json`, file names,
//! messages) a seat or side is its number.

use serde::{Deserialize, Serialize};

/// The most players a game may have: one byte of seats ([`Seats`]), and more than any game here
/// takes (CodinGame's contests take 2 to 4, Code Colosseum's lobbies a few).
pub const MAX_SEATS: usize = 8;

/// A seat at a game, 0..N-1. Seat 0 moves first in every game unless its rules say otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub struct Seat(u8);

impl Seat {
    /// The seat numbered `i`, if a game can have it: numbers come from outside (logs, bot
    /// indices, a referee program's lines).
    pub fn new(i: usize) -> Option<Seat> {
        (i < MAX_SEATS).then_some(Seat(i as u8))
    }

    /// Seats 0 and 1, which every game has.
    pub const FIRST: Seat = Seat(0);
    pub const SECOND: Seat = Seat(1);

    /// The seat's number, as logs, files and messages show it.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The seats of a game of `n` players, in order.
    pub fn all(n: usize) -> impl DoubleEndedIterator<Item = Seat> + Clone {
        (0..n.min(MAX_SEATS) as u8).map(Seat)
    }
}

/// The number, as seats are printed everywhere.
impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl From<Seat> for u8 {
    fn from(seat: Seat) -> u8 {
        seat.0
    }
}

impl TryFrom<u8> for Seat {
    type Error = String;
    fn try_from(n: u8) -> Result<Seat, String> {
        Seat::new(n.into())
            .ok_or_else(|| format!("seat {n} does not exist: a game has at most {MAX_SEATS} seats"))
    }
}

/// Per-seat values (names, scores, connections) are indexed by seat directly.
impl<T> std::ops::Index<Seat> for [T] {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self[seat.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for [T] {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self[seat.index()]
    }
}

impl<T> std::ops::Index<Seat> for Vec<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self[seat.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for Vec<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self[seat.index()]
    }
}

/// One of the two seats of a two-player game, as its rules name them.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(into = "u8", try_from = "u8")]
pub enum Side {
    First = 0,
    Second = 1,
}

impl Side {
    /// Both sides in seat order, for what is done to each in turn.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The side's number, as logs, files and messages show it.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opponent's side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// The side numbered `i`, if there is one.
    pub fn from_index(i: usize) -> Option<Side> {
        match i {
            0 => Some(Side::First),
            1 => Some(Side::Second),
            _ => None,
        }
    }

    /// The side sitting in `seat`, if a two-player game has it.
    pub fn of(seat: Seat) -> Option<Side> {
        Side::from_index(seat.index())
    }
}

impl From<Side> for Seat {
    fn from(side: Side) -> Seat {
        Seat(side as u8)
    }
}

impl std::fmt::Debug for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.index(), f)
    }
}

impl From<Side> for u8 {
    fn from(side: Side) -> u8 {
        side as u8
    }
}

impl TryFrom<u8> for Side {
    type Error = String;
    fn try_from(n: u8) -> Result<Side, String> {
        Side::from_index(n.into())
            .ok_or_else(|| format!("seat {n} does not exist: seats are 0 and 1"))
    }
}

/// Per-side pairs (a two-player game's boards, counts, names) are indexed by side directly.
impl<T> std::ops::Index<Side> for [T; 2] {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        &self[side.index()]
    }
}

impl<T> std::ops::IndexMut<Side> for [T; 2] {
    fn index_mut(&mut self, side: Side) -> &mut T {
        &mut self[side.index()]
    }
}

impl<T> std::ops::Index<Side> for Vec<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        &self[side.index()]
    }
}

/// A set of seats: those a game waits for, those that failed.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Seats(u8);

impl Seats {
    pub const NONE: Seats = Seats(0);

    /// Every seat of a game of `n` players.
    pub fn all(n: usize) -> Seats {
        Seats(((1u16 << n.min(MAX_SEATS)) - 1) as u8)
    }

    pub fn only(seat: Seat) -> Seats {
        Seats(1 << seat.0)
    }

    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    /// These seats less `other`'s.
    pub fn without(self, other: Seats) -> Seats {
        Seats(self.0 & !other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The seats in order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        Seat::all(MAX_SEATS).filter(move |&s| self.contains(s))
    }
}

impl std::fmt::Debug for Seats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Seat> for Seats {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Seats {
        let mut seats = Seats::NONE;
        for s in iter {
            seats.insert(s);
        }
        seats
    }
}

/// A two-player game's "who is awaited" pair as a set.
impl From<[bool; 2]> for Seats {
    fn from(pair: [bool; 2]) -> Seats {
        Seats(pair[0] as u8 | (pair[1] as u8) << 1)
    }
}

/// Each seat's place at the end of a game: 1 is best; players who tie share a place and the
/// next place is skipped, as in sports ("competition ranking": `1 2 2 4`).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<u8>", into = "Vec<u8>")]
pub struct Places(Vec<u8>);

impl Places {
    /// From groups of seats, best first; every seat of a game of `n` in exactly one group.
    pub fn from_groups(n: usize, groups: &[Vec<Seat>]) -> Result<Places, String> {
        let mut places = vec![0u8; n];
        let mut next = 1usize;
        for group in groups.iter().filter(|g| !g.is_empty()) {
            for &seat in group {
                match places.get_mut(seat.index()) {
                    None => return Err(format!("seat {seat} does not exist in a game of {n}")),
                    Some(p) if *p != 0 => return Err(format!("seat {seat} is ranked twice")),
                    Some(p) => *p = next as u8,
                }
            }
            next += group.len();
        }
        if let Some(missing) = places.iter().position(|&p| p == 0) {
            return Err(format!("seat {missing} is not ranked"));
        }
        Ok(Places(places))
    }

    /// Places by a key per seat, better first (lower keys rank higher); equal keys tie.
    pub fn by_key<K: Ord + Copy>(keys: &[K]) -> Places {
        let places = keys
            .iter()
            .map(|k| 1 + keys.iter().filter(|other| *other < k).count() as u8)
            .collect();
        Places(places)
    }

    /// Every one of `n` seats tied for first.
    pub fn tied(n: usize) -> Places {
        Places(vec![1; n])
    }

    /// A two-player result: the winner first, or a tie.
    pub fn two(winner: Option<Side>) -> Places {
        match winner {
            Some(Side::First) => Places(vec![1, 2]),
            Some(Side::Second) => Places(vec![2, 1]),
            None => Places::tied(2),
        }
    }

    pub fn of(&self, seat: Seat) -> u8 {
        self.0[seat.index()]
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.0
    }

    /// The one seat in first place, if one alone is.
    pub fn winner(&self) -> Option<Seat> {
        let mut first = Seat::all(self.len()).filter(|&s| self.of(s) == 1);
        match (first.next(), first.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }

    /// Each seat's points: (N - place) / (N - 1), players who tie sharing the points of the
    /// places they span, so that a game's points always add up to N / 2. For two players: 1-0
    /// for a win, ½-½ for a draw, as always.
    pub fn points(&self) -> Vec<f64> {
        let n = self.len();
        if n < 2 {
            return vec![0.0; n];
        }
        let of_place = |p: usize| (n - p) as f64 / (n - 1) as f64;
        self.0
            .iter()
            .map(|&p| {
                let tied = self.0.iter().filter(|&&q| q == p).count();
                let p = p as usize;
                (p..p + tied).map(of_place).sum::<f64>() / tied as f64
            })
            .collect()
    }
}

impl TryFrom<Vec<u8>> for Places {
    type Error = String;
    /// Only what competition ranking can give: a place k is held by exactly as many seats as
    /// the places k..k+m-1 it spans, and the best is 1.
    fn try_from(places: Vec<u8>) -> Result<Places, String> {
        let n = places.len();
        if !(1..=MAX_SEATS).contains(&n) {
            return Err(format!("{n} places: a game has 1 to {MAX_SEATS} seats"));
        }
        for &p in &places {
            let better = places.iter().filter(|&&q| q < p).count();
            if p as usize != better + 1 {
                return Err(format!(
                    "places {}: place {p} follows {better} better seat(s), so it would be {}",
                    places
                        .iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                    better + 1
                ));
            }
        }
        Ok(Places(places))
    }
}

impl From<Places> for Vec<u8> {
    fn from(p: Places) -> Vec<u8> {
        p.0
    }
}

impl std::fmt::Debug for Places {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.0).finish()
    }
}

/// `1 2 2 4`, as the lines print places.
impl std::fmt::Display for Places {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self.0.iter().map(u8::to_string).collect();
        f.write_str(&words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(i: &[usize]) -> Vec<Seat> {
        i.iter().map(|&i| Seat::new(i).unwrap()).collect()
    }

    #[test]
    fn sides_are_the_first_two_seats() {
        assert_eq!(Side::BOTH.map(Side::index), [0, 1]);
        assert_eq!(Side::BOTH.map(Side::other), [Side::Second, Side::First]);
        for side in Side::BOTH {
            assert_eq!(Side::of(side.into()), Some(side));
        }
        assert_eq!(Side::of(Seat::new(2).unwrap()), None);
        assert_eq!(Seat::new(MAX_SEATS), None);
        let mut pair = ["a", "b"];
        pair[Side::Second] = "c";
        assert_eq!(pair, ["a", "c"]);
    }

    #[test]
    fn a_set_of_seats_holds_each_at_most_once() {
        let mut s = Seats::all(4);
        assert_eq!(s.len(), 4);
        s.remove(Seat::new(1).unwrap());
        assert_eq!(s.iter().map(Seat::index).collect::<Vec<_>>(), [0, 2, 3]);
        assert_eq!(Seats::all(MAX_SEATS).len(), MAX_SEATS);
        assert_eq!(Seats::from([false, true]), Seats::only(Side::Second.into()));
    }

    #[test]
    fn places_are_competition_ranks() {
        let p = Places::from_groups(4, &[seats(&[2]), seats(&[0, 3]), seats(&[1])]).unwrap();
        assert_eq!(p.as_slice(), [2, 4, 1, 2]);
        assert_eq!(p.to_string(), "2 4 1 2");
        assert_eq!(p.winner(), Seat::new(2));
        assert_eq!(Places::by_key(&[5, 1, 5, 9]).as_slice(), [2, 1, 2, 4]);
        assert!(
            Places::from_groups(3, &[seats(&[0]), seats(&[1])])
                .unwrap_err()
                .contains("seat 2 is not ranked")
        );
        assert!(Places::from_groups(2, &[seats(&[0, 2]), seats(&[1])]).is_err());
        assert!(Places::from_groups(2, &[seats(&[0, 0]), seats(&[1])]).is_err());
        for bad in [vec![1, 3], vec![2, 2], vec![1, 1, 2], vec![0, 1], vec![]] {
            assert!(Places::try_from(bad.clone()).is_err(), "{bad:?}");
        }
        for good in [vec![1, 2, 2, 4], vec![1, 1, 1], vec![2, 1]] {
            assert!(Places::try_from(good.clone()).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn points_add_up_to_half_the_players_and_are_the_two_player_scores() {
        assert_eq!(Places::two(Some(Side::First)).points(), [1.0, 0.0]);
        assert_eq!(Places::two(Some(Side::Second)).points(), [0.0, 1.0]);
        assert_eq!(Places::two(None).points(), [0.5, 0.5]);
        let p = Places::try_from(vec![1, 2, 2, 4]).unwrap().points();
        assert_eq!(p, [1.0, 0.5, 0.5, 0.0]);
        let p = Places::try_from(vec![3, 1, 2]).unwrap().points();
        assert_eq!(p, [0.0, 1.0, 0.5]);
        for places in [vec![1, 1, 3, 4], vec![1, 1, 1, 1], vec![2, 1, 3, 4, 5]] {
            let n = places.len();
            let sum: f64 = Places::try_from(places).unwrap().points().iter().sum();
            assert!((sum - n as f64 / 2.0).abs() < 1e-12);
        }
    }
}
