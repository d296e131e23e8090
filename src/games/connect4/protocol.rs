//! connect four over the adversarial game server's JSON protocol.

use serde_json::Value;

use super::rules::Board;
use crate::games::json_protocol::{Dialect, JsonRules, lettered, small_index};
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
    const NAME: &'static str = "connect4";
    const REQUEST_NAMES: &'static [&'static str] = &["connect4", "connectfour"];
    const SEARCH_DEPTH: u32 = 6;

    /// The README's `x` (player 1) and `o` (player 2), or the original server's `b` and `r`. The
    /// cells are the same in both.
    fn board(&self, dialect: Dialect) -> String {
        lettered(self.board_string(), dialect, &[('x', 'b'), ('o', 'r')])
    }

    fn parse_move(&self, value: &Value) -> Result<u8, String> {
        small_index(value, 7, "a column")
    }

    fn move_json(&self, mv: &u8) -> Value {
        Value::from(*mv)
    }

    fn picture(&self, last: Option<&u8>) -> Picture {
        Board::picture(self, last.copied())
    }
}
