//! `arena perft GAME DEPTH [--position POS] [--divide]`: move-generation counts, for game authors
//! and the rules tests.

use crate::error::{Error, Result};
use crate::games::find_game;

pub fn run(game: &str, depth: u32, position: Option<&str>, divide: bool) -> Result<()> {
    let info = find_game(game).map_err(Error::Usage)?;
    let perft = info.positions.map(|p| p.perft).ok_or_else(|| {
        Error::Usage(format!(
            "perft counts the moves of board games; {} is not one",
            info.name
        ))
    })?;
    let report =
        perft(position, depth, divide).map_err(|e| Error::Usage(format!("--position: {e}")))?;
    crate::out::line(report.board.trim_end());
    for (mv, p) in &report.divide {
        crate::out::line(&format!("{mv} {}", p.nodes));
    }
    crate::out::line(&format!(
        "depth {depth}: {} nodes, {} games finished within {depth} moves",
        report.total.nodes, report.total.finished
    ));
    Ok(())
}
