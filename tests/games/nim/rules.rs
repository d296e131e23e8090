//! Nim's rules: heaps of stones, a move takes one or more stones from one heap, and whoever
//! takes the last stone wins (normal play). Positions are written `3,4,5 0`: the heaps, then
//! the seat to move.

use crate::games::position::{Position, Textual};
use crate::games::{Outcome, Side};

/// The most heaps, and stones in a heap, a position may have: enough for the tests, small
/// enough that a heap is one digit or two.
pub const MAX_HEAPS: usize = 9;
pub const MAX_STONES: u8 = 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heaps {
    heaps: Vec<u8>,
    to_move: Side,
    plies: u32,
    /// Who took the last stone, once there is none left.
    winner: Option<Side>,
}

/// Take `count` stones from heap `heap` (0 is the first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    pub heap: u8,
    pub count: u8,
}

impl Take {
    /// As bots write it: the heap (1 is the first), a dash, how many: `2-3`.
    pub fn text(&self) -> String {
        format!("{}-{}", self.heap + 1, self.count)
    }
}

/// A move as a bot writes it, `HEAP-COUNT` (heaps counted from 1).
pub fn parse_take(text: &str) -> Result<Take, String> {
    let (heap, count) = text
        .split_once('-')
        .ok_or("a move is HEAP-COUNT, such as 2-3")?;
    let number = |s: &str, what: &str| -> Result<u8, String> {
        match s.parse::<u8>() {
            Ok(n) if n >= 1 && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(format!("the {what} '{s}' is not a number from 1")),
        }
    };
    Ok(Take {
        heap: number(heap, "heap")? - 1,
        count: number(count, "count")?,
    })
}

impl Heaps {
    /// A start position with these heaps, seat 0 to move.
    pub fn new(heaps: Vec<u8>) -> Result<Heaps, String> {
        if heaps.is_empty() || heaps.len() > MAX_HEAPS {
            return Err(format!("from 1 to {MAX_HEAPS} heaps, got {}", heaps.len()));
        }
        if let Some(h) = heaps.iter().find(|&&h| h > MAX_STONES) {
            return Err(format!("a heap holds at most {MAX_STONES} stones, not {h}"));
        }
        if heaps.iter().all(|&h| h == 0) {
            return Err("no stone is left: the game is over".into());
        }
        Ok(Heaps {
            heaps,
            to_move: Side::First,
            plies: 0,
            winner: None,
        })
    }

    /// The heaps from a comma-separated list: `3,4,5`.
    pub fn parse_heaps(text: &str) -> Result<Vec<u8>, String> {
        text.split(',')
            .map(|h| {
                h.trim()
                    .parse::<u8>()
                    .map_err(|_| format!("'{}' is not a heap size", h.trim()))
            })
            .collect()
    }

    pub fn heaps(&self) -> &[u8] {
        &self.heaps
    }

    /// Why `take` cannot be played here.
    pub fn why_illegal(&self, take: &Take) -> Option<String> {
        let text = take.text();
        match self.heaps.get(take.heap as usize) {
            None => Some(format!("{text}: there are {} heaps", self.heaps.len())),
            Some(&left) if take.count > left => Some(format!(
                "{text}: heap {} has {left} stone{}",
                take.heap + 1,
                if left == 1 { "" } else { "s" }
            )),
            _ => None,
        }
    }
}

impl Position for Heaps {
    type Move = Take;

