//! checkers: English draughts over the adversarial game server's JSON protocol.

mod fuzz;
mod picture;
mod protocol;
pub mod rules;

use super::GameInfo;
use super::json_protocol;

pub static INFO: GameInfo = GameInfo {
    name: "checkers",
    players: 2..=2,
    summary: "English draughts over the adversarial game server's JSON protocol",
    description: concat!(
        include_str!("description.md"),
        include_str!("../json_protocol.md")
    ),
    params: json_protocol::PARAMS,
    builtins: json_protocol::BUILTINS,
    timeout: 3.0,
    startup_timeout: 10.0,
    framing: crate::failure::Framing::Json,
    create: json_protocol::create::<rules::Board>,
    fuzz_line: fuzz::line,
    positions: Some(super::position::Positions::of::<rules::Board>()),
    example_bots: "bots/checkers",
    short_game: &[],
};
