//! The rules test suite: start cells, turn order, every way out, ribbons disappearing, places,
//! the wire forms, and perft checked against a brute force that shares no code with the rules.

use std::collections::HashSet;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::bots;
use super::rules::Dir::*;
use super::rules::*;

fn at(x: u8, y: u8) -> Cell {
    Cell::new(x, y).unwrap()
}

fn game(starts: &[(u8, u8)]) -> Tron {
    let starts: Vec<Cell> = starts.iter().map(|&(x, y)| at(x, y)).collect();
    Tron::from_starts(&starts).unwrap()
}

fn head(game: &Tron, player: usize) -> Cell {
    game.ends(player).expect("in").1
}

#[test]
fn start_cells_are_distinct_apart_and_drawn_from_the_seed() {
    let mut seen = HashSet::new();
    for seed in 0..300 {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            let game = Tron::new(n, seed).unwrap();
            assert_eq!(game, Tron::new(n, seed).unwrap(), "seed {seed}");
            let starts: Vec<Cell> = (0..n).map(|p| game.ends(p).unwrap().0).collect();
            for (i, a) in starts.iter().enumerate() {
                assert_eq!(game.ends(i), Some((*a, *a)), "the head starts on the tail");
                for b in &starts[i + 1..] {
                    assert!(a.distance(*b) >= MIN_APART, "seed {seed}: {a:?} {b:?}");
                }
            }
            seen.insert(starts);
        }
    }
    assert!(seen.len() > 890, "only {} different starts", seen.len());
    // The drawing is part of what a log replays: it must not change.
    let starts: Vec<Cell> = (0..4).map(|p| head(&Tron::new(4, 0).unwrap(), p)).collect();
    assert_eq!(starts, [at(19, 14), at(21, 9), at(15, 13), at(16, 1)]);
}

#[test]
fn two_to_four_players_on_distinct_cells() {
    for n in [0, 1, 5, 8] {
        assert_eq!(
            Tron::new(n, 1).unwrap_err(),
            format!("Tron takes 2 to 4 players, not {n}")
        );
    }
    let same = Tron::from_starts(&[at(1, 1), at(2, 2), at(1, 1)]).unwrap_err();
    assert_eq!(same, "players 0 and 2 start on the same cell");
    let off = Tron::from_starts(&[at(1, 1), Cell { x: 30, y: 0 }]).unwrap_err();
    assert_eq!(off, "player 1 starts off the grid at 30 0");
    assert_eq!(Cell::new(29, 19), Some(Cell { x: 29, y: 19 }));
    assert_eq!(Cell::new(29, 20), None);
}

#[test]
fn players_move_in_index_order_and_see_the_moves_before_theirs() {
    let mut g = game(&[(5, 5), (10, 10), (20, 3)]);
    assert_eq!((g.to_move(), g.turn()), (Some(0), 1));
    assert_eq!(
        g.turn_input(0),
        ["3 0", "5 5 5 5", "10 10 10 10", "20 3 20 3"]
    );
    g.play(Right);
    assert_eq!((g.to_move(), g.turn()), (Some(1), 1));
    // Player 1 sees player 0's move of this turn; player 2 has not moved yet.
    assert_eq!(
        g.turn_input(1),
        ["3 1", "5 5 6 5", "10 10 10 10", "20 3 20 3"]
    );
    g.play(Up);
    assert_eq!(
        g.turn_input(2),
        ["3 2", "5 5 6 5", "10 10 10 9", "20 3 20 3"]
    );
    g.play(Down);
    assert_eq!((g.to_move(), g.turn(), g.moves()), (Some(0), 2, 3));
    assert_eq!(
        g.turn_input(0),
        ["3 0", "5 5 6 5", "10 10 10 9", "20 3 20 4"]
    );
    // Up is y - 1, down y + 1, left x - 1, right x + 1.
    for (dir, to) in [
        (Up, at(6, 4)),
        (Down, at(6, 6)),
        (Left, at(5, 5)),
        (Right, at(7, 5)),
    ] {
        let effect = g.effect(0, dir);
        if dir == Left {
            assert_eq!(effect, Effect::HitRibbon { at: to, owner: 0 });
        } else {
            assert_eq!(effect, Effect::Moved(to), "{dir:?}");
        }
    }
}

#[test]
fn a_cycle_leaving_the_grid_is_out_on_every_side() {
    for (start, dir) in [
        ((4, 0), Up),
        ((4, 19), Down),
        ((0, 7), Left),
        ((29, 7), Right),
    ] {
        let mut g = game(&[start, (15, 10), (20, 15)]);
        let played = g.play(dir).unwrap();
        assert_eq!(played.effect, Effect::LeftGrid);
        assert!(played.is_out());
        assert_eq!(
            g.gone(0),
            Some(Gone {
                turn: 1,
                why: Why::LeftGrid
            })
        );
        assert_eq!(g.ends(0), None);
        assert_eq!(
            g.owner(at(start.0, start.1)),
            None,
            "its start cell is free again"
        );
        assert_eq!(g.to_move(), Some(1));
    }
}

