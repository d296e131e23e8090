//! The Royal Game of Ur as Code Colosseum plays it: pure rules, no I/O.
//!
//! Each player has 7 tokens on a private track of 14 cells. Position 0 is the start (off the board)
//! and 15 is the end (borne off). Cells 5..=12 are the shared middle row: the same number names the
//! same physical cell for both players, which is where captures happen.

use crate::games::Side;

pub const TOKENS: usize = 7;
pub const START: u8 = 0;
pub const END: u8 = 15;

pub fn is_rosette(cell: u8) -> bool {
    matches!(cell, 4 | 8 | 14)
}

pub fn is_shared(cell: u8) -> bool {
    (5..=12).contains(&cell)
}

/// Four coin flips; the number of heads is the distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roll(pub [bool; 4]);

impl Roll {
    pub fn from_bits(bits: u8) -> Roll {
        Roll([bits & 8 != 0, bits & 4 != 0, bits & 2 != 0, bits & 1 != 0])
    }
    pub fn distance(self) -> u8 {
        self.0.iter().filter(|&&h| h).count() as u8
    }
    /// The wire form: `0 1 1 0`.
    pub fn line(self) -> String {
        let d: Vec<&str> = self.0.iter().map(|&h| if h { "1" } else { "0" }).collect();
        d.join(" ")
    }
    /// Accepts `0110` or `0 1 1 0`.
    pub fn parse(text: &str) -> Option<Roll> {
        let digits: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if digits.len() != 4 || digits.iter().any(|c| !matches!(c, '0' | '1')) {
            return None;
        }
        let mut r = [false; 4];
        for (slot, c) in r.iter_mut().zip(&digits) {
            *slot = *c == '1';
        }
        Some(Roll(r))
    }
}

/// Why a token cannot make a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocked {
    Finished,
    Overshoots,
    OwnToken,
    OccupiedRosette,
}

impl Blocked {
    pub fn explain(self) -> &'static str {
        match self {
            Blocked::Finished => "it has already left the track",
            Blocked::Overshoots => "leaving the track needs the exact count",
            Blocked::OwnToken => "one of its own tokens is on the target cell",
            Blocked::OccupiedRosette => "the target is a rosette that is already occupied",
        }
    }
}

/// What a move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effect {
    pub to: u8,
    pub captured: bool,
    /// Landed on a rosette: the same player rolls again.
    pub again: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Token positions per seat, indexed by token number.
    pub pos: [[u8; TOKENS]; 2],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            pos: [[START; TOKENS]; 2],
        }
    }
}

impl Board {
    /// Where `token` of `seat` would land with a roll of `n`, or why it cannot move.
    pub fn target(&self, seat: Side, token: usize, n: u8) -> Result<u8, Blocked> {
        let from = self.pos[seat][token];
        if from == END {
            return Err(Blocked::Finished);
        }
        let to = from + n;
        if to > END {
            return Err(Blocked::Overshoots);
        }
        if to == END {
            return Ok(to);
        }
        if self.pos[seat].contains(&to) {
            return Err(Blocked::OwnToken);
        }
        if is_rosette(to) && is_shared(to) && self.pos[seat.other()].contains(&to) {
            return Err(Blocked::OccupiedRosette);
        }
        Ok(to)
    }

    /// The tokens that can move `n` cells; empty for a roll of 0.
    pub fn legal_tokens(&self, seat: Side, n: u8) -> Vec<usize> {
        if n == 0 {
            return Vec::new();
        }
        (0..TOKENS)
            .filter(|&t| self.target(seat, t, n).is_ok())
            .collect()
    }

    /// Move `token` of `seat` by `n`. The move must be legal.
    pub fn play(&mut self, seat: Side, token: usize, n: u8) -> Result<Effect, Blocked> {
        if n == 0 {
            return Err(Blocked::Overshoots);
        }
        let to = self.target(seat, token, n)?;
        self.pos[seat][token] = to;
        let mut captured = false;
        if is_shared(to) {
            for p in self.pos[seat.other()].iter_mut() {
                if *p == to {
                    *p = START;
                    captured = true;
                }
            }
        }
        Ok(Effect {
            to,
            captured,
            again: is_rosette(to),
        })
    }

    pub fn finished(&self, seat: Side) -> usize {
        self.pos[seat].iter().filter(|&&p| p == END).count()
    }

