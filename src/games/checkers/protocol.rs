//! checkers over the adversarial game server's JSON protocol.

use serde_json::Value;

use super::rules::{Board, Move};
use crate::games::json_protocol::{Dialect, JsonRules, lettered};
use crate::games::picture::Picture;
use crate::games::position::Textual;

impl Textual for Board {
    fn start() -> Self {
        Board::start()
    }

    /// A PDN FEN such as `W:W21,22:B5,K9`.
    fn from_position(text: &str) -> Result<Self, String> {
        Board::from_fen(text)
    }

    fn position(&self) -> String {
        Board::fen(self)
    }

    fn render(&self) -> String {
        Board::render(self)
    }
}

impl JsonRules for Board {
    const NAME: &'static str = "checkers";
    const REQUEST_NAMES: &'static [&'static str] = &["checkers"];
    const SEARCH_DEPTH: u32 = 6;

    /// The README's `b`/`B` (player 1) and `r`/`R` (player 2), or the original server's `r`/`R`
    /// (player 1) and `w`/`W` (player 2). The squares are the same in both.
    fn board(&self, dialect: Dialect) -> String {
        lettered(
            self.board_string(),
            dialect,
            &[('b', 'r'), ('B', 'R'), ('r', 'w'), ('R', 'W')],
        )
    }

    /// A list of board indices 0..63: the start square, then every square landed on.
    fn parse_move(&self, value: &Value) -> Result<Move, String> {
        let malformed = || "expected a list of board indices 0..63 such as [17, 26]".to_string();
        let items = value.as_array().ok_or_else(malformed)?;
        let path = items
            .iter()
            .map(|v| v.as_u64().filter(|&i| i < 64).map(|i| i as u8))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(malformed)?;
        if path.len() < 2 {
            return Err(malformed());
        }
        Ok(Move { path })
    }

    fn move_json(&self, mv: &Move) -> Value {
        Value::from(mv.path.clone())
    }

    fn picture(&self, last: Option<&Move>) -> Picture {
        Board::picture(self, last)
    }
}
