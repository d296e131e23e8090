//! roshambo for the report's viewer: a table with one row per round, so the viewer shows the
//! whole match so far as a growing list of throws.

use super::rules::{Gesture, points};
use crate::games::picture::Board;

/// The table's heading: the round, each player's throw, and who took the round.
pub fn table(names: &[String; 2], row: Option<Vec<String>>) -> Board {
    Board::Table {
        columns: vec![
            "round".into(),
            names[0].clone(),
            names[1].clone(),
            "result".into(),
        ],
        row,
    }
}

/// The row of round `round` (1-based), in which the players threw `throws`.
pub fn row(names: &[String; 2], round: u32, throws: [Gesture; 2]) -> Vec<String> {
    let result = match points(throws[0], throws[1]) {
        [1, _] => names[0].clone(),
        [_, 1] => names[1].clone(),
        _ => "tie".into(),
    };
    vec![
        round.to_string(),
        throws[0].as_str().into(),
        throws[1].as_str().into(),
        result,
    ]
}

#[cfg(test)]
mod tests {
    use super::super::protocol::Roshambo;
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::{Outbox, Params, Step, TwoPlayer};

    fn names() -> [String; 2] {
        ["alpha".into(), "beta".into()]
    }

    fn rows(game: &Roshambo) -> Option<Vec<String>> {
        let p = game.picture();
        assert_eq!(p.check(), Ok(()));
        match p.board {
            Board::Table { columns, row } => {
                assert_eq!(columns, ["round", "alpha", "beta", "result"]);
                row
            }
            other => panic!("roshambo draws a table, not {other:?}"),
        }
    }

    #[test]
    fn each_finished_round_adds_one_row() {
        let params = Params::resolve(super::super::INFO.params, [("rounds", "2")]).unwrap();
        let mut game = Roshambo::new(&params, names());
        let mut out = Outbox::default();
        game.start(&mut out);
        assert_eq!(rows(&game), None);
        assert_eq!(
            game.picture().notes,
            ["round 1 of 2", "score: alpha 0, beta 0"]
        );

        assert_eq!(game.on_line(First, "ROCK", &mut out), Ok(Step::Done));
        assert_eq!(rows(&game), None, "one throw is not a round");
        assert_eq!(game.on_line(Second, "PAPER", &mut out), Ok(Step::Done));
        assert_eq!(rows(&game).unwrap(), ["1", "ROCK", "PAPER", "beta"]);
        assert_eq!(
            game.picture().notes,
            ["round 2 of 2", "score: alpha 0, beta 1"]
        );

        assert_eq!(game.on_line(Second, "SCISSORS", &mut out), Ok(Step::Done));
        assert_eq!(rows(&game), None);
        assert_eq!(game.on_line(First, "SCISSORS", &mut out), Ok(Step::Done));
        assert_eq!(rows(&game).unwrap(), ["2", "SCISSORS", "SCISSORS", "tie"]);
        assert_eq!(
            game.picture().notes,
            ["beta wins", "score: alpha 0, beta 1"]
        );
    }

    #[test]
    fn a_round_cut_short_by_a_fault_adds_no_row() {
        let params = Params::resolve(super::super::INFO.params, []).unwrap();
        let mut game = Roshambo::new(&params, names());
        let mut out = Outbox::default();
        game.start(&mut out);
        game.on_line(First, "ROCK", &mut out).unwrap();
        game.on_line(Second, "ROCK", &mut out).unwrap();
        assert_eq!(rows(&game).unwrap(), ["1", "ROCK", "ROCK", "tie"]);
        game.on_line(First, "PAPER", &mut out).unwrap();
        game.on_fault(Second, &crate::failure::Fault::protocol("x"), &mut out);
        assert_eq!(rows(&game), None);
        assert_eq!(game.picture().notes[0], "beta retired");
    }
}
