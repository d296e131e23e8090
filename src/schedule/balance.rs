//! How balanced a schedule of N-player games is: what the pods format prints, and what the
//! tests of every N-player format assert.

use std::fmt;

use super::Planned;
use super::meetings::Meetings;
use super::seating::SeatCounts;

/// The balance a schedule achieved, measured from its games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balance {
    pub bots: usize,
    /// Players per game.
    pub seats: usize,
    pub games: usize,
    /// The fewest and most games of a bot.
    pub games_per_bot: (u32, u32),
    /// The fewest and most games any two bots played together.
    pub meetings: (u32, u32),
    /// Each bot's fewest and most games in one seat.
    pub seats_per_bot: Vec<(u32, u32)>,
}

impl Balance {
    /// The balance of `plan`, games of `k` players between `n` bots.
    pub fn of(plan: &[Planned], n: usize, k: usize) -> Balance {
        let mut meetings = Meetings::new(n);
        let mut seats = SeatCounts::new(n, k);
        for game in plan {
            meetings.add_game(&game.seats);
            seats.add(&game.seats);
        }
        let seats_per_bot: Vec<(u32, u32)> = (0..n)
            .map(|b| {
                let counts = (0..k).map(|s| seats.get(b, s));
                (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0))
            })
            .collect();
        let games = (0..n).map(|b| (0..k).map(|s| seats.get(b, s)).sum::<u32>());
        let (lo, hi) = meetings.range();
        Balance {
            bots: n,
            seats: k,
            games: plan.len(),
            games_per_bot: (games.clone().min().unwrap_or(0), games.max().unwrap_or(0)),
            meetings: (u32::from(lo), u32::from(hi)),
            seats_per_bot,
        }
    }

    /// The fewest and most games of any bot in any one seat.
    pub fn seat_games(&self) -> (u32, u32) {
        let lo = self.seats_per_bot.iter().map(|s| s.0).min().unwrap_or(0);
        let hi = self.seats_per_bot.iter().map(|s| s.1).max().unwrap_or(0);
        (lo, hi)
    }

    /// The largest difference between a bot's most and fewest games in one seat.
    pub fn seat_spread(&self) -> u32 {
        self.seats_per_bot
            .iter()
            .map(|&(lo, hi)| hi - lo)
            .max()
            .unwrap_or(0)
    }
}

/// `a` alone when the range is one value, else `a to b`.
fn range((lo, hi): (u32, u32)) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo} to {hi}")
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 { one } else { many }.to_string()
}

/// In words, e.g. `40 bots, 200 games of 4 players: each bot plays 20 games; two bots meet in
/// 1 to 2 games; each bot sits 5 times in each seat`.
impl fmt::Display for Balance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games = self.games_per_bot;
        let meet = self.meetings;
        let seat = self.seat_games();
        write!(
            f,
            "{} bots, {} games of {} players: each bot plays {} {}; two bots meet in {} {}; \
             each bot sits {} {} in each seat",
            self.bots,
            self.games,
            self.seats,
            range(games),
            plural(games.1, "game", "games"),
            range(meet),
            plural(meet.1, "game", "games"),
            range(seat),
            plural(seat.1, "time", "times"),
        )?;
        if seat.0 != seat.1 {
            let spread = self.seat_spread();
            write!(
                f,
                " (one bot's seats at most {spread} {} apart)",
                plural(spread, "game", "games")
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seats: &[usize]) -> Planned {
        Planned {
            round: 1,
            seats: seats.to_vec(),
            pair: 0,
        }
    }

    #[test]
    fn a_plan_is_measured_and_told_in_words() {
        // Three bots, every rotation of one game of 3: level everywhere.
        let plan: Vec<Planned> = (0..3)
            .map(|j| game(&super::super::rotation(j, 3)))
            .collect();
        let b = Balance::of(&plan, 3, 3);
        assert_eq!(b.games_per_bot, (3, 3));
        assert_eq!(b.meetings, (3, 3));
        assert_eq!(b.seats_per_bot, vec![(1, 1); 3]);
        assert_eq!(
            b.to_string(),
            "3 bots, 3 games of 3 players: each bot plays 3 games; two bots meet in 3 games; \
             each bot sits 1 time in each seat"
        );

        // Four bots, two games of 3: bot 3 plays once, bots 1 and 3 never meet.
        let b = Balance::of(&[game(&[0, 1, 2]), game(&[2, 0, 3])], 4, 3);
        assert_eq!(b.games_per_bot, (1, 2));
        assert_eq!(b.meetings, (0, 2));
        assert_eq!(b.seats_per_bot[2], (0, 1));
        assert_eq!(b.seat_games(), (0, 1));
        assert_eq!(b.seat_spread(), 1);
        assert_eq!(
            b.to_string(),
            "4 bots, 2 games of 3 players: each bot plays 1 to 2 games; two bots meet in 0 to 2 \
             games; each bot sits 0 to 1 time in each seat (one bot's seats at most 1 game apart)"
        );
    }
}
