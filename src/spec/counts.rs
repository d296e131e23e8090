//! A spec's numbers: players per game, games per pairing or per bot, rounds, each for the
//! formats that take it, and the schedule they make within its bound.

use crate::error::Result;
use crate::games::GameInfo;
use crate::format::{self, Field, Format, Shape};

use super::raw::{Raw, Source};
use super::{DEFAULT_SEED, Entrant, bounds};

/// The numbers of a spec within their bounds, and each for the formats it is for.
pub(super) fn check_counts(src: &Source, raw: &Raw, format: &dyn Format, players: usize) -> Result<()> {
    if let Some(j) = &raw.jobs
        && !(1..=bounds::JOBS).contains(j.get_ref())
    {
        return Err(src.at(
            Some(j.span()),
            format!("jobs must be from 1 to {}", bounds::JOBS),
        ));
    }
    if let Some(m) = &raw.min_free_mb
        && *m.get_ref() > bounds::MIN_FREE_MB
    {
        return Err(src.at(
            Some(m.span()),
            format!(
                "min_free_mb must be from 0 (no check) to {} MiB",
                bounds::MIN_FREE_MB
            ),
        ));
    }
    if let Some(g) = &raw.games_per_pairing {
        let n = *g.get_ref();
        let refused = match format.takes_games_per_pairing() {
            Err(why) => Err(why.to_string()),
            Ok(()) => format.check_games_per_pairing(n, players),
        };
        refused.map_err(|e| src.at(Some(g.span()), e))?;
        if !(1..=bounds::GAMES_PER_PAIRING).contains(&n) {
            return Err(src.at(
                Some(g.span()),
                format!(
                    "games_per_pairing must be from 1 to {}",
                    bounds::GAMES_PER_PAIRING
                ),
            ));
        }
    }
    if let Some(r) = &raw.rounds {
        if !format.takes_rounds() {
            let only = formats_taking(|f| f.takes_rounds());
            return Err(src.at(Some(r.span()), format!("rounds is for {only} only")));
        }
        if !(1..=bounds::ROUNDS).contains(r.get_ref()) {
            return Err(src.at(
                Some(r.span()),
                format!("rounds must be from 1 to {}", bounds::ROUNDS),
            ));
        }
    }
    Ok(())
}

/// The field the spec's bots make for games of `players`.
pub(super) fn field(bots: &[Entrant], players: usize) -> Field {
    Field {
        bots: bots.len(),
        seeds: bots.iter().filter(|b| b.seed).count(),
        players,
    }
}

/// The formats that take what `takes` asks, as an error names them: `the swiss format`.
pub(super) fn formats_taking(takes: impl Fn(&dyn Format) -> bool) -> String {
    match &format::those_taking(takes)[..] {
        [one] => format!("the {one} format"),
        many => format!("the {} formats", many.join(", ")),
    }
}

/// The schedule within its bound, and a fixed one possible (seats, pods, reference bots).
pub(super) fn check_schedule(
    src: &Source,
    raw: &Raw,
    format: &'static dyn Format,
    bots: &[Entrant],
    players: usize,
    (games_per_pairing, games_per_bot): (u32, u32),
) -> Result<()> {
    let whole = Some(0..0);
    let field = field(bots, players);
    let schedule = format.games_per_cycle(&field, games_per_pairing, games_per_bot);
    if schedule > bounds::SCHEDULE {
        let per = match format.takes_games_per_bot() {
            true => format!("{games_per_bot} per bot"),
            false => format!("{games_per_pairing} per pairing"),
        };
        return Err(src.at(
            raw.games_per_pairing
                .as_ref()
                .or(raw.games_per_bot.as_ref())
                .map(|g| g.span())
                .or(whole),
            format!(
                "this schedule has {schedule} games ({} bots, {} format, {per}); at most {} \
                 are played in one run: {}",
                bots.len(),
                format.name(),
                bounds::SCHEDULE,
                format.fewer_games(players)
            ),
        ));
    }
    let shape = Shape {
        format,
        players,
        games_per_pairing,
        games_per_bot,
        seed: raw.seed.unwrap_or(DEFAULT_SEED),
    };
    shape.check(field.bots, field.seeds).map_err(|e| {
        let at = raw.games_per_bot.as_ref().map(|g| g.span());
        src.at(at.or(raw.format.as_ref().map(|f| f.span())), e)
    })
}

/// How many play each game: the game's number; for a game that takes several, the spec's
/// `players`, for a referee program's `[referee] players` (2 unless said).
pub(super) fn players_of(src: &Source, raw: &Raw, game: &'static GameInfo) -> Result<usize> {
    let from_referee = raw
        .referee
        .as_ref()
        .and_then(|r| r.get_ref().players.as_ref());
    let given = match (&raw.players, from_referee) {
        (Some(p), Some(_)) => {
            return Err(src.at(
                Some(p.span()),
                "players is said in [referee]: leave it out here",
            ));
        }
        (Some(p), None) | (None, Some(p)) => Some(p),
        (None, None) => None,
    };
    let (low, high) = (*game.players.start(), *game.players.end());
    let Some(p) = given else {
        if low == high || raw.referee.is_some() {
            return Ok(low);
        }
        return Err(src.at(
            Some(0..0),
            format!(
                "{} is played by {}: say how many play each game with players = N",
                game.name,
                game.players_text()
            ),
        ));
    };
    let n = *p.get_ref();
    if n < low as i64 || n > high as i64 {
        let what = if raw.referee.is_some() {
            "a referee program's game"
        } else {
            game.name
        };
        return Err(src.at(
            Some(p.span()),
            format!("players = {n}: {what} is played by {}", game.players_text()),
        ));
    }
    Ok(n as usize)
}

/// Pods: `games_per_bot`, which the format needs and no other takes.
pub(super) fn games_per_bot_of(src: &Source, raw: &Raw, format: &dyn Format) -> Result<u32> {
    match (&raw.games_per_bot, format.takes_games_per_bot()) {
        (None, true) => Err(src.at(
            raw.format.as_ref().map(|f| f.span()),
            format!(
                "format = \"{}\" needs games_per_bot: how many games each bot plays",
                format.name()
            ),
        )),
        (None, false) => Ok(0),
        (Some(g), true) => {
            let n = *g.get_ref();
            if !(1..=bounds::GAMES_PER_PAIRING).contains(&n) {
                return Err(src.at(
                    Some(g.span()),
                    format!(
                        "games_per_bot must be from 1 to {}",
                        bounds::GAMES_PER_PAIRING
                    ),
                ));
            }
            Ok(n)
        }
        (Some(g), false) => {
            let only = formats_taking(|f| f.takes_games_per_bot());
            Err(src.at(
                Some(g.span()),
                format!("games_per_bot is for {only} only (the others: games_per_pairing)"),
            ))
        }
    }
}
