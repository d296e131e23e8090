//! Games whose rules run in a program of their own: a referee program speaking
//! cg-brutaltester's "old mode" protocol (its `OldGameThread`), so that the referees written for
//! CodinGame's contest games run under arena unchanged.
//!
//! arena writes `###Seed N` and `###Start P` to the referee, then reads its lines:
//! `###Input i` and the lines up to the next `###` line go to player i; `###Output i n` asks
//! player i for n lines, which go back to the referee; `###Error i text` notes a player's error;
//! `###End r1 r2 ...` ends the game with the players' ranks.
//!
//! This is the protocol side, a [`Game`] like any other ([`ProgramGame`]): a state machine over
//! lines that never does I/O. The one referee loop hears the players as for every game, and hears
//! the referee program (started by `referee::program`) whenever the game
//! [wants it](ProgramGame::wants_referee), so deadlines, freezing, logs and failures are the
//! loop's own. A log holds the referee's lines too: replaying them through this state machine
//! rebuilds the game without the program.

use rand_chacha::ChaCha8Rng;

use crate::games::picture::{Board, Picture};
use crate::games::{Game, GameInfo, Outbox, ParamKind, ParamSpec, Params, Places, Ranking, Seat, Seating, Seats, Step};
use crate::failure::{Fault, Framing, Reason};

/// The most lines one `###Output` may ask a player for: far beyond any contest game's turn, and
/// a bound on what a broken referee can make arena wait for.
pub const MAX_OUTPUT_LINES: u32 = 10_000;

/// The pseudo-game every referee game is recorded as: `arena games referee` describes the
/// protocol, logs and tables name it. Not in `games::ALL`: it has no rules of its own to run
/// the registry's suites on.
pub static INFO: GameInfo = GameInfo {
    name: "referee",
    players: 2..=crate::games::MAX_SEATS,
    summary: "any game, played by a referee program over cg-brutaltester's protocol",
    description: include_str!("description.md"),
    params: &[
        ParamSpec {
            name: "protocol",
            help: "`old`: cg-brutaltester's old mode (`###Start`), arena asks the referee; `sdk`: \
                   a CodinGame game-engine SDK referee's command-line front end, which starts \
                   its players itself (`-p1 CMD -p2 CMD`) and prints their scores: arena gives \
                   it a seat relay per player (`[referee] protocol`, `--referee-protocol`)",
            kind: ParamKind::Choice {
                default: "old",
                choices: &["old", "sdk"],
                before: "old",
            },
        },
        ParamSpec {
            name: "seed",
            help: "`send` gives the referee the game's seed (old mode: `###Seed N` before \
                   `###Start`; SDK: the arguments of `seed_form`); `omit` gives none, for \
                   referees that take no seed (cg-brutaltester sends one only with -s or -i)",
            kind: ParamKind::Choice {
                default: "send",
                choices: &["send", "omit"],
                before: "send",
            },
        },
        ParamSpec {
            name: "seed_form",
            help: "SDK referees: the arguments that give the seed, `{seed}` standing for it \
                   (cg-brutaltester's form by default; some front ends take `-seed {seed}`)",
            kind: ParamKind::Text {
                default: "-d seed={seed}",
            },
        },
    ],
    builtins: &[],
    timeout: 1.0,
    startup_timeout: 10.0,
    framing: Framing::Lines,
    create,
    fuzz_line: |_, _| String::new(),
    positions: None,
    example_bots: "bots/referee",
    short_game: &[],
};

/// The SDK's own seconds per move and for the first (`turnMaxTime`, `firstTurnMaxTime`), which
/// an SDK referee keeps itself (`protocol = "sdk"`).
pub const SDK_TIMES: (f64, f64) = (0.05, 1.0);

/// The game's seed as an SDK referee takes it: a Java `long`, never negative (a front end may
/// read `-seed -5` as an option).
pub fn java_seed(seed: u64) -> i64 {
    (seed & i64::MAX as u64) as i64
}

/// The arguments that give the referee its seed, from the `seed_form` parameter (`{seed}`
/// stands for the number); none when the seed is not sent.
pub fn seed_args(form: &str, send: bool, seed: u64) -> Result<Vec<String>, String> {
    if !send || form.trim().is_empty() {
        return Ok(Vec::new());
    }
    let text = form.replace("{seed}", &java_seed(seed).to_string());
    shell_words::split(&text).map_err(|e| format!("seed_form '{form}': {e}"))
}