#[test]
fn a_cycle_entering_its_own_ribbon_is_out() {
    let mut g = game(&[(5, 5), (20, 10)]);
    g.play(Right);
    g.play(Up);
    let played = g.play(Left).unwrap();
    assert_eq!(played.from, at(6, 5));
    assert_eq!(
        played.effect,
        Effect::HitRibbon {
            at: at(5, 5),
            owner: 0
        }
    );
    assert_eq!(
        g.gone(0),
        Some(Gone {
            turn: 2,
            why: Why::HitRibbon { owner: 0 }
        })
    );
    assert!(g.is_over());
    assert_eq!(g.to_move(), None);
    assert_eq!(g.places(), [2, 1]);
    assert_eq!(g.play(Up), None, "no move once the game is over");
}

#[test]
fn a_cycle_entering_another_ribbon_or_a_head_moved_this_turn_is_out() {
    // Player 2 runs into player 0's tail.
    let mut g = game(&[(5, 5), (20, 10), (5, 7)]);
    g.play(Right);
    g.play(Down);
    assert_eq!(g.play(Up).unwrap().effect, Effect::Moved(at(5, 6)));
    g.play(Right);
    g.play(Down);
    let hit = g.play(Up).unwrap();
    assert_eq!(
        hit.effect,
        Effect::HitRibbon {
            at: at(5, 5),
            owner: 0
        }
    );
    assert_eq!(
        g.gone(2),
        Some(Gone {
            turn: 2,
            why: Why::HitRibbon { owner: 0 }
        })
    );
    // Head-on: player 1 enters the cell player 0 entered earlier in the same turn.
    let mut g = game(&[(5, 5), (7, 5), (20, 10)]);
    g.play(Right);
    let hit = g.play(Left).unwrap();
    assert_eq!(
        hit.effect,
        Effect::HitRibbon {
            at: at(6, 5),
            owner: 0
        }
    );
    assert_eq!(
        g.ends(0),
        Some((at(5, 5), at(6, 5))),
        "player 0 is still there"
    );
    assert_eq!(g.to_move(), Some(2));
}

#[test]
fn a_ribbon_that_disappears_frees_its_cells_for_the_others() {
    let mut g = game(&[(5, 5), (7, 5), (20, 10)]);
    g.play(Right); // 0 to (6, 5)
    g.play(Down); // 1 to (7, 6)
    g.play(Up); // 2 to (20, 9)
    g.play(Up); // 0 to (6, 4)
    g.play(Left); // 1 into (6, 6)
    g.play(Up); // 2
    let before: Vec<Cell> = [(5, 5), (6, 5), (6, 4)].map(|(x, y)| at(x, y)).to_vec();
    assert!(before.iter().all(|&c| g.owner(c) == Some(0)));
    g.play(Down); // 0 into its own ribbon at (6, 5): out
    assert!(before.iter().all(|&c| g.owner(c).is_none()));
    assert_eq!(g.turn_input(1)[1], "-1 -1 -1 -1");
    // Player 1 goes up through where the ribbon was.
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(g.play(Up).unwrap().effect, Effect::Moved(at(6, 5)));
    g.play(Up);
    assert_eq!(g.play(Up).unwrap().effect, Effect::Moved(at(6, 4)));
}

#[test]
fn players_out_are_skipped_and_the_referee_eliminates_any_player() {
    let mut g = game(&[(2, 2), (8, 8), (14, 14), (20, 2)]);
    g.play(Up);
    // Player 2 crashes while player 1 is to move: the move stays with player 1.
    assert!(g.eliminate(2));
    assert!(!g.eliminate(2), "once out, nothing more happens");
    assert_eq!(
        g.gone(2),
        Some(Gone {
            turn: 1,
            why: Why::Failed
        })
    );
    assert_eq!(g.owner(at(14, 14)), None);
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(g.last(), None);
    // Player 1 fails its own move: the move passes to player 3, then round to player 0.
    assert!(g.eliminate(1));
    assert_eq!((g.to_move(), g.turn()), (Some(3), 1));
    g.play(Down);
    assert_eq!((g.to_move(), g.turn()), (Some(0), 2));
    assert_eq!(
        g.turn_input(0),
        ["4 0", "2 2 2 1", "-1 -1 -1 -1", "-1 -1 -1 -1", "20 2 20 3"]
    );
    assert!(!g.is_over());
    assert!(g.eliminate(0));
    assert!(g.is_over());
    assert_eq!(g.to_move(), None);
    assert_eq!(g.places(), [2, 3, 3, 1]);
}