    fn to_move(&self) -> Side {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Take> {
        let mut moves = Vec::new();
        for (heap, &left) in self.heaps.iter().enumerate() {
            moves.extend((1..=left).map(|count| Take {
                heap: heap as u8,
                count,
            }));
        }
        moves
    }

    fn play_unchecked(&mut self, take: &Take) {
        self.heaps[take.heap as usize] -= take.count;
        if self.heaps.iter().all(|&h| h == 0) {
            self.winner = Some(self.to_move);
        }
        self.to_move = self.to_move.other();
        self.plies += 1;
    }

    fn is_legal(&self, take: &Take) -> bool {
        take.count >= 1 && self.why_illegal(take).is_none() && self.winner.is_none()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Won)
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    fn move_text(&self, take: &Take) -> String {
        take.text()
    }

    /// A position whose heaps XOR to zero is lost for the side to move: the nim-sum says how
    /// far from it the mover is, enough for a shallow search to find the winning replies.
    fn evaluate(&self, seat: Side) -> i32 {
        let sum = self.heaps.iter().fold(0, |x, &h| x ^ h);
        let good_for_mover = if sum == 0 { -1 } else { 1 };
        if seat == self.to_move {
            good_for_mover
        } else {
            -good_for_mover
        }
    }
}

impl Textual for Heaps {
    fn start() -> Heaps {
        Heaps::new(vec![3, 4, 5]).expect("the default heaps")
    }

    fn from_position(text: &str) -> Result<Heaps, String> {
        let (heaps, seat) = text
            .trim()
            .split_once(' ')
            .ok_or("a position is HEAPS SEAT, such as '3,4,5 0'")?;
        let mut pos = Heaps::new(Heaps::parse_heaps(heaps)?)?;
        pos.to_move = match seat.trim() {
            "0" => Side::First,
            "1" => Side::Second,
            other => return Err(format!("the seat to move is 0 or 1, not '{other}'")),
        };
        Ok(pos)
    }

    fn position(&self) -> String {
        let heaps: Vec<String> = self.heaps.iter().map(u8::to_string).collect();
        format!("{} {}", heaps.join(","), self.to_move.index())
    }

    fn render(&self) -> String {
        self.position()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::position::{perft, suite};

    #[test]
    fn perft_counts_every_way_to_take() {
        // From 3,4,5: one move per stone at depth 1. At depth 2, taking k stones leaves 12 - k
        // moves: heap 1 gives 11+10+9, heap 2 11+10+9+8, heap 3 11+10+9+8+7.
        let start = Heaps::start();
        assert_eq!(perft(&start, 1).nodes, 12);
        assert_eq!(perft(&start, 2).nodes, 30 + 38 + 45);
        // One heap of n: every game is a composition of n, 2^(n-1) of them; only taking one
        // stone at a time lasts n moves.
        let one = Heaps::from_position("6 0").unwrap();
        assert_eq!(perft(&one, 6).nodes, 1);
        assert_eq!(perft(&one, 6).finished, 32);
        assert_eq!(perft(&one, 1).nodes, 6);
    }

    #[test]
    fn random_playouts_keep_the_rules_consistent() {
        suite::check(&Heaps::start(), 200, 13);
        suite::check(&Heaps::from_position("1,20,7,2 1").unwrap(), 50, 31);
    }

    #[test]
    fn whoever_takes_the_last_stone_wins() {
        let mut pos = Heaps::from_position("0,2 1").unwrap();
        pos.play(&parse_take("2-2").unwrap()).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Won(Side::Second)));
        assert!(pos.legal_moves().is_empty());
    }

    #[test]
    fn moves_and_positions_are_read_strictly() {
        assert_eq!(parse_take("2-3"), Ok(Take { heap: 1, count: 3 }));
        for bad in [
            "", "2", "2-", "-3", "0-1", "1-0", "+1-1", "1-1-1", "a-b", "300-1",
        ] {
            assert!(parse_take(bad).is_err(), "{bad:?}");
        }
        let pos = Heaps::start();
        assert_eq!(
            pos.why_illegal(&parse_take("4-1").unwrap()).unwrap(),
            "4-1: there are 3 heaps"
        );
        assert_eq!(
            pos.why_illegal(&parse_take("1-4").unwrap()).unwrap(),
            "1-4: heap 1 has 3 stones"
        );
        assert_eq!(Heaps::from_position("3,4,5 1").unwrap().render(), "3,4,5 1");
        for bad in [
            "3,4,5",
            "3,4,5 2",
            "0,0 0",
            "21 0",
            "1,1,1,1,1,1,1,1,1,1 0",
            "x 0",
        ] {
            assert!(Heaps::from_position(bad).is_err(), "{bad:?}");
        }
    }
}