fn create(params: &Params, seating: &Seating) -> Result<Box<dyn Game>, String> {
    let mut game = ProgramGame::new(seating);
    game.send_seed = params.text("seed") == "send";
    Ok(Box::new(game))
}

/// Whether an SDK referee's seed form can be used: checked where a spec's or the command
/// line's parameters are read (`GameInfo::resolve_params`), so that a form that cannot be read
/// is refused before the first game rather than found as each game's failure to start; a log's
/// parameters are taken as they were played.
pub fn check_seed_form(params: &Params) -> Result<(), String> {
    if params.text("protocol") != "sdk" || params.text("seed") != "send" {
        return Ok(());
    }
    let form = params.text("seed_form");
    seed_args(form, true, 0)?;
    match form.contains("{seed}") {
        true => Ok(()),
        false => Err(format!(
            "seed_form '{form}' has no {{seed}}: the referee would not be given the game's seed \
             (seed = \"omit\" gives none)"
        )),
    }
}

/// One line of the referee program, read as cg-brutaltester reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `###Input i`: the lines up to the next `###` line are for player i.
    Input(Seat),
    /// `###Output i n`: read n lines from player i.
    Output(Seat, u32),
    /// `###Error i text`: player i made an error.
    Error(Seat, String),
    /// `###End g1 g2 ...`: each player's rank, 0 the best (equal ranks tie).
    End(Vec<usize>),
}

/// The seat a digit names in a game of `players`, if it has it.
fn seat_of(c: char, players: usize) -> Option<Seat> {
    c.to_digit(10)
        .map(|d| d as usize)
        .filter(|&d| d < players)
        .and_then(Seat::new)
}

/// The players there are, as messages list them: `0 or 1`, `0 to 3`.
fn players_text(players: usize) -> String {
    match players {
        2 => "0 or 1".into(),
        n => format!("0 to {}", n - 1),
    }
}

/// The player numbered by the character at `at` (cg-brutaltester reads one character there).
fn player_at(line: &str, at: usize, players: usize) -> Result<Seat, String> {
    // `get`: a referee's line may hold any character, and `at` may fall inside one.
    let c = line.get(at..).and_then(|rest| rest.chars().next());
    c.and_then(|c| seat_of(c, players)).ok_or_else(|| {
        format!(
            "'{}' names no player: the character after the command must be {}",
            crate::failure::head(line, 80),
            players_text(players)
        )
    })
}

/// Read a line that starts with `###`, in a game of `players`. cg-brutaltester matches the
/// commands by prefix, reads the player of `###Input` and `###Error` from the 10th character
/// and splits `###Output` and `###End` on single spaces; so does this.
pub fn parse(line: &str, players: usize) -> Result<Command, String> {
    if line.starts_with("###End") {
        return ranks(line, players).map(Command::End);
    }
    if line.starts_with("###Input") {
        return player_at(line, 9, players).map(Command::Input);
    }
    if line.starts_with("###Error") {
        let seat = player_at(line, 9, players)?;
        let text = line.get(10..).unwrap_or("").trim().to_string();
        return Ok(Command::Error(seat, text));
    }
    if line.starts_with("###Output") {
        let parts: Vec<&str> = line.split(' ').collect();
        let bad = || {
            format!(
                "'{}' is not '###Output PLAYER LINES' (such as '###Output 0 1')",
                crate::failure::head(line, 80)
            )
        };
        let (Some(player), Some(count)) = (parts.get(1), parts.get(2)) else {
            return Err(bad());
        };
        let seat = player
            .parse::<usize>()
            .ok()
            .filter(|&i| i < players)
            .and_then(Seat::new)
            .ok_or_else(bad)?;
        let n = count.parse::<u32>().map_err(|_| bad())?;
        if n > MAX_OUTPUT_LINES {
            return Err(format!(
                "'{line}' asks for more than {MAX_OUTPUT_LINES} lines at once"
            ));
        }
        return Ok(Command::Output(seat, n));
    }
    Err(format!(
        "'{}' is not a command (###Input, ###Output, ###Error or ###End)",
        crate::failure::head(line, 80)
    ))
}

