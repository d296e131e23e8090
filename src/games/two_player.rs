//! Two-player games as games of N seats. Their rules and protocols name two [`Side`]s (with
//! `other()`, pairs indexed by side, and matches that a third side cannot slip through), and
//! speak of a winner or a draw; the referee drives every game through [`Game`], whose seats,
//! sets of seats and places this adapter fills in.

use rand_chacha::ChaCha8Rng;

use super::picture::Picture;
use super::{Game, Outbox, Outcome, Ranking, Seat, Seats, Side, Step};
use crate::failure::Fault;

/// One match of a two-player game: [`Game`] with sides for seats and an [`Outcome`] for places.
pub trait TwoPlayer: Send + Sync {
    /// The opening lines (names, seats, the first board).
    fn start(&mut self, out: &mut Outbox);

    /// The sides whose next line the game is waiting for. Both for simultaneous moves, none
    /// when the game is over.
    fn awaiting(&self) -> [bool; 2];

    /// A line (newline removed) from a side the game was waiting for.
    fn on_line(&mut self, side: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault>;

    /// A side failed. The game tells the other (e.g. `RETIRE`) and may go on waiting for the
    /// other's pending line; it never waits for the failed side again.
    fn on_fault(&mut self, side: Side, fault: &Fault, out: &mut Outbox);

    /// The result once the game has ended without a fault.
    fn outcome(&self) -> Option<Outcome>;

    /// Moves (or rounds) played so far.
    fn plies(&self) -> u32;

    /// As `Game::greeting`.
    fn greeting(&self) -> bool {
        false
    }

    /// The line the built-in bot `name` would send now for `side`.
    fn builtin_line(&self, side: Side, name: &str, rng: &mut ChaCha8Rng) -> String;

    /// The game as it stands, for the report's viewer.
    fn picture(&self) -> Picture;
}

/// A two-player game, boxed as the referee drives every game.
pub fn two_player(game: impl TwoPlayer + 'static) -> Box<dyn Game> {
    Box::new(Two(game))
}

struct Two<G>(G);

/// The side in `seat`: the referee seats a two-player game's bots in seats 0 and 1 only.
fn side(seat: Seat) -> Side {
    Side::of(seat).expect("a two-player game has seats 0 and 1")
}

impl<G: TwoPlayer> Game for Two<G> {
    fn start(&mut self, out: &mut Outbox) {
        self.0.start(out)
    }

    fn awaiting(&self) -> Seats {
        self.0.awaiting().into()
    }

    fn on_line(&mut self, seat: Seat, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        self.0.on_line(side(seat), line, out)
    }

    fn on_fault(&mut self, seat: Seat, fault: &Fault, out: &mut Outbox) {
        self.0.on_fault(side(seat), fault, out)
    }

    fn outcome(&self) -> Option<Ranking> {
        self.0.outcome().map(Ranking::from)
    }

    fn plies(&self) -> u32 {
        self.0.plies()
    }

    fn greeting(&self) -> bool {
        self.0.greeting()
    }

    fn builtin_line(&self, seat: Seat, name: &str, rng: &mut ChaCha8Rng) -> String {
        self.0.builtin_line(side(seat), name, rng)
    }

    fn picture(&self) -> Picture {
        self.0.picture()
    }
}
