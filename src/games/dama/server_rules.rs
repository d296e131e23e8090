//! Code Colosseum's dama rules as its server applies them (`cocod`, `src/games/dama/logic.rs`:
//! `verifica_percorso_bianco` and `verifica_percorso_nero` check a move, `aggionra_damiera`
//! plays it, `partita_in_corso` and `mosse_possibili` end the game), for `rules=server`. Pure
//! rules, no I/O and no words: `server.rs` says a refusal as the server does.
//!
//! What the server takes: a man steps one square diagonally forward, a king one square any way,
//! to an empty square, as a move of two squares; or the piece jumps, once or more, each jump over
//! an enemy piece (a man: forward only, over men only; a king: any way, over men and kings) to an
//! empty square. Every jump is checked against the board as it was before the move: the starting
//! square counts as occupied and jumped pieces stay in place, so a king may jump back over a
//! piece it has just taken, but never land on its starting square. Nothing forces a capture, a
//! capture may stop after any jump, and no capture has precedence over another. A man is crowned
//! when its move ends on the last row (it cannot jump on from there). A side to move with no
//! pieces, or with none of the moves `mosse_possibili` looks for, has lost; that test never looks
//! at a king's step or jump down and to the left (towards row 8 and column A), so a side whose
//! only moves are those loses too. There are no draws.

use crate::games::Side;
use crate::games::draughts::{Cell, DARK, Grid, Move, col, row};

/// Diagonal directions as (row, column) steps.
const UP_LEFT: (i8, i8) = (-1, -1);
const UP_RIGHT: (i8, i8) = (-1, 1);
const DOWN_RIGHT: (i8, i8) = (1, 1);
const DOWN_LEFT: (i8, i8) = (1, -1);
const ALL: [(i8, i8); 4] = [UP_LEFT, UP_RIGHT, DOWN_RIGHT, DOWN_LEFT];
/// The directions `mosse_possibili` tries for a king: all but down-left.
const KING_SEEN: [(i8, i8); 3] = [UP_LEFT, UP_RIGHT, DOWN_RIGHT];

/// Why the server refuses a move, at the first step it finds wrong (the server's own test order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The first square does not hold one of the mover's pieces.
    NotYourPiece,
    /// The step from one square to the next (a one-square move, `Spostamento`) is wrong.
    Step { from: u8, to: u8, why: Why },
    /// The jump from one square to the next (`Cattura`) is wrong.
    Capture { from: u8, to: u8, why: Why },
}

/// What is wrong with a step or a jump.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The square it goes to was not empty before the move.
    Occupied,
    /// Not one column aside (a step), or no enemy piece it may take in between (a jump).
    NotDiagonal,
    /// The same row.
    SameRow,
    /// Any other row distance: for a man, also a step or a jump backwards, or a step inside a
    /// longer path.
    RowsTooFar { man: bool },
}

/// The square `(dr, dc)` steps times `n` from `at`, if on the board.
fn towards(at: u8, (dr, dc): (i8, i8), n: i8) -> Option<u8> {
    let r = row(at) as i8 + dr * n;
    let c = col(at) as i8 + dc * n;
    ((0..8).contains(&r) && (0..8).contains(&c)).then(|| (r * 8 + c) as u8)
}

/// The way `seat`'s men move: up the board (to row 1) for seat 0, down for seat 1.
fn forward(seat: Side) -> i8 {
    if seat == Side::First { -1 } else { 1 }
}

fn man_dirs(seat: Side) -> [(i8, i8); 2] {
    let f = forward(seat);
    [(f, -1), (f, 1)]
}

/// Whether `piece` of `seat` may take what stands on `over`: an enemy piece, a man only for a man.
fn takes(piece: Cell, seat: Side, victim: Cell) -> bool {
    victim.seat() == Some(seat.other()) && (piece.is_king() || victim.is_man())
}