/// `###End` and its groups: each group holds the digits of the players at that rank, best
/// first; a group is any text between two single spaces (so two spaces make an empty group, a
/// rank no one holds). With two players, as cg-brutaltester counts them (and as arena always
/// read them), a player no group names has rank 0. With more, a player left out, or named
/// twice, is the referee's error: a ranking of some of the players ranks no one.
fn ranks(line: &str, players: usize) -> Result<Vec<usize>, String> {
    let shown = || crate::failure::head(line, 80).to_string();
    let mut ranks: Vec<Option<usize>> = vec![None; players];
    for (rank, group) in line.split(' ').skip(1).enumerate() {
        for c in group.chars() {
            let seat = seat_of(c, players).ok_or_else(|| {
                format!(
                    "'{}': '{c}' is not a player ({})",
                    shown(),
                    players_text(players)
                )
            })?;
            if ranks[seat].replace(rank).is_some() && players > 2 {
                return Err(format!("'{}' ranks player {seat} twice", shown()));
            }
        }
    }
    if players > 2
        && let Some(left) = ranks.iter().position(Option::is_none)
    {
        return Err(format!(
            "'{}' leaves player {left} out: every player must be ranked",
            shown()
        ));
    }
    Ok(ranks.into_iter().map(|r| r.unwrap_or(0)).collect())
}

/// What the referee program is doing, as far as the game can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Its next line is due; inside an `###Input` block, for that seat.
    Referee { input: Option<Seat> },
    /// It waits for `left` more lines of `seat`'s.
    Player { seat: Seat, left: u32 },
    /// It ended the game, or a player failed and it will not be heard again.
    Over,
}

/// A referee game as the referee loop drives it: the protocol's state, the lines for the program,
/// and the conversation so far for the viewer.
pub struct ProgramGame {
    /// One per seat: as many as the game has players.
    names: Vec<String>,
    seed: u64,
    /// Whether the referee is told the seed (`###Seed`) before `###Start`.
    send_seed: bool,
    state: State,
    /// Lines for the referee program, to be written before it is next heard.
    to_referee: Vec<String>,
    ranks: Option<Vec<usize>>,
    /// Each `###Error` the referee reported, by seat, in order.
    errors: Vec<(Seat, String)>,
    /// Player turns completed (`###Output`s answered in full).
    plies: u32,
    /// Lines heard so far in either direction, the last one for the viewer.
    step: u32,
    last: Option<(String, String)>,
}

impl ProgramGame {
    pub fn new(seating: &Seating) -> ProgramGame {
        ProgramGame {
            names: seating.names.clone(),
            seed: seating.seed,
            send_seed: true,
            state: State::Referee { input: None },
            to_referee: Vec::new(),
            ranks: None,
            errors: Vec::new(),
            plies: 0,
            step: 0,
            last: None,
        }
    }

    /// The seed as the referee is told it: cg-brutaltester's seeds are Java ints from 0 to
    /// 2^31 - 2, and referees parse them as such.
    pub fn referee_seed(seed: u64) -> u64 {
        seed % (i32::MAX as u64)
    }

    /// Whether the game cannot go on until the referee program is heard.
    pub fn wants_referee(&self) -> bool {
        matches!(self.state, State::Referee { .. })
    }

    /// The lines to write to the referee program before it is heard next.
    pub fn take_for_referee(&mut self) -> Vec<String> {
        std::mem::take(&mut self.to_referee)
    }

    /// The errors the referee reported, by seat.
    pub fn errors(&self) -> &[(Seat, String)] {
        &self.errors
    }

    fn heard(&mut self, from: String, line: &str) {
        self.step += 1;
        self.last = Some((from, line.to_string()));
    }

    /// A line of the referee program's; an error says how it broke the protocol.
    pub fn on_referee_line(&mut self, line: &str, out: &mut Outbox) -> Result<(), String> {
        let State::Referee { input } = self.state else {
            return Err(format!(
                "the referee wrote '{}' while it was not its turn",
                crate::failure::head(line, 80)
            ));
        };
        if !line.starts_with("###") {
            let Some(seat) = input else {
                return Err(format!(
                    "'{}' is neither a command nor inside an ###Input block",
                    crate::failure::head(line, 80)
                ));
            };
            self.heard(format!("referee → {}", self.names[seat]), line);
            out.to(seat, line);
            return Ok(());
        }
        self.heard("referee".into(), line);
        self.state = match parse(line, self.names.len())? {
            Command::Input(seat) => State::Referee { input: Some(seat) },
            Command::Output(_, 0) => State::Referee { input: None },
            Command::Output(seat, n) => State::Player { seat, left: n },
            Command::Error(seat, text) => {
                self.errors.push((seat, text));
                State::Referee { input: None }
            }
            Command::End(ranks) => {
                self.ranks = Some(ranks);
                State::Over
            }
        };
        Ok(())
    }
}

