//! The adversarial game server's JSON protocol (checkers, tictactoe, connect4), one JSON object
//! per line, over a bot's channel instead of a TCP socket. One implementation for every game
//! whose rules are a [`Position`]:
//!
//! 1. the bot sends its request, `{"game": "checkers"}`;
//! 2. arena acknowledges: `{"name": "checkers", "player": 1, "timelimit": 3.0}`;
//! 3. the player to move gets the state `{"player": 1, "board": "...", "result": 0, "token": "..."}`
//!    and answers `{"token": "...", "move": ...}`;
//! 4. at the end both get the final state with `result` (-1 tie, 1 or 2 the winner), `history`
//!    (every move) and `log` (what happened, newline-terminated lines).
//!
//! Two dialects ([`Dialect`], the game parameter `protocol`): `server` sends what the original
//! server sent (its piece letters, its JSON formatting, its tokens), `docs` what its README and
//! arena's first versions described. Bots' messages are framed as JSON values, a newline after
//! them or not ([`crate::bot::framing`]).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::Value;

use super::picture::Picture;
use super::position::{self, Textual, builtin_move};
use super::{Outbox, Outcome, ParamKind, ParamSpec, Params, Seating, Side, Step, TwoPlayer};
use crate::failure::{Fault, FaultKind};

/// Which of the two descriptions of the protocol a match follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// What the original server's code sends: its piece letters, Python's `json.dumps`
    /// formatting (`", "` and `": "`), the acknowledgement's keys in its order with the name the
    /// bot asked for and whole seconds as an integer, 40-hex-digit tokens.
    Server,
    /// What the original's README describes and arena sent before the parameter existed: the
    /// README's letters, compact JSON, 8-character tokens.
    Docs,
}

/// The parameters of every JSON game.
pub const PARAMS: &[ParamSpec] = &[ParamSpec {
    name: "protocol",
    help: "server: the original server's piece letters and bytes; docs: its README's (see above)",
    kind: ParamKind::Choice {
        default: "server",
        choices: &["server", "docs"],
        // Logs and run.json from before the parameter were played with the README's letters.
        before: "docs",
    },
}];

impl Dialect {
    fn of(params: &Params) -> Dialect {
        match params.text("protocol") {
            "docs" => Dialect::Docs,
            _ => Dialect::Server,
        }
    }

    /// A message as this dialect writes it.
    fn json<T: Serialize + ?Sized>(self, value: &T) -> String {
        match self {
            // One line for every reader, whatever a bot's JSON escapes made a string hold.
            Dialect::Docs => super::line_breaks::json(value),
            Dialect::Server => {
                let mut bytes = Vec::new();
                let mut ser = serde_json::Serializer::with_formatter(&mut bytes, PythonFormatter);
                value.serialize(&mut ser).expect("a message serialises");
                String::from_utf8(bytes).expect("the formatter writes ASCII")
            }
        }
    }
}

/// JSON as Python's `json.dumps` writes it by default: `", "` between items, `": "` after keys,
/// and every character beyond ASCII escaped as `\uXXXX`.
struct PythonFormatter;

/// Python's `", "` before every item of an array or object but the first.
fn item_separator<W: ?Sized + std::io::Write>(writer: &mut W, first: bool) -> std::io::Result<()> {
    if first {
        Ok(())
    } else {
        writer.write_all(b", ")
    }
}

/// `board` (in the README's letters) in `dialect`'s: the server's letters replace the README's
/// as `server` pairs them, (README's, server's).
pub fn lettered(board: String, dialect: Dialect, server: &[(char, char)]) -> String {
    match dialect {
        Dialect::Docs => board,
        Dialect::Server => board
            .chars()
            .map(|c| server.iter().find(|(d, _)| *d == c).map_or(c, |(_, s)| *s))
            .collect(),
    }
}

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        item_separator(writer, first)
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        item_separator(writer, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut units = [0u16; 2];
        for c in fragment.chars() {
            if c.is_ascii() {
                writer.write_all(&[c as u8])?;
            } else {
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }
}

/// What the JSON protocol needs of a game beyond its rules. Moves are `Sync` because the game
/// keeps the last one for the viewer, and a `Game` is shared between threads.
pub trait JsonRules: Textual<Move: Sync> {
    /// The name in the acknowledgement.
    const NAME: &'static str;
    /// Names a request may use for this game.
    const REQUEST_NAMES: &'static [&'static str];
    /// How deep the built-in `search` bot looks.
    const SEARCH_DEPTH: u32;

    /// The board string, in the dialect's letters.
    fn board(&self, dialect: Dialect) -> String;
    /// A move as the bot sends it; `Err` says why it is malformed.
    fn parse_move(&self, value: &Value) -> Result<Self::Move, String>;
    fn move_json(&self, mv: &Self::Move) -> Value;
    /// The position for the report's viewer; `last` is the move that led to it, if any. The
    /// protocol adds who plays and whose move it is to the notes.
    fn picture(&self, last: Option<&Self::Move>) -> Picture;
}

