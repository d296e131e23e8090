//! How Code Colosseum's live dama server (`cocod`, `src/games/dama/logic.rs`) reads a move and
//! what it answers when it refuses one, written from its behaviour so that arena's `server`
//! stream can say exactly what the server says. Which moves it refuses is `server_rules.rs`'s
//! business; under FID rules arena refuses more, and says those in the server's manner too (see
//! `protocol.rs`).

use super::rules::square_name;
use super::server_rules::{Refusal, Why, check};
use crate::games::Side;
use crate::games::draughts::Grid;

/// The server's reading of a line, as board indices: every `\n`, `\r` and `\t` deleted, the
/// rest split on single spaces with empty pieces dropped; each piece must be exactly a row digit
/// `1`..`8` and a column letter `A`..`H` (either case), and there must be at least two. Light
/// squares pass here (the server refuses them later, as not a piece of yours or not a diagonal
/// move).
pub fn parse(line: &str) -> Option<Vec<u8>> {
    let cleaned: String = line
        .chars()
        .filter(|c| !matches!(c, '\n' | '\r' | '\t'))
        .collect();
    let squares = cleaned
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(|t| match t.as_bytes() {
            &[row @ b'1'..=b'8', col] if (b'A'..=b'H').contains(&col.to_ascii_uppercase()) => {
                Some((row - b'1') * 8 + col.to_ascii_uppercase() - b'A')
            }
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()?;
    (squares.len() >= 2).then_some(squares)
}

/// What the server answers a parsed move of `seat` (0 white, moving up; 1 black) on `grid`, the
/// two lines after the blank one, or `None` if the server would take it.
pub fn refusal(grid: &Grid, seat: Side, path: &[u8]) -> Option<[String; 2]> {
    check(grid, seat, path).err().map(|r| words(r, seat))
}

/// A refusal in the server's words.
fn words(refusal: Refusal, seat: Side) -> [String; 2] {
    let (kind, from, to, why) = match refusal {
        Refusal::NotYourPiece => {
            let colour = ["bianchi", "neri"][seat];
            return [
                "Non hai selezionato una tua pedina!".into(),
                format!("Ricorda che sei i {colour}."),
            ];
        }
        Refusal::Step { from, to, why } => ("Spostamento", from, to, why),
        Refusal::Capture { from, to, why } => ("Cattura", from, to, why),
    };
    let verdict = if kind == "Cattura" {
        "non valida!"
    } else {
        "non valido!"
    };
    let why = match why {
        Why::Occupied => "La posizione scelta è gia occupata.",
        Why::NotDiagonal => "Non ti stai spostando in diagonale o ti sei mosso di troppe colonne.",
        Why::SameRow => "Puoi muoverti solo in diagonale.",
        Why::RowsTooFar { man: false } => "Le righe sono troppo distanti.",
        Why::RowsTooFar { man: true } => {
            "Le righe sono troppo distanti o ti stai muovendo nel verso sbagliato."
        }
    };
    [
        format!(
            "{kind} {} -> {} {verdict}",
            square_name(from),
            square_name(to)
        ),
        why.to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dama::rules::Board;
    use crate::games::position::Position;

    fn p(line: &str) -> Vec<u8> {
        parse(line).unwrap()
    }

    #[test]
    fn reading_a_line_as_the_server_does() {
        assert_eq!(p("6A 5B"), vec![40, 33]);
        assert_eq!(p("  6a   5b \r"), vec![40, 33]);
        assert_eq!(p("1A 2B"), vec![0, 9], "light squares pass");
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
    }

    fn refused(board: &Board, line: &str) -> Option<String> {
        refusal(board.grid(), board.to_move(), &p(line)).map(|l| l.join("|"))
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
