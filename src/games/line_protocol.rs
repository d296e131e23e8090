//! A line protocol in royalur's style for any game whose rules are a [`Position`], so that a
//! text game is its rules plus how a move is read and written:
//!
//! 1. both players and the spectators get the two names, one per line, seat 0 first;
//! 2. each player then gets its own seat, `0` or `1`. When the game starts from an opening
//!    (`--openings`, `--random-plies`), the seat is followed by a space and the position, in the
//!    format `arena perft --position` takes (`0 X:O(g8),f3:X(g10),g9`), and the spectators get
//!    `POSITION ` and the position: a bot learns where it starts before it must move, from the
//!    line it reads anyway;
//! 3. the player to move writes its move on one line; arena relays it, as the rules write it, to
//!    the opponent and the spectators (never back to the mover);
//! 4. when a player fails, the other and the spectators get `RETIRE`. A game that ends by the
//!    rules ends with its last move: every player can tell from the position.
//!
//! The parameter `pace` ([`PACE`]) slows the moves down for people watching.

use rand_chacha::ChaCha8Rng;

use super::picture::{self, Picture};
use super::position::{self, Textual, builtin_move};
use super::{Outbox, Outcome, ParamKind, ParamSpec, Params, Side, Step, TwoPlayer};
use crate::failure::Fault;

/// The parameter every line game takes, for its list of parameters.
pub const PACE: ParamSpec = ParamSpec {
    name: "pace",
    help: "minimum seconds between moves (0: no one is watching)",
    kind: ParamKind::Float {
        default: 0.0,
        min: 0.0,
        max: 30.0,
    },
};

/// What the line protocol needs of a game beyond its rules. Moves are `Sync` because the game
/// keeps the last one for the viewer, and a `Game` is shared between threads.
pub trait LineRules: Textual<Move: Sync> {
    /// How deep the built-in `search` bot looks.
    const SEARCH_DEPTH: u32;
    /// What the viewer calls each seat's side (`O`, `X`; `White`, `Black`).
    const SIDES: [&'static str; 2];

    /// The start of a match with these parameters, from `opening` when it has one; `Err`
    /// names the parameter refused.
    fn new_match(params: &Params, opening: Option<Self>) -> Result<Self, String>;
    /// A move as a bot writes it, without surrounding blanks; `Err` says why it is not one.
    fn parse_move(text: &str) -> Result<Self::Move, String>;
    /// Why a move that reads well cannot be played here, in words its author can act on.
    /// `None` when the rules have nothing more precise than "not legal here".
    fn why_illegal(&self, _mv: &Self::Move) -> Option<String> {
        None
    }
    /// The board for the viewer, `last` (the move that led here) highlighted, and what the
    /// viewer should say beside it after the protocol's own line (whose move, who won). `sides`
    /// names each seat's side with its player, as the notes should.
    fn picture(
        &self,
        last: Option<&Self::Move>,
        sides: &[String; 2],
    ) -> (picture::Board, Vec<String>);
}

/// `GameInfo::create` for a line game.
pub fn create<P: LineRules>(
    params: &Params,
    seating: &super::Seating,
) -> Result<Box<dyn super::Game>, String> {
    let opening = match seating.opening {
        Some(_) => Some(position::start_of::<P>(seating)?),
        None => None,
    };
    Ok(super::two_player(LineGame {
        from_opening: opening.is_some(),
        pos: P::new_match(params, opening)?,
        names: seating.two_names(),
        pace: params.float(PACE.name),
        failed: false,
        last: None,
    }))
}

pub struct LineGame<P: LineRules> {
    pos: P,
    /// The game starts from an opening, which the players are told.
    from_opening: bool,
    names: [String; 2],
    pace: f64,
    /// A player failed: the game waits for no one any more.
    failed: bool,
    /// The move that led to `pos`, for the viewer.
    last: Option<P::Move>,
}

impl<P: LineRules> LineGame<P> {
    fn side(&self, seat: Side) -> String {
        format!("{} ({})", P::SIDES[seat], self.names[seat])
    }
}

impl<P: LineRules> TwoPlayer for LineGame<P> {
    fn start(&mut self, out: &mut Outbox) {
        for name in &self.names {
            out.everyone(name);
        }
        // Players also learn their seat; spectators do not.
        let opening = self.from_opening.then(|| self.pos.position());
        for seat in Side::BOTH {
            match &opening {
                Some(position) => out.to(seat, format!("{} {position}", seat.index())),
                None => out.to(seat, seat.index().to_string()),
            }
        }
        if let Some(position) = opening {
            out.spectators(format!("POSITION {position}"));
        }
    }

    fn awaiting(&self) -> [bool; 2] {
        position::awaiting(&self.pos, self.failed)
    }

    fn on_line(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let text = line.trim();
        let mv =
            P::parse_move(text).map_err(|why| Fault::protocol(format!("sent '{text}': {why}")))?;
        // Written as the rules write it (normalised), from the position it is played in.
        let moved = self.pos.move_text(&mv);
        if self.pos.play(&mv).is_err() {
            let why = self.pos.why_illegal(&mv);
            return Err(Fault::illegal(why.unwrap_or_else(|| {
                format!("sent '{text}', not a legal move here")
            })));
        }
        self.last = Some(mv);
        out.to(seat.other(), moved.clone());
        out.spectators(moved);
        if self.pos.outcome().is_none() {
            out.pause(self.pace);
        }
        Ok(Step::Done)
    }

    fn on_fault(&mut self, seat: Side, _fault: &Fault, out: &mut Outbox) {
        self.failed = true;
        out.to(seat.other(), "RETIRE");
        out.spectators("RETIRE");
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.failed {
            return None;
        }
        self.pos.outcome()
    }

    fn plies(&self) -> u32 {
        self.pos.plies()
    }

    fn builtin_line(&self, _seat: Side, name: &str, rng: &mut ChaCha8Rng) -> String {
        let mv = builtin_move(&self.pos, name, P::SEARCH_DEPTH, rng);
        self.pos.move_text(&mv)
    }

    fn picture(&self) -> Picture {
        let sides = Side::BOTH.map(|seat| self.side(seat));
        let status = match self.pos.outcome() {
            _ if self.failed => "game over: a player failed".to_string(),
            None => format!("{} to move", sides[self.pos.to_move()]),
            Some(Outcome::Won(seat)) => format!("{} wins", sides[seat]),
            Some(o) => format!("drawn ({})", o.reason().as_str()),
        };
        let (board, more) = self.pos.picture(self.last.as_ref(), &sides);
        let mut notes = vec![status];
        notes.extend(more);
        Picture { board, notes }
    }
}
