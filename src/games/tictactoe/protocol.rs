//! tictactoe over the adversarial game server's JSON protocol.

use serde_json::Value;

use super::rules::Board;
use crate::games::json_protocol::{Dialect, JsonRules, small_index};
use crate::games::picture::Picture;
use crate::games::position::Textual;

impl Textual for Board {
    fn start() -> Self {
        Board::default()
    }

    fn from_position(text: &str) -> Result<Self, String> {
        Board::from_board_string(text)
    }

    fn position(&self) -> String {
        self.board_string()
    }

    fn render(&self) -> String {
        Board::render(self)
    }
}

impl JsonRules for Board {
    const NAME: &'static str = "tictactoe";
    const REQUEST_NAMES: &'static [&'static str] = &["tictactoe"];
    // The whole game: the built-in search plays perfectly.
    const SEARCH_DEPTH: u32 = 9;

    /// `x` and `o` in both dialects: the original server used the README's letters here.
    fn board(&self, _dialect: Dialect) -> String {
        self.board_string()
    }

    fn parse_move(&self, value: &Value) -> Result<u8, String> {
        small_index(value, 9, "a cell index")
    }

    fn move_json(&self, mv: &u8) -> Value {
        Value::from(*mv)
    }

    fn picture(&self, last: Option<&u8>) -> Picture {
        Board::picture(self, last.copied())
    }
}
