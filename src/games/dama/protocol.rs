//! dama over Code Colosseum's text protocol: Italian messages, the board drawn after every move,
//! and another try (up to `retries`) after an invalid move, within the same deadline.
//!
//! Two streams: `server` (the default), byte for byte what Code Colosseum's live server sends
//! (its `instance.rs` and `logic.rs`, and a capture of it), which every real bot was written
//! against; and `docs`, what the seed document's description shows, which arena followed before
//! the parameter existed (old logs replay with it). The rules (`rules`) go with the stream unless
//! asked otherwise: the server's with its stream, FID's with the document's.

use rand_chacha::ChaCha8Rng;

use super::picture::COLOURS;
use super::rules::{Board, Move, Rules, parse_move, square_name};
use super::server;
use crate::games::picture::{Board as Drawing, Picture};
use crate::games::position::{self, Position, builtin_move};
use crate::games::{Outbox, Outcome, Params, Seating, Side, Step, TwoPlayer};
use crate::failure::{Fault, FaultKind};

const PROMPT: [&str; 2] = [
    "Inserisci la pedina che vuoi muovere e poi le mosse che vuoi fare",
    "Es > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...",
];
const INVALID: &str = "Mossa non valida riprova!";
const GAME_OVER: &str = "Game Over ;)";
const TIMED_OUT: &str = "Tempo scaduto, hai esaurito il tempo per fare una mossa!";

/// Which stream the players and spectators get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// What Code Colosseum's live server sends.
    Server,
    /// What the seed document describes.
    Docs,
}

impl Stream {
    pub fn from_param(value: &str) -> Result<Stream, String> {
        match value {
            "server" => Ok(Stream::Server),
            "docs" => Ok(Stream::Docs),
            other => Err(format!("protocol: expected server or docs, got '{other}'")),
        }
    }

    /// The rules `rules=value` asks for on this stream: `auto` is the stream's own.
    fn rules(self, value: &str) -> Result<Rules, String> {
        match value {
            "server" => Ok(Rules::Server),
            "fid" => Ok(Rules::Fid),
            "auto" if self == Stream::Server => Ok(Rules::Server),
            "auto" => Ok(Rules::Fid),
            other => Err(format!(
                "rules: expected auto, server or fid, got '{other}'"
            )),
        }
    }
}

/// Side 0 has the white pieces and moves first.
fn side(seat: Side) -> (&'static str, &'static str) {
    match seat {
        Side::First => ("bianco", "bianchi"),
        Side::Second => ("nero", "neri"),
    }
}

pub struct Dama {
    stream: Stream,
    pos: Board,
    names: [String; 2],
    retries: u32,
    pace: f64,
    /// Invalid moves the player to move may still make this turn.
    tries_left: u32,
    over: bool,
    /// The last refused attempt, to say what it was when the tries run out.
    last_refusal: Option<Fault>,
    /// The move that led to the current position, for the viewer.
    last: Option<Move>,
}

impl Dama {
    pub fn new(params: &Params, seating: &Seating) -> Result<Self, String> {
        let retries = params.int("retries") as u32;
        let start: Board = position::start_of(seating)?;
        let stream = Stream::from_param(params.text("protocol"))?;
        let rules = stream.rules(params.text("rules"))?;
        Ok(Dama {
            stream,
            pos: start
                .with_max_plies(params.int("max_moves") as u32)
                .with_rules(rules),
            names: seating.two_names(),
            retries,
            pace: params.float("pace"),
            tries_left: retries,
            over: false,
            last_refusal: None,
            last: None,
        })
    }

    fn board(&self, out: &mut Outbox) {
        for line in self.pos.board_lines() {
            out.everyone(&line);
        }
    }

    /// Announce the turn; the mover is asked for its move. On the server the other player is
    /// told to wait and the spectators get the `Turno` line; in the seed's description everyone
    /// gets the `Turno` line, the mover `E' il tuo turno.` and a blank line before the prompt,
    /// and the others a blank line in its place.
    fn turn(&mut self, out: &mut Outbox) {
        let mover = self.pos.to_move();
        self.tries_left = self.retries;
        let turn = format!("Turno {}!", side(mover).0);
        if self.stream == Stream::Server {
            out.to(mover, &turn);
            out.to(mover, PROMPT[0]);
            out.to(mover, PROMPT[1]);
            out.to(mover.other(), "Attendi il tuo turno!");
            out.spectators(&turn);
            return;
        }
        out.everyone(&turn);
        out.to(mover, "E' il tuo turno.");
        out.to(mover, "");
        out.to(mover, PROMPT[0]);
        out.to(mover, PROMPT[1]);
        out.to(mover.other(), "");
        out.spectators("");
    }