/// `GameInfo::create` for a JSON game.
pub fn create<P: JsonRules>(
    params: &Params,
    seating: &Seating,
) -> Result<Box<dyn super::Game>, String> {
    Ok(super::two_player(JsonGame::new(
        position::start_of::<P>(seating)?,
        seating,
        Dialect::of(params),
    )))
}

/// A small index sent as a number or as a string holding one (`4` or `"4"`, as the original
/// server's clients send it), below `bound`.
pub fn small_index(value: &Value, bound: u64, what: &str) -> Result<u8, String> {
    let n = match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    match n {
        Some(n) if n < bound => Ok(n as u8),
        _ => Err(format!("expected {what} 0..{}", bound - 1)),
    }
}

/// The built-in bots of every JSON game.
pub const BUILTINS: &[(&str, &str)] = &[
    ("random", "plays a uniformly random legal move"),
    (
        "search",
        "alpha-beta search a few moves deep (see the game's description), random among equals",
    ),
];

#[derive(Serialize)]
struct Ack {
    name: &'static str,
    player: usize,
    timelimit: f64,
}

/// The original's acknowledgement: its keys in its order, the name the bot asked for, the time
/// limit an integer when it is whole seconds (the original's was the integer 5).
#[derive(Serialize)]
struct ServerAck<'a> {
    name: &'a str,
    timelimit: Value,
    player: usize,
}

#[derive(Serialize)]
struct State<'a> {
    player: usize,
    board: String,
    result: i32,
    token: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    history: Option<&'a [Value]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    log: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Waiting for the requests; `true` once a seat's request is in.
    Handshake([bool; 2]),
    Playing,
    Over,
}

pub struct JsonGame<P: JsonRules> {
    pos: P,
    names: [String; 2],
    /// The move that led to `pos`, for the viewer.
    last: Option<P::Move>,
    phase: Phase,
    token: String,
    rng: ChaCha8Rng,
    timelimit: f64,
    history: Vec<Value>,
    log: Vec<String>,
    /// The result as the protocol states it: -1 tie, 1 or 2 the winner.
    result: i32,
    dialect: Dialect,
}

/// `player` numbers in this protocol are 1-based.
/// Before the original server's words in a refusal's detail, which follows the bot's name in
/// arena's lines ("ck_py was refused; the game says: Player 1 submitted ill-formed json: ..."):
/// they read as a quote, not as arena's. The game's own `log` has the words alone.
const QUOTED: &str = "was refused; the game says: ";

fn player(seat: Side) -> usize {
    seat.index() + 1
}

impl<P: JsonRules> JsonGame<P> {
    pub fn new(pos: P, seating: &Seating, dialect: Dialect) -> Self {
        JsonGame {
            pos,
            names: seating.two_names(),
            last: None,
            phase: Phase::Handshake([false; 2]),
            token: String::new(),
            rng: ChaCha8Rng::seed_from_u64(seating.seed),
            timelimit: seating.timeout,
            history: Vec::new(),
            log: Vec::new(),
            result: 0,
            dialect,
        }
    }

    fn new_token(&mut self) {
        if self.dialect == Dialect::Server {
            // 40 hexadecimal digits, as the original's tokens (SHA-1 digests).
            self.token = (0..40)
                .map(|_| char::from_digit(self.rng.random_range(0..16), 16).expect("a digit"))
                .collect();
            return;
        }
        const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%$#&@";
        self.token = (0..8)
            .map(|_| CHARS[self.rng.random_range(0..CHARS.len())] as char)
            .collect();
    }

