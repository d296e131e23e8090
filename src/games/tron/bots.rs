//! Built-in Tron bots: pure functions of the game as it stands, playing for the player to move.

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::rules::{CELLS, Cell, Dir, Tron};

pub const BUILTINS: &[(&str, &str)] = &[
    (
        "random",
        "a random move among those that keep it in (any move when none does)",
    ),
    (
        "fill",
        "claims space: takes the move after which it reaches the most free cells before any \
         other cycle can (the cells split by who gets there first, in turn order), shunning a \
         cell whose one way out another cycle can take first; once walled off alone, it fills \
         its area along the walls",
    ),
];

/// The move the built-in bot `name` makes for the player to move (`random` for a name it does
/// not know: the referee only asks for names in [`BUILTINS`]).
pub fn choose(name: &str, game: &Tron, rng: &mut ChaCha8Rng) -> Dir {
    match name {
        "fill" => fill(game, rng),
        _ => random(game, rng),
    }
}

pub fn random(game: &Tron, rng: &mut ChaCha8Rng) -> Dir {
    let safe = game.safe_moves();
    match safe.choose(rng) {
        Some(&dir) => dir,
        None => *Dir::ALL.choose(rng).expect("four directions"),
    }
}

/// The `fill` bot: the best-scored move that keeps it in, ties broken at random.
pub fn fill(game: &Tron, rng: &mut ChaCha8Rng) -> Dir {
    let Some(me) = game.to_move() else {
        return Dir::Up;
    };
    let scored: Vec<(i64, Dir)> = game
        .safe_moves()
        .into_iter()
        .map(|d| (score(game, me, d), d))
        .collect();
    let Some(best) = scored.iter().map(|s| s.0).max() else {
        return random(game, rng);
    };
    let ties: Vec<Dir> = scored
        .into_iter()
        .filter(|s| s.0 == best)
        .map(|s| s.1)
        .collect();
    *ties.choose(rng).expect("the best move is among them")
}

/// Below any move that lets the cycle live on.
const DOOMED: i64 = -(CELLS as i64) * 64;

/// How good moving `me` in `dir` (a move that keeps it in) looks: the cells it gets minus
/// the others' average, from the split of the free cells after the move. Walled off alone,
/// the cells it gets are the cells it can fill, and of equal moves the one with fewer ways on
/// keeps it along the walls, wasting no room behind it.
fn score(game: &Tron, me: usize, dir: Dir) -> i64 {
    let mut next = game.clone();
    next.play(dir);
    let head = next.ends(me).expect("the move kept it in").1;
    let exits: Vec<Cell> = free_neighbours(&next, head).collect();
    if exits.is_empty() {
        return DOOMED;
    }
    let split = Split::of(&next, me);
    let others = split.others / split.rivals.max(1);
    if split.alone {
        let room = exits.iter().map(|&e| room(&next, e)).max().unwrap_or(0);
        return 16 * (room - others) - exits.len() as i64;
    }
    let mut s = 16 * (split.mine - others);
    if exits.len() == 1 && can_be_taken(&next, me, exits[0]) {
        s += DOOMED / 2;
    }
    s
}

fn free_neighbours(game: &Tron, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
    cell.neighbours().filter(|&c| game.owner(c).is_none())
}

/// Whether another cycle's head is next to `cell`: it moves before `me` does again and may
/// take it.
fn can_be_taken(game: &Tron, me: usize, cell: Cell) -> bool {
    (0..game.players())
        .filter(|&p| p != me)
        .filter_map(|p| game.ends(p))
        .any(|(_, head)| head.distance(cell) == 1)
}

/// Moves from `from` to each free cell, through free cells (`u16::MAX`: out of reach).
fn distances(game: &Tron, from: Cell) -> Vec<u16> {
    let mut dist = vec![u16::MAX; CELLS];
    let mut queue = vec![from];
    let mut i = 0;
    while let Some(&c) = queue.get(i) {
        i += 1;
        let d = if c == from { 0 } else { dist[c.index()] };
        for n in free_neighbours(game, c) {
            if dist[n.index()] == u16::MAX {
                dist[n.index()] = d + 1;
                queue.push(n);
            }
        }
    }
    dist
}

/// The free cells split by who can get to each first, moving in turn order.
struct Split {
    mine: i64,
    /// The cells the others get, in all.
    others: i64,
    rivals: i64,
    /// No other cycle can reach any cell `me` can.
    alone: bool,
}