/// Whether the server takes `path` (board indices, two or more) from `seat` on `grid`.
pub fn check(grid: &Grid, seat: Side, path: &[u8]) -> Result<(), Refusal> {
    let piece = grid.cell(path[0]);
    if piece.seat() != Some(seat) {
        return Err(Refusal::NotYourPiece);
    }
    let single = path.len() == 2;
    for pair in path.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let dr = row(to) as i8 - row(from) as i8;
        let dc = col(to) as i8 - col(from) as i8;
        let occupied = !grid.cell(to).is_empty();
        let blocked = if occupied {
            Why::Occupied
        } else {
            Why::NotDiagonal
        };
        let (is_step, is_jump) = if piece.is_king() {
            (dr.abs() == 1, dr.abs() == 2)
        } else {
            (dr == forward(seat), dr == 2 * forward(seat))
        };
        let wrong = if is_step && single {
            (dc.abs() != 1 || occupied).then_some(Refusal::Step {
                from,
                to,
                why: blocked,
            })
        } else if is_jump {
            // The square between, where the two squares are two columns apart too.
            let over = (dc.abs() == 2).then(|| towards(from, (dr / 2, dc / 2), 1));
            let taken = over
                .flatten()
                .is_some_and(|o| takes(piece, seat, grid.cell(o)));
            (!taken || occupied).then_some(Refusal::Capture {
                from,
                to,
                why: blocked,
            })
        } else {
            let why = if dr == 0 {
                Why::SameRow
            } else {
                Why::RowsTooFar {
                    man: piece.is_man(),
                }
            };
            Some(Refusal::Step { from, to, why })
        };
        if let Some(refusal) = wrong {
            return Err(refusal);
        }
    }
    Ok(())
}

/// Every move the server takes from `seat` on `grid` that takes each piece at most once: every
/// step, and every jump sequence, stopped after any of its jumps. (The server also takes a king
/// jumping back over a piece it has already taken, as often as the line goes on: [`check`] takes
/// those, this list leaves them out, so that it is finite.) Ordered by start square, steps first,
/// then jumps depth first in the direction order up-left, up-right, down-right, down-left.
pub fn moves(grid: &Grid, seat: Side) -> Vec<Move> {
    let mut out = Vec::new();
    for &from in &DARK {
        let piece = grid.cell(from);
        if piece.seat() != Some(seat) {
            continue;
        }
        for to in dirs(piece, seat)
            .iter()
            .filter_map(|&d| towards(from, d, 1))
        {
            if grid.cell(to).is_empty() {
                out.push(Move::new(vec![from, to]));
            }
        }
        let mut path = vec![from];
        jumps(grid, seat, piece, &mut path, 0, &mut out);
    }
    out
}

fn dirs(piece: Cell, seat: Side) -> Vec<(i8, i8)> {
    if piece.is_king() {
        ALL.to_vec()
    } else {
        man_dirs(seat).to_vec()
    }
}

/// The jump from `at` in direction `d` the server takes, as (square jumped, square landed on).
fn jump(grid: &Grid, seat: Side, piece: Cell, at: u8, d: (i8, i8)) -> Option<(u8, u8)> {
    let (over, to) = (towards(at, d, 1)?, towards(at, d, 2)?);
    (takes(piece, seat, grid.cell(over)) && grid.cell(to).is_empty()).then_some((over, to))
}

/// Extend `path` by every jump over a piece not in `taken` (a bit per board index), each
/// extension a move of its own.
fn jumps(
    grid: &Grid,
    seat: Side,
    piece: Cell,
    path: &mut Vec<u8>,
    taken: u64,
    out: &mut Vec<Move>,
) {
    let at = *path.last().expect("a path starts somewhere");
    for d in dirs(piece, seat) {
        let Some((over, to)) = jump(grid, seat, piece, at, d) else {
            continue;
        };
        if taken & (1 << over) != 0 {
            continue;
        }
        path.push(to);
        out.push(Move::new(path.clone()));
        jumps(grid, seat, piece, path, taken | (1 << over), out);
        path.pop();
    }
}

