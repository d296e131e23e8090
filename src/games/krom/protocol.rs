//! KROM over the seed's JSON messages, one object per line. The bots speak first (`hello`,
//! `join`); then each turn the mover gets `you` and answers `move`, the opponent gets `moved`
//! (what it could see of the actions), both get `state` (each its own view), and at the end both
//! get `over` with the full log. Spectators see everything.

use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::{Value, json};

use super::bots;
use super::rules::{Action, Board, Dir, Kind, Played, Pos, Seen, State, side_name};
use crate::games::picture::{self, Picture};
use crate::games::{Draw, Outbox, Outcome, Params, Side, Step, TwoPlayer};
use crate::failure::{Fault, FaultKind};

/// The game's id in `start`, `state` and `over`: one game per match.
pub const GAME_ID: &str = "g-1";

/// A player's id: `u-1` for seat 0 (red), `u-2` for seat 1 (blue).
pub fn uid(seat: Side) -> String {
    format!("u-{}", seat.index() + 1)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Hello,
    Join,
    Joined,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Handshake([Stage; 2]),
    Playing,
    Over,
}

#[derive(Serialize)]
struct Welcome {
    msg: &'static str,
    id: String,
}

#[derive(Serialize)]
struct PlayerHead {
    id: String,
    nick: String,
}

#[derive(Serialize)]
struct GameHead {
    id: &'static str,
    start: u64,
    players: Vec<PlayerHead>,
}

#[derive(Serialize)]
struct Start {
    msg: &'static str,
    moves: u32,
    game: GameHead,
}

#[derive(Serialize)]
struct You {
    msg: &'static str,
    moves: u32,
}

#[derive(Serialize)]
struct Moved {
    msg: &'static str,
    uid: String,
    moves: Vec<Value>,
}

#[derive(Serialize)]
struct PlayerState {
    id: String,
    moves: u32,
    moving: bool,
}

#[derive(Serialize)]
struct Players {
    r: PlayerState,
    b: PlayerState,
}

#[derive(Serialize)]
struct StateMsg {
    msg: &'static str,
    id: &'static str,
    start: u64,
    turn: u32,
    players: Players,
    board: Vec<Vec<String>>,
}

#[derive(Serialize)]
struct Results {
    id: &'static str,
    start: u64,
    end: u64,
    won: Option<String>,
    lost: Option<String>,
    forfeit: bool,
}

#[derive(Serialize)]
struct Over<'a> {
    msg: &'static str,
    results: Results,
    log: &'a [Event],
}

/// An entry of the `over` log.
#[derive(Serialize, Clone, Debug)]
struct Event {
    event: &'static str,
    when: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    /// The turn (1-based) a move belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<u32>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    action: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
}

impl Event {
    fn new(event: &'static str, when: u64) -> Event {
        Event {
            event,
            when,
            id: None,
            turn: None,
            action: None,
            why: None,
        }
    }
}

/// A message on one line for every reader: the `over` log quotes what a bot sent.
fn line(value: &impl Serialize) -> String {
    crate::games::line_breaks::json(value)
}

fn seconds(out: &Outbox) -> u64 {
    out.now_ms / 1000
}

/// An action as JSON: `["move", x1, y1, x2, y2]`, `["make", x, y, "wall"]`, `["fire", x, y, d]`,
/// `["camo", x, y]`, `["pass"]`.
pub fn action_json(a: &Action) -> Value {
    match *a {
        Action::Move(f, t) => json!(["move", f.x, f.y, t.x, t.y]),
        Action::Make(p, k) => json!(["make", p.x, p.y, k.name()]),
        Action::Fire(p, d) => json!(["fire", p.x, p.y, d.index()]),
        Action::Camo(p) => json!(["camo", p.x, p.y]),
        Action::Pass => json!(["pass"]),
    }
}

/// An action as the opponent sees it: the action itself, `null` for a space it cannot see,
/// `["hit", x, y]` for a shot from a gun it cannot see, `["hidden"]` for nothing at all.
pub fn seen_json(s: &Seen) -> Value {
    let xy = |p: Option<Pos>| match p {
        Some(p) => [json!(p.x), json!(p.y)],
        None => [Value::Null, Value::Null],
    };
    match *s {
        Seen::Hidden => json!(["hidden"]),
        Seen::Pass => json!(["pass"]),
        Seen::Move(f, t) => {
            let ([a, b], [c, d]) = (xy(f), xy(t));
            json!(["move", a, b, c, d])
        }
        Seen::Make(p, k) => action_json(&Action::Make(p, k)),
        Seen::Fire(p, d) => action_json(&Action::Fire(p, d)),
        Seen::Hit(p) => json!(["hit", p.x, p.y]),
        Seen::Camo(p) => action_json(&Action::Camo(p)),
    }
}