#[test]
fn places_share_ties_competition_style() {
    let mut g = game(&[(0, 0), (29, 0), (0, 19), (29, 19)]);
    assert_eq!(
        g.places(),
        [1, 1, 1, 1],
        "everyone in shares the first place"
    );
    g.play(Up); // 0 out in turn 1
    g.play(Up); // 1 out in turn 1
    assert_eq!(g.places(), [3, 3, 1, 1]);
    g.play(Up); // 2 to (0, 18)
    g.play(Up); // 3 to (29, 18)
    g.play(Right); // 2
    g.play(Right); // 3 out in turn 2: 2 wins
    assert!(g.is_over());
    assert_eq!(g.places(), [3, 3, 1, 2]);
    // The last two out in the same turn tie for first.
    let mut g = game(&[(0, 0), (29, 0)]);
    g.play(Left);
    assert_eq!(g.places(), [2, 1]);
    g.eliminate(1);
    assert_eq!(g.places(), [1, 1]);
    // Three players, two out in the same turn: the third wins, the two share second place.
    let mut g = game(&[(0, 0), (29, 0), (15, 10)]);
    g.play(Up);
    g.play(Up);
    assert!(g.is_over());
    assert_eq!(g.places(), [2, 2, 1]);
}

#[test]
fn answers_are_the_four_words_in_capitals_alone() {
    for (line, dir) in [
        ("UP", Up),
        ("DOWN", Down),
        (" LEFT\t", Left),
        ("RIGHT\r", Right),
    ] {
        assert_eq!(parse_answer(line), Ok(dir), "{line:?}");
    }
    let expected = "where UP, DOWN, LEFT or RIGHT was expected";
    for (line, why) in [
        ("", "sent an empty line".to_string()),
        ("  ", "sent an empty line".to_string()),
        (
            "up",
            format!("sent 'up' {expected}: directions are written in capitals"),
        ),
        (
            "Left",
            format!("sent 'Left' {expected}: directions are written in capitals"),
        ),
        (
            "UP 1",
            format!("sent 'UP 1' {expected}: nothing may follow the direction on its line"),
        ),
        ("UPWARDS", format!("sent 'UPWARDS' {expected}")),
        ("U", format!("sent 'U' {expected}")),
        ("-1 -1", format!("sent '-1 -1' {expected}")),
    ] {
        assert!(
            parse_answer(line).unwrap_err().starts_with(&why),
            "{line:?}"
        );
    }
    for dir in Dir::ALL {
        assert_eq!(parse_answer(dir.word()), Ok(dir));
    }
}

#[test]
fn spectators_get_the_starts_each_move_and_the_places() {
    let mut g = game(&[(0, 0), (29, 0), (3, 9)]);
    assert_eq!(g.spectator_start(), ["3", "0 0", "29 0", "3 9"]);
    assert_eq!(g.play(Down).unwrap().spectator_line(), "0 DOWN");
    assert_eq!(g.play(Right).unwrap().spectator_line(), "1 RIGHT out");
    assert_eq!(spectator_failed(2), "2 out");
    g.eliminate(2);
    assert_eq!(g.spectator_end(), "places 1 2 2");
}

#[test]
fn games_end_within_the_bound() {
    assert_eq!(move_bound(2), 599);
    assert_eq!(move_bound(4), 2400);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for seed in 0..60 {
        let n = 2 + seed as usize % 3;
        let mut g = Tron::new(n, seed).unwrap();
        while let Some(p) = g.to_move() {
            let bot = if p == 0 { "fill" } else { "random" };
            g.play(bots::choose(bot, &g, &mut rng));
            assert!(g.moves() <= move_bound(n), "seed {seed}");
        }
        assert_eq!(g.players_in(), 1);
    }
    // Two cycles filling the grid as long as it lasts: 598 free cells, then one move out.
    let mut g = game(&[(0, 0), (0, 1)]);
    while g.to_move().is_some() {
        let dir = g.safe_moves().first().copied().unwrap_or(Up);
        g.play(dir);
    }
    assert!(g.moves() <= move_bound(2));
}

/// The rules again, as plainly as possible and sharing nothing with them: each player's
/// ribbon as a list of cells, `None` once out.
#[derive(Clone)]
struct Sim {
    ribbons: Vec<Option<Vec<(i32, i32)>>>,
    next: usize,
}