/// Whether the server ends the game before `seat` moves, `seat` having lost: no pieces, or none
/// of the moves `mosse_possibili` looks for (a man's step or jump forward, a king's step or jump
/// in any direction but down-left).
pub fn stuck(grid: &Grid, seat: Side) -> bool {
    let men = man_dirs(seat);
    !DARK.iter().any(|&at| {
        let piece = grid.cell(at);
        let seen: &[(i8, i8)] = match piece {
            Cell::King(s) if s == seat => &KING_SEEN,
            Cell::Man(s) if s == seat => &men,
            _ => &[],
        };
        seen.iter().any(|&d| {
            towards(at, d, 1).is_some_and(|to| grid.cell(to).is_empty())
                || jump(grid, seat, piece, at, d).is_some()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Outcome;
    use crate::games::dama::rules::tests::{
        reference_moves as fid_reference_moves, reference_perft, sorted_paths,
    };
    use crate::games::dama::rules::{Board, Rules, parse_move};
    use crate::games::position::{Position, perft, suite};
    use rand::seq::IndexedRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn server(fen: &str) -> Board {
        Board::from_fen(fen).unwrap().with_rules(Rules::Server)
    }

    fn legal(b: &Board, text: &str) -> bool {
        b.is_legal(&parse_move(text).unwrap())
    }

    #[test]
    fn no_capture_is_compulsory_and_a_capture_may_stop() {
        // White's man on 6C can take 5D and then 3F; a king's step and the single jump are
        // fine on the server, refused by FID.
        let fen = "W:W22,K29:B18,11,1";
        let b = server(fen);
        let fid = Board::from_fen(fen).unwrap();
        for (text, by_server, by_fid) in [
            ("8A 7B", true, false),
            ("6C 4E", true, false),
            ("6C 4E 2G", true, true),
            ("6C 5B", true, false),
        ] {
            assert_eq!(legal(&b, text), by_server, "server: {text}");
            assert_eq!(legal(&fid, text), by_fid, "fid: {text}");
        }
        assert!(b.legal_moves().contains(&parse_move("6C 4E").unwrap()));
    }

    #[test]
    fn a_king_may_jump_back_over_a_piece_it_has_taken() {
        // The king on 7B takes 6C, then 4E, then 4E again, landing where it was before.
        let mut b = server("W:WK25:B22,15");
        for text in ["7B 5D 3F 5D", "7B 5D 3F 5D 3F 5D"] {
            assert!(legal(&b, text), "{text}");
        }
        // Not on its starting square, which the server finds occupied.
        assert_eq!(
            check(b.grid(), Side::First, &[49, 35, 49]),
            Err(Refusal::Capture {
                from: 35,
                to: 49,
                why: Why::Occupied
            })
        );
        // The listed moves take each piece once.
        let mut listed: Vec<String> = b.legal_moves().iter().map(|m| b.move_text(m)).collect();
        listed.sort();
        assert_eq!(listed, ["7B 5D", "7B 5D 3F", "7B 6A", "7B 8A", "7B 8C"]);
        b.play(&parse_move("7B 5D 3F 5D").unwrap()).unwrap();
        assert_eq!(b.fen(), "B:WK18:B");
        assert_eq!(b.outcome(), Some(Outcome::win(Side::First)));
    }

    #[test]
    fn men_take_men_only_and_stop_on_the_last_row() {
        // The man on 3B takes 2C and lands on 1D, crowned; it may not jump on as a king.
        let b = server("W:W9:B6,7");
        assert!(legal(&b, "3B 1D"));
        assert!(!legal(&b, "3B 1D 3F"));
        let b = server("W:W22:BK18");
        assert!(!legal(&b, "6C 4E"), "a man cannot take a king");
        assert!(server("W:WK22:BK18").is_legal(&parse_move("6C 4E").unwrap()));
    }

    #[test]
    fn the_servers_test_for_a_side_that_cannot_move() {
        // White's king on 1B can only step down-left, to 2A: the server's test never looks
        // there, so white has lost; by FID it moves on.
        let b = server("W:WK1:B6,10");
        assert_eq!(b.outcome(), Some(Outcome::win(Side::Second)));
        assert!(b.legal_moves().is_empty());
        assert!(!legal(&b, "1B 2A"));
        let fid = Board::from_fen("W:WK1:B6,10").unwrap();
        assert_eq!(fid.outcome(), None);
        // Down-right is seen.
        assert_eq!(server("W:WK1:B5,15").outcome(), None);
    }

    #[test]
    fn no_draw_by_repetition() {
        let mut b = server("W:WK18:BK7");
        let shuttle = ["5D 4E", "2E 1F", "4E 5D", "1F 2E"].map(|t| parse_move(t).unwrap());
        for ply in 0..12 {
            assert_eq!(b.outcome(), None, "ply {ply}");
            b.play(&shuttle[ply % 4]).unwrap();
        }
    }

    #[test]
    fn random_playouts() {
        suite::check(&Board::start().with_rules(Rules::Server), 200, 400);
    }

    /// The server's rules read again from `logic.rs`, deliberately naive and sharing no code with
    /// the module: char grids, (row, column) pairs, and every square near the last one tried.
    mod reference {
        pub type Grid = [[u8; 8]; 8];
        pub type Path = Vec<(i32, i32)>;

        fn owner(cell: u8) -> Option<bool> {
            match cell {
                b'b' | b'B' => Some(true),
                b'n' | b'N' => Some(false),
                _ => None,
            }
        }

        /// `verifica_percorso_*`: every pair of squares checked on the board before the move.
        pub fn accepts(g: &Grid, white: bool, path: &[(i32, i32)]) -> bool {
            let (r0, c0) = path[0];
            let piece = g[r0 as usize][c0 as usize];
            if owner(piece) != Some(white) {
                return false;
            }
            let king = piece.is_ascii_uppercase();
            let ahead = if white { -1 } else { 1 };
            path.windows(2).all(|w| {
                let ((r, c), (tr, tc)) = (w[0], w[1]);
                let (dr, dc) = (tr - r, tc - c);
                let rows_ok = |n: i32| if king { dr.abs() == n } else { dr == n * ahead };
                let free = g[tr as usize][tc as usize] == b'.';
                let step = path.len() == 2 && rows_ok(1) && dc.abs() == 1;
                let jump = rows_ok(2) && dc.abs() == 2 && {
                    let v = g[(r + dr / 2) as usize][(c + dc / 2) as usize];
                    owner(v) == Some(!white) && (king || v.is_ascii_lowercase())
                };
                free && (step || jump)
            })
        }

        fn taken(path: &[(i32, i32)]) -> Vec<(i32, i32)> {
            path.windows(2)
                .filter(|w| (w[1].0 - w[0].0).abs() == 2)
                .map(|w| ((w[0].0 + w[1].0) / 2, (w[0].1 + w[1].1) / 2))
                .collect()
        }

        fn grow(g: &Grid, white: bool, path: &mut Path, out: &mut Vec<Path>) {
            let (r, c) = *path.last().unwrap();
            for tr in (r - 2).max(0)..=(r + 2).min(7) {
                for tc in (c - 2).max(0)..=(c + 2).min(7) {
                    path.push((tr, tc));
                    let victims = taken(path);
                    let once = (0..victims.len()).all(|i| !victims[..i].contains(&victims[i]));
                    if once && accepts(g, white, path) {
                        out.push(path.clone());
                        grow(g, white, path, out);
                    }
                    path.pop();
                }
            }
        }

        /// Every accepted path that takes each piece at most once.
        pub fn moves(g: &Grid, white: bool) -> Vec<Path> {
            let mut out = Vec::new();
            for r in 0..8 {
                for c in 0..8 {
                    if owner(g[r as usize][c as usize]) == Some(white) {
                        grow(g, white, &mut vec![(r, c)], &mut out);
                    }
                }
            }
            out
        }

        /// `mosse_possibili` looks at the first step of every move but a king's down-left one.
        pub fn stuck(g: &Grid, white: bool) -> bool {
            moves(g, white).iter().all(|p| {
                let king = g[p[0].0 as usize][p[0].1 as usize].is_ascii_uppercase();
                king && p[1].0 > p[0].0 && p[1].1 < p[0].1
            })
        }
    }

    fn char_grid(b: &Board) -> reference::Grid {
        let mut g = [[b'.'; 8]; 8];
        for i in 0..64u8 {
            g[row(i) as usize][col(i) as usize] = match b.cell(i) {
                Cell::Man(Side::First) => b'b',
                Cell::King(Side::First) => b'B',
                Cell::Man(Side::Second) => b'n',
                Cell::King(Side::Second) => b'N',
                Cell::Empty => b'.',
            };
        }
        g
    }

    fn indices(path: &[(i32, i32)]) -> Vec<u8> {
        path.iter().map(|&(r, c)| (r * 8 + c) as u8).collect()
    }

    /// The reference's moves where the game goes on (none once the side to move is stuck).
    fn reference_moves(b: &Board) -> Vec<Vec<u8>> {
        let (g, white) = (char_grid(b), b.to_move() == Side::First);
        if reference::stuck(&g, white) {
            return Vec::new();
        }
        let mut m: Vec<Vec<u8>> = reference::moves(&g, white)
            .iter()
            .map(|p| indices(p))
            .collect();
        m.sort();
        m
    }

    #[test]
    fn perft_from_start() {
        let b = Board::start().with_rules(Rules::Server);
        let counts: Vec<u64> = (1..=6).map(|d| perft(&b, d).nodes).collect();
        // The same as FID's to depth 2; from depth 3 a capture need not be taken, nor finished.
        assert_eq!(counts, PERFT);
        assert_eq!(reference_perft(&b, 5, &reference_moves), PERFT[4]);
    }

    const PERFT: [u64; 6] = [7, 49, 379, 2872, 23582, 190647];

    /// A middle game where white's king on 8G may take three men (the only move by FID's
    /// rules) or stop after one or two, and its men on 6C and 6G may take one or two; black
    /// answers with captures of its own.
    const CAPTURES: &str = "W:W21,22,24,K32:B10,11,14,18,19,27,K5";

    #[test]
    fn perft_from_a_capture_position_by_both_rules() {
        let server = server(CAPTURES);
        let fid = Board::from_fen(CAPTURES).unwrap();
        let counts = |b: &Board| -> Vec<u64> { (1..=5).map(|d| perft(b, d).nodes).collect() };
        assert_eq!(counts(&server), [13, 113, 912, 7212, 49169]);
        assert_eq!(counts(&fid), [1, 1, 6, 36, 155]);
        // Every node checked against the naive generators, of each set of rules.
        assert_eq!(reference_perft(&server, 4, &reference_moves), 7212);
        assert_eq!(reference_perft(&fid, 5, &fid_reference_moves), 155);
    }

    /// A path of 2 to 6 squares from one of the mover's pieces, each near the last: what the
    /// check is asked about, most of them refused.
    fn candidate(b: &Board, rng: &mut ChaCha8Rng) -> Vec<(i32, i32)> {
        let mine: Vec<u8> = (0..64)
            .filter(|&i| b.cell(i).seat() == Some(b.to_move()))
            .collect();
        let start = *mine.choose(rng).unwrap();
        let mut path = vec![(row(start) as i32, col(start) as i32)];
        for _ in 0..rng.random_range(1..6) {
            let (r, c) = *path.last().unwrap();
            let (dr, dc) = (rng.random_range(-2..=2), rng.random_range(-2..=2));
            path.push(((r + dr).clamp(0, 7), (c + dc).clamp(0, 7)));
        }
        path
    }

    /// Whether the check takes `path` on `b`, the reference agreeing.
    fn agreed(b: &Board, path: &[(i32, i32)]) -> bool {
        let ours = check(b.grid(), b.to_move(), &indices(path)).is_ok();
        let white = b.to_move() == Side::First;
        let theirs = reference::accepts(&char_grid(b), white, path);
        assert_eq!(ours, theirs, "{path:?} at {}", b.fen());
        ours
    }

    /// A king's capture of two pieces or more, then a jump back over the last piece it took.
    fn jumped_back(m: &Move) -> Vec<(i32, i32)> {
        let mut path: Vec<(i32, i32)> = m
            .path
            .iter()
            .map(|&i| (row(i) as i32, col(i) as i32))
            .collect();
        path.push(path[path.len() - 2]);
        path
    }

    #[test]
    fn random_games_agree_with_the_reference() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut stopped, mut back, mut declined) = (0, 0, 0);
        for _ in 0..60 {
            let mut b = Board::start().with_rules(Rules::Server).with_max_plies(0);
            while b.outcome().is_none() && b.plies() < 200 {
                assert_eq!(sorted_paths(&b), reference_moves(&b), "at {}", b.fen());
                for _ in 0..40 {
                    agreed(&b, &candidate(&b, &mut rng));
                }
                let legal = b.legal_moves();
                for m in legal.iter().filter(|m| m.path.len() > 2) {
                    back += agreed(&b, &jumped_back(m)) as u32;
                }
                let mv = legal.choose(&mut rng).unwrap().clone();
                let could_capture = legal.iter().any(Move::is_capture);
                declined += (could_capture && !mv.is_capture()) as u32;
                let longer =
                    |m: &Move| m.path.len() > mv.path.len() && m.path.starts_with(&mv.path);
                stopped += (mv.is_capture() && legal.iter().any(longer)) as u32;
                b.play_unchecked(&mv);
            }
        }
        assert!(
            stopped > 20 && declined > 100 && back > 100,
            "{stopped} {declined} {back}"
        );
    }
}
