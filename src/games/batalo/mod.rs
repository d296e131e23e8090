//! batalo: Scott Harmon's Batalo as pbmserv plays it, over arena's line protocol for board games (`games::line_protocol`).

mod fuzz;
mod picture;
mod protocol;
pub mod rules;

use super::{GameInfo, ParamKind, ParamSpec, line_protocol, position};

pub static INFO: GameInfo = GameInfo {
    name: "batalo",
    players: 2..=2,
    summary: "Batalo (pbmserv), a hexagonal race-and-capture game, over a line protocol",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "max_moves",
            help: "moves (plies) after which the game is stopped as a draw (reason `limit`)",
            kind: ParamKind::Int {
                default: rules::DEFAULT_MAX_PLIES as i64,
                min: 1,
                max: 10_000,
            },
        },
        line_protocol::PACE,
    ],
    builtins: &[
        ("random", "plays a uniformly random legal move"),
        (
            "search",
            "alpha-beta search 3 moves deep counting material and closeness to the enemy base, \
             random among equals",
        ),
    ],
    timeout: 3.0,
    startup_timeout: 10.0,
    framing: crate::failure::Framing::Lines,
    create: line_protocol::create::<rules::Board>,
    fuzz_line: fuzz::line,
    positions: Some(position::Positions::of::<rules::Board>()),
    example_bots: "bots/batalo",
    short_game: &[("max_moves", "60")],
};
