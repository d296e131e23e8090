//! How Code Colosseum's live dama server (`cocod`, `src/games/dama/logic.rs`) reads a move and
//! what it answers when it refuses one, written from its behaviour so that arena's `server`
//! stream can say exactly what the server says. arena's own rules still decide what is legal
//! (see `protocol.rs`); this only classifies a refusal the way the server would.

use super::rules::Board;
use crate::games::Side;
use crate::games::draughts::Cell;

/// A square as (row index 0..8 from the top, column index 0..8 from the left).
pub type Square = (u8, u8);

/// The server's reading of a line: every `\n`, `\r` and `\t` deleted, the rest split on single
/// spaces with empty pieces dropped; each piece must be exactly a row digit `1`..`8` and a
/// column letter `A`..`H` (either case), and there must be at least two. Light squares pass
/// here (the server refuses them later, as not a piece of yours or not a diagonal move).
pub fn parse(line: &str) -> Option<Vec<Square>> {
    let cleaned: String = line
        .chars()
        .filter(|c| !matches!(c, '\n' | '\r' | '\t'))
        .collect();
    let squares = cleaned
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(|t| match t.as_bytes() {
            &[row @ b'1'..=b'8', col] if (b'A'..=b'H').contains(&col.to_ascii_uppercase()) => {
                Some((row - b'1', col.to_ascii_uppercase() - b'A'))
            }
            _ => None,
        })
        .collect::<Option<Vec<Square>>>()?;
    (squares.len() >= 2).then_some(squares)
}

/// A square's name as the server writes it: `6A`.
pub fn name((r, c): Square) -> String {
    format!("{}{}", r + 1, (b'A' + c) as char)
}

/// The board index of a square (dark or not).
pub fn index((r, c): Square) -> u8 {
    r * 8 + c
}

