//! How long each seat took to answer, per game: what a player tunes a bot by (the mean, the
//! slowest, how many answers came near the limit). The live loop and the SDK referees' loop both
//! fill it, each from the moment a seat's input was written to the moment its answer's line ended.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// An answer "came near" its limit when it took at least this share of it, in percent.
pub const NEAR_PERCENT: u128 = 80;

/// One seat's answer times in one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerTimes {
    /// Answers timed (moves, and the first move's, whose allowance is the first move's).
    pub answers: u32,
    /// Their sum, in microseconds.
    pub total_us: u64,
    /// The slowest, in microseconds.
    pub max_us: u64,
    /// How many took at least `NEAR_PERCENT` of their allowance (late ones included).
    pub near: u32,
    /// Games in which the bot had not reached its first read when the startup allowance ran out
    /// (docs/design.md, section Start-up): its start-up, not its first move, was slow.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unready: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl AnswerTimes {
    /// One answer that took `took` of an allowance `limit`.
    pub fn record(&mut self, took: Duration, limit: Duration) {
        let us = took.as_micros().min(u128::from(u64::MAX)) as u64;
        self.answers += 1;
        self.total_us = self.total_us.saturating_add(us);
        self.max_us = self.max_us.max(us);
        if took.as_micros() * 100 >= NEAR_PERCENT * limit.as_micros() {
            self.near += 1;
        }
    }

    /// The mean answer, in microseconds; `None` before any answer.
    pub fn mean_us(&self) -> Option<u64> {
        (self.answers > 0).then(|| self.total_us / u64::from(self.answers))
    }

    /// The times of several games together.
    pub fn add(&mut self, other: &AnswerTimes) {
        self.answers += other.answers;
        self.total_us = self.total_us.saturating_add(other.total_us);
        self.max_us = self.max_us.max(other.max_us);
        self.near += other.near;
        self.unready += other.unready;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_near_the_limit_are_counted_with_the_mean_and_the_slowest() {
        let mut t = AnswerTimes::default();
        assert_eq!(t.mean_us(), None);
        let limit = Duration::from_millis(100);
        t.record(Duration::from_millis(10), limit);
        t.record(Duration::from_millis(80), limit);
        t.record(Duration::from_millis(150), limit);
        assert_eq!((t.answers, t.max_us, t.near), (3, 150_000, 2));
        assert_eq!(t.mean_us(), Some(80_000));
        let mut all = AnswerTimes::default();
        all.add(&t);
        all.add(&t);
        assert_eq!((all.answers, all.max_us, all.near), (6, 150_000, 4));
    }
}
