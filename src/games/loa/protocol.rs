//! loa over CodinGame's turn protocol: a bot hears only on its own turns, gets the board, the
//! opponent's last move and the sorted list of its legal moves, and answers with one of them (or
//! `random`), optionally followed by a comment.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::SEARCH_DEPTH;
use super::rules::{Board, COLOURS, Move, groups, parse_square};
use crate::games::picture::{self, Picture};
use crate::games::position::{self, Position, builtin_move, random_move};
use crate::games::{Outbox, Outcome, Params, Seating, Side, Step, TwoPlayer};
use crate::failure::Fault;
use crate::seeds::derive_seed;

/// The seed stream of the generator that plays `random` for a bot (the built-in bots use 100, 101).
const RANDOM_STREAM: u64 = 1;

pub struct Loa {
    pos: Board,
    names: [String; 2],
    rng: ChaCha8Rng,
    /// The last move played (`pass` included), which the next player is told; `None` before the
    /// first move (`null`).
    last: Option<Move>,
    /// Whether each seat has been told its colour (on its first turn).
    told: [bool; 2],
    /// Ended by a seat's failure.
    failed: bool,
    /// CodinGame's rule: a line whose first word begins with a legal move plays it (`b1b3;`).
    prefix: bool,
    /// Each seat's message with its last move, for the viewer ("" when it gave none).
    said: [String; 2],
}

/// How much of a message the viewer shows, as CodinGame's viewer does.
const SHOWN_MESSAGE: usize = 16;

/// What a bot's line asks for.
enum Answer {
    Random,
    Play(Move),
}

/// Read the first word of a line: `random`, `pass`, or a move of two squares like `b1b3` (either
/// case). `Err((is_move, why))`: `is_move` when the word has a move's shape but names a square off
/// the board (which the seed's rules count as an illegal move).
fn parse(word: &str) -> Result<Answer, (bool, String)> {
    let word = word.to_ascii_lowercase();
    match word.as_str() {
        "random" => return Ok(Answer::Random),
        "pass" => return Ok(Answer::Play(Move::Pass)),
        _ => {}
    }
    if !move_shaped(word.as_bytes()) {
        return Err((
            false,
            "expected a move like b1b3 (from-square, to-square), `random`, or `pass`".into(),
        ));
    }
    let (from, to) = (&word[..2], &word[2..]);
    match (parse_square(from), parse_square(to)) {
        (Some(from), Some(to)) => Ok(Answer::Play(Move::Step { from, to })),
        (None, _) => Err((true, format!("{from} is off the board (a1 to h8)"))),
        (_, None) => Err((true, format!("{to} is off the board (a1 to h8)"))),
    }
}

/// Two squares' shape, `b1b3`, in either case.
fn move_shaped(b: &[u8]) -> bool {
    b.len() == 4
        && b[0].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_alphabetic()
        && b[3].is_ascii_digit()
}

/// The move a word stands for under CodinGame's referee, which plays the legal move the output
/// starts with: `b1b3;` and `b1b3x` are `b1b3`. `random` and `pass` must stand alone there.
fn move_prefix(word: &str) -> &str {
    match word.get(..4) {
        Some(head) if word.len() > 4 && move_shaped(head.as_bytes()) => head,
        _ => word,
    }
}

impl Loa {
    pub fn new(params: &Params, seating: &Seating) -> Result<Self, String> {
        let start: Board = position::start_of(seating)?;
        Ok(Loa {
            pos: start.with_max_plies(params.int("max_plies") as u32),
            names: seating.two_names(),
            rng: ChaCha8Rng::seed_from_u64(derive_seed(seating.seed, RANDOM_STREAM)),
            last: None,
            told: [false; 2],
            failed: false,
            prefix: params.text("protocol") == "server",
            said: Default::default(),
        })
    }

    /// The player to move's input for this turn: its colour the first time, the board, the last
    /// move, and its legal moves sorted as strings.
    fn prompt(&mut self, out: &mut Outbox) {
        let seat = self.pos.to_move();
        if !self.told[seat] {
            self.told[seat] = true;
            out.to(seat, COLOURS[seat].to_string());
        }
        for row in self.pos.board_lines() {
            out.to(seat, row);
        }
        let last = self.last.map_or("null".into(), |m| self.pos.move_text(&m));
        out.to(seat, last);
        let mut moves: Vec<String> = self
            .pos
            .legal_moves()
            .iter()
            .map(|m| self.pos.move_text(m))
            .collect();
        moves.sort();
        out.to(seat, moves.len().to_string());
        for m in moves {
            out.to(seat, m);
        }
    }