impl Game for ProgramGame {
    fn start(&mut self, _: &mut Outbox) {
        if self.send_seed {
            let seed = Self::referee_seed(self.seed);
            self.to_referee.push(format!("###Seed {seed}"));
        }
        self.to_referee
            .push(format!("###Start {}", self.names.len()));
    }

    fn awaiting(&self) -> Seats {
        match self.state {
            State::Player { seat, .. } => Seats::only(seat),
            _ => Seats::NONE,
        }
    }

    fn on_line(&mut self, seat: Seat, line: &str, _: &mut Outbox) -> Result<Step, Fault> {
        // The loop gives lines only from an awaited seat; an edited log may give any.
        let left = match self.state {
            State::Player { seat: asked, left } if asked == seat => left,
            _ => return Err(Fault::protocol("sent a line the referee did not ask for")),
        };
        self.heard(self.names[seat].clone(), line);
        self.to_referee.push(line.to_string());
        if left > 1 {
            self.state = State::Player {
                seat,
                left: left - 1,
            };
            return Ok(Step::More);
        }
        self.plies += 1;
        self.state = State::Referee { input: None };
        Ok(Step::Done)
    }

    fn on_fault(&mut self, _: Seat, _: &Fault, _: &mut Outbox) {
        // The player's failure decides the game; the referee is closed, not asked.
        self.state = State::Over;
    }

    fn outcome(&self) -> Option<Ranking> {
        let ranks = self.ranks.as_ref()?;
        let places = Places::by_key(ranks);
        let all_tied = ranks.iter().all(|&r| r == ranks[0]);
        Some(Ranking {
            places,
            reason: if all_tied {
                Reason::Draw
            } else {
                Reason::Normal
            },
        })
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    fn builtin_line(&self, _: Seat, _: &str, _: &mut ChaCha8Rng) -> String {
        unreachable!("a referee game has no built-in bots")
    }

    /// The conversation as a table the viewer grows line by line.
    fn picture(&self) -> Picture {
        let row = self
            .last
            .as_ref()
            .map(|(from, line)| vec![self.step.to_string(), from.clone(), line.clone()]);
        let mut notes = vec![format!("{} turns played", self.plies)];
        notes.extend(
            self.errors
                .iter()
                .map(|(seat, text)| format!("###Error for {}: {text}", self.names[*seat])),
        );
        Picture {
            board: Board::Table {
                columns: vec!["line".into(), "from".into(), "text".into()],
                row,
            },
            notes,
        }
    }

    fn program(&mut self) -> Option<&mut ProgramGame> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Msg, Side};

    #[test]
    fn a_seed_form_is_checked_where_parameters_are_given_not_where_a_log_is_read() {
        let given = |form: &'static str| [("protocol", "sdk"), ("seed_form", form)];
        for (form, says) in [("-d \"seed={seed}", "quote"), ("", "has no {seed}")] {
            let e = INFO.resolve_params(given(form)).unwrap_err();
            assert!(e.contains(says), "{form}: {e}");
            // A log written before the check plays on as it was played.
            let params = Params::resolve(INFO.params, given(form)).unwrap();
            let seating = Seating {
                names: vec!["a".into(), "b".into()],
                seed: 1,
                timeout: 1.0,
                opening: None,
            };
            assert!(INFO.new_game(&params, &seating).is_ok(), "{form}");
        }
        assert!(INFO.resolve_params(given("-seed {seed}")).is_ok());
        assert!(INFO.resolve_params([("protocol", "sdk"), ("seed", "omit"), ("seed_form", "")]).is_ok());
        assert_eq!(
            seed_args("-d seed={seed}", true, u64::MAX).unwrap(),
            ["-d", &format!("seed={}", i64::MAX)]
        );
    }