/// Why an action cannot be taken: not an action at all (`protocol`) or a forbidden one.
#[derive(Debug, PartialEq)]
pub enum Bad {
    Protocol(String),
    Illegal(String),
}

/// Read one action. Its shape (an array naming a known action, with integers and a kind
/// string where they belong) is the protocol; its values (on the board, a direction 0..3, a
/// piece kind that can be made) are the rules.
pub fn parse_action(v: &Value) -> Result<Action, Bad> {
    let proto = |why: &str| Bad::Protocol(format!("{v} is not an action: {why}"));
    let Some(items) = v.as_array() else {
        return Err(proto("an action is an array such as [\"pass\"]"));
    };
    let Some(name) = items.first().and_then(Value::as_str) else {
        return Err(proto("its first item must name the action"));
    };
    let (arity, shape) = match name {
        "move" => (5, "[\"move\", x1, y1, x2, y2]"),
        "make" => (4, "[\"make\", x, y, \"wall\" or \"gun\"]"),
        "fire" => (4, "[\"fire\", x, y, direction]"),
        "camo" => (3, "[\"camo\", x, y]"),
        "pass" => (1, "[\"pass\"]"),
        _ => {
            return Err(proto("the actions are move, make, fire, camo and pass"));
        }
    };
    if items.len() != arity {
        return Err(proto(&format!("expected {shape}")));
    }
    let int = |i: usize| -> Result<i64, Bad> {
        items[i]
            .as_i64()
            .ok_or_else(|| proto(&format!("expected {shape} with integers")))
    };
    let pos = |i: usize| -> Result<Pos, Bad> {
        let (x, y) = (int(i)?, int(i + 1)?);
        Pos::at(x, y)
            .ok_or_else(|| Bad::Illegal(format!("[{x}, {y}] is off the board (x and y are 0..15)")))
    };
    Ok(match name {
        "move" => {
            // Check the shape of both spaces before their values.
            int(3)?;
            int(4)?;
            Action::Move(pos(1)?, pos(3)?)
        }
        "make" => {
            let Some(kind) = items[3].as_str() else {
                return Err(proto(&format!("expected {shape}")));
            };
            let at = pos(1)?;
            let kind = match kind {
                "wall" => Kind::Wall,
                "gun" => Kind::Gun,
                "factory" => Kind::Factory,
                other => {
                    return Err(Bad::Illegal(format!(
                        "cannot make a {other:?}: only \"wall\" and \"gun\""
                    )));
                }
            };
            Action::Make(at, kind)
        }
        "fire" => {
            let d = int(3)?;
            let gun = pos(1)?;
            let dir = Dir::from_index(d).ok_or_else(|| {
                Bad::Illegal(format!(
                    "{d} is not a direction (0 north, 1 east, 2 south, 3 west)"
                ))
            })?;
            Action::Fire(gun, dir)
        }
        "camo" => Action::Camo(pos(1)?),
        _ => Action::Pass,
    })
}

pub struct Krom {
    state: State,
    phase: Phase,
    names: [String; 2],
    /// POSIX seconds when the game object started (before the handshake).
    created: u64,
    /// POSIX seconds of the `start` message.
    start: Option<u64>,
    log: Vec<Event>,
    /// The actions of the turn just played, for the viewer to highlight.
    last: Vec<Played>,
}

impl Krom {
    pub fn new(params: &Params, names: [String; 2]) -> Krom {
        Krom {
            state: State::new(
                params.int("max_turns") as u32,
                params.int("move_cap") as u32,
            ),
            phase: Phase::Handshake([Stage::Hello; 2]),
            names,
            created: 0,
            start: None,
            log: Vec::new(),
            last: Vec::new(),
        }
    }

    fn start_time(&self) -> u64 {
        self.start.unwrap_or(self.created)
    }

    /// The `state` message for a seat (`None`: a spectator, who sees everything).
    fn state_line(&self, viewer: Option<Side>) -> String {
        let moving = |seat: Side| self.phase == Phase::Playing && self.state.to_move == seat;
        let player = |seat: Side| PlayerState {
            id: uid(seat),
            moves: self.state.moves[seat],
            moving: moving(seat),
        };
        line(&StateMsg {
            msg: "state",
            id: GAME_ID,
            start: self.start_time(),
            turn: self.state.turns,
            players: Players {
                r: player(Side::First),
                b: player(Side::Second),
            },
            board: self.state.board.rows(viewer),
        })
    }

    fn send_states(&self, out: &mut Outbox) {
        for seat in Side::BOTH {
            out.to(seat, self.state_line(Some(seat)));
        }
        out.spectators(self.state_line(None));
    }

    fn prompt(&self, out: &mut Outbox) {
        let seat = self.state.to_move;
        out.to(
            seat,
            line(&You {
                msg: "you",
                moves: self.state.moves[seat],
            }),
        );
    }