    /// The spectators' last line.
    fn result_line(winner: Option<Side>, reason: &str) -> String {
        match winner {
            Some(w) => format!("result {} {reason}", COLOURS[w]),
            None => format!("result draw {reason}"),
        }
    }
}

impl TwoPlayer for Loa {
    fn start(&mut self, out: &mut Outbox) {
        // The names are all the spectators need before the moves: the board is the start.
        for name in &self.names {
            out.spectators(name.clone());
        }
        self.prompt(out);
    }

    fn awaiting(&self) -> [bool; 2] {
        position::awaiting(&self.pos, self.failed)
    }

    fn on_line(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let text = line.trim();
        let (word, comment) = match text.split_once(' ') {
            Some((w, c)) => (w, c.trim()),
            None => (text, ""),
        };
        let word = if self.prefix { move_prefix(word) } else { word };
        let mv = match parse(word) {
            Ok(Answer::Random) => random_move(&self.pos, &mut self.rng)
                .expect("a game in progress has a legal move (pass at least)"),
            Ok(Answer::Play(mv)) => {
                if !self.pos.is_legal(&mv) {
                    let why = match mv {
                        Move::Step { from, to } => self
                            .pos
                            .why_illegal(from, to)
                            .unwrap_or_else(|| "it is not a legal move here".into()),
                        Move::Pass => format!(
                            "a pass is only allowed with no legal move, and {} has {}",
                            COLOURS[seat],
                            self.pos.legal_moves().len()
                        ),
                    };
                    return Err(Fault::illegal(format!("sent '{text}': {why}")));
                }
                mv
            }
            Err((true, why)) => return Err(Fault::illegal(format!("sent '{text}': {why}"))),
            Err((false, why)) => return Err(Fault::protocol(format!("sent '{text}': {why}"))),
        };
        let played = self.pos.move_text(&mv);
        self.pos
            .play(&mv)
            .map_err(|_| Fault::illegal(format!("sent '{text}': not a legal move here")))?;
        self.said[seat] = comment.chars().take(SHOWN_MESSAGE).collect();
        if comment.is_empty() {
            out.spectators(played.clone());
        } else {
            out.spectators(format!("{played} {comment}"));
        }
        self.last = Some(mv);
        match self.pos.outcome() {
            Some(o) => out.spectators(Self::result_line(o.winner(), o.reason().as_str())),
            None => self.prompt(out),
        }
        Ok(Step::Done)
    }

