//! royalur: the Royal Game of Ur, as Code Colosseum plays it.

mod fuzz;
mod picture;
mod protocol;
pub mod rules;

use super::{GameInfo, ParamKind, ParamSpec};

pub static INFO: GameInfo = GameInfo {
    name: "royalur",
    players: 2..=2,
    summary: "the Royal Game of Ur, a race game with dice, over Code Colosseum's line protocol",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "pace",
            help: "minimum seconds between turns (Code Colosseum's default is 1.5; 0 here: no one is watching)",
            kind: ParamKind::Float {
                default: 0.0,
                min: 0.0,
                max: 30.0,
            },
        },
        ParamSpec {
            name: "max_moves",
            help: "moves after which the game is stopped as a draw (reason `limit`)",
            kind: ParamKind::Int {
                default: 1000,
                min: 1,
                max: 100_000,
            },
        },
        ParamSpec {
            name: "rolls",
            help: "scripted dice for the first rolls, e.g. `0011,1111`; the seeded dice follow (for tests and teaching)",
            kind: ParamKind::Text { default: "" },
        },
    ],
    builtins: &[
        ("random", "moves a random legal token"),
        (
            "greedy",
            "captures if it can, else lands on a rosette, else moves its most advanced token",
        ),
    ],
    timeout: 3.0,
    startup_timeout: 10.0,
    framing: crate::failure::Framing::Lines,
    create: |params, seating| {
        Ok(crate::games::two_player(protocol::RoyalUr::new(
            params,
            seating.two_names(),
            seating.seed,
        )?))
    },
    fuzz_line: fuzz::line,
    positions: None,
    example_bots: "bots/royalur",
    short_game: &[],
};
