//! batalo: Scott Harmon's Batalo as pbmserv plays it, over a line protocol in royalur's style.

mod fuzz;
mod picture;
mod protocol;
pub mod rules;

use super::{GameInfo, ParamKind, ParamSpec, position};

pub static INFO: GameInfo = GameInfo {
    name: "batalo",
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
        ParamSpec {
            name: "pace",
            help: "minimum seconds between moves (0: no one is watching)",
            kind: ParamKind::Float {
                default: 0.0,
                min: 0.0,
                max: 30.0,
            },
        },
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
    framing: crate::games::Framing::Lines,
    create: |params, seating| {
        Ok(Box::new(protocol::Batalo::new(
            params,
            seating.names.clone(),
        )))
    },
    fuzz_line: fuzz::line,
    perft: Some(position::perft_of::<rules::Board>),
};