    #[test]
    fn commands_are_read_as_cg_brutaltester_reads_them() {
        assert_eq!(parse("###Input 0", 2), Ok(Command::Input(Seat::FIRST)));
        assert_eq!(
            parse("###Input 1 extra", 2),
            Ok(Command::Input(Seat::SECOND))
        );
        assert_eq!(
            parse("###Output 1 3", 2),
            Ok(Command::Output(Seat::SECOND, 3))
        );
        assert_eq!(
            parse("###Output 0 0", 2),
            Ok(Command::Output(Seat::FIRST, 0))
        );
        assert_eq!(
            parse("###Error 1 wrong move", 2),
            Ok(Command::Error(Seat::SECOND, "wrong move".into()))
        );
        assert_eq!(
            parse("###Error 0", 2),
            Ok(Command::Error(Seat::FIRST, String::new()))
        );
        assert_eq!(parse("###End 0 1", 2), Ok(Command::End(vec![0, 1])));
        assert_eq!(parse("###End 1 0", 2), Ok(Command::End(vec![1, 0])));
        assert_eq!(parse("###End 01", 2), Ok(Command::End(vec![0, 0])));
        assert_eq!(parse("###End 10", 2), Ok(Command::End(vec![0, 0])));
        // A player no group names has rank 0, as in cg-brutaltester: here, a draw.
        assert_eq!(parse("###End 1", 2), Ok(Command::End(vec![0, 0])));
        assert_eq!(parse("###End", 2), Ok(Command::End(vec![0, 0])));
        // Two spaces: an empty group between them, a rank nobody holds.
        assert_eq!(parse("###End 1  0", 2), Ok(Command::End(vec![2, 0])));
    }

    #[test]
    fn malformed_commands_are_refused_with_the_line() {
        for (line, says) in [
            ("###Input", "names no player"),
            ("###Input 2", "names no player"),
            ("###Input x", "names no player"),
            ("###Inputé0", "names no player"),
            ("###Error 7 oops", "names no player"),
            ("###Output 0", "is not '###Output PLAYER LINES'"),
            ("###Output 2 1", "is not '###Output PLAYER LINES'"),
            ("###Output 0 -1", "is not '###Output PLAYER LINES'"),
            ("###Output 0 x", "is not '###Output PLAYER LINES'"),
            ("###Output  0 1", "is not '###Output PLAYER LINES'"),
            ("###Output 0 99999", "more than 10000 lines"),
            ("###End 0 2", "'2' is not a player"),
            ("###End a", "'a' is not a player"),
            ("###Frobnicate", "is not a command"),
        ] {
            let err = parse(line, 2).expect_err(line);
            assert!(err.contains(says), "{line}: {err}");
        }
    }

    fn game() -> ProgramGame {
        let mut g = ProgramGame::new(&Seating {
            names: vec!["ann".into(), "bob".into()],
            seed: u64::MAX,
            timeout: 1.0,
            opening: None,
        });
        g.start(&mut Outbox::default());
        g
    }

    fn feed(g: &mut ProgramGame, lines: &[&str]) -> Vec<Msg> {
        let mut out = Outbox::default();
        for l in lines {
            g.on_referee_line(l, &mut out).unwrap();
        }
        out.take()
    }

    #[test]
    fn a_game_goes_through_inputs_outputs_and_ranks() {
        let mut g = game();
        assert!(g.wants_referee());
        let seed = u64::MAX % (i32::MAX as u64);
        assert_eq!(
            g.take_for_referee(),
            [format!("###Seed {seed}"), "###Start 2".to_string()]
        );
        let sent = feed(&mut g, &["###Input 0", "7", "a b", "###Input 1", "x"]);
        assert_eq!(
            sent,
            [
                Msg::To(Seat::FIRST, "7".into()),
                Msg::To(Seat::FIRST, "a b".into()),
                Msg::To(Seat::SECOND, "x".into())
            ]
        );
        assert!(g.wants_referee());
        feed(&mut g, &["###Output 0 2"]);
        assert_eq!(g.awaiting(), Seats::only(Seat::FIRST));
        assert!(!g.wants_referee());
        let mut out = Outbox::default();
        assert_eq!(g.on_line(Seat::FIRST, "3", &mut out), Ok(Step::More));
        assert_eq!(g.awaiting(), Seats::only(Seat::FIRST));
        assert_eq!(g.on_line(Seat::FIRST, "4", &mut out), Ok(Step::Done));
        assert_eq!(g.take_for_referee(), ["3", "4"]);
        assert_eq!(g.plies(), 1);
        feed(
            &mut g,
            &["###Error 1 too slow", "###Output 1 0", "###End 1 0"],
        );
        assert_eq!(g.awaiting(), Seats::NONE);
        assert!(!g.wants_referee());
        assert_eq!(
            g.outcome(),
            Some(Ranking::from(crate::games::Outcome::Won(Side::Second)))
        );
        assert_eq!(g.errors(), [(Seat::SECOND, "too slow".to_string())]);
        let picture = g.picture();
        assert_eq!(picture.check(), Ok(()));
        assert!(picture.notes.iter().any(|n| n.contains("too slow")));
    }

