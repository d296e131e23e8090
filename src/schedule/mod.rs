//! Schedules: who plays whom, in which seat, in which round.

pub mod round_robin;
pub mod swiss;

/// A game the schedule calls for: indices into the tournament's bots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    pub round: u32,
    /// The bots in seat 0 and seat 1.
    pub seats: [usize; 2],
}
