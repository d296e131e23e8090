//! `arena games [GAME]`: the games there are, or one game's rules, streams and parameters.

use crate::error::{Error, Result};
use crate::games;

pub fn run(name: Option<&str>) -> Result<()> {
    match name {
        None => {
            let program: &games::GameInfo = &games::program::INFO;
            for g in games::ALL.iter().copied().chain([program]) {
                crate::out::line(&format!("{:<10} {}", g.name, g.summary));
            }
        }
        Some(name) => {
            let game = games::find_game(name).map_err(Error::Usage)?;
            crate::out::line(&game.full_description());
        }
    }
    Ok(())
}