    /// The end of a game played out. The server, checking before each turn, tells the side to
    /// move that it has no pieces or no moves left, and the others which side has no moves.
    fn end_played(&mut self, out: &mut Outbox, winner: Option<Side>) {
        if self.stream == Stream::Docs {
            if let Some(w) = winner {
                let loser = w.other();
                out.to(
                    loser,
                    if self.pos.grid().count()[loser] == [0, 0] {
                        "Non hai più pedine disponibili."
                    } else {
                        "Non hai più mosse disponibili."
                    },
                );
            }
            return self.end(out, winner);
        }
        self.over = true;
        match winner {
            Some(w) => {
                let loser = w.other();
                let wins = format!("I {} vincono la partita!", side(w).1);
                if self.pos.grid().count()[loser] == [0, 0] {
                    out.to(loser, "Non hai più pedine disponibili.");
                } else {
                    out.to(loser, "Non hai più mosse disponibili.");
                    let stuck = format!("I {} non hanno più mosse disponibili.", side(loser).1);
                    out.to(w, &stuck);
                    out.spectators(&stuck);
                }
                out.everyone(&wins);
            }
            None => out.everyone("La partita è patta."),
        }
        out.everyone("");
        out.everyone(GAME_OVER);
        out.everyone("");
    }

    /// A line refused: what the player is told, then (with tries left) the prompt again.
    fn refuse(
        &mut self,
        seat: Side,
        refusal: Fault,
        why: &[String],
        out: &mut Outbox,
    ) -> Result<Step, Fault> {
        let server = self.stream == Stream::Server;
        if self.tries_left == 0 {
            if server {
                // The server would ask again; arena's tries are used up, so only say why.
                out.to(seat, "");
                for line in why {
                    out.to(seat, line);
                }
            }
            return Err(match self.last_refusal.take() {
                // Say what the last try was, and that earlier ones failed too.
                Some(_) if self.retries > 0 => Fault::new(
                    refusal.kind,
                    format!("{} (after {} invalid tries)", refusal.detail, self.retries),
                ),
                _ => refusal,
            });
        }
        self.tries_left -= 1;
        self.last_refusal = Some(refusal);
        if server {
            out.to(seat, "");
            for line in why {
                out.to(seat, line);
            }
        } else {
            out.to(seat, INVALID);
            out.to(seat, "");
        }
        out.to(seat, PROMPT[0]);
        out.to(seat, PROMPT[1]);
        Ok(Step::Retry)
    }

    /// Why FID's rules refuse a move the server would take (the server's are looser: no
    /// compulsory capture, a capture may stop early, no precedence among captures): the reason
    /// in the server's manner, and in English for the fault.
    fn fid_reason(&self, mv: &Move) -> [&'static str; 2] {
        let legal = self.pos.legal_moves();
        if !mv.is_capture() && legal.iter().any(Move::is_capture) {
            [
                "La presa è obbligatoria (regole FID).",
                "a capture is compulsory",
            ]
        } else if legal.iter().any(|m| m.path.starts_with(&mv.path)) {
            [
                "La presa multipla va completata (regole FID).",
                "a multiple capture must be completed",
            ]
        } else {
            [
                "Va scelta la presa che vale di più: più pezzi, poi con la dama, poi più dame, \
                 poi la dama incontrata prima (regole FID).",
                "the capture worth most must be taken (most pieces, then with a king, then most \
                 kings, then the king met first)",
            ]
        }
    }

    /// A move refused: the fault, naming FID's rule where the server would have taken it, and
    /// what the server's stream tells the player.
    fn illegal(&self, seat: Side, shown: &str, mv: &Move) -> (Fault, Vec<String>) {
        if let Some(lines) = server::refusal(self.pos.grid(), seat, &mv.path) {
            let fault = Fault::illegal(format!("sent '{shown}', which is not a legal move here"));
            return (fault, lines.to_vec());
        }
        let [said, rule] = self.fid_reason(mv);
        let fault = Fault::illegal(format!(
            "sent '{shown}', which FID's rules refuse (rules=fid): {rule}"
        ));
        (
            fault,
            vec!["Mossa non valida!".to_string(), said.to_string()],
        )
    }