    fn state_json(&self, for_player: usize, last: bool) -> String {
        let state = State {
            player: for_player,
            board: self.pos.board(self.dialect),
            result: self.result,
            token: &self.token,
            history: last.then_some(&self.history[..]),
            log: last.then(|| self.log.iter().map(|l| format!("{l}\n")).collect()),
        };
        self.dialect.json(&state)
    }

    /// Ask the player to move, and show the spectators the position.
    fn prompt(&mut self, out: &mut Outbox) {
        self.new_token();
        let mover = self.pos.to_move();
        out.to(mover, self.state_json(player(mover), false));
        out.spectators(self.state_json(player(mover), false));
    }

    fn finish(&mut self, result: i32, out: &mut Outbox) {
        self.result = result;
        self.phase = Phase::Over;
        self.new_token();
        for seat in Side::BOTH {
            out.to(seat, self.state_json(player(seat), true));
        }
        out.spectators(self.state_json(player(self.pos.to_move()), true));
    }

    fn on_request(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let dialect = self.dialect;
        let refuse = |out: &mut Outbox, why: &str| {
            out.to(seat, dialect.json(&serde_json::json!({ "log": why })));
            Fault::protocol(format!("sent the request '{line}': {why}"))
        };
        let Ok(request) = serde_json::from_str::<Value>(line) else {
            return Err(refuse(out, "Game request is not json."));
        };
        let Some(name) = request.get("game").and_then(Value::as_str) else {
            return Err(refuse(out, "Please specify a game."));
        };
        if !P::REQUEST_NAMES.contains(&name) {
            return Err(refuse(
                out,
                &format!(
                    "We don't know that game here: this match plays {}.",
                    P::NAME
                ),
            ));
        }
        let ack = match self.dialect {
            Dialect::Docs => self.dialect.json(&Ack {
                name: P::NAME,
                player: player(seat),
                timelimit: self.timelimit,
            }),
            Dialect::Server => {
                let whole = self.timelimit.fract() == 0.0 && self.timelimit < 1e9;
                self.dialect.json(&ServerAck {
                    name,
                    timelimit: if whole {
                        Value::from(self.timelimit as u64)
                    } else {
                        Value::from(self.timelimit)
                    },
                    player: player(seat),
                })
            }
        };
        out.to(seat, ack);
        let Phase::Handshake(mut requested) = self.phase else {
            unreachable!("requests only during the handshake")
        };
        requested[seat] = true;
        self.phase = if requested == [true, true] {
            self.log.push("The game starts.".into());
            self.prompt(out);
            Phase::Playing
        } else {
            Phase::Handshake(requested)
        };
        Ok(Step::Done)
    }

    fn on_move(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let n = player(seat);
        let fail = |kind, why: String| Fault::new(kind, format!("{QUOTED}{why}"));
        let Ok(Value::Object(msg)) = serde_json::from_str::<Value>(line) else {
            return Err(fail(
                FaultKind::Protocol,
                format!("Player {n} submitted ill-formed json: '{line}'"),
            ));
        };
        let Some(mv) = msg.get("move") else {
            return Err(fail(
                FaultKind::Protocol,
                format!("Key 'move' not in move json: '{line}'"),
            ));
        };
        let Some(token) = msg.get("token") else {
            return Err(fail(
                FaultKind::Protocol,
                format!("Move json does not contain 'token': '{line}'"),
            ));
        };
        if token.as_str() != Some(self.token.as_str()) {
            return Err(fail(
                FaultKind::Protocol,
                format!(
                    "Player {n} submitted incorrect token {token} (expected \"{}\")",
                    self.token
                ),
            ));
        }
        let mv = self.pos.parse_move(mv).map_err(|why| {
            fail(
                FaultKind::Protocol,
                format!("Player {n} submitted ill-formed move {mv}: {why}"),
            )
        })?;
        let json = self.pos.move_json(&mv);
        if self.pos.play(&mv).is_err() {
            return Err(fail(
                FaultKind::Illegal,
                format!(
                    "Player {n} submitted illegal move {}",
                    self.pos.move_text(&mv)
                ),
            ));
        }
        self.history.push(json);
        self.last = Some(mv);
        match self.pos.outcome() {
            Some(outcome) => {
                let result = outcome_result(&outcome);
                self.log.push(match result {
                    -1 => format!("The game is a draw ({}).", outcome.reason().as_str()),
                    w => format!("Player {w} wins."),
                });
                self.finish(result, out);
            }
            None => self.prompt(out),
        }
        Ok(Step::Done)
    }
}

