//! Open files. arena holds about ten descriptors for each process of a running game (its three
//! pipes, its pidfd, its cgroup's folder and four of its files), so the games it can run at once
//! are bounded by its limit on open files (`ulimit -n`), 1,024 by default on many systems: past
//! it, a game could not be set up ("Too many open files"). So arena raises its own soft limit to
//! the hard one as it starts, gives its bots the limit it was started with (a program may assume
//! it, and some close every descriptor up to it), and plays no more games at once than its limit
//! holds, saying so.

use std::sync::OnceLock;

use nix::sys::resource::{Resource, getrlimit, setrlimit};

/// The soft limit arena was started with, kept when it raised its own: what its bots get.
static STARTED_WITH: OnceLock<u64> = OnceLock::new();

/// Descriptors arena holds for each process of a game, at most: measured 9, and 10.5 with the
/// sandbox's.
const PER_PROCESS: usize = 11;
/// For each seat of an SDK referee's game besides: its relay's two pipes, the socket listened on
/// and the one accepted.
const PER_SDK_SEAT: usize = 4;
/// For each game besides: its log, and one to spare.
const PER_GAME: usize = 2;
/// What arena holds besides its games (measured 18): its runtimes, the results' files, the
/// report's, the janitor's; with room to spare.
const OWN: usize = 128;

/// Raise this process's soft limit on open files to its hard one (bounded by what Linux takes
/// by default, 2^20, for a hard limit of "unlimited"). Called once, before any thread starts.
pub fn raise_limit() {
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return;
    };
    let target = hard.min(1 << 20);
    if soft < target && setrlimit(Resource::RLIMIT_NOFILE, target, hard).is_ok() {
        let _ = STARTED_WITH.set(soft);
    }
}

/// The limit on open files to give a bot that has none of its own, (soft, hard): the one arena
/// was started with, if arena raised its own.
pub fn for_bots() -> Option<(u64, u64)> {
    let soft = *STARTED_WITH.get()?;
    let (_, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
    Some((soft, hard))
}

/// What a game holds open: `players` bots, a referee program if `referee`, its seats' relays if
/// that referee is an SDK one.
pub fn per_game(players: usize, referee: bool, sdk: bool) -> usize {
    let processes = players + usize::from(referee);
    processes * PER_PROCESS + usize::from(sdk) * players * PER_SDK_SEAT + PER_GAME
}

/// The games to run at once: `jobs`, or as many as this process's limit on open files holds if
/// that is fewer, with the words that say why; an error if it holds not even one (every game
/// would fail to set up).
pub fn games_at_once(jobs: usize, per_game: usize) -> Result<(usize, Option<String>), String> {
    let Ok((limit, _)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return Ok((jobs, None));
    };
    let fit = fitting(limit, per_game);
    if fit == 0 {
        return Err(format!(
            "a game needs about {} open files, and this process may open {limit} (its hard \
             limit, `ulimit -Hn`): raise it",
            OWN + per_game
        ));
    }
    if jobs <= fit {
        return Ok((jobs, None));
    }
    let need = OWN + jobs * per_game;
    let why = format!(
        "{jobs} games at once would hold about {need} open files, and this process may open \
         {limit} (its hard limit, `ulimit -Hn`): playing {fit} at a time"
    );
    Ok((fit, Some(why)))
}

/// `games_at_once`, its cut said on stderr after `option` (how the user gave the number).
pub fn cap_jobs(jobs: usize, per_game: usize, option: &str) -> Result<usize, String> {
    let (jobs, cut) = games_at_once(jobs, per_game)?;
    if let Some(why) = cut {
        crate::out::warn(&format!("arena: {option}: {why}"));
    }
    Ok(jobs)
}

/// How many games of `per_game` descriptors fit in a limit of `limit`.
fn fitting(limit: u64, per_game: usize) -> usize {
    let room = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .saturating_sub(OWN);
    room / per_game.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_holds_about_ten_descriptors_a_process_and_an_sdk_game_its_relays_too() {
        // As measured (docs/design.md, Open files): 19 for a duel, 36 for an SDK duel.
        assert_eq!(per_game(2, false, false), 24);
        assert_eq!(per_game(2, true, false), 35);
        assert_eq!(per_game(2, true, true), 43);
        assert_eq!(per_game(4, true, true), 73);
    }

    #[test]
    fn the_games_at_once_fit_the_limit() {
        assert_eq!(fitting(1024, 24), (1024 - OWN) / 24);
        assert_eq!(fitting(20_000, 43), 462);
        assert_eq!(fitting(OWN as u64 + 23, 24), 0);
        assert_eq!(fitting(64, 24), 0);
        assert_eq!(fitting(u64::MAX, 24), (usize::MAX - OWN) / 24);
    }

    #[test]
    fn jobs_within_the_limit_are_kept_and_more_are_cut_with_a_reason() {
        let (limit, _) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
        let fit = fitting(limit, 24);
        assert_eq!(games_at_once(1, 24), Ok((1, None)));
        let (n, why) = games_at_once(fit + 1, 24).unwrap();
        assert_eq!(n, fit);
        let why = why.unwrap();
        assert!(why.contains(&format!("playing {fit} at a time")), "{why}");
        assert!(why.contains(&format!("may open {limit}")), "{why}");
    }
}