    #[test]
    fn the_seed_can_be_left_out_for_referees_that_read_none() {
        let seating = Seating {
            names: vec!["a".into(), "b".into()],
            seed: 7,
            timeout: 1.0,
            opening: None,
        };
        for (given, first) in [
            (vec![], "###Seed 7"),
            (vec![("seed", "omit")], "###Start 2"),
        ] {
            let params = Params::resolve(INFO.params, given).unwrap();
            let mut game = INFO.new_game(&params, &seating).unwrap();
            game.start(&mut Outbox::default());
            let lines = game.program().unwrap().take_for_referee();
            assert_eq!(lines[0], first);
            assert_eq!(lines.last().unwrap(), "###Start 2");
        }
    }

    /// Whatever a referee and the players write, in any order the loop can give it, the game
    /// refuses or follows it without a panic, waits for at most one party at a time, and an
    /// ended game waits for no one.
    #[test]
    fn random_conversations_never_confuse_the_game() {
        use rand::SeedableRng;
        use rand::seq::IndexedRandom;
        let lines = [
            "###Input 0",
            "###Input 1",
            "###Input 2",
            "###Output 0 1",
            "###Output 1 2",
            "###Output 1 0",
            "###Output 0",
            "###Error 1 bad",
            "###End 0 1",
            "###End 01",
            "###End 9",
            "###",
            "#",
            "",
            "5",
            "é",
            "###Inputé0",
            "###Output 0 é",
        ];
        for seed in 0..500 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut g = game();
            let mut out = Outbox::default();
            for _ in 0..40 {
                let line = lines.choose(&mut rng).unwrap();
                let awaited = g.awaiting().len();
                assert!(awaited <= 1);
                assert!(!(g.wants_referee() && awaited == 1));
                if g.wants_referee() {
                    if g.on_referee_line(line, &mut out).is_err() {
                        break;
                    }
                } else if let Some(seat) = g.awaiting().iter().next() {
                    g.on_line(seat, line, &mut out).unwrap();
                } else {
                    assert!(g.outcome().is_some(), "seed {seed}: stuck without an end");
                    break;
                }
            }
            assert_eq!(g.picture().check(), Ok(()));
        }
    }

    #[test]
    fn a_line_nobody_asked_for_is_refused() {
        let mut g = game();
        let mut out = Outbox::default();
        assert!(g.on_line(Seat::FIRST, "1", &mut out).is_err());
        feed(&mut g, &["###Output 1 1"]);
        assert!(g.on_line(Seat::FIRST, "1", &mut out).is_err());
        assert_eq!(g.on_line(Seat::SECOND, "1", &mut out), Ok(Step::Done));
    }

    #[test]
    fn equal_ranks_are_a_draw() {
        let mut g = game();
        feed(&mut g, &["###End 01"]);
        assert_eq!(
            g.outcome(),
            Some(Ranking::from(crate::games::Outcome::Drawn(
                crate::games::Draw::Rules
            )))
        );
    }

    #[test]
    fn a_referee_breaking_the_protocol_is_told_why() {
        let mut g = game();
        let mut out = Outbox::default();
        let err = g.on_referee_line("hello", &mut out).unwrap_err();
        assert!(
            err.contains("neither a command nor inside an ###Input"),
            "{err}"
        );
        let mut g = game();
        feed(&mut g, &["###Output 0 1"]);
        let err = g.on_referee_line("###End 0 1", &mut out).unwrap_err();
        assert!(err.contains("not its turn"), "{err}");
    }

    #[test]
    fn a_player_failing_ends_the_conversation() {
        let mut g = game();
        feed(&mut g, &["###Output 1 1"]);
        g.on_fault(
            Seat::SECOND,
            &Fault::new(crate::failure::FaultKind::Timeout, "late"),
            &mut Outbox::default(),
        );
        assert!(!g.wants_referee());
        assert_eq!(g.awaiting(), Seats::NONE);
        assert_eq!(g.outcome(), None);
    }
}