    fn begin(&mut self, out: &mut Outbox) {
        self.phase = Phase::Playing;
        let now = seconds(out);
        self.start = Some(now);
        let start = line(&Start {
            msg: "start",
            moves: self.state.moves[0],
            game: GameHead {
                id: GAME_ID,
                start: now,
                players: Side::BOTH
                    .into_iter()
                    .map(|s| PlayerHead {
                        id: uid(s),
                        nick: self.names[s].clone(),
                    })
                    .collect(),
            },
        });
        out.everyone(&start);
        self.send_states(out);
        self.prompt(out);
    }

    fn finish(&mut self, out: &mut Outbox, winner: Option<Side>, forfeit: bool) {
        self.phase = Phase::Over;
        let end = seconds(out);
        self.log.push(Event::new("over", end));
        let over = line(&Over {
            msg: "over",
            results: Results {
                id: GAME_ID,
                start: self.start_time(),
                end,
                won: winner.map(uid),
                lost: winner.map(|w| uid(w.other())),
                forfeit,
            },
            log: &self.log,
        });
        out.everyone(&over);
    }

    fn on_handshake(
        &mut self,
        seat: Side,
        msg: &serde_json::Map<String, Value>,
        line_text: &str,
        out: &mut Outbox,
    ) -> Result<Step, Fault> {
        let Phase::Handshake(mut stages) = self.phase else {
            unreachable!("handshake lines only during the handshake")
        };
        let kind = msg.get("msg").and_then(Value::as_str);
        match (stages[seat], kind) {
            (Stage::Hello, Some("hello")) => {
                if msg.get("nick").is_some_and(|n| !n.is_string()) {
                    return Err(Fault::protocol(format!(
                        "sent {line_text}: the nick must be a string"
                    )));
                }
                out.to(
                    seat,
                    line(&Welcome {
                        msg: "welcome",
                        id: uid(seat),
                    }),
                );
                stages[seat] = Stage::Join;
            }
            (Stage::Join, Some("join")) => stages[seat] = Stage::Joined,
            (stage, _) => {
                let want = if stage == Stage::Hello {
                    "{\"msg\": \"hello\", \"nick\": ...}"
                } else {
                    "{\"msg\": \"join\"}"
                };
                return Err(Fault::protocol(format!(
                    "sent {line_text} where {want} was expected"
                )));
            }
        }
        self.phase = Phase::Handshake(stages);
        if stages == [Stage::Joined; 2] {
            self.begin(out);
        }
        Ok(Step::Done)
    }

    fn on_move(
        &mut self,
        seat: Side,
        msg: &serde_json::Map<String, Value>,
        line_text: &str,
        out: &mut Outbox,
    ) -> Result<Step, Fault> {
        if msg.get("msg").and_then(Value::as_str) != Some("move") {
            return Err(Fault::protocol(format!(
                "sent {line_text} where {{\"msg\": \"move\", \"moves\": [...]}} was expected"
            )));
        }
        let Some(items) = msg.get("moves").and_then(Value::as_array) else {
            return Err(Fault::protocol(format!(
                "sent {line_text}: a move message needs \"moves\", an array of actions"
            )));
        };
        // The shape of every action first, then the count, then the values and the rules.
        let parsed: Vec<Result<Action, Bad>> = items.iter().map(parse_action).collect();
        if let Some(Err(Bad::Protocol(why))) =
            parsed.iter().find(|r| matches!(r, Err(Bad::Protocol(_))))
        {
            return Err(Fault::protocol(why.clone()));
        }
        let have = self.state.moves[seat];
        if items.len() as u64 > have as u64 {
            return Err(Fault::illegal(format!(
                "sent {} actions with only {have} moves",
                items.len()
            )));
        }
        let mut actions = Vec::new();
        for (i, r) in parsed.into_iter().enumerate() {
            match r {
                Ok(a) => actions.push(a),
                Err(Bad::Illegal(why) | Bad::Protocol(why)) => {
                    return Err(Fault::illegal(format!(
                        "action {} of the turn: {why}",
                        i + 1
                    )));
                }
            }
        }
        let played = self.state.play_turn(&actions).map_err(Fault::illegal)?;
        self.record(seat, &played, out);
        self.last = played;
        Ok(Step::Done)
    }

