//! loa: Lines of Action over CodinGame's turn protocol.

mod fuzz;
mod picture;
mod protocol;
pub mod rules;

use super::{GameInfo, ParamKind, ParamSpec, position};

/// How deep the built-in `search` bot looks.
pub const SEARCH_DEPTH: u32 = 3;

pub static INFO: GameInfo = GameInfo {
    name: "loa",
    players: 2..=2,
    summary: "Lines of Action over CodinGame's protocol: the legal moves are given every turn",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "max_plies",
            help: "plies (moves and passes) after which the game is stopped as a draw (reason `limit`)",
            kind: ParamKind::Int {
                default: rules::DEFAULT_MAX_PLIES as i64,
                min: 1,
                max: 10_000,
            },
        },
        ParamSpec {
            name: "protocol",
            help: "`server`: a line that begins with a legal move plays it, as CodinGame's referee \
                   does (`b1b3;`); `docs`: the first word must be the move itself",
            kind: ParamKind::Choice {
                default: "server",
                choices: &["server", "docs"],
                before: "docs",
            },
        },
    ],
    builtins: &[
        ("random", "plays a uniformly random legal move"),
        (
            "search",
            "alpha-beta search 3 moves deep, preferring checkers close together and central, \
             random among equals",
        ),
    ],
    timeout: 0.15,
    // CodinGame's 1 s first turn, plus the 0.3 s its runner waits after starting the bots before
    // the first input, which arena does not: real bots use it for their start-up.
    startup_timeout: 1.3,
    framing: crate::failure::Framing::Lines,
    create: |params, seating| {
        Ok(crate::games::two_player(protocol::Loa::new(
            params, seating,
        )?))
    },
    fuzz_line: fuzz::line,
    positions: Some(position::Positions::of::<rules::Board>()),
    example_bots: "bots/loa",
    short_game: &[("max_plies", "60")],
};