    /// Play a legal move and tell everyone.
    fn play(&mut self, mv: Move, out: &mut Outbox) {
        let mover = self.pos.to_move();
        self.pos.play_unchecked(&mv);
        if self.stream == Stream::Server {
            let mut echo = String::new();
            for &sq in &mv.path {
                echo.push_str(&square_name(sq));
                echo.push(' ');
            }
            out.to(mover.other(), echo);
        }
        self.last = Some(mv);
        out.everyone("");
        self.board(out);
        out.everyone("");
        match self.pos.outcome() {
            Some(o) => self.end_played(out, o.winner()),
            None => {
                out.pause(self.pace);
                self.turn(out);
            }
        }
    }

    fn end(&mut self, out: &mut Outbox, winner: Option<Side>) {
        self.over = true;
        match winner {
            Some(w) => out.everyone(&format!("I {} vincono la partita!", side(w).1)),
            None => out.everyone("La partita è patta."),
        }
        out.everyone(GAME_OVER);
    }
}

impl TwoPlayer for Dama {
    fn start(&mut self, out: &mut Outbox) {
        out.everyone(&self.names[0]);
        out.everyone(&self.names[1]);
        out.everyone("Avvio la partita di dama...");
        out.everyone("");
        self.board(out);
        out.everyone("");
        out.to(Side::First, "Sei i Bianchi");
        out.to(Side::Second, "Sei i Neri");
        if self.stream == Stream::Server {
            out.spectators(format!(
                "Il giocatore {} è i bianchi e il giocatore {} è i neri.",
                self.names[0], self.names[1]
            ));
        }
        // An opening is playable by FID's rules; the server's test for a side that cannot move
        // may still find it lost, and the server says so before the first turn.
        match self.pos.outcome() {
            Some(o) => self.end_played(out, o.winner()),
            None => self.turn(out),
        }
    }

    fn awaiting(&self) -> [bool; 2] {
        let mut a = [false; 2];
        if !self.over {
            a[self.pos.to_move()] = true;
        }
        a
    }

    fn on_line(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        if self.stream == Stream::Docs {
            let line = line.trim();
            return match parse_move(line) {
                Err(why) => self.refuse(
                    seat,
                    Fault::protocol(format!("sent '{line}': {why}")),
                    &[],
                    out,
                ),
                Ok(mv) if self.pos.is_legal(&mv) => {
                    self.play(mv, out);
                    Ok(Step::Done)
                }
                Ok(mv) => {
                    let (fault, _) = self.illegal(seat, line, &mv);
                    self.refuse(seat, fault, &[], out)
                }
            };
        }
        // The server's reading, and its own words for what it refuses.
        let shown = line.trim();
        let Some(path) = server::parse(line) else {
            let fault = Fault::protocol(format!(
                "sent '{shown}': not two or more squares like 6A separated by spaces"
            ));
            return self.refuse(seat, fault, &[INVALID.to_string()], out);
        };
        let mv = Move::new(path);
        if self.pos.is_legal(&mv) {
            self.play(mv, out);
            return Ok(Step::Done);
        }
        // What the server refuses, in its words; under FID's rules, what it would take too.
        let (fault, why) = self.illegal(seat, shown, &mv);
        self.refuse(seat, fault, &why, out)
    }