    /// Log a played turn and tell everyone.
    fn record(&mut self, seat: Side, played: &[Played], out: &mut Outbox) {
        let when = seconds(out);
        let turn = self.state.turns;
        for p in played {
            self.log.push(Event {
                id: Some(uid(seat)),
                turn: Some(turn),
                action: Some(action_json(&p.action)),
                ..Event::new("move", when)
            });
        }
        out.to(
            seat.other(),
            line(&Moved {
                msg: "moved",
                uid: uid(seat),
                moves: played.iter().map(|p| seen_json(&p.seen)).collect(),
            }),
        );
        out.spectators(line(&Moved {
            msg: "moved",
            uid: uid(seat),
            moves: played.iter().map(|p| action_json(&p.action)).collect(),
        }));
        if self.state.is_over() {
            // The states show no one moving.
            self.phase = Phase::Over;
            self.send_states(out);
            self.finish(out, self.state.winner, false);
        } else {
            self.send_states(out);
            self.prompt(out);
        }
    }

    /// The true board (for tests).
    #[cfg(test)]
    pub fn board(&self) -> &Board {
        &self.state.board
    }
}

impl TwoPlayer for Krom {
    fn start(&mut self, out: &mut Outbox) {
        // The bots speak first: each sends hello, then join.
        self.created = seconds(out);
    }

    fn awaiting(&self) -> [bool; 2] {
        match self.phase {
            Phase::Handshake(stages) => stages.map(|s| s != Stage::Joined),
            Phase::Playing => {
                let mut a = [false; 2];
                a[self.state.to_move] = true;
                a
            }
            Phase::Over => [false; 2],
        }
    }

    fn on_line(&mut self, seat: Side, text: &str, out: &mut Outbox) -> Result<Step, Fault> {
        let text = text.trim();
        let Ok(Value::Object(msg)) = serde_json::from_str::<Value>(text) else {
            return Err(Fault::protocol(format!(
                "sent {text:?}, which is not a JSON object"
            )));
        };
        match self.phase {
            Phase::Handshake(_) => self.on_handshake(seat, &msg, text, out),
            Phase::Playing => self.on_move(seat, &msg, text, out),
            Phase::Over => Err(Fault::protocol("spoke after the game was over")),
        }
    }

    fn on_fault(&mut self, seat: Side, fault: &Fault, out: &mut Outbox) {
        if self.phase == Phase::Over {
            return;
        }
        let when = seconds(out);
        let forfeit = matches!(fault.kind, FaultKind::Timeout | FaultKind::Crash);
        let event = if forfeit {
            Event {
                id: Some(uid(seat)),
                why: Some(fault.detail.clone()),
                ..Event::new("disconnect", when)
            }
        } else {
            Event {
                id: Some(uid(seat)),
                why: Some(fault.detail.clone()),
                ..Event::new(fault.kind.as_str(), when)
            }
        };
        self.log.push(event);
        self.finish(out, Some(seat.other()), forfeit);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.state.winner {
            Some(Outcome::win(w))
        } else if self.state.drawn {
            Some(Outcome::Drawn(Draw::Limit))
        } else {
            None
        }
    }

    fn plies(&self) -> u32 {
        self.state.turns
    }

    fn builtin_line(&self, seat: Side, name: &str, rng: &mut ChaCha8Rng) -> String {
        match self.phase {
            Phase::Handshake(stages) if stages[seat] == Stage::Hello => {
                json!({"msg": "hello", "nick": name}).to_string()
            }
            Phase::Handshake(_) => json!({"msg": "join"}).to_string(),
            _ => {
                // Exactly what the seat's `state` message shows, read back: no more.
                let sent: Value =
                    serde_json::from_str(&self.state_line(Some(seat))).expect("a state is JSON");
                let rows: Vec<Vec<String>> =
                    serde_json::from_value(sent["board"].clone()).expect("rows of strings");
                let view = Board::from_rows(&rows).expect("a state board reads back");
                let moves = self.state.moves[seat];
                let actions = bots::plan(name, view, seat, moves, rng);
                let moves: Vec<Value> = actions.iter().map(action_json).collect();
                json!({"msg": "move", "moves": moves}).to_string()
            }
        }
    }

    fn picture(&self) -> Picture {
        let side = |seat: Side| format!("{} ({})", side_name(seat), self.names[seat]);
        let st = &self.state;
        let first = match (self.phase, st.winner) {
            (Phase::Handshake(_), _) => "the players are joining".to_string(),
            (_, Some(w)) => format!("{} wins", side(w)),
            (_, None) if st.drawn => "drawn: the turn limit".to_string(),
            (Phase::Over, None) => "game over: a player failed".to_string(),
            (Phase::Playing, None) => format!("{} to move", side(st.to_move)),
        };
        let mut notes = vec![first, format!("turn {} of {}", st.turns, st.max_turns)];
        for seat in Side::BOTH {
            notes.push(format!("{}: {} moves in hand", side(seat), st.moves[seat]));
        }
        Picture {
            board: picture::Board::Grid(st.board.picture(&self.last)),
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Msg;
    use crate::games::Side::{First, Second};
    use crate::games::krom::rules::{self, Effect, MOVES_PER_TURN};
    use rand::SeedableRng;

    fn game(max_turns: u32) -> Krom {
        let t = max_turns.to_string();
        let params = Params::resolve(super::super::INFO.params, [("max_turns", t.as_str())])
            .expect("params");
        Krom::new(&params, ["Lisa".into(), "Bart".into()])
    }

    fn parse(l: &str) -> Value {
        serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))
    }