    fn on_fault(&mut self, seat: Side, fault: &Fault, out: &mut Outbox) {
        if self.failed || self.pos.outcome().is_some() {
            return;
        }
        self.failed = true;
        out.spectators(Self::result_line(Some(seat.other()), fault.kind.as_str()));
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn plies(&self) -> u32 {
        self.pos.plies()
    }

    fn builtin_line(&self, _seat: Side, name: &str, rng: &mut ChaCha8Rng) -> String {
        let mv = builtin_move(&self.pos, name, SEARCH_DEPTH, rng);
        self.pos.move_text(&mv)
    }

    fn picture(&self) -> Picture {
        let side = |seat: Side| {
            let colour = match seat {
                Side::First => "black",
                Side::Second => "white",
            };
            format!("{colour} ({})", self.names[seat])
        };
        let mut notes = vec![match self.pos.outcome() {
            _ if self.failed => "game over: a player failed".to_string(),
            None => format!("{} to move", side(self.pos.to_move())),
            Some(o) => match o.winner() {
                Some(w) => format!("{} wins", side(w)),
                None => format!("drawn ({})", o.reason().as_str()),
            },
        }];
        if self.last == Some(Move::Pass) {
            notes.push(format!("{} passed", side(self.pos.to_move().other())));
        }
        notes.push(format!(
            "ply {} of {}",
            self.pos.plies(),
            self.pos.max_plies()
        ));
        // Connection is the goal: the groups say how far each side is from it.
        for (seat, set) in Side::BOTH.into_iter().zip(self.pos.sides()) {
            let n = groups(set);
            let plural = if n == 1 { "" } else { "s" };
            notes.push(format!(
                "{}: {} checkers in {n} group{plural}",
                side(seat),
                set.count_ones(),
            ));
        }
        // CodinGame shows each player's message beside its last action.
        for (seat, said) in Side::BOTH.into_iter().zip(&self.said) {
            if !said.is_empty() {
                notes.push(format!("{} says: {said}", side(seat)));
            }
        }
        Picture {
            board: picture::Board::Grid(self.pos.picture(self.last.as_ref())),
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side::{First, Second};
    use crate::games::{Draw, Msg};
    use crate::failure::FaultKind;

    fn game(max_plies: &str) -> Loa {
        game_with(max_plies, "docs")
    }

    fn game_with(max_plies: &str, protocol: &str) -> Loa {
        let params = Params::resolve(
            super::super::INFO.params,
            [("max_plies", max_plies), ("protocol", protocol)],
        )
        .expect("valid");
        let seating = Seating {
            names: vec!["alpha".into(), "beta".into()],
            seed: 9,
            timeout: 0.15,
            opening: None,
        };
        Loa::new(&params, &seating).unwrap()
    }

    /// The lines for `seat` and for the spectators in an outbox.
    fn lines(out: &mut Outbox) -> ([Vec<String>; 2], Vec<String>) {
        let mut seats = [Vec::new(), Vec::new()];
        let mut spect = Vec::new();
        for m in out.take() {
            match m {
                Msg::To(s, l) => seats[s].push(l),
                Msg::Spectators(l) => spect.push(l),
                Msg::Pause(_) => {}
            }
        }
        (seats, spect)
    }

    #[test]
    fn the_first_two_turns() {
        let mut g = game("150");
        let mut out = Outbox::default();
        g.start(&mut out);
        let ([black, white], spect) = lines(&mut out);
        assert_eq!(spect, ["alpha", "beta"]);
        assert!(white.is_empty());
        assert_eq!(black[0], "b");
        assert_eq!(black[1..9], Board::start().board_lines()[..]);
        assert_eq!(black[9], "null");
        assert_eq!(black[10], "36");
        assert_eq!(black.len(), 11 + 36);
        let moves = &black[11..];
        let mut sorted = moves.to_vec();
        sorted.sort();
        assert_eq!(moves, sorted, "sorted as strings");
        assert_eq!(moves[0], "b1b3");
        assert_eq!(g.awaiting(), [true, false]);

        assert_eq!(
            g.on_line(First, "B1B3  going up ", &mut out),
            Ok(Step::Done)
        );
        let ([black, white], spect) = lines(&mut out);
        assert!(black.is_empty());
        assert_eq!(spect, ["b1b3 going up"]);
        assert_eq!(white[0], "w");
        assert_eq!(white[1], ".bbbbbb.");
        assert_eq!(white[6], "wb.....w", "rank 3");
        assert_eq!(white[8], "..bbbbb.");
        assert_eq!(white[9], "b1b3");
        assert_eq!(white[10].parse::<usize>().unwrap(), white.len() - 11);
        assert_eq!(g.awaiting(), [false, true]);

        // `random` plays a legal move for white from the game's generator; the next player is
        // told which, and black's colour is not repeated.
        assert_eq!(g.on_line(Second, "random", &mut out), Ok(Step::Done));
        let ([black, _], spect) = lines(&mut out);
        assert_eq!(spect.len(), 1);
        assert_eq!(black[0], ".bbbbbb.");
        assert_eq!(black[8], spect[0]);
        assert_eq!(g.plies(), 2);
    }

    #[test]
    fn blanks_around_the_move_are_forgiven() {
        let mut g = game("150");
        let mut out = Outbox::default();
        g.start(&mut out);
        assert_eq!(g.on_line(First, " b1b3\r", &mut out), Ok(Step::Done));
        assert_eq!(g.on_line(Second, "a2c2   ", &mut out), Ok(Step::Done));
        let (_, spect) = lines(&mut out);
        assert_eq!(spect, ["alpha", "beta", "b1b3", "a2c2"]);
    }

    #[test]
    fn codingame_plays_the_move_a_line_begins_with() {
        let accepted = ["b1b3;", "b1b3x", "B1B3:eval=3", "b1b3b5 and a message"];
        for line in accepted {
            let mut g = game_with("150", "server");
            let mut out = Outbox::default();
            g.start(&mut out);
            lines(&mut out);
            assert_eq!(g.on_line(First, line, &mut out), Ok(Step::Done), "{line}");
            let ([_, white], _) = lines(&mut out);
            assert_eq!(white[9], "b1b3", "{line}: the opponent is told the move");
        }
        let refused = [
            ("passx", FaultKind::Protocol),
            ("randomly", FaultKind::Protocol),
            ("b1b", FaultKind::Protocol),
            ("xb1b3", FaultKind::Protocol),
            ("b1b4;", FaultKind::Illegal),
        ];
        for (line, kind) in refused {
            let mut g = game_with("150", "server");
            let mut out = Outbox::default();
            g.start(&mut out);
            let f = g.on_line(First, line, &mut out).expect_err(line);
            assert_eq!(f.kind, kind, "{line}: {f:?}");
            assert!(f.detail.contains(&format!("sent '{line}'")), "{f:?}");
        }
        // The documents' rule: the first word is the move, nothing else.
        let mut g = game("150");
        let mut out = Outbox::default();
        g.start(&mut out);
        let f = g.on_line(First, "b1b3;", &mut out).expect_err("docs");
        assert_eq!(f.kind, FaultKind::Protocol);
    }

    #[test]
    fn random_is_reproducible() {
        let play = || {
            let mut g = game("150");
            let mut out = Outbox::default();
            g.start(&mut out);
            for i in 0..10 {
                g.on_line(Side::BOTH[i % 2], "random", &mut out).unwrap();
            }
            lines(&mut out).1
        };
        assert_eq!(play(), play());
    }

    #[test]
    fn bad_lines_lose() {
        let cases = [
            ("", FaultKind::Protocol, "expected a move like b1b3"),
            ("b1-b3", FaultKind::Protocol, "expected a move"),
            ("hello", FaultKind::Protocol, "expected a move"),
            ("b1b4", FaultKind::Illegal, "exactly 2 squares"),
            ("b1b4 comment", FaultKind::Illegal, "sent 'b1b4 comment'"),
            ("a2a4", FaultKind::Illegal, "w's, not b's"),
            ("i1a1", FaultKind::Illegal, "i1 is off the board"),
            ("b1b9", FaultKind::Illegal, "b9 is off the board"),
            (
                "pass",
                FaultKind::Illegal,
                "only allowed with no legal move, and b has 36",
            ),
        ];
        for (line, kind, detail) in cases {
            let mut g = game("150");
            let mut out = Outbox::default();
            g.start(&mut out);
            lines(&mut out);
            let f = g.on_line(First, line, &mut out).expect_err(line);
            assert_eq!(f.kind, kind, "{line:?}: {f:?}");
            assert!(f.detail.contains(detail), "{line:?}: {}", f.detail);
            g.on_fault(First, &f, &mut out);
            let (seats, spect) = lines(&mut out);
            assert!(
                seats.iter().all(Vec::is_empty),
                "nothing more to the players"
            );
            assert_eq!(spect, [format!("result w {}", kind.as_str())]);
            assert_eq!(g.awaiting(), [false, false]);
        }
    }

    #[test]
    fn the_end_is_told_to_spectators_only() {
        let mut g = game("2");
        let mut out = Outbox::default();
        g.start(&mut out);
        g.on_line(First, "b1b3", &mut out).unwrap();
        lines(&mut out);
        g.on_line(Second, "a2c2 bye", &mut out).unwrap();
        let (seats, spect) = lines(&mut out);
        assert!(seats.iter().all(Vec::is_empty));
        assert_eq!(spect, ["a2c2 bye", "result draw limit"]);
        assert_eq!(g.outcome(), Some(Outcome::Drawn(Draw::Limit)));
        assert_eq!(g.awaiting(), [false, false]);
    }

    #[test]
    fn the_picture_follows_the_moves() {
        let mut g = game("150");
        let mut out = Outbox::default();
        g.start(&mut out);
        let p = g.picture();
        let (start, notes) = (p.grid(), &p.notes);
        assert_eq!(
            *notes,
            [
                "black (alpha) to move",
                "ply 0 of 150",
                "black (alpha): 12 checkers in 2 groups",
                "white (beta): 12 checkers in 2 groups"
            ]
        );
        g.on_line(First, "b1b3", &mut out).unwrap();
        g.on_line(Second, "h7f7 hello", &mut out).unwrap();
        let q = g.picture();
        let (after, notes) = (q.grid(), &q.notes);
        let changed: Vec<usize> = (0..64)
            .filter(|&i| start.views[0].cells.as_bytes()[i] != after.views[0].cells.as_bytes()[i])
            .collect();
        // h7 (row 1, column 7) to f7 (column 5); b1 (row 7, column 1) to b3 (row 5).
        assert_eq!(changed, [13, 15, 41, 57]);
        assert_eq!(&after.views[0].cells[8..16], "w....w..");
        assert_eq!(after.last, [15, 13]);
        assert_eq!(notes[0], "black (alpha) to move");
        assert_eq!(notes[3], "white (beta): 12 checkers in 3 groups");
        assert_eq!(notes[4], "white (beta) says: hello");
        assert_eq!(notes.len(), 5, "black gave no message");
        g.on_line(First, "random a message longer than shown", &mut out)
            .unwrap();
        g.on_line(Second, "random", &mut out).unwrap();
        let notes = g.picture().notes;
        assert_eq!(notes[4], "black (alpha) says: a message longer");
        assert_eq!(notes.len(), 5, "white's message went with its next move");
    }

    #[test]
    fn built_in_bots_answer_moves() {
        let g = game("150");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for bot in ["random", "search"] {
            let line = g.builtin_line(First, bot, &mut rng);
            assert!(
                g.pos
                    .legal_moves()
                    .iter()
                    .any(|m| g.pos.move_text(m) == line)
            );
        }
    }
}