    fn on_fault(&mut self, seat: Side, fault: &Fault, out: &mut Outbox) {
        if self.stream == Stream::Docs {
            if fault.kind == FaultKind::Timeout {
                out.to(seat, TIMED_OUT);
            }
            out.everyone(&format!("I {} hanno abbandonato la partita.", side(seat).1));
            return self.end(out, Some(seat.other()));
        }
        // The server tells the one who timed out, tells its opponent who left and who won
        // (writing `binachi`, sic), and the spectators only that the game is over. The game
        // ends at the first failure: a second one (both bots failing) adds nothing.
        if self.over {
            return;
        }
        self.over = true;
        if fault.kind == FaultKind::Timeout {
            out.to(seat, "");
            out.to(seat, TIMED_OUT);
        }
        let opponent = seat.other();
        let left = ["binachi", "neri"][seat];
        out.to(opponent, "");
        out.to(opponent, format!("I {left} hanno abbandonato la partita."));
        out.to(
            opponent,
            format!("I {} vincono la partita!", side(opponent).1),
        );
        out.to(opponent, "");
        out.everyone(GAME_OVER);
        out.everyone("");
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn plies(&self) -> u32 {
        self.pos.plies()
    }

    fn builtin_line(&self, _seat: Side, name: &str, rng: &mut ChaCha8Rng) -> String {
        let mv = builtin_move(&self.pos, name, 5, rng);
        self.pos.move_text(&mv)
    }

    fn picture(&self) -> Picture {
        let colour = |seat: Side| COLOURS[seat].0;
        let player = |seat: Side| format!("{} ({})", self.names[seat], colour(seat));
        let mover = self.pos.to_move();
        let status = match self.pos.outcome() {
            Some(Outcome::Won(seat)) => format!("{} wins", player(seat)),
            Some(o) => format!("a draw ({})", o.reason().as_str()),
            // Only the player to move can fail, so it is the one who left.
            None if self.over => format!("{} retired", player(mover)),
            None => format!("{} to move", player(mover)),
        };
        let count = self.pos.grid().count();
        let mut notes = vec![status, format!("moves played: {}", self.pos.plies())];
        for (seat, [men, kings]) in Side::BOTH.into_iter().zip(count) {
            notes.push(format!("{}: {men} men, {kings} kings", colour(seat)));
        }
        Picture {
            board: Drawing::Grid(self.pos.picture(self.last.as_ref())),
            notes,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Players with these names, from the usual start.
    pub(crate) fn seating(names: [&str; 2]) -> Seating {
        Seating {
            names: names.map(String::from).to_vec(),
            seed: 0,
            timeout: 1.0,
            opening: None,
        }
    }
    use crate::games::Msg;
    use crate::games::Side::First;

    /// A game with these parameters, in the position `fen`, by the rules they give.
    fn game(params: &[(&str, &str)], fen: &str) -> Dama {
        let params = Params::resolve(super::super::INFO.params, params.iter().copied()).unwrap();
        let mut g = Dama::new(&params, &seating(["w", "b"])).unwrap();
        g.pos = Board::from_fen(fen).unwrap().with_rules(g.pos.rules());
        g
    }

    /// What each of white, black and the spectators received, after the board (if any).
    fn streams(out: &mut Outbox) -> [String; 3] {
        let mut s: [String; 3] = Default::default();
        for m in out.take() {
            match m {
                Msg::To(seat, line) => s[seat.index()] += &format!("{line}\n"),
                Msg::Spectators(line) => s[2] += &format!("{line}\n"),
                Msg::Pause(_) => {}
            }
        }
        s.map(|t| match t.rfind("   A  B  C  D  E  F  G  H\n") {
            Some(i) => t[i + 26..].to_string(),
            None => t,
        })
    }

    /// The streams after white's last move `line` in the position `fen`; the game must be over.
    fn last_move(protocol: &str, fen: &str, line: &str) -> [String; 3] {
        let mut g = game(&[("protocol", protocol)], fen);
        let mut out = Outbox::default();
        assert_eq!(g.on_line(First, line, &mut out), Ok(Step::Done));
        assert_eq!(g.awaiting(), [false, false]);
        streams(&mut out)
    }

    #[test]
    fn the_servers_end_when_a_side_has_no_pieces() {
        let [w, b, s] = last_move("server", "W:W22:B18", "6c 4e");
        let tail = "I bianchi vincono la partita!\n\nGame Over ;)\n\n";
        assert_eq!(w, format!("\n{tail}"));
        assert_eq!(b, format!("\nNon hai più pedine disponibili.\n{tail}"));
        assert_eq!(s, w);
    }

    #[test]
    fn the_servers_end_when_a_side_cannot_move() {
        let stuck = "W:W18,21,22,29,30:B25";
        let [w, b, s] = last_move("server", stuck, "5D 4E");
        let tail = "I bianchi vincono la partita!\n\nGame Over ;)\n\n";
        let told = "I neri non hanno più mosse disponibili.\n";
        assert_eq!(w, format!("\n{told}{tail}"));
        assert_eq!(b, format!("\nNon hai più mosse disponibili.\n{tail}"));
        assert_eq!(s, w);
        // The documented stream says it its own way.
        let [w, b, _] = last_move("docs", stuck, "5D 4E");
        let tail = "I bianchi vincono la partita!\nGame Over ;)\n";
        assert_eq!(w, format!("\n{tail}"));
        assert_eq!(b, format!("\nNon hai più mosse disponibili.\n{tail}"));
    }

    #[test]
    fn the_rules_go_with_the_stream_unless_asked() {
        let rules = |params: &[(&str, &str)]| game(params, "W:W22:B18").pos.rules();
        assert_eq!(rules(&[]), Rules::Server);
        assert_eq!(rules(&[("protocol", "docs")]), Rules::Fid);
        assert_eq!(rules(&[("rules", "fid")]), Rules::Fid);
        assert_eq!(
            rules(&[("protocol", "docs"), ("rules", "server")]),
            Rules::Server
        );
        assert_eq!(rules(&[("rules", "auto")]), Rules::Server);
    }

    #[test]
    fn the_servers_rules_refuse_in_its_words_only() {
        // White could capture 6C x 5D: the server takes a plain step, and refuses a step onto
        // the piece.
        let mut g = game(&[], "W:W22,21:B18,1");
        let mut out = Outbox::default();
        assert_eq!(g.on_line(First, "6C 5D", &mut out), Ok(Step::Retry));
        let [w, _, _] = streams(&mut out);
        assert_eq!(
            w,
            format!(
                "\nSpostamento 6C -> 5D non valido!\nLa posizione scelta è gia occupata.\n{}\n{}\n",
                PROMPT[0], PROMPT[1]
            )
        );
        assert_eq!(g.on_line(First, "6a 5b", &mut out), Ok(Step::Done));
        assert_eq!(g.pos.fen(), "B:W17,22:B1,18");
    }

    #[test]
    fn a_start_the_servers_test_finds_lost_ends_before_the_first_turn() {
        // White's king on 1B can only step down-left, which the server's test never sees.
        let mut g = game(&[], "W:WK1:B6,10");
        let mut out = Outbox::default();
        g.start(&mut out);
        assert_eq!(g.awaiting(), [false, false]);
        assert_eq!(g.outcome(), Some(Outcome::win(Side::Second)));
        let [w, b, _] = streams(&mut out);
        let tail = "I neri vincono la partita!\n\nGame Over ;)\n\n";
        assert_eq!(
            w,
            format!("\nSei i Bianchi\nNon hai più mosse disponibili.\n{tail}")
        );
        assert!(b.ends_with(&format!(
            "I bianchi non hanno più mosse disponibili.\n{tail}"
        )));
        // By FID's rules it steps.
        let mut g = game(&[("rules", "fid")], "W:WK1:B6,10");
        g.start(&mut out);
        assert_eq!(g.awaiting(), [true, false]);
    }

    #[test]
    fn refusals_on_the_server_stream() {
        // By FID white must capture 6C x 5D; the server would take a plain step.
        let mut g = game(&[("rules", "fid")], "W:W22,21:B18,1");
        let mut out = Outbox::default();
        let prompt = format!("{}\n{}\n", PROMPT[0], PROMPT[1]);
        let tries = [
            ("6A", "\nMossa non valida riprova!\n"),
            ("6A\t5B", "\nMossa non valida riprova!\n"),
            (
                "1B 2A",
                "\nNon hai selezionato una tua pedina!\nRicorda che sei i bianchi.\n",
            ),
            (
                "6a 5b",
                "\nMossa non valida!\nLa presa è obbligatoria (regole FID).\n",
            ),
        ];
        g.retries = 9;
        g.tries_left = 9;
        for (line, said) in tries {
            assert_eq!(g.on_line(First, line, &mut out), Ok(Step::Retry), "{line}");
            let [w, b, s] = streams(&mut out);
            assert_eq!(w, format!("{said}{prompt}"), "{line}");
            assert_eq!((b.as_str(), s.as_str()), ("", ""));
        }
        // Out of tries: the reason, no prompt, and the fault.
        g.tries_left = 0;
        let f = g.on_line(First, "6a 5b", &mut out).unwrap_err();
        assert_eq!(f.kind, FaultKind::Illegal);
        assert_eq!(
            f.detail,
            "sent '6a 5b', which FID's rules refuse (rules=fid): a capture is compulsory \
             (after 9 invalid tries)"
        );
        let [w, _, _] = streams(&mut out);
        assert_eq!(
            w,
            "\nMossa non valida!\nLa presa è obbligatoria (regole FID).\n"
        );
        g.on_fault(First, &f, &mut out);
        let [w, b, s] = streams(&mut out);
        assert_eq!(w, "Game Over ;)\n\n");
        assert_eq!(
            b,
            "\nI binachi hanno abbandonato la partita.\nI neri vincono la partita!\n\n\
             Game Over ;)\n\n"
        );
        assert_eq!(s, "Game Over ;)\n\n");
    }
}