/// What the server answers a parsed move of `seat` (0 white, moving up; 1 black) on `board`,
/// the two lines after the blank one, or `None` if the server would take it. Like the server,
/// every step is checked against the board as it was before the move: the starting square stays
/// occupied and jumped pieces stay in place until the move is over.
pub fn refusal(board: &Board, seat: Side, path: &[Square]) -> Option<[String; 2]> {
    let at = |(r, c): Square| board.cell(r * 8 + c);
    let mine = |cell: Cell| cell.seat() == Some(seat);
    let theirs = |cell: Cell| cell.seat() == Some(seat.other());
    let origin = path[0];
    let king = match at(origin) {
        Cell::King(s) if s == seat => true,
        cell if mine(cell) => false,
        _ => {
            let colour = ["bianchi", "neri"][seat];
            return Some([
                "Non hai selezionato una tua pedina!".into(),
                format!("Ricorda che sei i {colour}."),
            ]);
        }
    };
    let forward: i8 = if seat == Side::First { -1 } else { 1 };
    let single = path.len() == 2;
    let mut from = origin;
    for &to in &path[1..] {
        let dr = to.0 as i8 - from.0 as i8;
        let dc = to.1 as i8 - from.1 as i8;
        let occupied = at(to) != Cell::Empty;
        let step = |why: &str| {
            Some([
                format!("Spostamento {} -> {} non valido!", name(from), name(to)),
                why.to_string(),
            ])
        };
        let capture = |why: &str| {
            Some([
                format!("Cattura {} -> {} non valida!", name(from), name(to)),
                why.to_string(),
            ])
        };
        const TAKEN: &str = "La posizione scelta è gia occupata.";
        const NOT_DIAGONAL: &str =
            "Non ti stai spostando in diagonale o ti sei mosso di troppe colonne.";
        let is_step = if king { dr.abs() == 1 } else { dr == forward };
        let is_jump = if king {
            dr.abs() == 2
        } else {
            dr == 2 * forward
        };
        if is_step && single {
            if dc.abs() != 1 || occupied {
                return step(if occupied { TAKEN } else { NOT_DIAGONAL });
            }
        } else if is_jump {
            let victim = if dc.abs() == 2 {
                Some(at((
                    (from.0 as i8 + dr / 2) as u8,
                    (from.1 as i8 + dc / 2) as u8,
                )))
            } else {
                None
            };
            // Men take men only; kings take men and kings.
            let takes = victim.is_some_and(|v| theirs(v) && (king || !v.is_king()));
            if !takes || occupied {
                return capture(if occupied { TAKEN } else { NOT_DIAGONAL });
            }
        } else if dr == 0 {
            return step("Puoi muoverti solo in diagonale.");
        } else if king {
            return step("Le righe sono troppo distanti.");
        } else {
            return step("Le righe sono troppo distanti o ti stai muovendo nel verso sbagliato.");
        }
        from = to;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::position::Position;

    fn p(line: &str) -> Vec<Square> {
        parse(line).unwrap()
    }

    #[test]
    fn reading_a_line_as_the_server_does() {
        assert_eq!(p("6A 5B"), vec![(5, 0), (4, 1)]);
        assert_eq!(p("  6a   5b \r"), vec![(5, 0), (4, 1)]);
        assert_eq!(p("1A 2B"), vec![(0, 0), (1, 1)], "light squares pass");
        assert_eq!(
            parse("6A\t5B"),
            None,
            "a tab is deleted, joining the squares"
        );
        assert_eq!(parse("6A"), None);
        assert_eq!(parse(""), None);
        assert_eq!(parse("6A 5I"), None);
        assert_eq!(parse("6A-5B"), None);
        assert_eq!(parse("A6 B5"), None);
        assert_eq!(name((2, 1)), "3B");
    }

    fn refused(board: &Board, line: &str) -> Option<String> {
        refusal(board, board.to_move(), &p(line)).map(|l| l.join("|"))
    }

    #[test]
    fn the_servers_refusals() {
        let b = Board::start();
        assert_eq!(refused(&b, "6A 5B"), None);
        assert_eq!(
            refused(&b, "3B 4C").unwrap(),
            "Non hai selezionato una tua pedina!|Ricorda che sei i bianchi."
        );
        assert_eq!(
            refused(&b, "7B 6A").unwrap(),
            "Spostamento 7B -> 6A non valido!|La posizione scelta è gia occupata."
        );
        assert_eq!(
            refused(&b, "6A 5C").unwrap(),
            "Spostamento 6A -> 5C non valido!|Non ti stai spostando in diagonale o ti sei \
             mosso di troppe colonne."
        );
        assert_eq!(
            refused(&b, "6A 6C").unwrap(),
            "Spostamento 6A -> 6C non valido!|Puoi muoverti solo in diagonale."
        );
        assert_eq!(
            refused(&b, "6A 7B").unwrap(),
            "Spostamento 6A -> 7B non valido!|Le righe sono troppo distanti o ti stai \
             muovendo nel verso sbagliato."
        );
        assert_eq!(
            refused(&b, "6A 4C").unwrap(),
            "Cattura 6A -> 4C non valida!|Non ti stai spostando in diagonale o ti sei mosso \
             di troppe colonne."
        );
        // A plain step when a capture exists: the server takes it (capture is not compulsory
        // there), and so does a capture that stops early.
        let b = Board::from_fen("W:W22,30:B18,10").unwrap();
        assert_eq!(refused(&b, "8C 7D"), None);
        let b = Board::from_fen("B:W22:B5,K9").unwrap();
        assert_eq!(
            refused(&b, "3A 4B").unwrap(),
            "Non hai selezionato una tua pedina!|Ricorda che sei i neri."
        );
        // Black's king moves both ways; a two-row king step that jumps nothing.
        assert_eq!(refused(&b, "3B 2C"), None);
        assert_eq!(
            refused(&b, "3B 1D").unwrap(),
            "Cattura 3B -> 1D non valida!|Non ti stai spostando in diagonale o ti sei mosso \
             di troppe colonne."
        );
        assert_eq!(
            refused(&b, "3B 6E").unwrap(),
            "Spostamento 3B -> 6E non valido!|Le righe sono troppo distanti."
        );
        // A king taking four pieces round a square lands on its starting square again: FID
        // (and arena) allow it, the server finds that square still occupied.
        let b = Board::from_fen("W:WK18:B14,6,7,15").unwrap();
        let round = crate::games::dama::rules::parse_move("5D 3B 1D 3F 5D").unwrap();
        assert!(b.is_legal(&round));
        assert_eq!(
            refused(&b, "5D 3B 1D 3F 5D").unwrap(),
            "Cattura 3F -> 5D non valida!|La posizione scelta è gia occupata."
        );
    }
}
