//! roshambo: Code Colosseum's Rock Paper Scissors.

mod bots;
mod fuzz;
mod picture;
mod protocol;
pub mod rules;

use super::{GameInfo, ParamKind, ParamSpec};

pub static INFO: GameInfo = GameInfo {
    name: "roshambo",
    players: 2..=2,
    summary: "Rock Paper Scissors over Code Colosseum's line protocol",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "rounds",
            help: "number of rounds",
            kind: ParamKind::Int {
                default: 10,
                min: 1,
                max: 9999,
            },
        },
        ParamSpec {
            name: "pace",
            help: "minimum seconds between rounds (Code Colosseum's default is 1; 0 here: no one is watching)",
            kind: ParamKind::Float {
                default: 0.0,
                min: 0.0,
                max: 30.0,
            },
        },
    ],
    builtins: bots::BUILTINS,
    timeout: 3.0,
    startup_timeout: 10.0,
    framing: crate::failure::Framing::Lines,
    create: |params, seating| {
        Ok(crate::games::two_player(protocol::Roshambo::new(
            params,
            seating.two_names(),
        )))
    },
    fuzz_line: fuzz::line,
    positions: None,
    example_bots: "bots/roshambo",
    short_game: &[],
};
