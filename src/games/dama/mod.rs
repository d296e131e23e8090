//! dama: Italian draughts over Code Colosseum's text protocol.

mod fuzz;
mod picture;
mod protocol;
pub mod rules;
mod server;
mod server_rules;

use super::{GameInfo, ParamKind, ParamSpec, position};

pub static INFO: GameInfo = GameInfo {
    name: "dama",
    players: 2..=2,
    summary: "Italian draughts over Code Colosseum's text protocol, by its server's rules or FID's",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "protocol",
            help: "the stream players and spectators get: `server`, byte for byte what Code \
                   Colosseum's live server sends (every real bot was written against it), or \
                   `docs`, what its dama description shows (see above for the differences)",
            kind: ParamKind::Choice {
                default: "server",
                choices: &["server", "docs"],
                before: "docs",
            },
        },
        ParamSpec {
            name: "rules",
            help: "which moves are legal and how a game ends: `server`, exactly what Code \
                   Colosseum's server takes (no capture is compulsory, a capture may stop after \
                   any jump); `fid`, the Italian federation's; `auto`, the server's with \
                   `protocol=server` and FID's with `protocol=docs` (see above for the \
                   differences)",
            kind: ParamKind::Choice {
                default: "auto",
                choices: &["auto", "server", "fid"],
                before: "fid",
            },
        },
        ParamSpec {
            name: "retries",
            help: "invalid moves a player may retry per turn, within the same deadline, before losing",
            kind: ParamKind::Int {
                default: 3,
                min: 0,
                max: 20,
            },
        },
        ParamSpec {
            name: "max_moves",
            help: "moves (plies) after which the game is stopped as a draw (reason `limit`)",
            kind: ParamKind::Int {
                default: 200,
                min: 1,
                max: 10_000,
            },
        },
        ParamSpec {
            name: "pace",
            help: "minimum seconds between turns (0: no one is watching)",
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
            "alpha-beta search 5 moves deep counting material, random among equals",
        ),
    ],
    timeout: 3.0,
    startup_timeout: 10.0,
    framing: crate::failure::Framing::Lines,
    create: |params, seating| {
        Ok(crate::games::two_player(protocol::Dama::new(
            params, seating,
        )?))
    },
    fuzz_line: fuzz::line,
    positions: Some(position::Positions::of::<rules::Board>()),
    example_bots: "bots/dama",
    short_game: &[("max_moves", "60")],
};
