//! krom: KROM (8ixi8), a game of factories, walls, guns and camouflage with hidden information,
//! over the seed's JSON messages.

mod bots;
mod fuzz;
mod picture;
mod protocol;
pub mod rules;

use super::{GameInfo, ParamKind, ParamSpec};

pub static INFO: GameInfo = GameInfo {
    name: "krom",
    players: 2..=2,
    summary: "KROM (8ixi8): build from your factory, shoot, hide under camo; JSON messages",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "max_turns",
            help: "turns (both players together) after which the game is stopped as a draw (reason `limit`)",
            kind: ParamKind::Int {
                default: rules::DEFAULT_MAX_TURNS as i64,
                min: 1,
                max: 100_000,
            },
        },
        ParamSpec {
            name: "move_cap",
            help: "the most moves a player may have at the start of a turn (saved moves plus the 3 new ones)",
            kind: ParamKind::Int {
                default: rules::DEFAULT_CAP as i64,
                min: 3,
                max: 1000,
            },
        },
    ],
    builtins: bots::BUILTINS,
    timeout: 3.0,
    startup_timeout: 10.0,
    framing: crate::failure::Framing::Json,
    create: |params, seating| {
        Ok(crate::games::two_player(protocol::Krom::new(
            params,
            seating.two_names(),
        )))
    },
    fuzz_line: fuzz::line,
    positions: None,
    example_bots: "bots/krom",
    short_game: &[("max_turns", "30")],
};