/// The protocol's `result`: the winner's player number, or -1 for a tie.
fn outcome_result(o: &Outcome) -> i32 {
    match o.winner() {
        Some(seat) => player(seat) as i32,
        None => -1,
    }
}

impl<P: JsonRules> TwoPlayer for JsonGame<P> {
    fn start(&mut self, _out: &mut Outbox) {
        // The bots speak first: each sends its request.
    }

    fn awaiting(&self) -> [bool; 2] {
        match self.phase {
            Phase::Handshake(requested) => [!requested[0], !requested[1]],
            Phase::Playing => {
                let mut a = [false; 2];
                a[self.pos.to_move()] = true;
                a
            }
            Phase::Over => [false; 2],
        }
    }

    fn on_line(&mut self, seat: Side, line: &str, out: &mut Outbox) -> Result<Step, Fault> {
        match self.phase {
            Phase::Handshake(_) => self.on_request(seat, line.trim(), out),
            _ => self.on_move(seat, line.trim(), out),
        }
    }

    fn on_fault(&mut self, seat: Side, fault: &Fault, out: &mut Outbox) {
        let n = player(seat);
        self.log.push(match fault.kind {
            FaultKind::Timeout => format!("Player {n} took too long to submit move"),
            FaultKind::Crash | FaultKind::Memory => {
                format!("Player {n} left the game ({})", fault.detail)
            }
            FaultKind::Illegal | FaultKind::Protocol => {
                let d = &fault.detail;
                d.strip_prefix(QUOTED).unwrap_or(d).to_string()
            }
        });
        self.log
            .push(format!("Player {} wins.", player(seat.other())));
        self.finish(player(seat.other()) as i32, out);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase == Phase::Over {
            self.pos.outcome()
        } else {
            None
        }
    }

    fn plies(&self) -> u32 {
        self.pos.plies()
    }

    fn greeting(&self) -> bool {
        matches!(self.phase, Phase::Handshake(_))
    }

    fn builtin_line(&self, seat: Side, name: &str, rng: &mut ChaCha8Rng) -> String {
        if let Phase::Handshake(_) = self.phase {
            return serde_json::json!({ "game": P::NAME }).to_string();
        }
        let _ = seat;
        let mv = builtin_move(&self.pos, name, P::SEARCH_DEPTH, rng);
        serde_json::json!({ "token": self.token, "move": self.pos.move_json(&mv) }).to_string()
    }

    fn picture(&self) -> Picture {
        let name = |seat: Side| format!("{} (player {})", self.names[seat], player(seat));
        let status = match self.phase {
            Phase::Handshake(_) => "waiting for the players' requests".to_string(),
            Phase::Playing => format!("{} to move", name(self.pos.to_move())),
            Phase::Over => match self.result {
                1 | 2 => format!("{} wins", name(Side::BOTH[self.result as usize - 1])),
                _ => "a draw".to_string(),
            },
        };
        let mut picture = self.pos.picture(self.last.as_ref());
        let mut notes = vec![status, format!("moves played: {}", self.pos.plies())];
        notes.append(&mut picture.notes);
        picture.notes = notes;
        picture
    }
}

/// Driving a JSON game through its protocol lines, for the games' tests.
#[cfg(test)]
pub mod testing {
    use super::*;

    /// A game between `alpha` and `beta` with both requests in, player 1 to move.
    pub fn started<P: JsonRules>() -> JsonGame<P> {
        let seating = Seating {
            names: vec!["alpha".into(), "beta".into()],
            seed: 1,
            timeout: 1.0,
            opening: None,
        };
        let mut game = JsonGame::new(P::start(), &seating, Dialect::Docs);
        let mut out = Outbox::default();
        for seat in Side::BOTH {
            let request = format!(r#"{{"game": "{}"}}"#, P::NAME);
            assert_eq!(game.on_line(seat, &request, &mut out), Ok(Step::Done));
        }
        game
    }

    /// The line answering the current state with `mv` (JSON text).
    pub fn move_line<P: JsonRules>(game: &JsonGame<P>, mv: &str) -> String {
        format!(r#"{{"token": "{}", "move": {mv}}}"#, game.token)
    }
}