    pub fn winner(&self) -> Option<Side> {
        Side::BOTH.into_iter().find(|&s| self.finished(s) == TOKENS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};

    fn board(a: [u8; 7], b: [u8; 7]) -> Board {
        Board { pos: [a, b] }
    }

    #[test]
    fn rolls_count_heads_and_round_trip() {
        let r = Roll::parse("0 1 1 0").unwrap();
        assert_eq!(r.distance(), 2);
        assert_eq!(r.line(), "0 1 1 0");
        assert_eq!(Roll::parse("1111").unwrap().distance(), 4);
        assert_eq!(Roll::from_bits(0b1011).line(), "1 0 1 1");
        assert!(Roll::parse("0 1 2 0").is_none());
        assert!(Roll::parse("011").is_none());
    }

    #[test]
    fn a_roll_of_zero_has_no_move() {
        assert!(Board::default().legal_tokens(First, 0).is_empty());
        assert_eq!(
            Board::default().legal_tokens(First, 1),
            (0..7).collect::<Vec<_>>()
        );
    }

    #[test]
    fn leaving_needs_the_exact_count() {
        let b = board([14, 13, 12, 0, 0, 0, 0], [0; 7]);
        assert_eq!(b.target(First, 0, 1), Ok(END));
        assert_eq!(b.target(First, 0, 2), Err(Blocked::Overshoots));
        assert_eq!(b.target(First, 1, 2), Ok(END));
        // 12 + 2 = 14 is taken by our own token.
        assert_eq!(b.target(First, 2, 2), Err(Blocked::OwnToken));
        assert_eq!(b.target(First, 2, 3), Ok(END));
        let mut done = board([END; 7], [0; 7]);
        assert_eq!(done.target(First, 3, 1), Err(Blocked::Finished));
        assert_eq!(done.winner(), Some(First));
        done.pos[0][3] = 14;
        assert_eq!(done.winner(), None);
    }

    #[test]
    fn captures_only_on_shared_cells() {
        let mut b = board([3, 0, 0, 0, 0, 0, 0], [6, 2, 0, 0, 0, 0, 0]);
        let e = b.play(First, 0, 3).unwrap();
        assert_eq!(
            e,
            Effect {
                to: 6,
                captured: true,
                again: false
            }
        );
        assert_eq!(b.pos[1][0], START);
        // Cell 2 is private: seat 1's token on its own cell 2 is not in seat 0's way.
        let mut b = board([0; 7], [2, 0, 0, 0, 0, 0, 0]);
        let e = b.play(First, 0, 2).unwrap();
        assert!(!e.captured);
        assert_eq!(b.pos[1][0], 2);
        // Cells 13 and 14 are private too.
        let mut b = board([11, 0, 0, 0, 0, 0, 0], [13, 0, 0, 0, 0, 0, 0]);
        assert!(!b.play(First, 0, 2).unwrap().captured);
    }

    #[test]
    fn rosettes_give_another_turn_and_protect() {
        let mut b = Board::default();
        assert!(b.play(First, 0, 4).unwrap().again);
        assert!(!b.play(First, 1, 3).unwrap().again);
        assert!(b.play(First, 0, 4).unwrap().again, "8 is a rosette");
        // The central rosette cannot be taken from the opponent...
        assert_eq!(b.target(Second, 0, 4), Ok(4));
        let b2 = board([8, 0, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0, 0]);
        assert_eq!(b2.target(Second, 0, 3), Err(Blocked::OccupiedRosette));
        // ...but can be jumped over.
        assert_eq!(b2.target(Second, 0, 4), Ok(9));
        let mut b3 = board([10, 0, 0, 0, 0, 0, 0], [0; 7]);
        assert!(b3.play(First, 0, 4).unwrap().again, "14 is a rosette");
        assert!(
            !b3.play(First, 0, 1).unwrap().again,
            "leaving gives no extra turn"
        );
    }

    #[test]
    fn skipped_turn_when_every_token_is_blocked() {
        // All tokens finished but one on 14: only a roll of exactly 1 moves.
        let b = board([END, END, END, END, END, END, 14], [0; 7]);
        assert!(b.legal_tokens(First, 2).is_empty());
        assert_eq!(b.legal_tokens(First, 1), vec![6]);
        // 4 -> 8 hits a guarded rosette, 0 -> 4 lands on our own token: nothing moves.
        let b = board([4, 0, END, END, END, END, END], [8, 0, 0, 0, 0, 0, 0]);
        assert!(b.legal_tokens(First, 4).is_empty());
        assert_eq!(b.legal_tokens(First, 3), vec![0, 1]);
        let b = board([4, 1, END, END, END, END, END], [8, 0, 0, 0, 0, 0, 0]);
        assert_eq!(b.legal_tokens(First, 4), vec![1]);
    }
}