    /// Lines for one seat (`None`: the spectators), parsed.
    fn lines_to(msgs: &[Msg], seat: Option<Side>) -> Vec<Value> {
        msgs.iter()
            .filter_map(|m| match (m, seat) {
                (Msg::To(s, l), Some(want)) if *s == want.into() => Some(parse(l)),
                (Msg::Spectators(l), None) => Some(parse(l)),
                _ => None,
            })
            .collect()
    }

    fn joined(g: &mut Krom, out: &mut Outbox) {
        g.start(out);
        for seat in Side::BOTH {
            g.on_line(seat, r#"{"msg":"hello","nick":"x"}"#, out)
                .unwrap();
        }
        for seat in Side::BOTH {
            g.on_line(seat, r#"{"msg":"join"}"#, out).unwrap();
        }
    }

    #[test]
    fn handshake_then_start_state_and_you() {
        let mut g = game(200);
        let mut out = Outbox {
            now_ms: 1_700_000_000_123,
            ..Outbox::default()
        };
        g.start(&mut out);
        assert_eq!(g.awaiting(), [true, true]);
        let e = g.on_line(First, r#"{"msg":"join"}"#, &mut out).unwrap_err();
        assert_eq!(e.kind, FaultKind::Protocol);
        g.on_line(Second, r#"{"msg":"hello","nick":"Bart"}"#, &mut out)
            .unwrap();
        assert_eq!(
            lines_to(&out.take(), Some(Second)),
            [json!({"msg": "welcome", "id": "u-2"})]
        );
        g.on_line(First, r#" {"msg":"hello"} "#, &mut out).unwrap();
        g.on_line(Second, r#"{"msg":"join"}"#, &mut out).unwrap();
        assert_eq!(g.awaiting(), [true, false]);
        out.now_ms = 1_700_000_005_999;
        g.on_line(First, r#"{"msg":"join"}"#, &mut out).unwrap();
        let msgs = out.take();
        let start = json!({"msg": "start", "moves": 3, "game": {"id": "g-1", "start": 1_700_000_005u64,
            "players": [{"id": "u-1", "nick": "Lisa"}, {"id": "u-2", "nick": "Bart"}]}});
        let red = lines_to(&msgs, Some(First));
        assert_eq!(red[0], json!({"msg": "welcome", "id": "u-1"}));
        assert_eq!(red[1], start);
        assert_eq!(red[2]["msg"], "state");
        assert_eq!(
            red[2]["players"],
            json!({"r": {"id": "u-1", "moves": 3, "moving": true},
                   "b": {"id": "u-2", "moves": 3, "moving": false}})
        );
        assert_eq!(red[2]["board"][1][7], "-rf3");
        assert_eq!(red[2]["board"][14][8], "-bf3");
        assert_eq!(red[3], json!({"msg": "you", "moves": 3}));
        assert_eq!(red.len(), 4);
        let blue = lines_to(&msgs, Some(Second));
        assert_eq!(blue.len(), 2, "start and state: {blue:?}");
        assert_eq!(blue[0], start);
        let spectators = lines_to(&msgs, None);
        assert_eq!(spectators.len(), 2);
        assert_eq!(g.awaiting(), [true, false]);
    }

    /// A bot's JSON may hold line breaks as escapes (`\u2028`), which the `over` log quotes back
    /// to both players and the spectators: escaped again, never raw.
    #[test]
    fn the_over_log_quotes_what_a_bot_sent_on_one_line() {
        let mut g = game(200);
        let mut out = Outbox::default();
        joined(&mut g, &mut out);
        out.take();
        let sent = r#"{"msg":"move","moves":[["jump\u2028\u0085\u2029\r"]]}"#;
        let fault = g.on_line(First, sent, &mut out).unwrap_err();
        g.on_fault(First, &fault, &mut out);
        let msgs = out.take();
        for m in &msgs {
            if let Msg::To(_, l) | Msg::Spectators(l) = m {
                assert_eq!(crate::games::line_breaks::find(l), None, "{l}");
            }
        }
        let over = lines_to(&msgs, Some(Second)).pop().unwrap();
        // The same text, once the JSON is read.
        let why = &over["log"][0]["why"];
        assert!(
            why.as_str()
                .unwrap()
                .contains("[\"jump\u{2028}\u{85}\u{2029}\\r\"]"),
            "{why}"
        );
    }

    #[test]
    fn a_turn_is_relayed_as_each_side_may_see_it() {
        let mut g = game(200);
        let mut out = Outbox::default();
        joined(&mut g, &mut out);
        out.take();
        let turn =
            r#"{"msg":"move","moves":[["camo",7,3],["make",7,3,"gun"],["make",8,2,"wall"]]}"#;
        g.on_line(First, turn, &mut out).unwrap();
        let msgs = out.take();
        let blue = lines_to(&msgs, Some(Second));
        assert_eq!(
            blue[0],
            json!({"msg": "moved", "uid": "u-1", "moves": [["camo", 7, 3], ["hidden"], ["make", 8, 2, "wall"]]})
        );
        assert_eq!(
            blue[1]["board"][3][7], "#",
            "blue sees the camo, not the gun"
        );
        assert_eq!(blue[1]["board"][2][8], "-rw2");
        assert_eq!(blue[1]["players"]["r"]["moves"], 3);
        assert_eq!(blue[1]["players"]["b"]["moving"], true);
        assert_eq!(blue[2], json!({"msg": "you", "moves": 3}));
        let red = lines_to(&msgs, Some(First));
        assert_eq!(red.len(), 1, "the mover gets its state only");
        assert_eq!(red[0]["board"][3][7], "#rg1");
        let spectators = lines_to(&msgs, None);
        assert_eq!(spectators[0]["moves"][1], json!(["make", 7, 3, "gun"]));
        assert_eq!(spectators[1]["board"][3][7], "#rg1");
    }

    #[test]
    fn bad_lines_are_protocol_or_illegal() {
        let cases: &[(&str, FaultKind, &str)] = &[
            ("move", FaultKind::Protocol, "not a JSON object"),
            (
                r#"{"msg":"moves","moves":[]}"#,
                FaultKind::Protocol,
                "was expected",
            ),
            (r#"{"msg":"move"}"#, FaultKind::Protocol, "needs \"moves\""),
            (
                r#"{"msg":"move","moves":[["jump",1,2]]}"#,
                FaultKind::Protocol,
                "the actions are",
            ),
            (
                r#"{"msg":"move","moves":[["fire",1,2]]}"#,
                FaultKind::Protocol,
                "expected [\"fire\"",
            ),
            (
                r#"{"msg":"move","moves":[["camo",1,"2"]]}"#,
                FaultKind::Protocol,
                "integers",
            ),
            (
                r#"{"msg":"move","moves":[["make",7,3,4]]}"#,
                FaultKind::Protocol,
                "expected",
            ),
            (
                r#"{"msg":"move","moves":["pass"]}"#,
                FaultKind::Protocol,
                "an array",
            ),
            (
                r#"{"msg":"move","moves":[["pass"],["pass"],["pass"],["pass"]]}"#,
                FaultKind::Illegal,
                "4 actions with only 3 moves",
            ),
            (
                r#"{"msg":"move","moves":[["camo",16,3]]}"#,
                FaultKind::Illegal,
                "off the board",
            ),
            (
                r#"{"msg":"move","moves":[["make",7,3,"tower"]]}"#,
                FaultKind::Illegal,
                "only \"wall\"",
            ),
            (
                r#"{"msg":"move","moves":[["make",7,3,"factory"]]}"#,
                FaultKind::Illegal,
                "cannot make a factory",
            ),
            (
                r#"{"msg":"move","moves":[["fire",7,2,4]]}"#,
                FaultKind::Illegal,
                "not a direction",
            ),
            (
                r#"{"msg":"move","moves":[["fire",7,2,2]]}"#,
                FaultKind::Illegal,
                "no gun of its own",
            ),
            (
                r#"{"msg":"move","moves":[["move",8,13,8,12]]}"#,
                FaultKind::Illegal,
                "no wall or gun of its own",
            ),
            (
                r#"{"msg":"move","moves":[["make",7,3,"gun"],["make",7,5,"gun"]]}"#,
                FaultKind::Illegal,
                "action 2 of the turn",
            ),
        ];
        for (text, kind, words) in cases {
            let mut g = game(200);
            let mut out = Outbox::default();
            joined(&mut g, &mut out);
            out.take();
            let e = g.on_line(First, text, &mut out).unwrap_err();
            assert_eq!(e.kind, *kind, "{text}: {e:?}");
            assert!(
                e.detail.contains(words),
                "{text}: {:?} lacks {words:?}",
                e.detail
            );
            assert!(out.take().is_empty(), "nothing is sent for a refused line");
            assert_eq!(g.board(), &rules::Board::start(), "and nothing changed");
            // The judge then reports the fault: both get `over`.
            g.on_fault(First, &e, &mut out);
            let over = &lines_to(&out.take(), Some(Second))[0];
            assert_eq!(over["results"]["won"], "u-2");
            assert_eq!(over["results"]["lost"], "u-1");
            assert_eq!(over["results"]["forfeit"], false);
            let log = over["log"].as_array().unwrap();
            assert_eq!(log[0]["event"], kind.as_str());
            assert_eq!(g.awaiting(), [false, false]);
        }
    }

    #[test]
    fn a_timeout_is_a_forfeit_with_a_disconnect_event() {
        let mut g = game(200);
        let mut out = Outbox::default();
        joined(&mut g, &mut out);
        g.on_line(First, r#"{"msg":"move","moves":[["pass"]]}"#, &mut out)
            .unwrap();
        out.now_ms = 42_000;
        out.take();
        g.on_fault(
            Second,
            &Fault::new(FaultKind::Timeout, "too slow"),
            &mut out,
        );
        let msgs = out.take();
        let over = &lines_to(&msgs, Some(First))[0];
        assert_eq!(over["results"]["forfeit"], true);
        assert_eq!(over["results"]["won"], "u-1");
        assert_eq!(over["results"]["end"], 42);
        let log = over["log"].as_array().unwrap();
        assert_eq!(
            log[0],
            json!({"event": "move", "when": 0, "id": "u-1", "turn": 1, "move": ["pass"]})
        );
        assert_eq!(
            log[1],
            json!({"event": "disconnect", "when": 42, "id": "u-2", "why": "too slow"})
        );
        assert_eq!(log[2], json!({"event": "over", "when": 42}));
        assert_eq!(lines_to(&msgs, None)[0], *over);
        assert_eq!(g.outcome(), None, "a fault decides, not the game");
        // A second fault (the other seat) changes nothing.
        g.on_fault(First, &Fault::new(FaultKind::Crash, "gone"), &mut out);
        assert!(out.take().is_empty());
    }

    #[test]
    fn the_turn_limit_is_a_draw_announced_in_over() {
        let mut g = game(2);
        let mut out = Outbox::default();
        joined(&mut g, &mut out);
        g.on_line(First, r#"{"msg":"move","moves":[]}"#, &mut out)
            .unwrap();
        g.on_line(Second, r#"{"msg":"move","moves":[]}"#, &mut out)
            .unwrap();
        assert_eq!(g.awaiting(), [false, false]);
        assert_eq!(g.outcome(), Some(Outcome::Drawn(Draw::Limit)));
        assert_eq!(g.plies(), 2);
        let msgs = out.take();
        let red = lines_to(&msgs, Some(First));
        let over = red.last().unwrap();
        assert_eq!(over["msg"], "over");
        assert_eq!(over["results"]["won"], Value::Null);
        assert_eq!(over["results"]["lost"], Value::Null);
        let state = &red[red.len() - 2];
        assert_eq!(state["players"]["r"]["moving"], false);
        assert_eq!(state["players"]["r"]["moves"], 2 * MOVES_PER_TURN);
    }

    /// Positions a `moved` entry names as holding (or having held) a piece; camo aside.
    #[test]
    fn the_picture_shows_each_side_what_its_state_showed() {
        let mut g = game(200);
        let mut out = Outbox::default();
        assert_eq!(g.picture().notes[0], "the players are joining");
        joined(&mut g, &mut out);
        let p = g.picture();
        let (start, notes) = (p.grid(), &p.notes);
        assert_eq!(
            *notes,
            [
                "red (Lisa) to move",
                "turn 0 of 200",
                "red (Lisa): 3 moves in hand",
                "blue (Bart): 3 moves in hand"
            ]
        );
        let turn = r#"{"msg":"move","moves":[["camo",7,3],["make",7,3,"gun"]]}"#;
        g.on_line(First, turn, &mut out).unwrap();
        let turn = r#"{"msg":"move","moves":[["make",9,13,"gun"],["fire",9,13,0]]}"#;
        g.on_line(Second, turn, &mut out).unwrap();
        let q = g.picture();
        let (after, notes) = (q.grid(), &q.notes);
        let at = |view: usize, x: usize, y: usize| after.views[view].cells.as_bytes()[y * 16 + x];
        // Red's gun under camo: the referee and red see it, blue does not.
        assert_eq!([at(0, 7, 3), at(1, 7, 3), at(2, 7, 3)], *b"GG.");
        // Blue's new gun shot north up column 9: nothing there but the edge.
        assert_eq!([at(0, 9, 13), at(1, 9, 13), at(2, 9, 13)], *b"ggg");
        assert_eq!(after.ground.as_bytes()[3 * 16 + 7], b'*');
        assert_eq!(after.ground.matches('*').count(), 1);
        // Only those two spaces changed, for the referee.
        let changed: Vec<usize> = (0..256)
            .filter(|&i| start.views[0].cells.as_bytes()[i] != after.views[0].cells.as_bytes()[i])
            .collect();
        assert_eq!(changed, [3 * 16 + 7, 13 * 16 + 9]);
        assert_eq!(after.last, [13 * 16 + 9]);
        // Every view is read from the state line its seat was sent.
        for (view, viewer) in [(0, None), (1, Some(First)), (2, Some(Second))] {
            let sent = parse(&g.state_line(viewer));
            for y in 0..16 {
                for x in 0..16 {
                    let cell = sent["board"][y][x].as_str().unwrap();
                    let shown = at(view, x, y) != b'.';
                    assert_eq!(cell.len() > 1, shown, "view {view} at [{x}, {y}]: {cell}");
                }
            }
        }
        assert_eq!(notes[0], "red (Lisa) to move");
        assert_eq!(notes[1], "turn 2 of 200");
        assert_eq!(notes[2], "red (Lisa): 4 moves in hand");
        assert_eq!(notes[3], "blue (Bart): 4 moves in hand");
    }

    fn named_spaces(entry: &Value) -> Vec<Pos> {
        let a = entry.as_array().unwrap();
        let n = |i: usize| a[i].as_u64().map(|v| v as u8);
        let pair = |i: usize| match (n(i), n(i + 1)) {
            (Some(x), Some(y)) => Some(Pos::new(x, y)),
            (None, None) => None,
            _ => panic!("half a space in {entry}"),
        };
        match a[0].as_str().unwrap() {
            "move" => pair(1).into_iter().chain(pair(3)).collect(),
            "make" | "fire" | "hit" => pair(1).into_iter().collect(),
            "camo" | "pass" | "hidden" => vec![],
            other => panic!("unknown entry {other}"),
        }
    }

    /// Random games between the built-in bots: no line sent to a seat names a space where an
    /// opponent piece lies under camo, each state is exactly the seat's view, and the `over`
    /// log rebuilds the final board.
    #[test]
    fn nothing_under_camo_leaks_and_the_log_rebuilds_the_game() {
        let mut hidden_seen = 0;
        for seed in 0..40u64 {
            let mut g = game(120);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let names = [["random", "greedy"][seed as usize % 2], "random"];
            let mut out = Outbox::default();
            g.start(&mut out);
            let mut over = None;
            while g.awaiting() != [false, false] {
                let seat = Side::BOTH.into_iter().find(|&s| g.awaiting()[s]).unwrap();
                let l = g.builtin_line(seat, names[seat], &mut rng);
                out.now_ms += 1500;
                assert_eq!(g.on_line(seat, &l, &mut out), Ok(Step::Done), "{l}");
                let truth = g.board().clone();
                for m in out.take() {
                    let (viewer, text) = match &m {
                        Msg::To(s, t) => (Side::of(*s), t),
                        Msg::Spectators(t) => (None, t),
                        Msg::Pause(_) => continue,
                    };
                    let v = parse(text);
                    match (v["msg"].as_str().unwrap(), viewer) {
                        ("state", _) => {
                            assert_eq!(v["board"], json!(truth.rows(viewer)));
                            if let Some(s) = viewer {
                                for p in Pos::all() {
                                    if truth.hides(s.other(), p) {
                                        hidden_seen += 1;
                                        assert_eq!(v["board"][p.y as usize][p.x as usize], "#");
                                    }
                                }
                            }
                        }
                        ("moved", Some(s)) => {
                            for entry in v["moves"].as_array().unwrap() {
                                for p in named_spaces(entry) {
                                    assert!(
                                        !truth.hides(s.other(), p),
                                        "seed {seed}: {entry} names {p}, hidden from seat {s:?}"
                                    );
                                }
                            }
                        }
                        ("over", Some(First)) => over = Some(v),
                        _ => {}
                    }
                }
            }
            // Rebuild the board from the log.
            let over = over.expect("an over message");
            let mut board = rules::Board::start();
            for e in over["log"].as_array().unwrap() {
                if e["event"] != "move" {
                    continue;
                }
                let seat = if e["id"] == "u-1" { First } else { Second };
                let action = parse_action(&e["move"]).expect("a logged action parses");
                let (effect, _) = board.apply(seat, action).expect("a logged action is legal");
                let _: Effect = effect;
            }
            assert_eq!(&board, g.board(), "seed {seed}: the log rebuilds the board");
            assert_eq!(
                over["log"].as_array().unwrap().last().unwrap()["event"],
                "over"
            );
            let won = &over["results"]["won"];
            match g.outcome().unwrap().winner() {
                Some(First) => assert_eq!(won, "u-1"),
                Some(Second) => assert_eq!(won, "u-2"),
                None => assert_eq!(won, &Value::Null),
            }
        }
        assert!(hidden_seen > 100, "the games hid something ({hidden_seen})");
    }
}
