//! nim: a game that exists for the tests alone. It is built into arena only with the feature
//! `test-game`, which `cargo test` turns on (see Cargo.toml), and it proves what adding a game
//! takes: this folder and the registry (its `mod` line and its line in `ALL`). Every suite that iterates the registry
//! (rules, fuzzing, example bots, perft, the report) runs it, with nothing else edited.
//!
//! Heaps of stones; a move takes stones from one heap; whoever takes the last stone wins. It
//! speaks arena's line protocol for board games (`games::line_protocol`).

mod fuzz;
mod protocol;
pub mod rules;

use crate::games::{GameInfo, ParamKind, ParamSpec, line_protocol, position};

pub static INFO: GameInfo = GameInfo {
    name: "nim",
    players: 2..=2,
    summary: "Nim on heaps of stones (a game for arena's own tests), over the line protocol",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "heaps",
            help: "the heaps' sizes at the start, comma-separated (1 to 9 heaps of 1 to 20)",
            kind: ParamKind::Text { default: "3,4,5" },
        },
        line_protocol::PACE,
    ],
    builtins: &[
        ("random", "takes a uniformly random legal move"),
        (
            "search",
            "alpha-beta search 4 moves deep, random among equals",
        ),
    ],
    timeout: 3.0,
    startup_timeout: 10.0,
    framing: crate::failure::Framing::Lines,
    create: line_protocol::create::<rules::Heaps>,
    fuzz_line: fuzz::line,
    positions: Some(position::Positions::of::<rules::Heaps>()),
    example_bots: "tests/games/nim/bots",
    short_game: &[],
};