impl Split {
    /// After `me` has moved: the others move next, in turn order, then `me`. The player `k`th
    /// in that order (of `n` in) enters a cell `d` moves away at time `k + (d - 1) * n`, so
    /// the times of two players never tie.
    fn of(game: &Tron, me: usize) -> Split {
        let n = game.players();
        let first = game.to_move().unwrap_or(me);
        let order: Vec<usize> = (0..n)
            .map(|i| (first + i) % n)
            .filter(|&p| game.is_in(p))
            .collect();
        let k = order.len() as u32;
        let reach: Vec<(usize, Vec<u16>)> = order
            .iter()
            .map(|&p| (p, distances(game, game.ends(p).expect("in").1)))
            .collect();
        let mut split = Split {
            mine: 0,
            others: 0,
            rivals: k as i64 - 1,
            alone: true,
        };
        for cell in 0..CELLS {
            let times = reach.iter().enumerate().filter_map(|(rank, (p, dist))| {
                let d = dist[cell] as u32;
                (d != u16::MAX as u32).then_some((rank as u32 + (d - 1) * k, *p))
            });
            let (mut first, mut mine_too, mut others_too) = (None, false, false);
            for (time, p) in times {
                mine_too |= p == me;
                others_too |= p != me;
                if first.is_none_or(|(t, _)| time < t) {
                    first = Some((time, p));
                }
            }
            match first {
                Some((_, p)) if p == me => split.mine += 1,
                Some(_) => split.others += 1,
                None => {}
            }
            split.alone &= !(mine_too && others_too);
        }
        split
    }
}

/// The most cells a path from `start` (a free cell) can fill in its area: a path alternates
/// the two colours of a checkerboard, so it holds at most one more cell of `start`'s colour
/// than of the other.
fn room(game: &Tron, start: Cell) -> i64 {
    let dist = distances(game, start);
    let colour = |c: Cell| (c.x + c.y) % 2;
    let (mut same, mut other) = (1i64, 0i64);
    for (i, &d) in dist.iter().enumerate() {
        let c = Cell::from_index(i);
        if d != u16::MAX && c != start {
            if colour(c) == colour(start) {
                same += 1;
            } else {
                other += 1;
            }
        }
    }
    if same > other {
        2 * other + 1
    } else {
        2 * same
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Plays a game to its end: `fill` in seat `seat`, `random` in the others. The places.
    fn play_out(players: usize, seat: usize, seed: u64) -> Vec<u32> {
        let mut game = Tron::new(players, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(p) = game.to_move() {
            let bot = if p == seat { "fill" } else { "random" };
            let dir = choose(bot, &game, &mut rng);
            game.play(dir);
        }
        game.places()
    }

    #[test]
    fn fill_beats_random_with_two_three_and_four_players() {
        for players in 2..=4 {
            let games = 60;
            let wins = (0..games)
                .filter(|&g| {
                    let seat = g as usize % players;
                    let places = play_out(players, seat, g);
                    places[seat] == 1 && places.iter().filter(|&&p| p == 1).count() == 1
                })
                .count();
            assert!(
                wins >= games as usize * 9 / 10,
                "fill won {wins} of {games} games of {players} players"
            );
        }
    }

    #[test]
    fn random_keeps_in_while_it_can() {
        let mut game = Tron::new(2, 9).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        while let Some(p) = game.to_move() {
            let safe = game.safe_moves();
            let dir = random(&game, &mut rng);
            assert_eq!(safe.is_empty(), !safe.contains(&dir), "player {p}: {dir:?}");
            game.play(dir);
        }
        assert!(game.moves() > 2);
    }

    #[test]
    fn fill_keeps_out_of_a_dead_end() {
        // Player 1 walls off column 1 from the top to y = 5 while player 0 comes up column 0
        // to (0, 6): up is a strip of 6 cells, right the rest of the grid.
        let mut game =
            Tron::from_starts(&[Cell::new(0, 11).unwrap(), Cell::new(1, 0).unwrap()]).unwrap();
        for _ in 0..5 {
            game.play(Dir::Up);
            game.play(Dir::Down);
        }
        assert_eq!(game.ends(0).unwrap().1, Cell::new(0, 6).unwrap());
        assert_eq!(game.safe_moves(), [Dir::Up, Dir::Right]);
        for seed in 0..10 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            assert_ne!(fill(&game, &mut rng), Dir::Up);
        }
    }
}