/// Up, down, left, right: the order of `Dir::ALL`, so that "the forced move is the first".
const STEPS: [(i32, i32); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

impl Sim {
    fn new(game: &Tron) -> Sim {
        let ribbons = (0..game.players())
            .map(|p| {
                let (tail, _) = game.ends(p).unwrap();
                Some(vec![(tail.x as i32, tail.y as i32)])
            })
            .collect();
        Sim { ribbons, next: 0 }
    }

    fn alive(&self) -> usize {
        self.ribbons.iter().flatten().count()
    }

    /// Whether the player to move stays in going `step`.
    fn keeps_in(&self, step: (i32, i32)) -> bool {
        let &(x, y) = self.ribbons[self.next].as_ref().unwrap().last().unwrap();
        let to = (x + step.0, y + step.1);
        (0..30).contains(&to.0)
            && (0..20).contains(&to.1)
            && !self.ribbons.iter().flatten().any(|r| r.contains(&to))
    }

    fn play(&mut self, step: (i32, i32)) {
        let p = self.next;
        if self.keeps_in(step) {
            let ribbon = self.ribbons[p].as_mut().unwrap();
            let &(x, y) = ribbon.last().unwrap();
            ribbon.push((x + step.0, y + step.1));
        } else {
            self.ribbons[p] = None;
        }
        let n = self.ribbons.len();
        self.next = (1..=n)
            .map(|i| (p + i) % n)
            .find(|&q| self.ribbons[q].is_some())
            .unwrap();
    }
}

/// Perft by brute force: every sequence of `depth` directions, replayed, counted when each
/// move kept its player in, or was the first direction for a player with no such move.
/// Also how many sequences met a forced move and how many met the game's end.
fn brute_perft(start: &Sim, depth: u32) -> (u64, u64, u64) {
    let (mut count, mut forced, mut ended) = (0, 0, 0);
    'sequences: for code in 0..4u64.pow(depth) {
        let mut sim = start.clone();
        let mut met_forced = false;
        for k in 0..depth {
            if sim.alive() < 2 {
                ended += 1;
                continue 'sequences;
            }
            let i = (code / 4u64.pow(k) % 4) as usize;
            let any = STEPS.iter().any(|&s| sim.keeps_in(s));
            if (any && !sim.keeps_in(STEPS[i])) || (!any && i != 0) {
                continue 'sequences;
            }
            met_forced |= !any;
            sim.play(STEPS[i]);
        }
        count += 1;
        forced += met_forced as u64;
    }
    (count, forced, ended)
}

#[test]
fn perft_from_a_seeded_start_matches_the_brute_force() {
    // Player 0 starts on the top edge, player 1 on the right one.
    let g = Tron::new(3, 12).unwrap();
    let starts: Vec<Cell> = (0..3).map(|p| head(&g, p)).collect();
    assert_eq!(starts, [at(1, 0), at(29, 15), at(18, 13)]);
    let sim = Sim::new(&g);
    let counts: Vec<u64> = (1..=6).map(|d| g.perft(d)).collect();
    for (d, &n) in (1..=6).zip(&counts) {
        assert_eq!(n, brute_perft(&sim, d).0, "depth {d}");
    }
    assert_eq!(counts, [3, 9, 36, 72, 168, 504]);
}

#[test]
fn perft_in_a_crowd_with_forced_moves_and_ends_matches_the_brute_force() {
    // Three cycles in a corner: player 0 has no move at all, and the others soon block each
    // other, so that games end within a few moves.
    let g = game(&[(0, 0), (1, 0), (0, 1)]);
    let sim = Sim::new(&g);
    let (mut forced, mut ended) = (0, 0);
    for d in 1..=7 {
        let (n, f, e) = brute_perft(&sim, d);
        assert_eq!(g.perft(d), n, "depth {d}");
        forced += f;
        ended += e;
    }
    assert!(forced > 0 && ended > 0, "forced {forced}, ended {ended}");
    assert_eq!(
        (1..=4).map(|d| g.perft(d)).collect::<Vec<_>>(),
        [1, 3, 7, 12]
    );
}

/// The example in `arena games tron` is what the players get, move after move.
#[test]
fn the_description_shows_what_players_get() {
    let blocks: Vec<&str> = super::DESCRIPTION.split("```").skip(1).step_by(2).collect();
    assert_eq!(blocks.len(), 4);
    let mut g = game(&[(1, 0), (29, 15), (18, 13)]);
    let mut spectators = g.spectator_start();
    for block in blocks {
        let (input, answer): (Vec<&str>, Vec<&str>) =
            block.trim().lines().partition(|l| !l.starts_with('>'));
        let p = g.to_move().unwrap();
        assert_eq!(g.turn_input(p), input, "{block}");
        let dir = parse_answer(&answer.concat()[1..]).unwrap();
        spectators.push(g.play(dir).unwrap().spectator_line());
    }
    let listed = format!("`{}`", spectators.join("`, `"));
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words(super::DESCRIPTION).contains(&words(&listed)),
        "{listed}"
    );
}
